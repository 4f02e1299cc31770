"""Simulated players: two seeded players with human slips play one whole game on the whole board.

``play_game(seed)`` draws a table (``Table``: board size, rule set, mode, sensors, time
control, handicap) and plays it on a headless ``Simulation`` (the firmware's ``App`` on the
simulated hardware, its serial link recorded by the logger's model, a journal on simulated
flash) through physical script events only, so the game is a script (``Game.lines``,
docs/script.md), each line tagged with whose hands act and why (``# B move E5``). The
invariants (invariants.py) are checked after every loop pass; the players also check that
the board's game is the one they played (``record``) before each turn and at the end.

The players mostly follow the rules: legal moves from the rules core (a shadow ``Game``),
captured stones lifted, clocks pressed, passes, a count with dead stones lifted (the ones
the LEDs light) and dame filled, agreement. Their slips and choices, each drawn from the
seed: presses 0-500 ms after the stone (the first move's too) or late, a press on the
wrong side first, captures lifted late and in any order (some after the reply), stones
slid over other points, a stone of their own knocked and put back, a stone placed out of
turn, takebacks (Undo, MENU, the stone lifted) in casual play, passes by button or by a
bare press, PAUSE, resignation, long thinks that flag, disagreeing at the count, a
referee's acts (host commands), and power cuts between turns.
"""

from __future__ import annotations

import random
import shlex
from dataclasses import dataclass

from firmware.leds.marks import DAME, LIFT
from firmware.modes import NAMES as MODE_NAMES
from firmware.rules.coords import PASS, col_row, point, vertex
from firmware.rules.game import COUNTING, OVER, PLAYING, IllegalMove
from firmware.rules.rulesets import by_name
from firmware.settings import Settings
from twins.storage import SimStorage

from .headless import Simulation
from .invariants import Checker
from .played import Played, moves_of
from .replay import finish, step

RULES = ("korean", "japanese", "chinese", "thai", "aga", "op")
TIMES = ("none", "none", "none", "absolute 10m", "byoyomi 1m 3x20s", "fischer 2m +10s", "canadian 1m 5/1m",
         "absolute 40s", "byoyomi 10s 1x10s", "fischer 20s +3s", "simple 15s", "korean-amateur")
_SIDE = {1: "B", 2: "W"}
_WORD = {1: "black", 2: "white"}


@dataclass
class Table:
    """One game's settings."""

    size: int = 9
    rules: str = "japanese"
    mode: str = "casual"
    sensors: str = "presence"
    time: str = "none"
    handicap: int = 0

    def options(self):
        """The settings as ``python -m host_tools.sim`` options (a script's header)."""
        return "--size %d --rules %s --mode %s --sensors %s --time %s --handicap %d" % (
            self.size, self.rules, self.mode, self.sensors, shlex.quote(self.time), self.handicap)

    @classmethod
    def from_options(cls, text):
        words = shlex.split(text)
        values = dict(zip(words[::2], words[1::2], strict=False))
        return cls(int(values.get("--size", 9)), values.get("--rules", "japanese"), values.get("--mode", "casual"),
                   values.get("--sensors", "presence"), values.get("--time", "none"), int(values.get("--handicap", 0)))

    def settings(self):
        return Settings(self.size, self.rules, None, self.handicap, self.time)

    def simulation(self):
        return Simulation(self.settings(), MODE_NAMES.index(self.mode), self.sensors, storage=SimStorage(),
                          record=True)


def draw_table(rng):
    """A table drawn from ``rng``: mostly 9x9, every rule set, mode, sensing kind and time system."""
    size = rng.choice((9, 9, 9, 9, 7, 13, 19))
    rules = rng.choice(RULES)
    handicap = 0
    if rules != "op" and rng.random() < 0.2:
        handicap = rng.choice((1, 2, 3, 4)) if size >= 9 else 1
        try:
            by_name(rules).check_handicap(size, handicap)
        except ValueError:
            handicap = 0
    return Table(size, rules, rng.choice(("casual", "casual", "teaching", "tournament")),
                 rng.choice(("presence", "polarity")), rng.choice(TIMES), handicap)


@dataclass
class Game:
    """A played game: its table, its script lines, the checker's violations and the passes run."""

    seed: int
    table: Table
    lines: list
    violations: list
    passes: int
    moves: int
    result: str

    def script(self, invariant=""):
        head = ["# players' simulator, seed %d" % self.seed, "# settings: " + self.table.options()]
        if invariant:
            head.append("# invariant: " + invariant)
        return "\n".join(head + self.lines) + "\n"


