"""Analog Hall sensors (AH49E class) through two levels of 74HC4067 muxes: colour by polarity.

Wiring (docs/sensing.md): point p's sensor is on channel p % 16 of
first-level mux p // 16 (23 muxes, their S0-S3 shared: ``select1``).
First-level mux m feeds channel m % 12 of second-level mux m // 12
(their S0-S3 shared: ``select2``), read by ``adcs[m // 12]``. So one
``select1`` setting and one ``select2`` setting put two points on the two
ADCs at once.

Stones carry a magnet: black with its south pole down (towards the
sensor: the output rises above the quiet level), white with its north
pole down (the output falls). With the per-point ``baseline`` (calibrated
on an empty board), a reading d = sample - baseline gives, with
hysteresis on the point's previous state:

- empty -> black when d >= ``on``, -> white when d <= -``on``;
- black stays black while d > ``off`` (white likewise), else it is read
  afresh as above;
- a sample at either rail (a broken sensor or wire) is untrusted (3).

Empty points that read well inside the empty band (|d| < off / 2) pull
their baseline towards the sample by 1/2**``drift_shift`` per scan (slow
temperature/supply drift); the other points (a stone on them, a hand
near) move theirs by the mean step of those, the drift common to the
board. Baselines are fixed point (x16), integers only.

Raw slots (the Scanner contract): 2 bits per point, slot s = point s;
0 empty, 1 black, 2 white, 3 untrusted.

The calibration is kept on flash (``save(path)``, ``load(path)``): after a
power cut the stones of the game are still on the board, and calibrating
then would take their magnets for the sensors' quiet levels.
"""

import time
from array import array

from ..board_config import HALL_CAL_SAMPLES, HALL_DRIFT_SHIFT, HALL_OFF, HALL_ON
from ..micro import const

_PER_MUX = const(16)
_PER_ADC = const(12)  # first-level muxes per second-level mux
_FIX = const(4)  # baselines are stored x16
_RAIL_LOW = const(512)
_RAIL_HIGH = const(65024)


class HallArray:
    """The analog Hall array's driver; see the module doc.

    ``adcs``: the ADC objects (``read_u16``) of the second-level muxes;
    ``select1``/``select2``: the output Pins S0..S3 of each mux level.
    """

    bits_per_point = 2

    def __init__(self, adcs, select1, select2, points=361, settle_us=0, on=HALL_ON, off=HALL_OFF,
                 drift_shift=HALL_DRIFT_SHIFT):
        if off >= on:
            raise ValueError("hysteresis needs off < on")
        if len(adcs) * _PER_ADC * _PER_MUX < points:
            raise ValueError("not enough mux channels")
        self._adcs = adcs
        self._s1 = select1
        self._s2 = select2
        self.points = points
        self.settle_us = settle_us
        self.on = on
        self.off = off
        self.drift_shift = drift_shift
        self.nbytes = (points + 3) // 4
        self.point_at = array("H", [p if p < points else 0xFFFF for p in range(self.nbytes * 4)])
        self.baseline = array("i", [32768 << _FIX] * points)
        self.samples = array("H", bytes(2 * points))  # the last raw sample of each point
        self.state = bytearray(points)  # the last reading of each point (0-3)
        self._held = array("H", bytes(2 * points))  # points whose baseline did not track this read

    def _select(self, pins, n):
        pins[0].value(n & 1)
        pins[1].value((n >> 1) & 1)
        pins[2].value((n >> 2) & 1)
        pins[3].value((n >> 3) & 1)

    def sample(self):
        """Read every sensor once into ``samples`` (read_u16 counts)."""
        samples = self.samples
        adcs = self._adcs
        nadc = len(adcs)
        s1 = self._s1
        s2 = self._s2
        points = self.points
        settle = self.settle_us
        for ch1 in range(_PER_MUX):
            self._select(s1, ch1)
            for ch2 in range(_PER_ADC):
                self._select(s2, ch2)
                if settle:
                    time.sleep_us(settle)
                for a in range(nadc):
                    p = ((a * _PER_ADC + ch2) << 4) + ch1
                    if p < points:
                        samples[p] = adcs[a].read_u16()

    def calibrate(self, n=HALL_CAL_SAMPLES):
        """Baselines from ``n`` sweeps of an empty board; states reset to empty."""
        base = self.baseline
        samples = self.samples
        for p in range(self.points):
            base[p] = 0
            self.state[p] = 0
        for _ in range(n):
            self.sample()
            for p in range(self.points):
                base[p] += samples[p]
        for p in range(self.points):
            base[p] = (base[p] << _FIX) // n

    def save(self, path):
        """Keep the calibration in a file (4 bytes a point, little-endian)."""
        with open(path, "wb") as f:
            f.write(self.baseline)  # array('i'): its bytes, little-endian on RP2040, ESP32 and hosts

    def load(self, path):
        """Use a calibration kept by ``save``; False (nothing changed) if there
        is none, or it is not this array's."""
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            return False
        if len(data) != 4 * self.points:
            return False
        base = self.baseline
        for p in range(self.points):
            v = data[4 * p] | data[4 * p + 1] << 8 | data[4 * p + 2] << 16 | data[4 * p + 3] << 24
            base[p] = v - (1 << 32) if v & 0x80000000 else v
            self.state[p] = 0
        return True

    def read(self, buf):
        """Sample every point and classify it into ``buf`` (2 bits a point)."""
        self.sample()
        samples = self.samples
        base = self.baseline
        state = self.state
        on = self.on
        off = self.off
        quiet = off >> 1
        shift = self.drift_shift
        half = (1 << shift) >> 1  # rounds the step to nearest: no bias towards either side
        for i in range(self.nbytes):
            buf[i] = 0
        held = self._held
        nheld = 0
        total = 0  # the baseline steps of the tracked points, summed
        ntracked = 0
        for p in range(self.points):
            x = samples[p]
            if x <= _RAIL_LOW or x >= _RAIL_HIGH:
                v = 3
            else:
                b = base[p]
                d = x - (b >> _FIX)
                s = state[p]
                if s == 1 and d > off:
                    v = 1
                elif s == 2 and d < -off:
                    v = 2
                elif d >= on:
                    v = 1
                elif d <= -on:
                    v = 2
                else:
                    v = 0
                if v == 0 and -quiet < d < quiet:
                    step = ((x << _FIX) - b + half) >> shift
                    base[p] = b + step
                    total += step
                    ntracked += 1
                else:
                    held[nheld] = p
                    nheld += 1
            state[p] = v
            if v:
                buf[p >> 2] |= v << ((p & 3) << 1)
        # Points that cannot track (a stone on them, a hand near) follow the
        # mean step of those that did: the common part of the drift.
        if ntracked and nheld:
            if total >= 0:
                step = (total + (ntracked >> 1)) // ntracked
            else:
                step = -((-total + (ntracked >> 1)) // ntracked)
            if step:
                for i in range(nheld):
                    p = held[i]
                    base[p] += step
