"""The simulated board for play against a program, with a person's hands that follow its LEDs.

``SimTable(seed, moves=None)`` is the board the issue's ``--board sim`` means:
the device's ``App`` on simulated hardware with a flash (host_tools/sim/headless.py
``Simulation``), its time simulated, its cable a pyserial-like ``port`` for
``Board`` (board.py), and itself that ``Board``'s runner (``now``, ``wait``).
While time passes, ``Hands`` act as a person at the board does, one thing per
reaction time, reading only what the board shows: a stone lit to put (the
opponent's move, a stone to put back, a handicap point) is placed in the lit
colour, a stone lit to lift (a capture, an error, a stone proposed dead) is
lifted, the count is agreed once nothing is lit; and when it is the person's
turn and the board is in step, the person plays: at a point the host lights
as a hint, else the brain's move (``Moves``: an SGF's, then random points that
are not its own eye; ``EngineBrain``: a GTP engine's), then presses its clock
in a timed game (a brain's PASS: the clock pressed with no stone placed;
``MENU``: MENU pressed; None: nothing yet). ``slip``: how often a hand
puts the opponent's stone on a neighbouring point first (the board lights
both; the hand corrects it: ``corrections``).
"""

from __future__ import annotations

import random

from firmware.drivers.buttons import B_BLACK, B_MENU, B_WHITE
from firmware.leds.marks import ERROR, HINT, LIFT, PLACE, PUT_BACK, WRONG_COLOUR
from firmware.modes import CASUAL
from firmware.referee.states import COUNTING, PLAY
from firmware.rules.coords import PASS, col_row, parse_vertex, point, vertex
from firmware.rules.game import PLAYING
from firmware.settings import Settings
from host_tools.board.rules import all_points
from host_tools.sim.headless import Simulation
from host_tools.sim.played import moves_of
from host_tools.sim.script import Event
from twins.link import HostSerial, Pipe
from twins.storage import SimStorage

STEP_MS = 20  # the hands look at the board this often
REFUSED_MAX = 12  # the person's stones refused in one turn before it passes
RESIGN = -1  # a brain's move: the person resigns
MENU = -2  # ... the person presses MENU (casual, teaching: the last move taken back)


class SimTable:
    """The simulated board and the person at it; see the module doc."""

    def __init__(self, seed=0, brain=None, slip=0.05, mode=CASUAL, sensors="presence", board_id="board"):
        self.pipe = Pipe()
        self.port = HostSerial(self.pipe)
        self.sim = Simulation(Settings(), mode, sensors, transport=self.pipe.board, storage=SimStorage(),
                              board_id=board_id)
        rng = random.Random(seed)
        self.hands = Hands(self.sim, rng, brain or Moves([], rng), slip)

    def now(self) -> float:
        return self.sim.now / 1000

    def wait(self, seconds: float) -> None:
        """``seconds`` of the board's time, the hands acting."""
        sim = self.sim
        end = sim.now + max(1, round(seconds * 1000))
        while sim.now < end:
            self.hands.act(sim.now)
            sim.play_due([], min(end, sim.now + STEP_MS))  # (a pass at the step's end: the cable is heard)

    def power_cut(self) -> None:
        """The power goes and comes back (the stones stay, the game comes back from the flash)."""
        self.sim.power_cut()


