"""Scanner settle tables (virtual timer, several scan rates) and the 74HC165 chain, bit-exact."""

from diagrams import Lcg
from support import TICKS_PERIOD, check

from firmware.drivers.shift165 import A_FIRST, FAR_FIRST, H_FIRST, NEAR_FIRST, ShiftChain
from firmware.sensing.scanner import Scanner
from twins.sensors import RawSensor, SimPolarity, SimPresence, twin
from twins.shift165 import SimShiftChain
from twins.stones import Stones

SETTLE = 150
RATES = (1, 5, 10, 16, 33, 50)  # scan periods, ms


def ticks(t):
    return t % TICKS_PERIOD


def replay(events, period, polarity=False, settle=SETTLE, t0=1000, until=2000):
    """Run a table of events (t, action, point, colour[, duration]) against a
    Stones + twin + Scanner with a virtual timer; scan every ``period`` ms.
    Returns (scanner, changes): changes = [(t, point, new value)]."""
    board = Stones()
    sensor = SimPolarity(board) if polarity else SimPresence(board)
    scanner = Scanner(sensor, settle)
    changes = []
    events = sorted(events)
    k = 0
    t = 0
    while t <= until:
        while k < len(events) and events[k][0] <= t:
            ev = events[k]
            if ev[1] == "place":
                board.place(ev[2], ev[3])
            elif ev[1] == "lift":
                board.lift(ev[2])
            else:
                board.hover(ev[2], ticks(t0 + ev[0]), ev[4], ev[3])
            k += 1
        now = ticks(t0 + t)
        board.set_time(now)
        before = bytes(scanner.frame)
        version = scanner.version
        changed = scanner.scan(now)
        after = scanner.frame
        diffs = [p for p in range(361) if before[p] != after[p]]
        if changed != bool(diffs) or scanner.version != version + (1 if diffs else 0):
            raise AssertionError("scan() result/version disagree with the frame at t=%d" % t)
        for p in diffs:
            changes.append((t, p, after[p]))
        t += period
    return scanner, changes


def first_tick(t, period):
    return (t + period - 1) // period * period


def settled_at(t_event, period, settle=SETTLE):
    """Tick at which a reading that starts at t_event settles."""
    t_read = first_tick(t_event, period)
    return first_tick(t_read + settle, period)


STONE = 3  # presence sensors: a stone of unknown colour


def test_place_and_lift_settle_after_settle_ms_at_every_rate():
    failures = []
    for polarity in (False, True):
        colour = 2 if polarity else 1
        value = 2 if polarity else STONE
        events = [(100, "place", 60, colour), (700, "lift", 60, 0), (103, "place", 360, colour),
                  (0, "place", 0, colour)]
        for period in RATES:
            for t0 in (1000, TICKS_PERIOD - 400):  # also across the ticks wrap
                _, changes = replay(events, period, polarity, t0=t0, until=1000)
                want = sorted([(settled_at(100, period), 60, value), (settled_at(700, period), 60, 0),
                               (settled_at(103, period), 360, value), (settled_at(0, period), 0, value)])
                if sorted(changes) != want:
                    failures.append("polarity=%s period=%d t0=%d: %r != %r" % (polarity, period, t0, changes, want))
    check(failures)


def test_other_settle_times():
    failures = []
    for settle in (0, 40, 200):
        for period in (10, 25):
            events = [(100, "place", 60, 1), (500, "lift", 60, 0), (300, "hover", 61, 1, settle - 1 if settle else 0)]
            _, changes = replay(events, period, settle=settle, until=800)
            want = [(settled_at(100, period, settle), 60, STONE), (settled_at(500, period, settle), 60, 0)]
            if changes != want:
                failures.append("settle=%d period=%d: %r != %r" % (settle, period, changes, want))
    check(failures)


