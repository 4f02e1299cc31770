"""Analog Hall array: mux wiring, calibration, thresholds with hysteresis, polarity, noise, drift."""

import sys

from diagrams import Lcg
from support import check

from firmware.drivers.hall import ticks_us
from firmware.micro import ticks_diff
from firmware.sensing.scanner import Scanner
from twins.hall import SimHallBus
from twins.stones import Stones

ON = 1200
OFF = 700


def reading(driver, buf):
    """Per point value (0-3) of a raw buffer."""
    return bytes((buf[p >> 2] >> ((p & 3) << 1)) & 3 for p in range(driver.points))


def rig(points=361, **kw):
    board = Stones(points)
    bus = SimHallBus(board, **kw)
    driver = bus.driver(on=ON, off=OFF)
    driver.calibrate()
    return board, bus, driver, bytearray(driver.nbytes)


def test_every_mux_setting_selects_each_point_once():
    board = Stones()
    bus = SimHallBus(board)
    seen = []
    for ch1 in range(16):
        for ch2 in range(16):
            for a in range(2):
                for i in range(4):
                    bus.select1[i].value((ch1 >> i) & 1)
                    bus.select2[i].value((ch2 >> i) & 1)
                p = bus.selected(a)
                if p >= 0:
                    seen.append(p)
    assert sorted(seen) == list(range(361))


def test_calibration_finds_each_sensors_quiet_level():
    _board, bus, driver, _buf = rig(noise=80)
    failures = []
    for p in range(361):
        got = driver.baseline[p] >> 4
        if abs(got - bus.quiet[p]) > 40:  # 16 samples of +-80 noise
            failures.append("point %d: baseline %d, quiet level %d" % (p, got, bus.quiet[p]))
    check(failures)


def test_random_boards_read_exactly_with_polarity():
    board, _bus, driver, buf = rig(noise=80)
    rng = Lcg(5)
    failures = []
    for rnd in range(4):
        for p in range(361):
            board.colour[p] = rng.below(3)
        driver.read(buf)
        got = reading(driver, buf)
        if got != bytes(board.colour):
            bad = [p for p in range(361) if got[p] != board.colour[p]]
            failures.append("round %d: points %r" % (rnd, bad[:10]))
    check(failures)


def test_hover_reads_the_hovering_stones_colour():
    board, _bus, driver, buf = rig(points=40)
    board.place(3, 1)
    board.hover(3, 0, 50, 2)
    board.hover(4, 0, 50, 1)
    board.set_time(10)
    driver.read(buf)
    assert reading(driver, buf)[3:5] == bytes([2, 1])
    board.set_time(60)
    driver.read(buf)
    assert reading(driver, buf)[3:5] == bytes([1, 0])


# (signal seen by the sensor of a black stone, expected reading): ON/OFF hysteresis
HYSTERESIS = [(0, 0), (ON - 1, 0), (ON, 1), (OFF + 1, 1), (ON - 1, 1), (OFF, 0), (ON - 1, 0), (ON + 500, 1),
              (-(OFF + 1), 0), (-(ON - 1), 0), (-ON, 2), (-(OFF + 1), 2), (-OFF, 0), (OFF + 1, 0),
              (-(ON + 3000), 2), (ON + 3000, 1)]


def test_thresholds_with_hysteresis():
    board, bus, driver, buf = rig(points=20, noise=0)
    p = 7
    board.place(p, 1)
    failures = []
    for i, (signal, want) in enumerate(HYSTERESIS):
        bus.signal[p] = signal
        driver.read(buf)
        got = reading(driver, buf)[p]
        if got != want:
            failures.append("step %d signal %d: read %d, want %d" % (i, signal, got, want))
    check(failures)


