"""A simulated student for problems on the simulated board (``--board sim``).

``Student`` is a brain for the hands of host_tools/play/sim.py, which place
the position's stones and the board's replies as the LEDs light them. At its
own turn it finds the problem on the board (by its position), then plays as
its intent for this try says: ``right`` follows a line of the tree that ends
RIGHT, ``wrong`` one that ends WRONG (or a point the tree does not know);
after the end of the line it uses the board's controls as a student does:
the clock button for the next problem, MENU after a wrong answer (the problem
again). ``skip`` presses the clock before playing; ``back`` presses it twice
(the previous problem). The intents come from ``plan``, one per try, then at
random: ``wrong`` of the time wrong. In capture Go it plays both sides: a capture
when there is one, else a random point.
"""

from __future__ import annotations

from firmware.rules.coords import PASS, parse_vertex
from host_tools.board.rules import all_points
from host_tools.play.sim import MENU
from host_tools.sim.played import moves_of

from .problem import Node, Problem, reached

RIGHT, WRONG, SKIP, BACK = "right", "wrong", "skip", "back"


class Student:
    """See the module doc; ``problems``: the set on the board; ``rng``: random.Random."""

    def __init__(self, problems: list[Problem], rng, plan=(), wrong=0.3):
        self.problems = problems
        self.rng = rng
        self.plan = list(plan)
        self.wrong = wrong
        self.tries: list[tuple[str, str]] = []  # (problem title, intent) of each try begun
        self._game = None  # the board's game the intent is for (a try is a game)
        self._intent = RIGHT
        self._presses = 0  # clock presses made in this try

    both_sides = True  # (the hands play both colours where none is played elsewhere: capture Go)
    follows_hints = False

    def move(self, game, colour, tried):
        if game.captures[0]:
            return self._capture_go(game, colour, tried)
        problem = self._problem(game)
        if problem is None:
            return None
        if game is not self._game:
            self._game, self._presses = game, 0
            self._intent = self.plan.pop(0) if self.plan else WRONG if self.rng.random() < self.wrong else RIGHT
            self.tries.append((problem.title, self._intent))
        node = reached(problem, moves_of(game))
        if node is not None and node.children and self._intent not in (SKIP, BACK):
            return self._choose(problem, game, node, tried)
        return self._control(node)

    def dead(self, game):
        return ()

    def _control(self, node):
        # The end of the line (or a skip): the clock button, twice to go back; MENU after a wrong answer.
        if self._intent == WRONG:
            if self._presses:
                return None  # (MENU pressed: the host begins the problem again)
            self._presses = 1
            return MENU
        if self._presses >= (2 if self._intent == BACK else 1):
            return None  # (pressed: the host moves on)
        self._presses += 1
        return PASS

    def _choose(self, problem, game, node, tried):
        right = [child for child in node.children if _ends(child, "right")]
        wrong = [child for child in node.children if child not in right]
        if self._intent == RIGHT and right:
            return self.rng.choice(right).point
        if wrong:
            return self.rng.choice(wrong).point
        known = {child.point for child in node.children}  # (a tree with no wrong line: a move it does not know)
        cells = game.pos.cells
        points = [g for g in all_points(game.pos) if not cells[g] and g not in known and g not in tried]
        return self.rng.choice(points) if points else PASS

    def _capture_go(self, game, colour, tried):
        # A capture if one is there (a stone of the other side's in atari), else a random point.
        pos = game.pos
        cells = pos.cells
        empty = [g for g in all_points(pos) if not cells[g] and g not in tried]
        w = pos.stride
        for g in empty:
            if any(cells[g + d] == 3 - colour and pos.liberties(g + d, 2) == 1 for d in (-w, -1, 1, w)):
                return g
        return self.rng.choice(empty) if empty else PASS

    def _problem(self, game) -> Problem | None:
        black, white = (sorted(stones) for stones in game.setup_stones)
        return next((p for p in self.problems if p.black == black and p.white == white), None)


def _ends(node: Node, verdict: str) -> bool:
    """Some line from ``node`` ends with ``verdict``."""
    if not node.children:
        return node.verdict == verdict
    return any(_ends(child, verdict) for child in node.children)


class Reader:
    """A student stepping through a record on the board (replay.py): the hands place the lit move
    (the first lit, where variations are), and at the end of a line the clock button ends it."""

    both_sides = True
    follows_hints = True

    def move(self, game, colour, tried):
        return PASS if game.move_number else None  # (asked only when nothing is lit)

    def dead(self, game):
        return ()


class Script:
    """A student whose hands do what the list says, one thing a turn: a vertex, ``clock`` or ``menu``
    (tests and demonstrations); ``both_sides``: where no side is played elsewhere, it plays both.
    The board's own game at power-up (not of ``size``) is left alone."""

    follows_hints = False

    def __init__(self, steps, size=9, both_sides=False):
        self.steps = list(steps)
        self.size = size
        self.both_sides = both_sides

    def move(self, game, colour, tried):
        if game.size != self.size or not self.steps:
            return None
        step = self.steps.pop(0)
        return MENU if step == "menu" else PASS if step == "clock" else parse_vertex(self.size, step)

    def dead(self, game):
        return ()