class Hands:
    """A person's hands at the simulated board (see the module doc)."""

    def __init__(self, sim, rng, brain, slip):
        self.sim = sim
        self.rng = rng
        self.brain = brain
        self.slip = slip
        self.busy_until = 0
        self.corrections = 0  # stones the hands put on a wrong point and moved where the board lit
        self.refused = 0  # the person's stones the board refused (lifted again)
        self._tried: set[int] = set()  # this turn's refused points
        self._turn = -1  # the move number they were refused at
        self._press = -1  # when the person's clock press is due (-1: none)
        self._dead = None  # while counting: the stones the person holds dead (game points)
        self._back = -1  # a stone lifted to be put back at once: its chain is alive
        self._slipped = -1  # the point whose stone the hand last put on a wrong point first

    def act(self, now):
        if now < self.busy_until:
            return
        sim = self.sim
        if not sim.powered:
            return
        done = self._press_due(now) or self._fix(now) or self._count(now) or self._play(now)
        if done:
            self.busy_until = now + self.rng.randint(150, 600)

    def _do(self, now, action, g=0, colour=0, name="", buttons=()):
        self.sim.apply(Event(now, action, point=g, colour=colour, name=name, buttons=buttons))
        return True

    def _person(self):
        # The colour the person plays (0: none; a brain that plays both sides: the side to move
        # where none is played elsewhere).
        app = self.sim.app
        players = app.follower.settings.players or {}
        remote = {"B": 1, "W": 2}.get(players.get("remote", ""), 0)
        if not remote:
            return app.game.to_move if self.brain.both_sides else 0
        return 3 - remote

    def _fix(self, now):
        # What the LEDs ask to lift, then to put: one stone.
        app = self.sim.app
        stones = self.sim.hw.stones.colour
        bits, lit = app.marks.bits, app.marks.stone
        phys_of = app.referee.region.phys_of
        points = self._points()
        counting = app.referee.state == COUNTING
        for g in points:
            p = phys_of[g]
            if stones[p] and bits[p] & (ERROR | LIFT | WRONG_COLOUR) and not (counting and bits[p] == LIFT):
                if bits[p] & (ERROR | LIFT) == ERROR and g in self._tried_at():
                    self.refused += 1
                return self._do(now, "lift", g)
        for g in points:
            p = phys_of[g]
            if not stones[p] and bits[p] & (PUT_BACK | PLACE):
                colour = lit[p] if bits[p] & PUT_BACK and lit[p] else 1
                if bits[p] & PUT_BACK and colour != self._person() and g != self._slipped and self.rng.random() < self.slip:
                    wrong = self._neighbour(g)
                    if wrong is not None:
                        self.corrections += 1
                        self._slipped = g  # (corrected, not put wrong again)
                        return self._do(now, "place", wrong, colour)
                return self._do(now, "place", g, colour)
        return False

    def _count(self, now):
        # Counting: the person's own judgement (the brain's dead stones; ``()``: whatever the board
        # proposes) lifts the dead stones, and a stone the board proposed that the person holds
        # alive is lifted and put back; then the count is agreed (the board's OK).
        app = self.sim.app
        if app.referee.state != COUNTING:
            self._dead = None
            return False
        stones = self.sim.hw.stones.colour
        if self._back >= 0:
            g, self._back = self._back, -1
            return self._do(now, "place", g, app.game.pos.cells[g])
        if self._dead is None:
            self._dead = self.brain.dead(app.game)
        bits, phys_of = app.marks.bits, app.referee.region.phys_of
        for g in self._points():
            p = phys_of[g]
            if not stones[p]:
                continue
            if g in self._dead or (self._dead == () and bits[p] & LIFT):
                return self._do(now, "lift", g)
            if bits[p] & LIFT:
                self._back = g
                return self._do(now, "lift", g)
        return self._do(now, "button", name="ok")

    def _play(self, now):
        app = self.sim.app
        game, referee = app.game, app.referee
        colour = self._person()
        if not colour or referee.state != PLAY or game.to_move != colour or referee.awaiting_press:
            return False
        if game.phase != PLAYING:
            return False
        if self._turn != game.move_number:
            self._turn, self._tried = game.move_number, set()
        g = None
        if self.brain.follows_hints:
            hinted = self._hinted()
            if hinted and all(self.sim.hw.stones.colour[self.sim.physical(h)] for h in hinted):
                return False  # (the point lit is played: the host lights the next one)
            g = next((h for h in hinted if not self.sim.hw.stones.colour[self.sim.physical(h)]), None)
        if g is None:
            g = self._choose(colour)
        if g is None:  # (the brain waits: a student after the end of a problem's line)
            return False
        if g == RESIGN:
            return self._do(now, "button", name="resign_black" if colour == 1 else "resign_white")
        if g == MENU:
            return self._do(now, "press", buttons=(B_MENU,))
        if g == PASS:  # a press with no stone placed
            return self._press_clock(now, colour)
        self._tried.add(g)
        if app.clock is not None:
            self._press = now + self.rng.randint(300, 900)
        return self._do(now, "place", g, colour)

    def _press_due(self, now):
        if self._press < 0 or now < self._press:
            return False
        self._press = -1
        colour = self._person()
        app = self.sim.app
        if not colour or app.referee.awaiting_press != colour:
            return False  # (the stone was refused: no press)
        return self._press_clock(now, colour)

    def _press_clock(self, now, colour):
        return self._do(now, "press", colour=colour, buttons=(B_BLACK if colour == 1 else B_WHITE,))

    def _hinted(self):
        # The points the host lights to show (a teacher's hint, a record's next move).
        app = self.sim.app
        bits, phys_of = app.marks.bits, app.referee.region.phys_of
        return [g for g in self._points() if bits[phys_of[g]] & HINT]

    def _tried_at(self):
        return self._tried if self._turn == self.sim.app.game.move_number else set()

    def _choose(self, colour):
        # The person's next move (the brain's); PASS after too many refusals.
        if len(self._tried) >= REFUSED_MAX:
            return PASS
        return self.brain.move(self.sim.app.game, colour, self._tried)

    def _points(self):
        return all_points(self.sim.app.game.pos)

    def _neighbour(self, g):
        game = self.sim.app.game
        size, cells = game.size, game.pos.cells
        col, row = col_row(size, g)
        near = [point(size, c, r) for c, r in ((col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1))
                if 0 <= c < size and 0 <= r < size]
        near = [q for q in near if not cells[q] and not self.sim.hw.stones.colour[self.sim.physical(q)]]
        return self.rng.choice(near) if near else None