def test_hovers_shorter_than_settle_never_become_stones():
    failures = []
    for polarity in (False, True):
        for period in RATES:
            # a hand sliding a stone across a row: 60 ms over each point
            slide = [(200 + 60 * i, "hover", 100 + i, 1, 60) for i in range(8)]
            events = slide + [(50, "hover", 5, 2, 30), (400, "hover", 7, 1, SETTLE - period)]
            # hovering over a stone of the other colour, then it stays
            events += [(0, "place", 200, 1), (900, "hover", 200, 2, 100)]
            scanner, changes = replay(events, period, polarity, until=1200)
            want = [(settled_at(0, period), 200, 1 if polarity else STONE)]
            if changes != want:
                failures.append("polarity=%s period=%d: %r" % (polarity, period, changes))
            if scanner.pending:
                failures.append("period=%d: %d points still pending" % (period, scanner.pending))
    check(failures)


def test_hover_longer_than_settle_becomes_a_stone_then_goes():
    failures = []
    for period in RATES:
        _, changes = replay([(100, "hover", 42, 1, 400)], period)
        want = [(settled_at(100, period), 42, STONE), (settled_at(500, period), 42, 0)]
        if changes != want:
            failures.append("period=%d: %r != %r" % (period, changes, want))
    check(failures)


def test_chatter_restarts_the_wait():
    # a stone rocking on its point (on/off every 40 ms) settles only once it rests
    events = []
    for i in range(6):
        events.append((100 + 80 * i, "place", 9, 1))
        events.append((140 + 80 * i, "lift", 9, 0))
    events.append((620, "place", 9, 1))
    failures = []
    for period in (1, 5, 10, 20):
        _, changes = replay(events, period)
        if changes != [(settled_at(620, period), 9, STONE)]:
            failures.append("period=%d: %r" % (period, changes))
    check(failures)


def test_idle_scans_change_nothing():
    sensor = RawSensor(46, 1)
    scanner = Scanner(sensor)
    sensor.set(17, 1)
    t = 0
    while t < 400:
        scanner.scan(t)
        t += 10
    assert scanner.frame[17] == STONE and scanner.pending == 0
    version = scanner.version
    frame = bytes(scanner.frame)
    for i in range(200):
        assert not scanner.scan(400 + 10 * i)
    assert scanner.version == version and bytes(scanner.frame) == frame


def test_untrusted_readings_hold_the_frame():
    sensor = RawSensor(91, 2)
    scanner = Scanner(sensor, 100)
    sensor.set(30, 1)
    for t in range(0, 200, 10):
        scanner.scan(t)
    assert scanner.frame[30] == 1
    sensor.set(30, 3)
    for t in range(200, 1000, 10):
        assert not scanner.scan(t)
    assert scanner.frame[30] == 1 and scanner.pending == 1
    sensor.set(30, 2)
    changed_at = None
    for t in range(1000, 1300, 10):
        if scanner.scan(t) and changed_at is None:
            changed_at = t
    assert scanner.frame[30] == 2 and changed_at == 1100, changed_at


def test_random_boards_settle_to_the_board():
    rng = Lcg(7)
    board = Stones()
    scanner = Scanner(SimPolarity(board), 100)
    t = 0
    for _round in range(6):
        for _ in range(40):
            p = rng.below(361)
            board.place(p, rng.below(3))
        for _ in range(12):
            board.set_time(t)
            scanner.scan(t)
            t += 10
        assert bytes(scanner.frame) == bytes(board.colour)


# -- 74HC165 chain -----------------------------------------------------------

OPTIONS = [(c, b, m) for c in (NEAR_FIRST, FAR_FIRST) for b in (A_FIRST, H_FIRST) for m in (True, False)]


def decode(driver, buf):
    """The set of points a raw buffer says hold a stone."""
    out = []
    at = driver.point_at
    for s in range(len(at)):
        if (buf[s >> 3] >> (s & 7)) & 1:
            out.append(at[s])
    return sorted(out)


def test_point_at_is_a_bijection_for_every_option():
    failures = []
    for chain, bits, msb in OPTIONS:
        d = ShiftChain(SimShiftChain(Stones()), SimShiftChain(Stones()).load, 46, 361, chain, bits, msb)
        used = sorted(p for p in d.point_at if p != 0xFFFF)
        if used != list(range(361)) or len(d.point_at) != 368:
            failures.append("options %r" % ((chain, bits, msb),))
    check(failures)


