"""Lessons walked through on the simulated board (host_tools/teach/lessons.py): instructions on the
display, positions on the LEDs, a wrong answer tried again by itself, capture Go to its first capture."""

import random

import pytest

from host_tools.play.board import Board
from host_tools.play.sim import SimTable
from host_tools.teach.__main__ import main
from host_tools.teach.lessons import LESSONS, Teaching, course_problem
from host_tools.teach.student import RIGHT, WRONG, Student


def teaching(plan, seed=1):
    problems = [course_problem(s.problem) for lesson in LESSONS for s in lesson.steps if s.problem]
    student = Student(problems, random.Random(seed), plan, wrong=0)
    table = SimTable(seed, student)
    said = []
    return Teaching(Board(table.port, table), said.append, patience_s=120), student, table, said


def test_every_lesson_names_course_problems_and_fits_the_display():
    for lesson in LESSONS:
        for step in lesson.steps:
            assert len(step.short) <= 16 and (step.capture_go or course_problem(step.problem))


def test_lesson_one_walked_through_with_a_wrong_answer_tried_again():
    lesson, student, table, said = teaching([RIGHT, WRONG, RIGHT, RIGHT, RIGHT])
    lesson.run(1)
    steps = [s.problem for s in LESSONS[0].steps]
    assert [title for title, _intent in student.tries] == [
        course_problem(name).title for name in (steps[0], steps[1], steps[1], steps[2], steps[3])]
    shown = table.sim.hw.display.shown
    for words in ("LESSON 1 STEP 1 / CAPTURE IT", "NOT YET / TRY AGAIN", "RIGHT! / WELL DONE",
                  "LESSON 1 STEP 4 / TWO STONES", "LESSON 1 / DONE!"):
        assert words in shown, shown
    assert said[0] == "lesson 1: What a capture is" and said[-1] == "lesson 1 done"
    assert any(line.startswith("step 2 of 4: On the side") for line in said)


def test_capture_go_ends_at_the_first_capture_and_says_who_won():
    lesson, _student, table, said = teaching([], seed=3)
    lesson.run(2)
    game = table.sim.app.game
    assert game.size == 7 and game.result is not None and game.result.sgf() in ("B+", "W+")
    assert sum(game.captures[1:]) >= 1
    winner = "Black" if game.result.winner == 1 else "White"
    assert f"{winner} wins at capture Go, the first to capture 1 stone" in said
    shown = table.sim.hw.display.shown
    assert "LESSON 2 STEP 1 / FIRST CAPTURE" in shown and winner.upper() + " WINS / FIRST CAPTURES" in shown


def test_the_command_line_lists_the_lessons_and_refuses_one_that_is_not(capsys):
    assert main(["lesson"]) == 0
    assert "2. Capture Go (1 steps)" in capsys.readouterr().out
    assert main(["lesson", "9"]) == 1
    with pytest.raises(ValueError, match="no lesson 9"):
        teaching([])[0].run(9)
