"""The simulated physical board: what sits on each point, and hands passing by.

Every simulated sensor twin reads one ``SimBoard`` at its current time
(``set_time``). Points are numbered p = row * 19 + col, row 0 the top row.
Colours: 0 empty, 1 black, 2 white.

A hover is a magnet carried near point p (a hand sliding a stone across the
board, or holding one above it): from ``now_ms`` for ``duration_ms`` the
sensors there read a stone of the hover's colour, whatever lies on the point.

Also here, for tests and benchmarks: ``SimPin`` (a ``machine.Pin`` stand-in
that remembers its level and may call back on a change), ``NullSensor``
(a sensor whose read does nothing) and ``RawSensor`` (copies a raw image the
test writes).
"""

import time
from array import array

NPOINTS = 361


class SimBoard:
    """Stones and transient magnets on the 361 points; see the module doc."""

    def __init__(self, points=NPOINTS):
        self.points = points
        self.stones = bytearray(points)
        self.now = 0
        self._hover_colour = bytearray(points)  # 0: no hover on the point
        self._hover_start = array("i", bytes(4 * points))
        self._hover_end = array("i", bytes(4 * points))

    def set_time(self, now_ms):
        """The time the sensors read the board at (ms ticks)."""
        self.now = now_ms

    def place(self, p, colour):
        """Put a stone of ``colour`` (1 black, 2 white) on point p."""
        self.stones[p] = colour

    def lift(self, p):
        """Take the stone off point p."""
        self.stones[p] = 0

    def clear(self):
        """An empty board with no hovers."""
        for p in range(self.points):
            self.stones[p] = 0
            self._hover_colour[p] = 0

    def hover(self, p, now_ms, duration_ms, colour=1):
        """A stone of ``colour`` held near point p from ``now_ms`` for ``duration_ms``."""
        self._hover_colour[p] = colour
        self._hover_start[p] = now_ms
        self._hover_end[p] = time.ticks_add(now_ms, duration_ms)

    def next_change(self, now_ms):
        """Milliseconds until the next hover starts or ends after ``now_ms``
        (what the sensors read changes then), or -1 if none will."""
        soonest = -1
        for p in range(self.points):
            if self._hover_colour[p]:
                for edge in (self._hover_start[p], self._hover_end[p]):
                    left = time.ticks_diff(edge, now_ms)
                    if left > 0 and (soonest < 0 or left < soonest):
                        soonest = left
        return soonest

    def sensed(self, p):
        """What a sensor at point p meets now: 0 nothing, 1 black, 2 white."""
        c = self._hover_colour[p]
        if c:
            now = self.now
            if time.ticks_diff(now, self._hover_start[p]) >= 0 and time.ticks_diff(now, self._hover_end[p]) < 0:
                return c
        return self.stones[p]


class SimPin:
    """A ``machine.Pin`` stand-in: ``value()`` reads, ``value(v)`` sets; calls
    ``on_change(pin)`` when the level changes."""

    def __init__(self, level=1, on_change=None):
        self.level = level
        self.on_change = on_change
        self.changes = 0

    def value(self, v=None):
        if v is None:
            return self.level
        v = 1 if v else 0
        if v != self.level:
            self.level = v
            self.changes += 1
            if self.on_change is not None:
                self.on_change(self)
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class NullSensor:
    """A sensor whose ``read`` does nothing (benchmarks: the transfer excluded)."""

    def __init__(self, nbytes=46, bits_per_point=1, points=NPOINTS):
        self.nbytes = nbytes
        self.bits_per_point = bits_per_point
        slots = nbytes * 8 // bits_per_point
        self.point_at = array("H", [p if p < points else 0xFFFF for p in range(slots)])

    def read(self, buf):
        pass


class RawSensor(NullSensor):
    """A sensor returning ``self.raw``, which tests write (slot s = point s)."""

    def __init__(self, nbytes=46, bits_per_point=1, points=NPOINTS):
        NullSensor.__init__(self, nbytes, bits_per_point, points)
        self.raw = bytearray(nbytes)

    def set(self, p, value):
        """Set slot p's raw value."""
        bpp = self.bits_per_point
        per = 8 // bpp
        shift = (p % per) * bpp
        mask = (1 << bpp) - 1
        i = p // per
        self.raw[i] = (self.raw[i] & ~(mask << shift) & 0xFF) | ((value & mask) << shift)

    def read(self, buf):
        raw = self.raw
        for i in range(self.nbytes):
            buf[i] = raw[i]


class SimPresence(NullSensor):
    """A presence twin reading a ``SimBoard`` directly (slot s = point s):
    the fast stand-in for any 1-bit sensor in timing tests and the simulator."""

    def __init__(self, board):
        NullSensor.__init__(self, (board.points + 7) // 8, 1, board.points)
        self.board = board

    def read(self, buf):
        sensed = self.board.sensed
        for i in range(self.nbytes):
            buf[i] = 0
        for p in range(self.board.points):
            if sensed(p):
                buf[p >> 3] |= 1 << (p & 7)


class SimPolarity(NullSensor):
    """A polarity twin reading a ``SimBoard`` directly (slot s = point s, 2 bits:
    0 empty, 1 black, 2 white): the fast stand-in for the Hall array."""

    def __init__(self, board):
        NullSensor.__init__(self, (board.points + 3) // 4, 2, board.points)
        self.board = board

    def read(self, buf):
        sensed = self.board.sensed
        for i in range(self.nbytes):
            buf[i] = 0
        for p in range(self.board.points):
            c = sensed(p)
            if c:
                buf[p >> 2] |= c << ((p & 3) << 1)
