"""Simulated Hall sensors, 74HC4067 muxes and ADCs for the real ``HallArray``.

``SimHallBus(stones, ...)`` gives ``select1``/``select2`` (four ``SimPin``
each, S0..S3) and ``adcs`` (``SimADC``, ``read_u16``) wired as
firmware/drivers/hall.py says. An ADC returns, for the point its muxes
select at the ``Stones``'s time:

    quiet level of that sensor (32768 + a fixed per-sensor offset)
    + drift (``drift_per_s`` counts per second since time 0, all sensors)
    +/- the magnet's signal (per-sensor strength; + black, - white)
    + uniform noise in [-noise, noise]

An unconnected channel reads mid-scale plus noise. Deterministic (an LCG).
"""

from array import array

from firmware.drivers.hall import HallArray

from .pins import SimPin


class _Lcg:
    def __init__(self, seed):
        self.state = seed & 0x3FFFFFFF

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.state >> 8) % n


class SimADC:
    """One ADC input behind second-level mux ``index``."""

    def __init__(self, bus, index):
        self.bus = bus
        self.index = index
        self.reads = 0

    def read_u16(self):
        self.reads += 1
        return self.bus.level(self.index)


class SimHallBus:
    """Sensors, muxes and ADCs; see the module doc."""

    def __init__(self, stones, nadc=2, noise=60, offset=1500, signal=3000, signal_spread=800,
                 drift_per_s=0, seed=1):
        self.stones = stones
        self.points = stones.points
        self.noise = noise
        self.drift_per_s = drift_per_s
        self.select1 = [SimPin(0) for _ in range(4)]
        self.select2 = [SimPin(0) for _ in range(4)]
        self.adcs = [SimADC(self, a) for a in range(nadc)]
        rng = _Lcg(seed)
        self._rng = rng
        self.quiet = array("i", [32768 - offset + rng.below(2 * offset + 1) for _ in range(self.points)])
        self.signal = array("i", [signal - signal_spread + rng.below(2 * signal_spread + 1)
                                  for _ in range(self.points)])
        self.broken = bytearray(self.points)  # 1: the sensor's output is stuck at the low rail

    def driver(self, settle_us=0, **kw):
        """The real driver on this simulated hardware."""
        return HallArray(self.adcs, self.select1, self.select2, self.points, settle_us, **kw)

    @staticmethod
    def _channel(pins):
        return pins[0].level | (pins[1].level << 1) | (pins[2].level << 2) | (pins[3].level << 3)

    def selected(self, adc):
        """The point ADC ``adc`` sees now, or -1 (an unconnected channel)."""
        ch2 = self._channel(self.select2)
        if ch2 >= 12:
            return -1
        p = ((adc * 12 + ch2) << 4) + self._channel(self.select1)
        return p if p < self.points else -1

    def drift(self):
        return self.stones.now * self.drift_per_s // 1000

    def level(self, adc):
        p = self.selected(adc)
        n = self.noise
        x = 32768 if p < 0 else self.quiet[p] + self.drift()
        if p >= 0:
            if self.broken[p]:
                return 0
            c = self.stones.sensed(p)
            if c == 1:
                x += self.signal[p]
            elif c == 2:
                x -= self.signal[p]
        if n:
            x += self._rng.below(2 * n + 1) - n
        return 0 if x < 0 else 65535 if x > 65535 else x
