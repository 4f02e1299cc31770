"""Tournament clauses a clock serves (docs/clock.md), with their settings.

The engine keeps time; these are the rule texts' special cases on top of it:
the capture-removal pause (Korean Art.14-2; Thai 24: only in byo-yomi with at
least 5 stones, or the last 10 minutes without byo-yomi), the away pause (Thai
31: once per player, in byo-yomi, during the opponent's turn), lateness (Thai
14: deducted from main time, beyond 15 minutes the game is lost), the points
an Ing overtime block costs, and the times a drawn game is replayed with
(Korean Art.21-4). Each writes its decision to the clock's event ring.
"""

from ..events import EV_AWAY_PAUSE, EV_AWAY_REFUSED, EV_CAPTURE_PAUSE, EV_CAPTURE_REFUSED, EV_LATE, EV_LATE_FORFEIT
from ..rules.position import BLACK, WHITE
from ..rules.rulesets import CAPTURE_ALWAYS, CAPTURE_THAI
from .control import BYOYOMI, ING, NONE, SIMPLE, TV
from .engine import Clock


class Clauses:
    """The clauses' settings: ``capture_policy`` (CAPTURE_ALWAYS, CAPTURE_THAI, CAPTURE_NEVER),
    ``capture_min_stones`` and ``capture_last_ms`` (Thai 24: 5 stones, 10 min), ``away_pauses``
    (Thai 31: 1 per player, in byo-yomi), ``late_limit_ms`` (Thai 14: 15 min), ``ing_points``
    (what one Ing overtime block costs)."""

    def __init__(self, capture_policy=CAPTURE_ALWAYS, capture_min_stones=5, capture_last_ms=600000, away_pauses=1,
                 late_limit_ms=900000, ing_points=2):
        self.capture_policy = capture_policy
        self.capture_min_stones = capture_min_stones
        self.capture_last_ms = capture_last_ms
        self.away_pauses = away_pauses
        self.late_limit_ms = late_limit_ms
        self.ing_points = ing_points

    def capture_pause(self, clock, stones, now_ms, log=True):
        """The mover pauses to remove ``stones`` captured stones. Policy CAPTURE_ALWAYS (Korean
        Art.14-2), CAPTURE_THAI (Thai 24: in byo-yomi with at least ``capture_min_stones`` stones;
        without byo-yomi, in the last ``capture_last_ms`` of main time) or CAPTURE_NEVER.
        Returns True if the clock paused; a refusal is logged (``log``). Finish with press() or
        resume()."""
        side = clock.turn
        if not side or clock.paused or clock.stopped or clock.check_flag(now_ms):
            return False
        ok = self.capture_policy == CAPTURE_ALWAYS and stones > 0
        if self.capture_policy == CAPTURE_THAI:
            v = clock.snap.sides[side]
            clock.view(side, clock.elapsed(now_ms), v)
            if clock.tc.has_overtime() or clock.tc.system == SIMPLE:
                ok = in_byoyomi(clock, v) and stones >= self.capture_min_stones
            else:
                ok = clock.tc.system != NONE and v.main_ms + v.delay_ms <= self.capture_last_ms
        if not ok:
            if log:
                clock.log(EV_CAPTURE_REFUSED, side, now_ms, stones)
            return False
        return clock.pause(now_ms, EV_CAPTURE_PAUSE, side, stones)

    def away_pause(self, clock, side, now_ms):
        """Thai 31: ``side``, in byo-yomi, leaves the table during the opponent's turn with the
        referee's leave; the clock stops while away, both sides' time (``away_pauses`` times per
        game): the opponent may play on (Thai 19), and its press leaves the clock stopped until
        resume(). Returns True if paused; a refusal is logged."""
        running = clock.turn
        if not running or clock.paused or clock.stopped or clock.check_flag(now_ms):
            return False
        v = clock.snap.sides[side]
        clock.view(side, 0, v)
        ok = running != side and in_byoyomi(clock, v) and clock.away_used[side] < self.away_pauses
        if not ok:
            clock.log(EV_AWAY_REFUSED, side, now_ms, 0)
            return False
        clock.away_used[side] += 1
        return clock.pause(now_ms, EV_AWAY_PAUSE, side, 0)

    def penalty_points(self, clock, side, now_ms):
        """Ing: points ``side`` owes for the overtime blocks it has entered (any fraction counts)."""
        if clock.tc.system != ING:
            return 0
        if clock.flag is not None and (clock.flag == "B") == (side == BLACK):
            return clock.tc.periods * self.ing_points
        v = clock.snap.sides[side]
        clock.view(side, clock.elapsed(now_ms) if side == clock.turn else 0, v)
        if not v.overtime:
            return 0
        return (clock.tc.periods - v.periods + 1) * self.ing_points

    def late(self, clock, side, late_ms, now_ms):
        """Thai 14: ``side`` arrived ``late_ms`` late. Up to ``late_limit_ms`` the lateness comes off
        its main time (True); beyond, the game is lost (False: the referee records it)."""
        if late_ms > self.late_limit_ms:
            clock.log(EV_LATE_FORFEIT, side, now_ms, late_ms)
            return False
        if clock.tc.system != NONE:
            cut = late_ms if late_ms < clock.main[side] else clock.main[side]
            clock.main[side] -= cut
            late_ms = cut
        clock.log(EV_LATE, side, now_ms, late_ms)
        return True


def in_byoyomi(clock, v):
    """Is the side of ``clock``'s view v in byo-yomi (its main time spent, or none to spend)?"""
    s = clock.tc.system
    return v.overtime or s == SIMPLE or s == TV or (s == BYOYOMI and clock.tc.main_ms == 0)


def replay(clock, now_ms, other=None):
    """Korean Art.21-4: a drawn game is replayed with each player's remaining time. ``other``
    (default: a new Clock), not yet started, with this clock's time control, is set to this
    clock's times (periods, stones, blocks) as of now_ms and returned."""
    snap = clock.snapshot(now_ms)
    if other is None:
        other = Clock(clock.tc, clock.events)
    for side in (BLACK, WHITE):
        v = snap.sides[side]
        other.main[side] = v.main_ms if clock.tc.system != NONE else 0
        other.periods[side] = v.periods
        other.period_ms[side] = v.period_ms
        other.stones[side] = v.stones
    if clock.tc.system == BYOYOMI:
        other.period_ms[BLACK] = other.period_ms[WHITE] = clock.tc.period_ms
    if clock.tc.system == SIMPLE or clock.tc.system == TV:
        other.main[BLACK] = other.main[WHITE] = clock.tc.main_ms
    return other
