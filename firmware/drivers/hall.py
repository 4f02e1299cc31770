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

Speed (a read must fit the 10 ms scan on an RP2040): the muxes are walked
in a Gray-like order (``_CODE``), one select line changing per step
instead of four, and every sample waits ``settle_us`` after its step's
change. Where the port compiles viper code (rp2, unix) a read is one viper
function (drivers/hall_viper.py, compiled at import, so ``make mpy`` stays
bytecode-only): each step sets its line, then classifies the points
sampled at the step before while the muxes settle (timed with
time.ticks_us), then samples; the lines and ADCs are called without a
Python loop around them. Elsewhere (CPython, the WebAssembly port) the
Python loops sweep, sleeping ``settle_us`` a step, then classify. Both
give the same readings and baselines. On the emulated Pico (docs/device.md):
a viper read takes 7.1 ms, the Python path 30.6 ms.

The calibration is kept on flash (``save(path)``, ``load(path)``): after a
power cut the stones of the game are still on the board, and calibrating
then would take their magnets for the sensors' quiet levels.
"""

from array import array

from ..board_config import HALL_CAL_SAMPLES, HALL_DRIFT_SHIFT, HALL_OFF, HALL_ON
from ..micro import const
from .hall_viper import build, source

try:
    from time import sleep_us, ticks_us
except ImportError:  # CPython
    from ..micro import sleep_us, ticks_us

_PER_MUX = const(16)
_PER_ADC = const(12)  # first-level muxes per second-level mux
_STEPS = const(192)  # mux settings in a sweep: _PER_MUX * _PER_ADC
_FIX = const(4)  # baselines are stored x16
_RAIL_LOW = const(512)
_RAIL_HIGH = const(65024)


def _sweep():
    """The mux settings of a sweep, each one select line away from the last
    (the first from the settings ``sample`` starts at): ``_CODE[k]`` = the
    line (0-3: S0-S3 of the first level, 4-7: the second's) | its level << 3;
    ``_CHAN[k]`` = the point ADC 0 sees then (ADC a: + a * _STEPS)."""
    order2 = b"\x04\x05\x07\x06\x02\x03\x01\x00\x08\x09\x0b\x0a"  # 0-11, one bit apart
    code = bytearray(_STEPS)
    chan = bytearray(_STEPS)
    ch1 = 0
    ch2 = order2[0]
    k = 0
    for i in range(_PER_MUX):
        g = i ^ (i >> 1)  # Gray code: one bit from the last
        line = 0
        if g != ch1:
            line = (1, 2, 4, 8).index(g ^ ch1)
        ch1 = g
        for j in range(_PER_ADC):
            c2 = order2[j if i & 1 == 0 else _PER_ADC - 1 - j]
            if j:
                line = 4 + (1, 2, 4, 8).index(c2 ^ ch2)
            ch2 = c2
            level = (ch2 >> (line - 4) if line >= 4 else ch1 >> line) & 1
            code[k] = line | level << 3
            chan[k] = (ch2 << 4) + ch1
            k += 1
    return bytes(code), bytes(chan)


_CODE, _CHAN = _sweep()

_native = build(_CODE, _CHAN, source(_STEPS, _RAIL_LOW, _RAIL_HIGH, _FIX))  # {} where the port cannot


class HallArray:
    """The analog Hall array's driver; see the module doc.

    ``adcs``: the ADC objects (``read_u16``) of the second-level muxes (the
    first two are read: 384 points at most); ``select1``/``select2``: the
    output Pins S0..S3 of each mux level (set by calling them, ``pin(level)``:
    MicroPython's fast path); ``settle_us``: the least time from setting a
    select line to sampling; ``native``: use the viper sweep where the port
    has it (False: the Python loops, as on ports without a native emitter).
    """

    bits_per_point = 2

    def __init__(self, adcs, select1, select2, points=361, settle_us=0, on=HALL_ON, off=HALL_OFF,
                 drift_shift=HALL_DRIFT_SHIFT, native=True):
        if off >= on:
            raise ValueError("hysteresis needs off < on")
        if min(len(adcs), 2) * _STEPS < points:
            raise ValueError("not enough mux channels")
        self._lines = tuple(select1) + tuple(select2)  # S0-S3 of each level: _CODE's line numbers
        self._read0 = adcs[0].read_u16
        self._read1 = adcs[min(len(adcs), 2) - 1].read_u16  # (with one ADC, no point is on a second)
        self._clock = ticks_us  # the viper sweep times the settling with it
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
        self._sums = array("i", [0, 0, 0])  # the classification's tracked total, tracked and held counts
        self.native = bool(native and _native)

    def _start(self):
        """The select lines on the sweep's first setting (``_CHAN[0]``: S0-S3 of
        the first level in its low nibble, of the second in its high one)."""
        lines = self._lines
        c = _CHAN[0]
        for i in range(8):
            lines[i]((c >> i) & 1)

    def sample(self):
        """Read every sensor once into ``samples`` (read_u16 counts)."""
        self._start()
        if self.native:
            _native["sweep"](self, self.state, 0)  # 0: sample only (nothing else is touched)
            return
        samples = self.samples
        lines = self._lines
        read0 = self._read0
        read1 = self._read1
        code = _CODE
        chan = _CHAN
        points = self.points
        settle = self.settle_us
        for k in range(_STEPS):
            c = code[k]
            lines[c & 7](c >> 3)
            if settle:
                sleep_us(settle)
            p = chan[k]
            if p < points:
                samples[p] = read0()
                p += _STEPS
                if p < points:
                    samples[p] = read1()

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
        if self.native:
            self._start()
            _native["sweep"](self, buf, 1)  # the sweep, each point classified as the next ones settle
        else:
            self.sample()
            self._classify(buf)
        # Points that cannot track (a stone on them, a hand near) follow the
        # mean step of those that did: the common part of the drift.
        total, ntracked, nheld = self._sums
        if ntracked and nheld:
            if total >= 0:
                step = (total + (ntracked >> 1)) // ntracked
            else:
                step = -((-total + (ntracked >> 1)) // ntracked)
            if not step:
                return
            if self.native:
                _native["nudge"](self.baseline, self._held, nheld, step)
                return
            base = self.baseline
            held = self._held
            for i in range(nheld):
                base[held[i]] += step

    def _classify(self, buf):
        """Each point's reading into ``buf`` and ``state``, baselines tracked;
        the points held back into ``_held``, the counts into ``_sums``."""
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
        sums = self._sums
        sums[0] = total
        sums[1] = ntracked
        sums[2] = nheld
