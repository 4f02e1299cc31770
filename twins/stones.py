"""The physical board's stones, simulated: what lies on each point, and hands passing by.

Every simulated sensor twin reads one ``Stones`` at its current time
(``set_time``). Points are numbered p = row * 19 + col, row 0 the top row.
Colours: 0 empty, 1 black, 2 white.

A hover is a magnet carried near point p (a hand sliding a stone across the
board, or holding one above it): from ``now_ms`` for ``duration_ms`` the
sensors there read a stone of the hover's colour, whatever lies on the point.

"""

from array import array

from firmware.micro import ticks_add, ticks_diff

NPOINTS = 361


class Stones:
    """Stones and transient magnets on the 361 points; see the module doc."""

    def __init__(self, points=NPOINTS):
        self.points = points
        self.colour = bytearray(points)
        self.now = 0
        self._hover_colour = bytearray(points)  # 0: no hover on the point
        self._hover_start = array("i", bytes(4 * points))
        self._hover_end = array("i", bytes(4 * points))
        self._hovered = []  # the points with a hover not yet over

    def set_time(self, now_ms):
        """The time the sensors read the board at (ms ticks)."""
        self.now = now_ms

    def place(self, p, colour):
        """Put a stone of ``colour`` (1 black, 2 white) on point p."""
        self.colour[p] = colour

    def lift(self, p):
        """Take the stone off point p."""
        self.colour[p] = 0

    def clear(self):
        """An empty board with no hovers."""
        for p in range(self.points):
            self.colour[p] = 0
            self._hover_colour[p] = 0
        self._hovered = []

    def hover(self, p, now_ms, duration_ms, colour=1):
        """A stone of ``colour`` held near point p from ``now_ms`` for ``duration_ms``."""
        self._hover_colour[p] = colour
        self._hover_start[p] = now_ms
        self._hover_end[p] = ticks_add(now_ms, duration_ms)
        if p not in self._hovered:
            self._hovered.append(p)

    def next_change(self, now_ms):
        """Milliseconds until the next hover starts or ends after ``now_ms``
        (what the sensors read changes then), or -1 if none will."""
        soonest = -1
        for p in list(self._hovered):
            if ticks_diff(self._hover_end[p], now_ms) <= 0:
                self._hovered.remove(p)  # over: it changes nothing any more
                continue
            for edge in (self._hover_start[p], self._hover_end[p]):
                left = ticks_diff(edge, now_ms)
                if left > 0 and (soonest < 0 or left < soonest):
                    soonest = left
        return soonest

    def sensed_all(self, out):
        """What the sensors meet at every point now, into ``out`` (bytearray(points))."""
        out[:] = self.colour
        now = self.now
        for p in self._hovered:
            if ticks_diff(now, self._hover_start[p]) >= 0 and ticks_diff(now, self._hover_end[p]) < 0:
                out[p] = self._hover_colour[p]

    def sensed(self, p):
        """What a sensor at point p meets now: 0 nothing, 1 black, 2 white."""
        c = self._hover_colour[p]
        if c:
            now = self.now
            if ticks_diff(now, self._hover_start[p]) >= 0 and ticks_diff(now, self._hover_end[p]) < 0:
                return c
        return self.colour[p]
