"""Diagnostics mode: readings lit, stuck and dead sensors flagged, Hall calibration spread.
Runs on CPython (pytest) and MicroPython (tests/mp/run_tests.mjs)."""

from array import array

from support import check

from firmware.leds.marks import ERROR, HINT, Marks
from firmware.sensing.diagnostics import Diagnostics, outliers, spread

POINTS = 361


def top(marks, p):
    """The highest-priority kind marked at p (0: none): the one the LEDs show."""
    b = marks.bits[p]
    return b & -b


class Presence:
    """A 1-bit sensor: ``stones`` is the set of points reading a stone; slot s = point s."""

    bits_per_point = 1

    def __init__(self):
        self.nbytes = 46
        self.point_at = array("H", [p if p < POINTS else 0xFFFF for p in range(46 * 8)])
        self.stones = set()

    def read(self, buf):
        for i in range(self.nbytes):
            buf[i] = 0
        for p in self.stones:
            buf[p >> 3] |= 1 << (p & 7)


class Polarity:
    """A 2-bit sensor: ``values[p]`` 0 empty, 1 black, 2 white, 3 untrusted; slot s = point s."""

    bits_per_point = 2

    def __init__(self):
        self.nbytes = (POINTS + 3) // 4
        self.point_at = array("H", [p if p < POINTS else 0xFFFF for p in range(self.nbytes * 4)])
        self.values = bytearray(POINTS)

    def read(self, buf):
        for i in range(self.nbytes):
            buf[i] = 0
        for p in range(POINTS):
            buf[p >> 2] |= self.values[p] << ((p & 3) << 1)


def test_each_point_is_lit_as_its_sensor_reads():
    sensor = Polarity()
    marks = Marks()
    diag = Diagnostics(sensor, marks)
    diag.reset(0)
    sensor.values[0] = 1
    sensor.values[200] = 2
    sensor.values[360] = 3
    failures = []
    if diag.scan() != 2:
        failures.append("two stones read")
    for p, kind, colour in ((0, HINT, 1), (200, HINT, 2), (360, ERROR, 0)):
        if top(marks, p) != kind or (colour and marks.stone[p] != colour):
            failures.append("point %d: kind %d colour %d" % (p, top(marks, p), marks.stone[p]))
    if marks.bits[1] or diag.reading[200] != 2 or diag.reading[360] != 4:
        failures.append("readings")
    sensor.values[0] = 0
    diag.scan()
    if marks.bits[0]:
        failures.append("a lifted stone stays lit")
    check(failures)


def test_stuck_sensors_need_the_whole_window_on_an_empty_board():
    sensor = Presence()
    marks = Marks()
    diag = Diagnostics(sensor, marks, stuck_ms=1000)
    diag.reset(5000)
    sensor.stones = {7, 100}
    failures = []
    diag.scan()
    if diag.stuck(5500) != []:
        failures.append("stuck before the window ends")
    sensor.stones = {7}  # 100 was a hand passing over
    diag.scan()
    sensor.stones = {7, 100}
    diag.scan()
    if diag.stuck(6000) != [7]:
        failures.append("stuck: %r" % diag.stuck(6000))
    if diag.flag(diag.stuck(6000)) != 1 or top(marks, 7) != ERROR:
        failures.append("stuck point not flagged")
    if marks.stone[7] != 0 or top(marks, 100) != HINT:
        failures.append("presence stones have no colour; 100 is lit")
    check(failures)


def cleared(diag, sensor_clear_at=2000):
    """The board read empty (stuck sensors aside) since reset: the walk may begin."""
    diag.step(sensor_clear_at)
    assert not diag.clearing


def test_dead_sensors_after_a_walk_over_every_point():
    sensor = Presence()
    diag = Diagnostics(sensor, Marks())
    diag.reset(0)
    cleared(diag)
    for p in range(POINTS):
        if p not in (13, 299):  # two broken switches
            sensor.stones = {p}
        diag.scan()
        sensor.stones = set()
    check([] if diag.dead() == [13, 299] and diag.walked() == POINTS - 2 else ["dead: %r" % diag.dead()])


def test_untrusted_readings_make_a_sensor_dead():
    sensor = Polarity()
    diag = Diagnostics(sensor, Marks())
    diag.reset(0)
    cleared(diag)
    for p in range(POINTS):
        sensor.values[p] = 1 + (p & 1)
    sensor.values[42] = 3
    diag.scan()
    sensor.values[42] = 1
    diag.scan()
    check([] if diag.dead() == [42] else ["dead: %r" % diag.dead()])


def test_calibration_spread_and_outliers():
    baseline = array("i", [32768 << 4] * POINTS)
    baseline[10] = 30000 << 4
    baseline[20] = 36000 << 4
    lo, hi, mean = spread(baseline)
    failures = []
    if (lo, hi) != (30000, 36000) or mean != (32768 * 359 + 66000) // 361:
        failures.append("spread %r" % ((lo, hi, mean),))
    if outliers(baseline, 1000) != [10, 20] or outliers(baseline, 4000) != []:
        failures.append("outliers %r" % outliers(baseline, 1000))
    check(failures)


def test_the_guided_check_outliers_then_stones_left_then_the_walk():
    sensor = Polarity()
    sensor.baseline = array("i", [32768 << 4] * POINTS)
    sensor.baseline[10] = 30000 << 4  # more than HALL_OFF from the mean
    marks = Marks()
    diag = Diagnostics(sensor, marks, stuck_ms=1000)
    diag.reset(0)
    sensor.values[5] = 1  # a stone left from the last game (or a stuck sensor: nobody can tell yet)
    sensor.values[6] = 2
    failures = []
    diag.step(0)
    if diag.bad != [10] or top(marks, 10) != ERROR or top(marks, 5) != HINT or not diag.clearing:
        failures.append("outlier flagged at once: %r" % diag.bad)
    diag.step(1000)
    if diag.nstuck != 2 or top(marks, 5) != ERROR or diag.clearing is not False:
        failures.append("read a stone since the start: stuck %d" % diag.nstuck)
    sensor.values[6] = 0  # a stone: lifted, its sensor is healthy
    sensor.values[5] = 0
    sensor.values[7] = 1  # the walk begins
    diag.step(1010)
    if diag.nstuck or top(marks, 5) or top(marks, 6) or diag.walked() != 1:
        failures.append("lifted stones still flagged: %d, walked %d" % (diag.nstuck, diag.walked()))
    if diag.check_dead() is not True or len(diag.bad) != POINTS - 1 or 7 in diag.bad:
        failures.append("dead: %d" % len(diag.bad))
    diag.step(1020)
    if top(marks, 200) != ERROR or top(marks, 7) != HINT:
        failures.append("dead points not flagged")
    diag.reset(2000)  # again, before any walk: MENU flags nothing
    diag.step(3000)
    if diag.check_dead() is not False or diag.bad != [10]:
        failures.append("a check before the walk flagged %d" % len(diag.bad))
    check(failures)
