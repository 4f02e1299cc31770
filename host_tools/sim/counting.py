"""The players at the count: dead stones lifted, dame filled, agreement or play on (players.py's ``Counting``).

A mixin of ``Players``: it reads the board's LEDs as the players do (the stones lit to lift,
the dame lit to fill) and acts through ``Players.act``.
"""

from __future__ import annotations

from firmware.leds.marks import DAME, LIFT
from firmware.rules.coords import PASS
from firmware.rules.game import COUNTING, OVER, PLAYING
from firmware.rules.rulesets import SCORE_TERRITORY

from .played import moves_of

_WORD = {1: "black", 2: "white"}


class Counting:
    """The count's acts of ``Players`` (see the module doc)."""

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
            cells = self.shadow.pos.cells
            for p in lit:
                if self.sim.hw.stones.colour[p]:
                    who = self.sim.hw.stones.colour[p]
                    if not cells[self.sim.referee.region.game_of[p]]:  # a captured stone left there: off it goes
                        self.act(self.t + rng.randint(100, 500), "lift %s" % self.name_of(p), 3 - who, "capture")
                        continue
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
        for _ in range(60 if self.sim.game.rules.scoring == SCORE_TERRITORY else 0):  # (area: a stone is a move)
            dead = {p for p, _who in lifted}  # (a stone there is a dead one put back, to the board)
            colour = self.sim.game.to_move
            game_of = self.sim.referee.region.game_of
            counter = self.sim.game.counter()  # (the players see which fills are safe: one that captures is a move)
            dame = [p for p in self.lit(DAME) if not self.sim.hw.stones.colour[p] and p not in dead
                    and counter.fills_dame(game_of[p], colour)]
            if not dame or self.sim.game.phase != COUNTING:
                break
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
        # A stone resumes play: the first passer's (Thai 12.3; the requester's opponent under the
        # Japanese rules: the one who placed a stone asked). The second passer's is refused
        # (polarity) or is the first passer's (presence): tests/firmware/test_table_play.py.
        colour = passer_first
        self.shadow.resume()  # (the tag of the stone's line does it too: a stone resumes play)
        self.shadow.to_move = colour
        game_of = self.sim.referee.region.game_of
        g = self.choose(colour, {game_of[p] for p in self.lit(DAME)})  # (a stone on a lit dame fills it)
        self.shadow.to_move = colour  # (choose's tries take their moves back: to_move from the history again)
        if g == PASS:
            self.shadow.to_move = passer_first
            self.act(self.t + 300, "button resume", colour, "resume")  # (resumed already: the tag changes nothing)
            return
        self.t += rng.randint(300, 1000)
        self.move(colour, g)
