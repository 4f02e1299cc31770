"""Teaching on the board: the problem course (course/*.sgf), read and judged (problem.py), made and checked."""
