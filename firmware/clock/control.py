"""A time control as the clock runs it: the time systems' numbers and the ``TimeControl`` record.

spec.py reads one from its text (the grammar, loaded only while a game is set
up); the clock keeps the record for the whole game (engine.py ``Clock.tc``).
"""

from ..micro import const

# Time systems.
NONE = const(0)
ABSOLUTE = const(1)
BYOYOMI = const(2)
CANADIAN = const(3)
FISCHER = const(4)
DELAY = const(5)  # simple (US) delay: the first D ms of each turn are free
BRONSTEIN = const(6)  # the time used, up to D, is given back after the move
SIMPLE = const(7)  # a fixed time for every move
TV = const(8)  # Japanese TV style: T per move, then N thinking periods, any fraction using one up
ING = const(9)  # Ing overtime: main time, then N blocks carried over, each costing ing_points


class TimeControl:
    """A parsed spec: ``system`` and its figures in ms (0 when unused); the host's
    ``canonical(tc)`` gives its text (host_tools/board/clock_spec.py)."""

    def __init__(self, system, main_ms=0, periods=0, period_ms=0, stones=0, increment_ms=0, cap_ms=0,
                 delay_ms=0):
        self.system = system
        self.main_ms = main_ms
        self.periods = periods
        self.period_ms = period_ms
        self.stones = stones
        self.increment_ms = increment_ms
        self.cap_ms = cap_ms
        self.delay_ms = delay_ms

    def has_overtime(self):
        s = self.system
        return s == BYOYOMI or s == CANADIAN or s == TV or s == ING
