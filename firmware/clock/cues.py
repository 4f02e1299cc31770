"""What the clock's buzzer plays: byo-yomi counting, the last seconds, a period used up, the flag.

``Cues(clock).cue(now_ms)`` is called every tick and returns the cue due now
(CUE_*, each at most once); drivers/buzzer.py plays it. Allocation-free.
Between two whole seconds of the running countdown nothing can be due, so
a tick then only compares two numbers (the clock's ``changes`` and the next
second's tick): an idle board spends its time scanning, not recounting.
"""

from ..micro import const, ticks_add, ticks_diff
from .control import ING, NONE, SIMPLE, TV

CUE_NONE = const(0)
CUE_TEN = const(1)  # another 10 s of the period used
CUE_COUNT = const(2)  # one of the last seconds
CUE_LAST = const(3)  # one of the last seconds of the last period (or of sudden death)
CUE_PERIOD = const(4)  # a byo-yomi period was used up
CUE_FLAG = const(5)
CUE_NOTICE = const(6)  # the players are told of something at once (a pass, a warning: the loop's)


class Cues:
    """The cues of one clock; ``every_ms`` / ``count_ms``: byo-yomi counting (see cue())."""

    def __init__(self, clock, every_ms=10000, count_ms=10000):
        self.clock = clock
        self.every_ms = every_ms
        self.count_ms = count_ms
        self._moves = -1
        self._periods = -1
        self._secs = -1
        self._changes = -1  # clock.changes when last looked
        self._due = 0  # the tick at which the shown second next changes

    def cue(self, now_ms):
        """The buzzer cue due now (CUE_*), each at most once; call it every tick. Allocation-free.

        In a byo-yomi or Canadian period: CUE_TEN each ``every_ms`` of the period, then
        CUE_COUNT each of the last ``count_ms`` (CUE_LAST in the last byo-yomi period),
        CUE_PERIOD when a period is used up. In sudden-death systems: CUE_LAST in the last
        ``count_ms``. CUE_FLAG once when the flag falls."""
        if self.clock.changes == self._changes and ticks_diff(now_ms, self._due) < 0:
            return CUE_NONE
        return self._check(now_ms)

    def _check(self, now_ms):
        # (apart from cue: a frame this large is taken from the heap at each call, see micro.py)
        clock = self.clock
        self._due = ticks_add(now_ms, 1000)  # nothing runs down: look again in a second
        was = clock.flag
        snap = clock.snapshot(now_ms)
        self._changes = clock.changes
        if snap.flag is not None:
            if was is None:
                return CUE_FLAG
            return CUE_NONE
        side = clock.turn
        s = clock.tc.system
        if not side or snap.paused or s == NONE:
            return CUE_NONE
        v = snap.sides[side]
        last = clock.in_last_period(v)
        if s == SIMPLE or (s == TV and not v.overtime):
            left = v.main_ms
            full = clock.tc.main_ms
        elif v.overtime:
            left = v.period_ms
            full = 0 if s == ING else clock.tc.period_ms  # Ing blocks are long: only their last seconds
        elif clock.overtime_system:
            self._moves = -1
            self._due = ticks_add(now_ms, v.main_ms)  # the periods begin
            return CUE_NONE
        else:
            left = v.main_ms + v.delay_ms
            full = 0
            last = True
        secs = (left + 999) // 1000
        self._due = ticks_add(now_ms, left - (secs - 1) * 1000)  # the next whole second (the flag at 0)
        if clock.moves == self._moves and v.periods == self._periods and secs == self._secs:
            return CUE_NONE
        first = clock.moves != self._moves
        period_used = not first and v.periods != self._periods
        self._moves = clock.moves
        self._periods = v.periods
        self._secs = secs
        if period_used:
            return CUE_PERIOD
        if first:
            return CUE_NONE
        if secs * 1000 <= self.count_ms:
            return CUE_LAST if last else CUE_COUNT
        if full > 0 and (full - secs * 1000) % self.every_ms == 0 and secs * 1000 != full:
            return CUE_TEN
        return CUE_NONE
