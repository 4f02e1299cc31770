"""Sensor twins: what the sensors under the points read of the simulated ``Stones``.

``twin(stones, kind)`` is the one call: the real driver of a sensing variant on
its simulated hardware ("shift", "matrix", "hall"; default board_config.SENSORS),
or the fast twins reading the stones directly with no wiring simulated
("presence", "polarity"). A Hall array comes back calibrated on the board as it
is (leave it empty)::

    stones = Stones()
    scanner = Scanner(twin(stones, "shift"))

Also for tests and benchmarks: ``NullSensor`` (a read that does nothing) and
``RawSensor`` (returns the raw image a test writes).
"""

from array import array

from firmware.board_config import SENSORS

from .hall import SimHallBus
from .matrix import SimDiodeMatrix
from .shift165 import SimShiftChain
from .stones import NPOINTS


def twin(stones, kind=SENSORS, **options):
    """A sensor reading ``stones``; ``options`` go to the simulated hardware."""
    if kind == "shift":
        return SimShiftChain(stones, **options).driver()
    if kind == "matrix":
        return SimDiodeMatrix(stones, **options).driver()
    if kind == "hall":
        driver = SimHallBus(stones, **options).driver()
        driver.calibrate()
        return driver
    if kind == "presence":
        return SimPresence(stones)
    if kind == "polarity":
        return SimPolarity(stones)
    raise ValueError("unknown sensor kind: " + kind)


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


class StonesReader(NullSensor):
    """A sensor twin reading the ``Stones`` directly (slot s = point s), no wiring
    simulated: 1 bit a point (presence: 1 a stone) or 2 (polarity: 1 black, 2 white)."""

    def __init__(self, stones, bits_per_point):
        NullSensor.__init__(self, (stones.points * bits_per_point + 7) // 8, bits_per_point, stones.points)
        self.stones = stones
        self._met = bytearray(stones.points)

    def read(self, buf):
        met = self._met
        self.stones.sensed_all(met)
        for i in range(self.nbytes):
            buf[i] = 0
        bpp = self.bits_per_point
        for p in range(len(met)):
            c = met[p]
            if c:
                bit = p * bpp
                buf[bit >> 3] |= (c if bpp == 2 else 1) << (bit & 7)


class SimPresence(StonesReader):
    """The fast stand-in for any 1-bit sensor (timing tests, the simulators)."""

    def __init__(self, stones):
        StonesReader.__init__(self, stones, 1)


class SimPolarity(StonesReader):
    """The fast stand-in for the Hall array (2 bits: 0 empty, 1 black, 2 white)."""

    def __init__(self, stones):
        StonesReader.__init__(self, stones, 2)
