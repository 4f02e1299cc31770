"""Guess the next move on the simulated board (host_tools/teach/guess.py): a recorded game's other side
lit to place, the student's right guesses scored, a wrong one taken back and the record's move shown
until it is placed; the board's record ends as the recorded game.
"""

import random

from firmware.rules.coords import parse_vertex, vertex
from firmware.rules.history import move_point
from host_tools import sgf
from host_tools.play.board import Board
from host_tools.play.sim import Moves, SimTable
from host_tools.teach.guess import Guess

RECORD = b"(;FF[4]GM[1]SZ[9]KM[7];B[ee];W[cc];B[gc];W[cg];B[gg];W[ec])"


def test_right_guesses_score_and_a_wrong_one_is_shown_the_record_move():
    record = sgf.read(RECORD)
    student = [(1, parse_vertex(9, v)) for v in ("E5", "G7", "A1")]  # right, right, wrong (the record: G3)
    table = SimTable(3, Moves(student, random.Random(3)), slip=0.0)
    said = []
    right, asked = Guess(Board(table.port, table), record, 1, say=said.append, patience_s=60).run()
    assert (right, asked) == (2, 3)
    assert "move 5: not A1; the record played G3" in said and said[-1] == "guessed 2 of 3 at the first try"
    game = table.sim.app.game
    hist = game.hist
    assert [vertex(9, move_point(hist.moves[k])) for k in range(1, hist.length)] == ["E5", "C7", "G7", "C3", "G3", "E7"]


def test_a_handicap_games_record_is_set_up_and_white_moves_first():
    record = sgf.read(b"(;FF[4]GM[1]SZ[9]HA[2]AB[cg][gc];W[ee];B[cc];W[gg])")  # Black C3 G7
    table = SimTable(1, Moves([(1, parse_vertex(9, "C7"))], random.Random(1)), slip=0.0)
    right, asked = Guess(Board(table.port, table), record, 1, say=lambda _words: None, patience_s=60).run()
    assert (right, asked) == (1, 1)
    game = table.sim.app.game
    assert sorted(game.setup_stones[0]) == sorted(parse_vertex(9, v) for v in ("C3", "G7"))
    hist = game.hist
    assert [vertex(9, move_point(hist.moves[k])) for k in range(1, hist.length)] == ["E5", "C7", "G3"]
