"""Lessons for a first-time player: each step an instruction on the display (and in full on the
page or terminal) and a position on the LEDs, the board waiting until the student does it.

A step is one of the course's problems (course/), played as a lesson plays it
(solving.py ``guided``: a wrong answer is taken back and tried again, a right
one goes on to the next step by itself), or a game of capture Go (the first
capture wins, ``new ... captures=1``) that two students play at the board.
The texts follow the order the British and American Go associations' teaching
material takes: a capture, capture Go, liberties and atari, escaping, ladders.
"""

from __future__ import annotations

from typing import NamedTuple

from firmware.rules.result_sgf import parse_sgf
from host_tools.board.words import result_words
from host_tools.play.board import BoardError

from .course import course_files
from .problem import Problem, read
from .solving import NEXT, PAUSE_S, Progress, Solving, show_words, start_game

WAIT_S = 3600.0  # a step: as long as it takes


class Step(NamedTuple):
    short: str  # the display's second line (16 characters at most)
    text: str  # the instruction in full
    problem: str = ""  # a course problem (its file name without .sgf)
    capture_go: int = 0  # else capture Go to this many captures, on a ``size`` board
    size: int = 7


class Lesson(NamedTuple):
    title: str
    steps: tuple[Step, ...]


LESSONS = (
    Lesson("What a capture is", (
        Step("CAPTURE IT", "A stone's liberties are the empty points next to it. The white stone has one left: "
             "it is in atari. Place the lit stones, then play on its last liberty and lift it off the board.",
             "01-capture-one-stone"),
        Step("ON THE SIDE", "On the side a stone has only three liberties. Capture the white stone.",
             "02-capture-side"),
        Step("IN THE CORNER", "In the corner a stone has only two liberties. Capture the white stone.",
             "03-capture-corner"),
        Step("TWO STONES", "Stones side by side share their liberties. Capture both white stones at once.",
             "04-capture-two-stones"),
    )),
    Lesson("Capture Go", (
        Step("FIRST CAPTURE", "Capture Go on the 7x7 corner of the board, with a friend: Black first, then in "
             "turn. The first to capture a stone wins. The board says who.", capture_go=1),
    )),
    Lesson("Counting liberties", (
        Step("GIVE ATARI", "Count the white stone's liberties. Take one away so that it has one left, "
             "and it runs into your stones.", "09-atari-toward-your-stones"),
        Step("TO THE EDGE", "Give atari so that the white stone runs to the edge, where it has fewer liberties.",
             "10-atari-toward-the-edge"),
        Step("TWO STONES", "Two stones share their liberties: count them, then give atari.",
             "11-atari-two-stones"),
    )),
    Lesson("Escaping atari", (
        Step("RUN AWAY", "Your stone is in atari. Extend it so that it has more liberties.", "14-escape-centre"),
        Step("FROM THE EDGE", "Your stone on the edge is in atari. Run toward the centre.",
             "15-escape-from-the-edge"),
        Step("TO A FRIEND", "Connect your stone in atari to a friend.", "18-escape-to-a-friend"),
        Step("BY CAPTURING", "Escape by capturing the stone that gives atari.", "19-escape-by-capturing"),
    )),
    Lesson("Ladders", (
        Step("A LADDER", "Chase the white stone along a ladder to your stone.", "20-ladder-to-your-stone"),
        Step("A NET", "Catch the white stone in a net: a ladder breaker is in the way.", "24-net-ladder-breaker"),
    )),
)


def course_problem(name: str) -> Problem:
    """The course's problem of that file name (without .sgf)."""
    path = next((p for p in course_files() if p.stem == name), None)
    if path is None:
        raise ValueError(f"no course problem {name}")
    return read(path.read_bytes())


class Teaching:
    """Lessons on one board (host_tools.play.board.Board or a classroom's); ``say``: each step's words."""

    def __init__(self, board, say=print, patience_s=WAIT_S):
        self.board = board
        self.say = say
        self.patience_s = patience_s

    def run(self, number: int) -> None:
        """Walk lesson ``number`` (1: the first) through, step by step."""
        if not 1 <= number <= len(LESSONS):
            raise ValueError(f"no lesson {number}: there are {len(LESSONS)}")
        lesson = LESSONS[number - 1]
        self.say(f"lesson {number}: {lesson.title}")
        for k, step in enumerate(lesson.steps):
            words = (f"LESSON {number} STEP {k + 1}", step.short)
            self.say(f"step {k + 1} of {len(lesson.steps)}: {step.text}")
            if step.capture_go:
                self._capture_go(step, words)
            else:
                solving = Solving(self.board, [course_problem(step.problem)], Progress(None), self.say,
                                  self.patience_s, guided=True)
                while solving.attempt(0, words) != NEXT:
                    pass
        show_words(self.board, f"LESSON {number}", "DONE!")
        self.say(f"lesson {number} done")

    def _capture_go(self, step: Step, words: tuple[str, str]) -> None:
        board = self.board
        start_game(board, f"size={step.size} komi=0 captures={step.capture_go}")
        show_words(board, *words)
        if not board.wait(self.patience_s, lambda: board.game.result is not None):
            raise BoardError(f"no capture in {self.patience_s:g} s")
        game = board.game
        result = parse_sgf(game.result, game.why)
        self.say(result_words(result, game.rules, capture_goal=step.capture_go) if result else game.result)
        board.wait(PAUSE_S * 2)  # (the board's words of the result read before the lesson goes on)
