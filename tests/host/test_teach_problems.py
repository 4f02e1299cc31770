"""Problems solved on the simulated board (host_tools/teach/solving.py), by a simulated student
whose hands follow the LEDs and who uses the clock button and MENU as the board's controls."""

import json
import random

import pytest

from host_tools.play.board import Board
from host_tools.play.sim import SimTable
from host_tools.teach.__main__ import main
from host_tools.teach.course import course_files
from host_tools.teach.problem import load_problems
from host_tools.teach.solving import Progress, Solving
from host_tools.teach.student import BACK, RIGHT, SKIP, WRONG, Script, Student


def session(tmp_path, plan, slip=0.0, count=3, seed=1):
    problems = load_problems(course_files()[:count])
    student = Student(problems, random.Random(seed), plan, wrong=0)
    table = SimTable(seed, student, slip)
    board = Board(table.port, table)
    said = []
    solving = Solving(board, problems, Progress(tmp_path / "progress.json"), said.append, patience_s=120)
    return solving, student, table, said


def shown(table):
    return table.sim.hw.display.shown


def test_right_then_wrong_and_tried_again_with_set_up_stones_first_put_on_wrong_points(tmp_path):
    solving, student, table, said = session(tmp_path, [RIGHT, WRONG, RIGHT, RIGHT], slip=1.0)
    assert solving.run() == 3
    titles = [p.title for p in solving.problems]
    assert student.tries == [(titles[0], RIGHT), (titles[1], WRONG), (titles[1], RIGHT), (titles[2], RIGHT)]
    # Every White stone of the positions and every reply was first put on a neighbouring point:
    # the board lit it to lift and the right point to place, and the hands followed.
    assert table.hands.corrections >= 3
    words = shown(table)
    for expected in ("PROBLEM 1 OF 3 / BLACK TO PLAY", "RIGHT! / CLOCK: NEXT", "WRONG / MENU: AGAIN",
                     "ALL DONE / 3 OF 3 RIGHT"):
        assert expected in words, words
    assert said[1].startswith("right: RIGHT") and "again from the start" in said
    progress = json.loads((tmp_path / "progress.json").read_text())
    assert progress["solved"] == titles and progress["tries"] == {titles[0]: 1, titles[1]: 2, titles[2]: 1}
    # Each try is a game of the board's own: the position as set-up stones, ended Void.
    games = [g for g in solving.board.games.games.values() if any(g.setup)]
    assert len(games) == 4 and all(g.result == "Void" for g in games[:-1])
    first = solving.problems[0]
    assert games[0].setup == (first.black, first.white)
    assert [pt for _c, pt, *_ in games[0].moves][:1] == [first.root.children[0].point]


def test_skip_and_back_and_the_progress_resumes_where_the_student_was(tmp_path):
    solving, student, _table, said = session(tmp_path, [SKIP, BACK, RIGHT], count=3)
    solving.run(limit=3)
    titles = [p.title for p in solving.problems]
    assert [title for title, _i in student.tries] == [titles[0], titles[1], titles[0]]
    assert "skipped" in said and "to the previous problem" in said
    progress = json.loads((tmp_path / "progress.json").read_text())
    assert progress["solved"] == [titles[0]] and progress["at"] == titles[1]
    again, student, _table, _said = session(tmp_path, [RIGHT, RIGHT], count=3, seed=2)
    again.run(limit=1)
    assert student.tries == [(titles[1], RIGHT)]


def test_a_file_that_is_not_a_problem_is_named(tmp_path):
    bad = tmp_path / "mine.sgf"
    bad.write_bytes(b"(;FF[4]SZ[9];B[ee])")
    with pytest.raises(ValueError, match="mine.sgf"):
        load_problems([tmp_path])
    with pytest.raises(ValueError, match="is not one"):
        (tmp_path / "p.json").write_text("[1, 2]")
        Progress(tmp_path / "p.json")


def test_the_command_line_runs_a_teachers_folder_on_the_simulated_board(tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    for path in course_files()[40:42]:
        (folder / path.name).write_bytes(path.read_bytes())
    progress = tmp_path / "ann.json"
    assert main(["problems", str(folder), "--progress", str(progress), "--wrong", "0", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "problem 1 of 2" in out and "2 of 2 problems solved" in out
    assert len(json.loads(progress.read_text())["solved"]) == 2
    assert main(["problems", str(tmp_path / "none")]) == 1


def test_a_stone_after_the_end_is_taken_back_and_the_clock_button_still_goes_on(tmp_path):
    problems = load_problems(course_files()[:2])
    table = SimTable(1, Script(["E6", "A9", "clock"]))  # problem 1's answer, a stray stone, the clock
    said = []
    solving = Solving(Board(table.port, table), problems, Progress(tmp_path / "p.json"), said.append, patience_s=60)
    solving.run(limit=1)
    assert said[1].startswith("right:") and said[2] == "to the next problem"
    from firmware.rules.coords import PASS, parse_vertex

    game = solving.board.games.games[max(solving.board.games.games)]
    # The answer, the host's pass for White (the clock button the student's), no A9: it was taken
    # back, lit to lift and lifted before the press.
    assert [pt for _c, pt, *_ in game.moves] == [parse_vertex(9, "E6"), PASS]
    assert not table.sim.hw.stones.colour[table.sim.physical(parse_vertex(9, "A9"))]
    assert json.loads((tmp_path / "p.json").read_text())["at"] == problems[1].title