class Players:
    """Two players at one board (see the module doc). ``rng`` draws every choice."""

    def __init__(self, table, rng):
        self.table = table
        self.rng = rng
        self.sim = table.simulation()
        self.check = Checker(self.sim)
        self.played = Played(table)
        self.shadow = self.played.game  # (the players' game: the tags of their lines move it)
        self.timed = table.time != "none"
        self.tournament = table.mode == "tournament"
        self.polarity = table.sensors == "polarity"
        self.lines = []
        self.later = []  # (t, order, text, who, why): events planned ahead (late lifts)
        self.t = 0
        self._order = 0
        self.stop = False  # the players stop playing (a resignation, a count that did not end...)
        self.broken = False  # the board's game is not the players' any more (a record violation)
        self.slip = 0.02 if self.tournament else 0.06  # how often a hand slips

    # -- the script ---------------------------------------------------------------

    def act(self, t, text, who, why=""):
        """Carry out one script line at ``t`` (``who``: 1, 2, or 0 for the host or the power)."""
        self.flush(t)
        self._do(max(t, self.sim.now), text, who, why)

    def plan(self, t, text, who, why=""):
        self._order += 1
        self.later.append((t, self._order, text, who, why))

    def flush(self, until):
        while self.later:
            first = min(self.later)
            if first[0] > until:
                return
            self.later.remove(first)
            self._do(max(first[0], self.sim.now), *first[2:])

    def _do(self, t, text, who, why):
        tag = (_SIDE.get(who, "host" if text.startswith("host") else "") + (" " + why if why else "")).strip()
        line = "%d %s%s" % (t, text, "  # " + tag if tag else "")
        self.lines.append(line)
        if not step(self.sim, self.check, self.played, line, len(self.lines)):
            self.stop = self.broken = True
        self.t = max(self.t, t)

    def wait(self, ms):
        self.t += ms
        self.flush(self.t)
        self.sim.advance(self.t)

    def vx(self, g):
        return vertex(self.table.size, g)

    def stone(self, colour):
        return " " + _WORD[colour] if self.polarity else ""

    def on_board(self, g):
        """The physical board has a stone at game point g."""
        return self.sim.hw.stones.colour[self.sim.physical(g)] != 0

    # -- the game ----------------------------------------------------------------

    def play(self, max_turns):
        """Play until the game is over (or the turns run out), then let the board settle."""
        if self.table.rules == "thai" and self.tournament and self.timed and self.rng.random() < 0.1:
            self.act(self.t + 100, "host clock late %s %d" % (self.rng.choice("BW"), self.rng.randint(10, 90)), 0)
        if self.table.handicap > 1:
            self.handicap()
        turns = 0
        while not self.stop and turns < max_turns and self.sim.game.phase != OVER:
            turns += 1
            self.wait(self.rng.randint(300, 600))  # (the last stone settles: the board has judged it)
            if self.shadow.phase == COUNTING:
                self.count()
            else:
                self.turn()
        self.flush(self.t + 60000)
        if self.sim.game.phase != OVER and not self.stop and self.rng.random() < 0.5:
            loser = self.rng.choice((1, 2))
            self.resign(loser)
        finish(self.sim, self.check, self.played, self.broken)
        return self.check.violations

    def handicap(self):
        referee = self.sim.referee
        n = self.table.handicap
        if referee.handicap_sets:
            points = list(self.rng.choice(referee.handicap_sets) if self.rng.random() < 0.3 else referee.handicap_sets[0])
        else:
            free = [point(self.table.size, c, r) for c in range(self.table.size) for r in range(self.table.size)]
            points = self.rng.sample(free, n)
        self.rng.shuffle(points)
        for g in points:
            self.act(self.t + self.rng.randint(300, 900), "place %s%s" % (self.vx(g), self.stone(1)), 1,
                     "handicap " + self.vx(g))
        self.wait(400)

    # -- a turn of play -------------------------------------------------------------

    def turn(self):
        rng = self.rng
        colour = self.shadow.to_move
        think = self.think()
        if rng.random() < 0.012:
            self.act(self.t + rng.randint(50, 400), "power cut", 0)
            self.wait(600)
        if self.tournament and rng.random() < 0.01:
            self.act(self.t + 100, "host referee caution %s" % rng.choice("BW"), 0)
        if self.timed and rng.random() < 0.015:
            self.pause_and_resume(colour)
        if self.timed and self.tournament and rng.random() < 0.01:
            self.referee_pause(colour)
        if self.table.rules == "thai" and self.tournament and self.timed and rng.random() < 0.02:
            self.act(self.t + rng.randint(100, 600), "host clock away %s" % _SIDE[3 - colour], 0)
            self.act(self.t + rng.randint(2000, 9000), "host clock resume", 0)
        moves = self.shadow.move_number
        cap = {7: 60, 9: 110, 13: 220, 19: 380}.get(self.table.size, 200)
        if rng.random() < 0.003 or (moves > cap and rng.random() < 0.3):
            self.t += think
            return self.resign(colour)
        g = self.choose(colour)
        if g == PASS or moves > cap or rng.random() < 0.01 + (0.02 if moves > cap * 0.7 else 0):
            self.t += think
            return self.do_pass(colour)
        if rng.random() < self.slip and moves > 2:
            self.knock(colour, think)
        else:
            self.t += think
        self.move(colour, g)

    def think(self):
        rng = self.rng
        if self.timed and rng.random() < 0.04:
            return rng.randint(8000, 60000)  # a long think (short time controls flag)
        return rng.randint(300, 3500)

    def choose(self, colour):
        """A legal point for ``colour`` that does not fill its own eye and where no stone lies; PASS if none."""
        size = self.table.size
        game = self.shadow
        cells = game.pos.cells
        pts = [point(size, c, r) for c in range(size) for r in range(size)]
        self.rng.shuffle(pts)
        for g in pts:
            if cells[g] or self.on_board(g) or self.own_eye(g, colour):
                continue
            if game.is_legal(colour, g):
                return g
        return PASS

    def own_eye(self, g, colour):
        size = self.table.size
        cells = self.shadow.pos.cells
        col, row = col_row(size, g)
        for c, r in ((col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1)):
            if 0 <= c < size and 0 <= r < size and cells[point(size, c, r)] != colour:
                return False
        return True

    def move(self, colour, g):
        rng = self.rng
        name = self.vx(g)
        if rng.random() < 0.3:  # the hand slides the stone across other points first (each passed once, briefly)
            passed = set()
            for _ in range(rng.randint(1, 3)):
                near = self.near(g)
                if near is not None and near not in passed:
                    passed.add(near)
                    self.act(self.t, "hover %s %d%s" % (self.vx(near), rng.randint(15, 90), self.stone(colour)), colour)
                    self.t += rng.randint(10, 60)
        placed = self.t
        self.act(placed, "place %s%s" % (name, self.stone(colour)), colour, "move " + name)
        if self.stop:
            return
        pos = self.shadow.pos
        captured = [pos.removed[i] for i in range(pos.nremoved)]
        rng.shuffle(captured)
        late = self.shadow.op is None and (self.tournament and rng.random() < 0.05 or  # (OP Art.2-4: lifted first)
                                          not self.tournament and rng.random() < 0.15)
        press_at = placed + self.press_delay()
        lift_at = placed + rng.randint(150, 700)
        for i, c in enumerate(captured):
            if late and i == len(captured) - 1:
                self.plan(press_at + rng.randint(800, 4000), "lift %s" % self.vx(c), colour, "capture")
            else:
                self.act(lift_at, "lift %s" % self.vx(c), colour, "capture")
                lift_at = self.t + rng.randint(80, 400)
        early = None
        if self.timed and not self.polarity and rng.random() < self.slip and not late:
            early = self.early(colour, placed)
            if early is not None:
                press_at = max(press_at, self.t + rng.randint(200, 900))
        if self.timed:
            press_at = max(press_at, self.t + (rng.randint(0, 200) if captured else 0))
            if rng.random() < 0.05:  # the wrong button first
                self.act(press_at, "press %s" % _WORD[3 - colour], colour, "wrong side")
                press_at = self.t + rng.randint(150, 600)
            self.act(press_at, "press %s" % _WORD[colour], colour)
        if early is not None:  # the opponent lifts its early stone (and plays when it is its turn)
            self.act(self.t + rng.randint(300, 900), "lift %s" % self.vx(early), 3 - colour, "early")
        if self.sim.game.phase == OVER:
            return
        if rng.random() < self.slip and (self.polarity or self.timed):
            self.out_of_turn(colour)
        elif (not self.tournament and rng.random() < 0.05 and not self.later
              and self.shadow.pos.cells[g] == colour):  # (not an OP self-removal: the stone itself gone)
            self.takeback(colour, g, captured)

    def early(self, colour, placed):
        """The opponent, impatient, puts its stone down before the mover has pressed (a
        presence board refuses it: the press first). The point, or None."""
        g = self.choose(3 - colour)
        if g == PASS:
            return None
        self.act(max(self.t, placed) + self.rng.randint(200, 500), "place %s%s" % (self.vx(g), self.stone(3 - colour)),
                 3 - colour, "early")
        return g

    def press_delay(self):
        r = self.rng.random()
        if r < 0.25:
            return self.rng.randint(0, 150)  # fast: before the stone has settled
        if r < 0.9:
            return self.rng.randint(150, 500)
        return self.rng.randint(500, 3000)

    def near(self, g):
        size = self.table.size
        col, row = col_row(size, g)
        for _ in range(8):
            c, r = col + self.rng.randint(-2, 2), row + self.rng.randint(-2, 2)
            if (c, r) != (col, row) and 0 <= c < size and 0 <= r < size:
                return point(size, c, r)
        return None

    def do_pass(self, colour):
        rng = self.rng
        if rng.random() < 0.5 or self.timed and not self.sim.app.timekeeper.started:  # (a first press starts the clock)
            self.act(self.t, "button pass", colour, "pass")
        else:
            self.act(self.t, "press %s" % _WORD[colour], colour, "pass")

    def resign(self, colour):
        self.act(self.t, "button resign_%s" % _WORD[colour], colour, "resign")
        self.stop = True

    def knock(self, colour, think):
        """Before moving, the mover's hand knocks one of its own stones off (or onto the next
        point) and puts it back."""
        rng = self.rng
        own = [g for g in range(len(self.shadow.pos.cells)) if self.shadow.pos.cells[g] == colour and self.on_board(g)]
        start = self.t + max(500, think // 3)
        if not own:
            self.t += think
            return
        g = rng.choice(own)
        self.act(start, "lift %s" % self.vx(g), colour, "knocked")
        to = self.near(g)
        if to is not None and not self.on_board(to) and not self.shadow.pos.cells[to] and rng.random() < 0.5:
            self.act(self.t + rng.randint(30, 200), "place %s%s" % (self.vx(to), self.stone(colour)), colour, "knocked")
            self.act(self.t + rng.randint(400, 1500), "lift %s" % self.vx(to), colour, "put right")
        self.act(self.t + rng.randint(200, 1500), "place %s%s" % (self.vx(g), self.stone(colour)), colour, "put right")
        self.t = max(self.t + 400, start + think - 500)

    def out_of_turn(self, colour):
        """The mover places another stone before the opponent has played, then lifts it."""
        g = self.choose(colour)
        if g == PASS:
            return
        self.act(self.t + self.rng.randint(300, 900), "place %s%s" % (self.vx(g), self.stone(colour)), colour,
                 "out of turn")
        self.act(self.t + self.rng.randint(400, 1500), "lift %s" % self.vx(g), colour, "out of turn")

    def takeback(self, colour, g, captured):
        """Casual play: the mover takes the move back (MENU, Undo, or lifting the stone) and
        puts the captured stones back."""
        rng = self.rng
        how = rng.choice(("menu", "undo", "lift") if self.table.mode == "casual" else ("undo", "lift"))  # (MENU: casual)
        t = self.t + rng.randint(300, 1500)
        if how == "lift":
            self.act(t, "lift %s" % self.vx(g), colour, "takeback")
        else:
            self.act(t, "press menu" if how == "menu" else "button undo", colour, "takeback")
        for c in captured:
            self.act(self.t + rng.randint(200, 600), "place %s%s" % (self.vx(c), self.stone(3 - colour)), colour,
                     "put back")
        if how != "lift":
            self.act(self.t + rng.randint(200, 800), "lift %s" % self.vx(g), colour, "taken back")

    def referee_pause(self, colour):
        """The referee stops the clock for a dispute; the player to move presses PAUSE
        meanwhile (Korean regulations 11-4: the referee restarts it)."""
        self.act(self.t + self.rng.randint(100, 600), "host clock pause", 0)
        if self.rng.random() < 0.5:
            self.act(self.t + self.rng.randint(500, 3000), "press pause", colour, "pause")
        self.act(self.t + self.rng.randint(1000, 6000), "host clock resume", 0)

    def pause_and_resume(self, colour):
        self.act(self.t + self.rng.randint(100, 800), "press pause", colour, "pause")
        self.act(self.t + self.rng.randint(1000, 8000), "press pause", colour, "resume")

    # -- the count ---------------------------------------------------------------------

    def count(self):
        """Play stopped by passes: the players lift the stones the board lights as dead
        (sometimes putting a chain back), fill the dame it lights, and agree, or disagree
        and play on."""
        rng = self.rng
        self.wait(rng.randint(600, 1500))
        if self.sim.game.phase == PLAYING:  # the board did not stop: the record check says so
            self.played.check(self.sim, self.check)
            self.stop = self.broken = True
            return
        lifted = []
        for _ in range(3):
            lit = [p for p in self.lit(LIFT) if self.sim.hw.stones.colour[p]]
            if not lit:
                break
            rng.shuffle(lit)
            for p in lit:
                if self.sim.hw.stones.colour[p]:
                    who = self.sim.hw.stones.colour[p]
                    self.act(self.t + rng.randint(100, 500), "lift %s" % self.name_of(p), 3 - who, "dead")
                    lifted.append((p, who))
            self.wait(400)
        if lifted and rng.random() < 0.15:  # one of them is alive after all: put back
            p, who = rng.choice(lifted)
            self.act(self.t + rng.randint(300, 900), "place %s%s" % (self.name_of(p), self.stone(who)), who, "alive")
            self.wait(500)
        if rng.random() < 0.2:
            return self.disagree(lifted)
        if self.lit(DAME) and rng.random() < 0.3:  # agreed before the dame are filled: the board says so
            first = rng.choice((1, 2))
            if self.tournament or rng.random() < 0.5:
                self.act(self.t + rng.randint(300, 900), "press %s" % _WORD[first], first, "early agree")
                self.act(self.t + rng.randint(200, 900), "press %s" % _WORD[3 - first], 3 - first, "early agree")
            else:
                self.act(self.t + rng.randint(300, 900), "button ok", first, "early agree")
            self.wait(600)
        for _ in range(60):
            dame = [p for p in self.lit(DAME) if not self.sim.hw.stones.colour[p]]
            if not dame or self.sim.game.phase != COUNTING:
                break
            colour = self.sim.game.to_move
            p = rng.choice(dame)
            self.act(self.t + rng.randint(300, 1200), "place %s%s" % (self.name_of(p), self.stone(colour)), colour,
                     "dame")
            self.wait(300)
        self.agree()
        self.wait(1500)
        if self.sim.game.phase != OVER:
            self.stop = True

    def lit(self, kind):
        bits = self.sim.app.marks.bits
        region = self.sim.referee.region
        return [p for p in range(len(bits)) if bits[p] & kind and region.game_of[p] != 0xFFFF]

    def name_of(self, p):
        return self.vx(self.sim.referee.region.game_of[p])

    def agree(self):
        rng = self.rng
        how = rng.random()
        first = rng.choice((1, 2))
        t = self.t + rng.randint(300, 1500)
        if how < 0.6 or self.tournament:
            self.act(t, "press %s" % _WORD[first], first, "agree")
            self.act(self.t + rng.randint(200, 2000), "press %s" % _WORD[3 - first], 3 - first, "agree")
        elif how < 0.8:
            self.act(t, "press menu", first, "agree both")
        else:
            self.act(t, "button ok", first, "agree both")

    def disagree(self, lifted):
        """Play on: the lifted stones go back, then a player resumes (the Resume button, or a stone)."""
        rng = self.rng
        for p, who in lifted:
            if not self.sim.hw.stones.colour[p]:
                self.act(self.t + rng.randint(100, 400), "place %s%s" % (self.name_of(p), self.stone(who)), who,
                         "put back")
        self.wait(400)
        passer_first = moves_of(self.shadow)[-2][0]
        if rng.random() < 0.5:
            self.act(self.t + rng.randint(200, 800), "button resume", rng.choice((1, 2)), "resume")
            self.wait(300)
            return
        # A stone resumes play: the first passer's (any rule set), or under the Korean and Thai
        # rules (Thai 12.3: play resumes) the second passer's as well.
        colour = passer_first
        if self.table.rules in ("korean", "thai") and rng.random() < 0.7:
            colour = 3 - passer_first
        self.shadow.resume()  # (the tag of the stone's line does it too: a stone resumes play)
        self.shadow.to_move = colour
        g = self.choose(colour)
        self.shadow.to_move = colour  # (choose's tries take their moves back: to_move from the history again)
        if g == PASS:
            self.shadow.to_move = passer_first
            self.act(self.t + 300, "button resume", colour, "resume")  # (resumed already: the tag changes nothing)
            return
        self.t += rng.randint(300, 1000)
        self.move(colour, g)


def play_game(seed, max_turns=400):
    """One seeded game: a ``Game`` (its script, violations, passes)."""
    rng = random.Random(seed)
    table = draw_table(rng)
    players = Players(table, rng)
    try:
        players.play(max_turns)
    except IllegalMove as error:  # the players' own bookkeeping: a bug of theirs, said as one
        players.check.violate("record", "the players' shadow game refused a move: %s" % error)
    result = players.sim.game.result
    return Game(seed, table, players.lines, players.check.violations, players.check.passes,
                players.sim.game.move_number, result.sgf() if result is not None else "")