class Moves:
    """A person who plays the moves given (an SGF's, (colour, point)) while the game follows them,
    then random points that are not its own eye, until none is left: so what is dead is taken off
    before it passes, and it holds dead what the board proposes."""

    both_sides = False  # (the person plays the side not played elsewhere)
    follows_hints = True  # (a point the host lights is played first)

    def __init__(self, moves, rng):
        self.moves = list(moves)
        self.rng = rng

    def move(self, game, colour, tried):
        cells = game.pos.cells
        while self.moves:
            mover, g = self.moves.pop(0)
            if mover == colour and (g == PASS or (not cells[g] and g not in tried)):
                return g
        points = [g for g in all_points(game.pos) if not cells[g] and g not in tried and not _eye(game, g, colour)]
        return self.rng.choice(points) if points else PASS

    def dead(self, game):
        return ()


class EngineBrain:
    """A person who plays and counts as a GTP engine does (host_tools/gtp/engine.py): its moves
    are the engine's genmove in the board's game, its dead stones the engine's."""

    both_sides = False
    follows_hints = True

    def __init__(self, engine):
        self.engine = engine
        self.known = None  # the moves the engine was told, ((colour, point), ...)

    def _tell(self, game):
        moves = moves_of(game)
        known = self.known
        if known is None or known != moves[:len(known)]:
            self.engine.new_game(game.size, game.komi)
            known = []
        for colour, g in moves[len(known):]:
            self.engine.play("BW"[colour - 1], "pass" if g == PASS else vertex(game.size, g))
        self.known = moves

    def move(self, game, colour, tried):
        self._tell(game)
        answer = self.engine.genmove("BW"[colour - 1])
        if answer == "resign":
            return RESIGN
        g = PASS if answer == "pass" else parse_vertex(game.size, answer)
        if g in tried:
            return PASS
        self.known = self.known + [(colour, g)]  # (in the engine's game; told again if the board's went otherwise)
        return g

    def dead(self, game):
        self._tell(game)
        return {parse_vertex(game.size, v) for v in self.engine.dead_stones()}


def _eye(game, g, colour):
    size, cells = game.size, game.pos.cells
    col, row = col_row(size, g)
    for c, r in ((col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1)):
        if 0 <= c < size and 0 <= r < size and cells[point(size, c, r)] != colour:
            return False
    return True
