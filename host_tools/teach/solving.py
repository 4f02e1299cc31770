"""Problems solved on the board, with its LEDs, clock buttons and MENU: no screen needed.

``Solving(board, problems, progress)`` runs on the host beside the board (a PC,
the venue's hub) over ``host_tools.play.board.Board``. Each problem is a game
the board plays (docs/teaching.md):

- ``new size=.. setup=<black>/<white> remote=<the other side>``: the position's
  stones come lit to place in their colours (a stone on a wrong point is lit to
  lift; the last problem's stones too), and the display says which problem and
  who plays (``show words``);
- the student plays; each move is judged against the problem's tree
  (problem.py ``judge``), and the tree's reply comes lit to place (``play``, the
  door an engine's moves use);
- at the end of a line the display says RIGHT or WRONG and what to do next, and
  the progress file keeps it.

The student's controls, on the board:

- their clock button (a pass): the next problem (before the end: skip it);
- the clock button twice within ``double_s``: the previous problem;
- MENU (a move taken back): the problem again from its start.

The host takes a pass back at once (``referee undo``) so that a second press
is the student's again, and passes for the other side when a line ends on the
student's move, so that the clock button is theirs. Each try is a game of its
own on the board, ended ``Void``: the logger keeps every try.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from firmware.protocol import quote
from firmware.rules.coords import PASS, col_row, vertex
from host_tools.play.board import REPLY_S, BoardError

from .problem import Problem, judge, reached

WAIT_S = 3600.0  # the student's next step: as long as it takes
DOUBLE_S = 2.0  # the clock button a second time within this: the previous problem
PAUSE_S = 2.0  # a lesson's step: right or wrong stays this long before the board goes on
NEXT, PREVIOUS, AGAIN = "next", "previous", "again"


class Progress:
    """A student's progress through a problem set, kept in a JSON file: the problems solved, the
    tries of each, where they were."""

    def __init__(self, path: Path | None):
        self.path = path
        self.solved: list[str] = []
        self.tries: dict[str, int] = {}
        self.at = ""
        if path is not None and path.exists():
            try:
                data = json.loads(path.read_text())
                self.solved = [str(title) for title in data.get("solved", [])]
                self.tries = {str(k): int(v) for k, v in data.get("tries", {}).items()}
                self.at = str(data.get("at", ""))
            except (ValueError, AttributeError, TypeError) as error:
                raise ValueError(f"the progress file {path} is not one: {error}") from None

    def start(self, titles: list[str]) -> int:
        """Where to begin: where the student was, else the first problem not solved (0 when all are)."""
        if self.at in titles:
            return titles.index(self.at)
        return next((i for i, title in enumerate(titles) if title not in self.solved), 0)

    def enter(self, title: str) -> None:
        """The student is on ``title`` now."""
        self.at = title
        self.save()

    def record(self, title: str, verdict: str) -> None:
        """A try of ``title`` ended: right or wrong."""
        self.tries[title] = self.tries.get(title, 0) + 1
        if verdict == "right" and title not in self.solved:
            self.solved.append(title)
        self.save()

    def save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"solved": self.solved, "tries": self.tries, "at": self.at}, indent=1))
        os.replace(tmp, self.path)  # (a power cut leaves the old file or the new, never half of one)


def default_progress(board_id: str) -> Path:
    """Where a board's student's progress is kept: $XDG_DATA_HOME/goboard/progress-<board>.json."""
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data) / "goboard" / f"progress-{board_id}.json"


def start_game(board, fields: str):
    """A new game on the board (the one in play, if it has moves, ended Void first; a host that came
    in during a game knows it only from the board's refusal): its GameLog."""
    game = board.game
    if game is None or game.result is None and game.moves:
        board.command("end Void")  # (refused when no game is in progress: as good)
    return board.new_game(fields)


def show_words(board, first: str, second: str = "") -> None:
    """Two lines on the board's clock display (16 characters each)."""
    board.must(f"show words {quote(first[:16])}" + (f" {quote(second[:16])}" if second else ""))


def setup_field(size: int, black, white) -> str:
    """The ``new`` field for a position (rules-core points): ``setup=<black letters>/<white letters>``."""
    def letters(points):
        return "".join(chr(97 + c) + chr(97 + r) for c, r in (col_row(size, p) for p in points))
    return f"setup={letters(black)}/{letters(white)}"


def next_event(board, known: int, patience_s: float):
    """What the board's game did after its first ``known`` moves: (the next move's point, PASS for
    the clock button, or AGAIN for a move taken back; the moves known now). BoardError after
    ``patience_s`` of nothing."""
    if not board.wait(patience_s, lambda: len(board.game.moves) != known):
        raise BoardError(f"nothing from the board in {patience_s:g} s")
    moves = board.game.moves
    if len(moves) < known:
        return AGAIN, len(moves)
    return moves[known][1], known + 1


class Solving:
    """A problem set on one board; see the module doc. ``say``: each step in words (the
    page, the terminal)."""

    def __init__(self, board, problems: list[Problem], progress: Progress, say=print,
                 patience_s=WAIT_S, double_s=DOUBLE_S, guided=False):
        if not problems:
            raise ValueError("no problems to solve")
        self.board = board
        self.problems = problems
        self.progress = progress
        self.say = say
        self.patience_s = patience_s
        self.double_s = double_s
        self.guided = guided  # a lesson's: a wrong answer is tried again, a right one goes on, by themselves
        self.known = 0  # the moves of the board's game the session has seen
        self.tries: list[tuple[str, list[int], str]] = []  # each line played to its end: (title, moves, verdict)

    def run(self, first: int | None = None, limit: int | None = None) -> int:
        """Solve from problem ``first`` (default: where the progress says) until the student goes
        past the last one (or ``limit`` tries); the number of problems solved."""
        titles = [p.title for p in self.problems]
        i = self.progress.start(titles) if first is None else first
        tries = 0
        while 0 <= i < len(self.problems):
            self.progress.enter(titles[i])  # (where the student is: where the next session begins)
            if limit is not None and tries >= limit:
                break
            step = self.attempt(i)
            tries += 1
            i += 1 if step == NEXT else -1 if step == PREVIOUS and i > 0 else 0
        solved = sum(1 for title in titles if title in self.progress.solved)
        show_words(self.board, "ALL DONE" if i >= len(self.problems) else "STOPPED", f"{solved} OF {len(titles)} RIGHT")
        self.say(f"{solved} of {len(titles)} problems solved")
        return solved

    def attempt(self, i: int, words: tuple[str, str] | None = None) -> str:
        """One try of problem ``i``: NEXT, PREVIOUS or AGAIN, as the student's controls said (guided:
        NEXT once right, AGAIN once wrong). ``words``: the display's two lines (default: which
        problem, who plays)."""
        problem = self.problems[i]
        self._start(problem)
        show_words(self.board, *(words or (f"PROBLEM {i + 1} OF {len(self.problems)}",
                                           ("BLACK" if problem.to_play == 1 else "WHITE") + " TO PLAY")))
        self.say(problem.question if words else f"problem {i + 1} of {len(self.problems)}: {problem.title}. "
                 f"{problem.question}")
        played: list[int] = []  # the student's moves in this try
        ended = False
        while True:
            event = self._next_event()
            if event == AGAIN:
                self.say("again from the start")
                return AGAIN
            if event == PASS:
                step = self._after_pass()
                self.say("to the previous problem" if step == PREVIOUS else "to the next problem" if ended else "skipped")
                return step
            if ended:  # a stone after the end: taken back (lit to lift), the clock button stays the student's
                self.board.must("referee undo")
                self.known -= 1
                continue
            played.append(event)
            verdict, reply = judge(problem, played)
            if reply is not None:
                self._reply(problem, vertex(problem.size, reply))
            if verdict != "continue":
                ended = True
                verdict = "right" if verdict == "right" else "wrong"
                self.tries.append((problem.title, list(played), verdict))
                self._end_of_line(problem, verdict)
                if self.guided:
                    self.board.wait(PAUSE_S)  # (the words read, the last stone seen)
                    return NEXT if verdict == "right" else AGAIN

    # -- the board's side ---------------------------------------------------------------------

    def _start(self, problem: Problem) -> None:
        setup = setup_field(problem.size, problem.black, problem.white)
        start_game(self.board, f"size={problem.size} komi=0 {setup} remote={_other(problem)}")
        self.known = 0

    def _next_event(self):
        """The student's next move (a point), PASS (their clock button) or AGAIN (a move taken back)."""
        event, self.known = next_event(self.board, self.known, self.patience_s)
        return event

    def _reply(self, problem: Problem, where: str) -> None:
        # The other side's move (a vertex, or "pass"), lit to place: the next move of the game.
        self.board.send_move(_other(problem), where, self.known + 1, self.patience_s)
        self.known += 1

    def _end_of_line(self, problem: Problem, verdict: str) -> None:
        node = reached(problem, self.board.game.moves)
        words = node.comment if node is not None and node.comment else "the problem does not know that move"
        if self.guided:
            show_words(self.board, *(("RIGHT!", "WELL DONE") if verdict == "right" else ("NOT YET", "TRY AGAIN")))
        else:
            show_words(self.board, *(("RIGHT!", "CLOCK: NEXT") if verdict == "right" else ("WRONG", "MENU: AGAIN")))
        self.say(f"{verdict}: {words}")
        self.progress.record(problem.title, verdict)
        if self.guided:
            return
        if self.board.game.moves[-1][0] == problem.to_play:
            self._reply(problem, "pass")  # (the clock button is the student's again)

    def _after_pass(self) -> str:
        """The student's clock button: once, NEXT; twice within ``double_s``, PREVIOUS. The pass is
        taken back at once, so that a second press is theirs to make."""
        board = self.board
        board.must("referee undo")
        self.known -= 1
        board.wait(REPLY_S, lambda: len(board.game.moves) == self.known)
        if board.wait(self.double_s, lambda: len(board.game.moves) > self.known):
            return PREVIOUS if board.game.moves[self.known][1] == PASS else NEXT
        return NEXT


def _other(problem: Problem) -> str:
    """The side the board's game plays elsewhere: the problem's replies."""
    return "BW"[2 - problem.to_play]
