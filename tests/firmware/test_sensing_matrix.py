"""Diode matrix behind MCP23017 expanders: bit-exact against the simulated expanders."""

from diagrams import Lcg
from support import check

from firmware.sensing.scanner import Scanner
from twins.matrix import SimDiodeMatrix
from twins.stones import Stones


def decode(driver, buf):
    at = driver.point_at
    return sorted(at[s] for s in range(len(at)) if (buf[s >> 3] >> (s & 7)) & 1)


def test_point_at_is_a_bijection():
    driver = SimDiodeMatrix(Stones()).driver()
    assert driver.nbytes == 57 and driver.per_row == 3
    assert sorted(p for p in driver.point_at if p != 0xFFFF) == list(range(361))


def test_setup_configures_the_expanders():
    sim = SimDiodeMatrix(Stones())
    sim.driver()
    for dev in sim.row_devs:
        assert dev.word(0x00) == 0 and dev.word(0x14) == 0xFFFF  # outputs, all rows released
    for dev in sim.col_devs:
        assert dev.word(0x00) == 0xFFFF and dev.word(0x0C) == 0xFFFF  # inputs with pull-ups


def test_every_point_alone():
    board = Stones()
    sim = SimDiodeMatrix(board)
    driver = sim.driver()
    buf = bytearray(driver.nbytes)
    failures = []
    for p in range(361):
        board.place(p, 1)
        driver.read(buf)
        board.lift(p)
        r, c = divmod(p, 19)
        want = bytearray(57)
        byte = r * 3 + (c >> 3)
        want[byte] = 1 << (c & 7)
        if buf != want or decode(driver, buf) != [p]:
            failures.append("point %d: %r" % (p, bytes(buf)))
        if sim.selected_rows():
            failures.append("point %d: a row is left selected" % p)
    check(failures)


def test_random_and_ghost_prone_patterns():
    rng = Lcg(3)
    board = Stones()
    sim = SimDiodeMatrix(board)
    driver = sim.driver()
    buf = bytearray(driver.nbytes)
    patterns = []
    for density in (2, 3, 10):
        patterns.append([p for p in range(361) if rng.below(density) == 0])
    # three corners of rectangles: without diodes the fourth would read as a stone
    patterns.append([0, 18, 342, 19 * 5 + 5, 19 * 5 + 9, 19 * 11 + 5])
    patterns.append(list(range(361)))
    failures = []
    for i, stones in enumerate(patterns):
        board.clear()
        for p in stones:
            board.place(p, 2)
        before = sim.i2c.transactions
        driver.read(buf)
        if decode(driver, buf) != sorted(stones):
            failures.append("pattern %d differs" % i)
        if sim.i2c.transactions - before != 19 * 3 + 2:
            failures.append("pattern %d: %d I2C transactions" % (i, sim.i2c.transactions - before))
    check(failures)


def test_matrix_trio_settles():
    board = Stones()
    scanner = Scanner(SimDiodeMatrix(board).driver(), 100)
    board.place(77, 1)
    changed = []
    for t in range(0, 300, 20):
        board.set_time(t)
        if scanner.scan(t):
            changed.append(t)
    assert changed == [100] and scanner.frame[77] == 3
    assert sum(1 for v in scanner.frame if v) == 1
