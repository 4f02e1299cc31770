"""What a clock's face shows for each side: a time and a count (``shown_ms``, ``shown_count``: the
display's digits here, drivers/clock_display.py draws them; the link's move lines, follower.py)."""

from ..micro import const
from ..rules.position import BLACK
from .control import CANADIAN

BLANK = const(10)  # a blank digit in digits() output


def shown_ms(v):
    """The time a side's face shows (a SideView): the period's in overtime, else the main time."""
    return v.period_ms if v.overtime else v.main_ms


def shown_count(clock, v):
    """The count beside it: Canadian stones or byo-yomi periods left."""
    return v.stones if clock.tc.system == CANADIAN else v.periods


def digits(clock, side, out):
    """Fill bytearray ``out`` (11 bytes) with what a display shows for ``side`` (after snapshot()):
    out[0:4] big digits (BLANK = 10), out[4] colon, out[5:7] the small count (byo-yomi periods
    or Canadian stones, BLANK when none), out[7] bit 0: the big digits show a period or delay,
    bit 1: the LAST period; out[8:11] 1 if its clock runs, if the clock is paused, if its flag fell.
    Seconds are rounded up; an hour or more shows H:MM. Allocation-free."""
    snap = clock.snap
    v = snap.sides[side]
    out[7] = (1 if v.overtime else 0) | (2 if clock.in_last_period(v) else 0)
    out[8] = 1 if snap.running == side else 0
    out[9] = 1 if snap.paused else 0
    out[10] = 1 if snap.flag == ("B" if side == BLACK else "W") else 0
    _periods(clock, v, out)
    _time(shown_ms(v), out)
    return out


def _periods(clock, v, out):
    # out[5:7]: the periods or stones left, or the delay's seconds. (digits is cut in three: a frame
    # over 11 words is taken from the heap at each call, see micro.py.)
    out[5] = out[6] = BLANK
    if clock.overtime_system:
        n = shown_count(clock, v)
        if n > 99:
            n = 99
        out[5] = n // 10 if n >= 10 else BLANK
        out[6] = n % 10
    if v.delay_ms:
        n = (v.delay_ms + 999) // 1000
        out[5] = n // 10 if n >= 10 else BLANK
        out[6] = n % 10


def _time(ms, out):
    # out[0:5]: the big digits and the colon, seconds rounded up, H:MM from an hour.
    secs = (ms + 999) // 1000
    if secs >= 3600:
        hi = secs // 3600
        lo = secs % 3600 // 60
    else:
        hi = secs // 60
        lo = secs % 60
    if hi > 99:
        hi = 99
    out[0] = hi // 10 if hi >= 10 else BLANK
    out[1] = hi % 10
    out[2] = lo // 10
    out[3] = lo % 10
    out[4] = 1