def test_every_point_alone_bit_exact_for_every_option():
    failures = []
    for chain, bits, msb in OPTIONS:
        board = Stones()
        sim = SimShiftChain(board, chain_order=chain, bit_order=bits, msb_first=msb)
        driver = sim.driver()
        buf = bytearray(driver.nbytes)
        step = 1 if (chain, bits, msb) == OPTIONS[0] else 7  # all points once, a spread for the others
        for p in list(range(0, 361, step)) + [360]:
            board.place(p, 1)
            driver.read(buf)
            board.lift(p)
            # where the bit must be, from the wiring: chip k is byte k
            k = p >> 3 if chain == NEAR_FIRST else 45 - (p >> 3)
            pin = p & 7 if bits == A_FIRST else 7 - (p & 7)
            bit = pin if msb else 7 - pin
            want = bytearray(46)
            want[k] = 1 << bit
            if buf != want:
                failures.append("options %r point %d: %r" % ((chain, bits, msb), p, bytes(buf)))
            if decode(driver, buf) != [p]:
                failures.append("options %r point %d decodes to %r" % ((chain, bits, msb), p, decode(driver, buf)))
    check(failures)


def test_random_patterns_bit_exact_and_latched():
    rng = Lcg(11)
    failures = []
    for chain, bits, msb in OPTIONS:
        board = Stones()
        sim = SimShiftChain(board, chain_order=chain, bit_order=bits, msb_first=msb)
        driver = sim.driver()
        buf = bytearray(driver.nbytes)
        for _ in range(2):
            for p in range(361):
                board.colour[p] = 1 if rng.below(3) == 0 else 0
            latches = sim.latches
            driver.read(buf)
            if sim.latches != latches + 1 or sim.load.level != 1:
                failures.append("read must pulse SH/LD low once and leave it high")
            want = [p for p in range(361) if board.colour[p]]
            if decode(driver, buf) != want:
                failures.append("options %r: pattern differs" % ((chain, bits, msb),))
    check(failures)


def test_active_low_inputs():
    board = Stones()
    for active_low in (False, True):
        sim = SimShiftChain(board, active_low=active_low)
        driver = sim.driver()
        buf = bytearray(driver.nbytes)
        board.clear()
        board.place(0, 1)
        board.place(360, 2)
        driver.read(buf)
        assert decode(driver, buf) == [0, 360], (active_low, decode(driver, buf))
        # the latched levels: an active-low chain idles high
        sim.load.value(0)
        latched = sim.registers()
        sim.load.value(1)
        assert latched[10] == (0xFF if active_low else 0), latched


def test_every_twin_kind_settles_the_same_frame():
    failures = []
    for kind in ("shift", "matrix", "hall", "presence", "polarity"):
        board = Stones()
        scanner = Scanner(twin(board, kind), 100)
        board.place(0, 1)
        board.place(180, 2)
        board.place(360, 1)
        board.hover(50, 0, 60, 2)
        for t in range(0, 260, 20):
            board.set_time(t)
            scanner.scan(t)
        colour = kind in ("hall", "polarity")
        want = bytearray(361)
        want[0] = want[360] = 1 if colour else STONE
        want[180] = 2 if colour else STONE
        if scanner.frame != want:
            failures.append("%s: %r" % (kind, [(p, scanner.frame[p]) for p in range(361) if scanner.frame[p]]))
    check(failures)


def test_shift_chain_trio_settles():
    board = Stones()
    scanner = Scanner(SimShiftChain(board, chain_order=FAR_FIRST, bit_order=H_FIRST).driver())
    board.place(123, 2)
    board.hover(200, 0, 100, 1)
    t = 0
    changed = []
    while t <= 300:
        board.set_time(t)
        if scanner.scan(t):
            changed.append(t)
        t += 25
    assert changed == [150], changed
    assert scanner.frame[123] == STONE and scanner.frame[200] == 0
    assert sum(1 for v in scanner.frame if v) == 1
