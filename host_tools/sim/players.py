"""Simulated players: two seeded players with human slips play one whole game on the whole board.

``play_game(seed)`` draws a table (tables.py) and plays it on a headless ``Simulation``
through physical script events only, so the game is a script (``Game.lines``,
docs/script.md), each line tagged with whose hands act and why (``# B move E5``); every
line goes through replay.py's ``step``, so the invariants (invariants.py) are checked after
every loop pass and the board's game against the players' (played.py) before each turn.

The players mostly follow the rules: legal moves from the rules core (their own ``Game``),
captured stones lifted, clocks pressed, passes, the count (counting.py). Their slips and
choices, each drawn from the seed: presses 0-500 ms after the stone (the first move's too)
or late, a press on the wrong side first, captures lifted late and in any order (some after
the reply), stones slid over other points, a stone of their own knocked and put right, a
stone placed out of turn, a reply before the mover's press, takebacks (Undo, MENU, the
stone lifted) in casual play, passes by the control or by a bare press, PAUSE, resignation,
long thinks that flag, the referee's acts (host commands), and power cuts between turns.
"""

from __future__ import annotations

import random

from firmware.rules.coords import PASS, col_row, point, vertex
from firmware.rules.game import COUNTING, OVER, IllegalMove

from .counting import Counting
from .invariants import Checker
from .played import Played
from .replay import finish, step
from .tables import Game, Table, draw_table

_SIDE = {1: "B", 2: "W"}
_WORD = {1: "black", 2: "white"}
__all__ = ["Game", "Players", "Table", "draw_table", "play_game"]


class Players(Counting):
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
            if self.sim.game.phase == OVER:  # (a foul judged after the last press ended it)
                break
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

    def choose(self, colour, avoid=()):
        """A legal point for ``colour`` that does not fill its own eye and where no stone lies
        (nor one of ``avoid``); PASS if none."""
        size = self.table.size
        game = self.shadow
        cells = game.pos.cells
        pts = [point(size, c, r) for c in range(size) for r in range(size)]
        self.rng.shuffle(pts)
        for g in pts:
            if cells[g] or self.on_board(g) or self.own_eye(g, colour) or g in avoid:
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
        # (a self-capture's first lift waits until the board has seen the stone: one lifted within
        # the sensors' settle time, 150 ms, was never on the board for it)
        lift_at = placed + rng.randint(300 if g in captured else 150, 700)
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
        if early is not None:  # the mover's press came: the early stone is the opponent's move, its press ends it
            for c in early:  # (what it captured, lifted once the board has taken it)
                self.act(self.t + rng.randint(150, 500), "lift %s" % self.vx(c), 3 - colour, "capture")
            self.act(self.t + self.press_delay(), "press %s" % _WORD[3 - colour], 3 - colour)
            return
        if self.sim.game.phase == OVER:
            return
        if rng.random() < self.slip and (self.polarity or self.timed):
            self.out_of_turn(colour)
        elif (not self.tournament and rng.random() < 0.05 and not self.later
              and self.shadow.pos.cells[g] == colour):  # (not an OP self-removal: the stone itself gone)
            self.takeback(colour, g, captured)

    def early(self, colour, placed):
        """The opponent, impatient, puts its stone down before the mover has pressed (a
        presence board waits with it: once the press comes it is the opponent's move). The
        stones it captures, or None."""
        g = self.choose(3 - colour)
        if g == PASS:
            return None
        self.act(max(self.t, placed) + self.rng.randint(200, 500), "place %s%s" % (self.vx(g), self.stone(3 - colour)),
                 3 - colour, "move %s early" % self.vx(g))
        pos = self.shadow.pos
        return [pos.removed[i] for i in range(pos.nremoved)]

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