def test_no_chatter_at_the_threshold():
    # a stone whose signal sits right at ON, with noise below the hysteresis band
    failures = []
    for colour in (1, 2):
        board, bus, driver, buf = rig(points=20, noise=(ON - OFF) // 2 - 10, seed=colour)
        board.place(5, colour)
        bus.signal[5] = ON
        flips = 0
        last = 0
        for _ in range(300):
            driver.read(buf)
            v = reading(driver, buf)[5]
            if v != last:
                flips += 1
                last = v
        if flips > 1 or last != colour:
            failures.append("colour %d: %d flips, last %d" % (colour, flips, last))
    check(failures)


def test_broken_sensor_is_untrusted():
    board, bus, driver, buf = rig(points=20)
    bus.broken[9] = 1
    board.place(10, 2)
    driver.read(buf)
    assert reading(driver, buf)[8:11] == bytes([0, 3, 2])


def run_drift(drift_shift):
    """Two minutes at 10 scans/s with the quiet level drifting 20 counts/s
    (2400 in all, twice ON), a black stone on point 5 and a white one on 6
    all along; then they are lifted and a black and a white stone are
    placed on points 1 and 2. Returns the frame a Scanner settles on at the end."""
    board = Stones(40)
    bus = SimHallBus(board, noise=60, drift_per_s=20)
    driver = bus.driver(on=ON, off=OFF, drift_shift=drift_shift)
    driver.calibrate()
    scanner = Scanner(driver, 150, points=40)
    board.place(5, 1)
    board.place(6, 2)
    t = 0
    while t < 120000:
        board.set_time(t)
        scanner.scan(t)
        t += 100
    board.lift(5)
    board.lift(6)
    board.place(1, 1)
    board.place(2, 2)
    for _ in range(5):
        board.set_time(t)
        scanner.scan(t)
        t += 100
    return bytes(scanner.frame)


def test_slow_drift_is_tracked_on_empty_points_and_under_stones():
    want = bytes([0, 1, 2] + [0] * 37)
    assert run_drift(6) == want
    # the same drift without tracking makes phantom stones: the test has teeth
    assert run_drift(30) != want


def test_a_kept_calibration_reads_the_stones_left_on_after_a_power_cut():
    board, bus, driver, buf = rig()
    path = "hall_calibration_test.bin"
    driver.save(path)
    try:
        for p in (0, 60, 180):
            board.place(p, 1)
        board.place(200, 2)
        later = bus.driver(on=ON, off=OFF)  # power back, the stones still on the board
        assert later.load(path)
        assert list(later.baseline) == list(driver.baseline)
        later.read(buf)
        values = reading(later, buf)
        assert [values[p] for p in (0, 60, 180, 200, 1)] == [1, 1, 1, 2, 0]
        fresh = bus.driver(on=ON, off=OFF)
        fresh.calibrate()  # what calibrating at that power-up would do: the stones vanish
        fresh.read(buf)
        assert reading(fresh, buf)[180] == 0
        assert not fresh.load("no_such_calibration.bin")
        short = SimHallBus(Stones(100)).driver()
        assert not short.load(path)  # another array's calibration is refused
    finally:
        import os

        os.remove(path)


def native_emitter():
    """Whether this interpreter compiles viper code (the unix and rp2 ports do)."""
    try:
        import micropython

        exec("@micropython.viper\ndef f(x: int) -> int:\n    return x + 1", {"micropython": micropython})
    except (ImportError, SyntaxError, ValueError, NotImplementedError):
        return False
    return True


def test_the_viper_path_is_used_exactly_where_the_port_compiles_it():
    board = Stones(40)
    assert SimHallBus(board).driver().native == native_emitter()
    assert not SimHallBus(board).driver(native=False).native


def test_the_viper_and_python_paths_read_alike():
    """Two drivers, the viper path (where the port has it) and the Python one,
    on twin buses with the same noise: every reading, state and baseline the
    same, through random boards, hovering hands, a broken sensor, drift both
    ways and a negative baseline (sign-extended by hand in the viper code)."""
    failures = []
    for drift in (25, -25):
        rigs = []
        for native in (True, False):
            board = Stones(361)
            bus = SimHallBus(board, noise=300, drift_per_s=drift, seed=9)
            driver = bus.driver(on=ON, off=OFF, drift_shift=3, native=native)
            driver.calibrate()
            bus.broken[33] = 1
            driver.baseline[12] = -16 * 100
            rigs.append((board, driver, bytearray(driver.nbytes)))
        rng = Lcg(11)
        for rnd in range(30):
            colours = [rng.below(3) if rng.below(4) == 0 else 0 for _ in range(361)]
            for board, driver, buf in rigs:
                board.set_time(rnd * 1000)
                for p in range(361):
                    board.colour[p] = colours[p]
                board.hover(5 + rnd, rnd * 1000, 500, 1 + rnd % 2)
                driver.read(buf)
            (_, a, abuf), (_, b, bbuf) = rigs
            if abuf != bbuf or a.state != b.state or list(a.baseline) != list(b.baseline):
                failures.append("drift %d, round %d: the paths differ" % (drift, rnd))
        if reading(rigs[0][1], rigs[0][2])[12] != 1:
            failures.append("drift %d: the negative baseline misread" % drift)
    check(failures)


def test_a_sweep_reads_each_sensor_once_changing_one_select_line_a_step():
    board = Stones()
    bus = SimHallBus(board)
    driver = bus.driver()
    driver.sample()
    before = sum(pin.changes for pin in bus.select1 + bus.select2)
    driver.sample()
    assert sum(adc.reads for adc in bus.adcs) == 2 * 361
    assert sum(pin.changes for pin in bus.select1 + bus.select2) - before <= 192 + 8


def test_a_sample_waits_settle_us_after_a_select_line_changed():
    """The mux outputs settle after a select line changes: no ADC read comes
    sooner than settle_us after the last change, on either path (calibrate's
    sample-only sweeps and reads); the viper one classifies meanwhile."""
    settle = 200
    failures = []
    for native in (True, False):
        bus = SimHallBus(Stones(40), noise=0)
        changed = [0]
        gaps = []

        def on_change(pin, changed=changed):
            changed[0] = ticks_us()

        for pin in bus.select1 + bus.select2:
            pin.on_change = on_change
        for adc in bus.adcs:
            def read_u16(read=adc.read_u16, changed=changed, gaps=gaps):
                gaps.append(ticks_diff(ticks_us(), changed[0]))
                return read()

            adc.read_u16 = read_u16  # before the driver takes it
        driver = bus.driver(settle_us=settle, on=ON, off=OFF, native=native)
        driver.calibrate(1)
        driver.read(bytearray(driver.nbytes))
        if len(gaps) != 80 or min(gaps) < settle:
            failures.append("native=%r: %d reads, the soonest %d us after a change" % (native, len(gaps), min(gaps)))
    check(failures)


def test_the_viper_sweep_classifies_each_step_while_the_next_one_settles():
    """Where the port has viper code, the points sampled at a step are
    classified before the samples of the step after it are taken (during its
    settling time), not after the sweep: the read costs no more than its
    settling."""
    board = Stones(361)
    bus = SimHallBus(board, noise=0)
    driver = bus.driver(on=ON, off=OFF)
    if not driver.native:
        return
    driver.calibrate(1)
    for p in range(361):
        board.place(p, 1 + p % 2)
    lagging = []

    def judged(read, reads=[0]):  # noqa: B006 - the reads so far, kept between calls
        def read_u16():
            done = 361 - driver.state.count(b"\x00")  # points classified so far (each reads a stone)
            if done < reads[0] - 1:  # all but the other ADC's sample of this step
                lagging.append((reads[0], done))
            reads[0] += 1
            return read()
        return read_u16

    driver._read0 = judged(driver._read0)
    driver._read1 = judged(driver._read1)
    buf = bytearray(driver.nbytes)
    driver.read(buf)
    assert reading(driver, buf) == bytes(board.colour)
    assert not lagging, lagging[:5]


def test_reads_allocate_nothing_under_micropython():
    if sys.implementation.name != "micropython":
        return
    import gc

    failures = []
    for native in (True, False):
        board = Stones(361)
        bus = SimHallBus(board, noise=0, drift_per_s=30)  # no noise: the twin's generator makes big ints
        driver = bus.driver(on=ON, off=OFF, native=native)
        driver.calibrate(2)
        for p in range(0, 361, 3):
            board.place(p, 1 + p % 2)
        buf = bytearray(driver.nbytes)
        board.set_time(1000)
        driver.read(buf)
        before = gc.mem_alloc()
        for t in range(2000, 7000, 1000):
            board.set_time(t)  # drift: the empty points track, the stones' points are nudged
            driver.read(buf)
        used = gc.mem_alloc() - before
        if used:
            failures.append("native=%r: %d bytes allocated in 5 reads" % (native, used))
    check(failures)
