"""Property test: random press/pause sequences agree to the millisecond with an independent model.

The model is deliberately naive: it advances one millisecond at a time and
knows each time system only as "what happens to the running side in this
millisecond" and "what happens on a press". Tiny time controls (ms, not
minutes) keep the simulation short; the Lcg makes it identical on CPython and
MicroPython.
"""

import sys

from diagrams import Lcg
from support import TICKS_PERIOD, check

from firmware.clock.control import (
    ABSOLUTE,
    BRONSTEIN,
    BYOYOMI,
    CANADIAN,
    DELAY,
    FISCHER,
    ING,
    NONE,
    SIMPLE,
    TV,
    TimeControl,
)
from firmware.clock.engine import Clock
from firmware.rules.position import BLACK, WHITE
from host_tools.board.clock_spec import canonical

MICRO = sys.implementation.name == "micropython"


class Model:
    def __init__(self, tc):
        self.tc = tc
        self.main = [0, tc.main_ms, tc.main_ms]
        self.periods = [0, tc.periods, tc.periods]
        self.left = [0, tc.period_ms, tc.period_ms]  # ms left in the current period
        self.stones = [0, tc.stones, tc.stones]
        self.used = [0, 0, 0]  # NONE: time used
        self.turn = 0
        self.turn_ms = 0  # ms the current turn has run (pauses excluded)
        self.paused = False
        self.flag = None
        self.now = 0

    def tick(self):
        """One millisecond passes."""
        side = self.turn
        if not side or self.paused or self.flag is not None:
            return
        tc = self.tc
        s = tc.system
        self.turn_ms += 1
        if s == NONE:
            self.used[side] += 1
            return
        if s == DELAY and self.turn_ms <= tc.delay_ms:
            return
        if self.main[side] > 0:
            self.main[side] -= 1
            if self.main[side] == 0 and s != BYOYOMI and s != CANADIAN and s != TV and s != ING:
                self._flag(side)
            if self.main[side] == 0 and (s == TV or s == ING) and self.periods[side] == 0:
                self._flag(side)
            return
        if s == BYOYOMI or s == TV or s == ING:
            self.left[side] -= 1
            if self.left[side] == 0:
                self.periods[side] -= 1
                if self.periods[side] == 0:
                    self._flag(side)
                else:
                    self.left[side] = tc.period_ms
        elif s == CANADIAN:
            self.left[side] -= 1
            if self.left[side] == 0:
                self._flag(side)

    def _flag(self, side):
        self.flag = "B" if side == BLACK else "W"

    def advance(self, to):
        while self.now < to:
            self.now += 1
            self.tick()

    def press(self, side):
        if side != self.turn or self.flag is not None:
            return False
        tc = self.tc
        s = tc.system
        if s == BYOYOMI:
            self.left[side] = tc.period_ms
        elif s == SIMPLE:
            self.main[side] = tc.main_ms
        elif s == TV:
            if self.main[side] == 0:  # a thinking period in use is gone, whatever is left of it
                self.periods[side] -= 1
            self.main[side] = tc.main_ms
            self.left[side] = tc.period_ms
        elif s == CANADIAN and self.main[side] == 0:
            self.stones[side] -= 1
            if self.stones[side] == 0:
                self.stones[side] = tc.stones
                self.left[side] = tc.period_ms
        elif s == FISCHER:
            before = self.main[side]
            self.main[side] += tc.increment_ms
            if tc.cap_ms and self.main[side] > tc.cap_ms:
                self.main[side] = max(tc.cap_ms, before)
        elif s == BRONSTEIN:
            self.main[side] += min(self.turn_ms, tc.delay_ms)
        self.turn = WHITE if side == BLACK else BLACK
        self.turn_ms = 0
        self.paused = False
        return True

    def view(self, side):
        """(main, periods, period ms, stones, delay ms) as the clock should show them."""
        tc = self.tc
        s = tc.system
        main = self.used[side] if s == NONE else self.main[side]
        delay = 0
        if s == DELAY and side == self.turn and self.turn_ms < tc.delay_ms and self.flag is None:
            delay = tc.delay_ms - self.turn_ms
        left = self.left[side]
        if self.flag is not None and (self.flag == "B") == (side == BLACK) and (s == BYOYOMI or s == TV or s == ING):
            left = 0
        return (main, self.periods[side], left, self.stones[side], delay)


def random_tc(rng):
    s = rng.below(10)
    main = rng.below(400) + 1
    if s == NONE:
        return TimeControl(NONE)
    if s == ABSOLUTE:
        return TimeControl(ABSOLUTE, main)
    if s == BYOYOMI:
        return TimeControl(BYOYOMI, rng.below(2) * main, periods=rng.below(3) + 1, period_ms=rng.below(80) + 1)
    if s == CANADIAN:
        return TimeControl(CANADIAN, rng.below(2) * main, periods=1, stones=rng.below(4) + 1,
                           period_ms=rng.below(150) + 1)
    if s == FISCHER:
        return TimeControl(FISCHER, main, increment_ms=rng.below(60) + 1,
                           cap_ms=(main + rng.below(100)) if rng.below(2) else 0)
    if s == SIMPLE:
        return TimeControl(SIMPLE, rng.below(60) + 1)
    if s == TV:
        return TimeControl(TV, rng.below(60) + 1, periods=rng.below(3), period_ms=rng.below(50) + 1)
    if s == ING:
        return TimeControl(ING, main, periods=rng.below(3) + 1, period_ms=rng.below(100) + 1)
    return TimeControl(s, main, delay_ms=rng.below(50) + 1)


def run(seed, sequences, steps):
    rng = Lcg(seed)
    failures = []
    for n in range(sequences):
        tc = random_tc(rng)
        clock = Clock(tc)
        model = Model(tc)
        base = TICKS_PERIOD - 1 - rng.below(steps * 40)  # the ticks wrap falls inside the sequence
        first = BLACK if rng.below(4) else WHITE
        clock.start(base, first)
        model.turn = first
        now = 0
        for step in range(steps):
            now += rng.below(40)
            model.advance(now)
            t = (base + now) % TICKS_PERIOD
            r = rng.below(10)
            if r < 6:
                side = model.turn if r < 5 else 3 - model.turn
                got = clock.press(side, t)
                want = model.press(side)
                what = "press %d" % side
            elif r < 8:
                got = clock.pause(t)
                want = model.turn != 0 and not model.paused and model.flag is None
                model.paused = model.paused or want
                what = "pause"
            else:
                got = clock.resume(t)
                want = model.paused and model.flag is None
                model.paused = model.paused and not want
                what = "resume"
            snap = clock.snapshot(t)
            for side in (BLACK, WHITE):
                v = snap.sides[side]
                shown = (v.main_ms, v.periods, v.period_ms, v.stones, v.delay_ms)
                if shown != model.view(side):
                    failures.append("seq %d (%s) step %d %s at %d: side %d clock %r model %r"
                                    % (n, canonical(tc), step, what, now, side, shown, model.view(side)))
            if got != want or snap.flag != model.flag or snap.running != model.turn:
                failures.append("seq %d (%s) step %d %s at %d: clock %r/%r/%r model %r/%r/%r"
                                % (n, canonical(tc), step, what, now, got, snap.flag, snap.running, want,
                                   model.flag, model.turn))
            if failures:
                return failures
    return failures


def test_random_sequences_agree_with_a_millisecond_model():
    if MICRO:
        check(run(20261121, 2000, 60))
    else:
        check(run(20261121, 5000, 60))
