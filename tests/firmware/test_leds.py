"""LED tables: layouts against a walked chain, overlay composition per mode,
blinking, render-on-change, the current limiter, and the drivers on their twins."""

import sys

from diagrams import Lcg
from support import TICKS_PERIOD, check

from firmware.drivers.pio_strip import LATCH_US as PIO_LATCH_US
from firmware.drivers.pio_strip import PioStrip
from firmware.drivers.strip import NeoStrip
from firmware.leds import composer as L
from firmware.leds import tables as T
from firmware.leds.marks import (
    ACCEPTED,
    ATARI,
    DAME,
    ERROR,
    HINT,
    KO,
    LAST_MOVE,
    LIBERTY,
    LIFT,
    PLACE,
    PUT_BACK,
    SEKI,
    TERRITORY,
    WRONG_COLOUR,
    Marks,
)
from firmware.modes import CASUAL, TEACHING, TOURNAMENT
from twins.strip import FakeDma, FakeNeoPixel, FakeStateMachine, SimStrip

N = 19
LAST = N - 1


def walk(by_rows, serpentine, corner, rotation, chains):
    """An independent model of the wiring: follow the chain LED by LED and
    say which board point each LED lies under. Returns a list led -> point."""
    sizes = [N // chains + (1 if k < N % chains else 0) for k in range(chains)]
    grid = []  # LED-grid (row, col) in chain order, LED 0 at the grid's top-left
    line = 0
    for n in sizes:
        for i in range(n):
            positions = list(range(N))
            if serpentine and i % 2 == 1:
                positions.reverse()
            for pos in positions:
                grid.append((line, pos) if by_rows else (pos, line))
            line += 1
    out = []
    for r, c in grid:
        # the start corner: mirror the grid back
        if corner in (1, 2):
            c = LAST - c
        if corner in (2, 3):
            r = LAST - r
        # undo the clockwise rotation (turn counter-clockwise)
        for _ in range(rotation // 90):
            r, c = LAST - c, r
        out.append(r * N + c)
    return out


LAYOUTS = [
    (by_rows, serp, corner, rot, chains)
    for by_rows in (True, False)
    for serp in (True, False)
    for corner in (0, 1, 2, 3)
    for rot in (0, 90, 180, 270)
    for chains in (1, 2, 3)
]

# Hand-checked LEDs: (by_rows, serpentine, corner, rotation, chains, row, col, led).
KNOWN = [
    (True, True, 0, 0, 1, 0, 0, 0),
    (True, True, 0, 0, 1, 0, 18, 18),
    (True, True, 0, 0, 1, 1, 18, 19),
    (True, True, 0, 0, 1, 1, 0, 37),
    (True, True, 0, 0, 1, 18, 0, 342),
    (True, False, 0, 0, 1, 1, 0, 19),
    (True, True, 1, 0, 1, 0, 18, 0),
    (True, True, 1, 0, 1, 1, 0, 19),
    (True, True, 3, 0, 1, 18, 0, 0),
    (True, True, 3, 0, 1, 17, 0, 37),
    (False, False, 0, 0, 1, 18, 0, 18),
    (False, False, 0, 0, 1, 0, 1, 19),
    (False, True, 0, 0, 1, 18, 1, 19),
    (True, True, 0, 90, 1, 18, 0, 0),
    (True, True, 0, 90, 1, 0, 0, 18),
    (True, True, 0, 180, 1, 18, 18, 0),
    (True, True, 0, 270, 1, 0, 18, 0),
    (True, True, 0, 0, 2, 9, 18, 171),
    (True, True, 0, 0, 2, 9, 0, 189),
    (True, True, 0, 0, 2, 10, 0, 190),
]


def test_layout_matches_the_walked_chain_for_every_option():
    failures = []
    for opts in LAYOUTS:
        led_of = T.layout(*opts)
        chain = walk(*opts)
        if sorted(led_of) != list(range(N * N)):
            failures.append("%r: not a permutation" % (opts,))
            continue
        for led in range(N * N):
            if led_of[chain[led]] != led:
                failures.append("%r: LED %d lies under point %d, layout says LED %d"
                                % (opts, led, chain[led], led_of[chain[led]]))
                break
    check(failures)


def test_layout_known_leds():
    failures = []
    for by_rows, serp, corner, rot, chains, r, c, led in KNOWN:
        got = T.layout(by_rows, serp, corner, rot, chains)[r * N + c]
        if got != led:
            failures.append("rows=%s serp=%s corner=%d rot=%d chains=%d (%d,%d): LED %d, want %d"
                            % (by_rows, serp, corner, rot, chains, r, c, got, led))
    check(failures)


def test_layout_rejects_bad_options():
    failures = []
    for opts in ((True, True, 4, 0, 1), (True, True, 0, 45, 1), (True, True, 0, 0, 0), (True, True, 0, 0, 20)):
        try:
            T.layout(*opts)
            failures.append("%r accepted" % (opts,))
        except ValueError:
            pass
    check(failures)


def test_every_point_lights_its_own_led_on_the_simulated_chain():
    """Pixel by pixel: one HINT at a time, the twin shows exactly the LED the wiring puts there."""
    failures = []
    for opts in ((True, True, 0, 0, 1), (False, True, 2, 90, 3)):
        chain = walk(*opts)
        marks = Marks()
        leds = L.Leds(mode=CASUAL, led_of=T.layout(*opts))
        strip = SimStrip()
        want_rgb = expected_rgb(HINT, 0)
        for led in range(N * N):
            p = chain[led]
            marks.set(p, HINT)
            if leds.update(marks, 0):
                strip.show(leds.frame)
            if strip.lit() != [led] or strip.rgb(led) != want_rgb:
                failures.append("%r point %d: lit %r %r, want LED %d" % (opts, p, strip.lit(), strip.rgb(led), led))
            marks.clear(HINT)
    check(failures)


GAMMA = T.gamma_table()


def expected_rgb(kind, stone, brightness=L.LED_BRIGHTNESS):
    k = T.KINDS.index(kind)
    rgb = T.PALETTE[k][0 if stone == 1 else 1]
    return tuple(GAMMA[v * brightness // 255] for v in rgb)


# Points of the composition table: (point, kinds, stone).
SCENE = [
    (0, ERROR | LIBERTY, 0),
    (1, LIBERTY, 0),
    (2, ATARI | DAME, 0),
    (3, LAST_MOVE, 1),
    (4, TERRITORY, 1),
    (5, TERRITORY, 2),
    (6, PUT_BACK, 1),
    (7, PUT_BACK | LIFT, 2),
    (8, HINT, 0),
    (9, KO | ATARI, 0),
    (10, LIFT | WRONG_COLOUR, 2),
    (11, WRONG_COLOUR | KO, 1),
    (12, SEKI | TERRITORY, 0),
    (13, ATARI, 2),
    (14, PLACE, 1),
    (15, ACCEPTED, 1),
]
# mode (and last-move option) -> the kind shown at each SCENE point (0: dark).
EXPECT = [
    (L.OFF, True, (0,) * 16),
    # tournament: what must be fixed, the handicap points, the count (no teaching, no hints)
    (TOURNAMENT, False, (ERROR, 0, DAME, 0, TERRITORY, TERRITORY, PUT_BACK, PUT_BACK, 0, 0, LIFT, WRONG_COLOUR,
                         TERRITORY, 0, PLACE, ACCEPTED)),
    (TOURNAMENT, True, (ERROR, 0, DAME, LAST_MOVE, TERRITORY, TERRITORY, PUT_BACK, PUT_BACK, 0, 0, LIFT,
                        WRONG_COLOUR, TERRITORY, 0, PLACE, ACCEPTED)),
    (CASUAL, True, (ERROR, 0, DAME, LAST_MOVE, TERRITORY, TERRITORY, PUT_BACK, PUT_BACK, HINT, KO, LIFT,
                    WRONG_COLOUR, TERRITORY, 0, PLACE, ACCEPTED)),
    (TEACHING, True, (ERROR, LIBERTY, ATARI, LAST_MOVE, TERRITORY, TERRITORY, PUT_BACK, PUT_BACK, HINT, KO,
                      LIFT, WRONG_COLOUR, TERRITORY, ATARI, PLACE, ACCEPTED)),
]


def scene_marks():
    marks = Marks()
    for p, kinds, stone in SCENE:
        for kind in T.KINDS:
            if kinds & kind:
                marks.set(p, kind, stone)
    return marks


def test_composition_by_mode_and_priority():
    failures = []
    marks = scene_marks()
    for order in ("GRB", "RGB"):
        for mode, last_move, shown in EXPECT:
            leds = L.Leds(mode=mode, last_move=last_move, order=order)
            strip = SimStrip(order=order)
            leds.update(marks, 0)  # t = 0: every blinking kind in its on half
            strip.show(leds.frame)
            for (p, _kinds, stone), kind in zip(SCENE, shown):
                want = expected_rgb(kind, stone) if kind else (0, 0, 0)
                got = strip.rgb(leds.offset_of[p] // 3)
                if got != want:
                    failures.append("%s %s last=%s point %d: %r, want %r"
                                    % (order, T.MODE_NAMES[mode], last_move, p, got, want))
            others = [i for i in strip.lit() if i not in [leds.offset_of[p] // 3 for p, _k, _s in SCENE]]
            if others:
                failures.append("%s: stray LEDs %r" % (T.MODE_NAMES[mode], others))
    check(failures)


def test_put_back_and_territory_show_the_stone_colour():
    failures = []
    for kind in (PUT_BACK, TERRITORY):
        if expected_rgb(kind, 1) == expected_rgb(kind, 2):
            failures.append("%d: black and white look the same" % kind)
    check(failures)


def test_blinking_follows_injected_time_and_renders_only_on_a_phase_change():
    failures = []
    marks = Marks()
    marks.set(40, ERROR)  # 128 ms half-period
    marks.set(41, ATARI)  # steady
    leds = L.Leds(mode=TEACHING)
    strip = SimStrip()
    # (now_ms, composes?, ERROR lit?)
    for now, composes, lit in ((0, True, True), (50, False, True), (127, False, True), (128, True, False),
                               (200, False, False), (256, True, True), (TICKS_PERIOD - 1, True, False)):
        r = leds.update(marks, now)
        if r:
            strip.show(leds.frame)
        if r != composes:
            failures.append("t=%d: update() %s, want %s" % (now, r, composes))
        if (strip.rgb(leds.offset_of[40] // 3) != (0, 0, 0)) != lit:
            failures.append("t=%d: error lit %s, want %s" % (now, not lit, lit))
        if strip.rgb(leds.offset_of[41] // 3) == (0, 0, 0):
            failures.append("t=%d: atari dark" % now)
    marks.clear(ERROR)
    leds.update(marks, 0)
    n = leds.renders
    for now in range(0, 3000, 7):  # nothing blinks: no render at all
        leds.update(marks, now)
    if leds.renders != n:
        failures.append("steady marks re-rendered %d times" % (leds.renders - n))
    check(failures)


def test_renders_only_when_marks_mode_or_brightness_change():
    failures = []
    marks = Marks()
    leds = L.Leds(mode=CASUAL)
    steps = [
        ("first", lambda: None, True),
        ("again", lambda: None, False),
        ("set", lambda: marks.set(3, KO), True),
        ("same set", lambda: marks.set(3, KO), False),
        ("mode", lambda: setattr(leds, "mode", TEACHING), True),
        ("brightness", lambda: leds.set_brightness(10), True),
        ("clear", lambda: marks.clear(KO), True),
        ("clear again", lambda: marks.clear(KO), False),
    ]
    for name, action, want in steps:
        action()
        got = leds.update(marks, 5)
        if got != want:
            failures.append("%s: update() %s, want %s" % (name, got, want))
    check(failures)


def test_full_white_frame_is_capped_to_the_budget():
    failures = []
    for budget in (500, 1000, 2000, 3000, 8000):
        frame = bytearray(b"\xff" * (361 * 3))
        before = T.estimate_ma(frame, 361, 12, 1)
        T.limit(frame, 361, budget, 12, 1)
        after = T.estimate_ma(frame, 361, 12, 1)
        if before != 361 + 361 * 3 * 12:
            failures.append("full white estimated %d mA" % before)
        if after > budget or after < budget - 2 * 361 * 3 * 12 // 255 - 1:
            failures.append("budget %d: %d mA after limiting" % (budget, after))
        if len(set(frame)) != 1:
            failures.append("budget %d: white is no longer grey" % budget)
    check(failures)


def test_limiter_keeps_proportions_and_leaves_small_frames_alone():
    failures = []
    rng = Lcg(7)
    for budget in (500, 1000, 2000):
        frame = bytearray(361 * 3)
        for i in range(0, len(frame), 3):
            frame[i] = 255
            frame[i + 1] = 128
            frame[i + 2] = 64
        T.limit(frame, 361, budget, 12, 1)
        a, b, c = frame[0], frame[1], frame[2]
        if T.estimate_ma(frame, 361, 12, 1) > budget:
            failures.append("budget %d exceeded" % budget)
        if abs(b * 255 - a * 128) > 255 or abs(c * 255 - a * 64) > 255:
            failures.append("budget %d: (255,128,64) became (%d,%d,%d)" % (budget, a, b, c))
    small = bytearray(361 * 3)
    for _ in range(40):
        small[rng.below(len(small))] = rng.below(256)
    copy = bytes(small)
    T.limit(small, 361, 2000, 12, 1)
    if bytes(small) != copy:
        failures.append("a frame under budget was changed")
    check(failures)


def test_composer_never_exceeds_its_budget():
    failures = []
    marks = Marks()
    for p in range(361):
        marks.set(p, HINT if p % 2 else PUT_BACK, 2)
    for budget in (400, 1000, 2000):
        leds = L.Leds(mode=TEACHING, brightness=255, budget_ma=budget)
        leds.update(marks, 0)
        ma = T.estimate_ma(leds.frame, 361)
        if ma > budget or leds.ma != ma:
            failures.append("budget %d: frame %d mA, reported %d" % (budget, ma, leds.ma))
    check(failures)


def test_neostrip_lends_the_frame_to_neopixel_and_writes():
    failures = []
    marks = scene_marks()
    leds = L.Leds(mode=TEACHING)
    np = FakeNeoPixel(None, 361)
    strip = NeoStrip(np)
    leds.update(marks, 0)
    strip.show(leds.frame)
    if np.written != [bytes(leds.frame)] or np.buf is not leds.frame:
        failures.append("NeoPixel did not transmit the frame as it is")
    # GRB on the wire, as MicroPython's NeoPixel orders bytes: ERROR at point 0
    g, r, b = np.written[0][leds.offset_of[0]: leds.offset_of[0] + 3]
    if (r, g, b) != expected_rgb(ERROR, 0):
        failures.append("wire bytes %r are not GRB" % ((g, r, b),))
    check(failures)


def test_several_chains_each_get_their_slice():
    failures = []
    chains = 3
    leds = L.Leds(mode=CASUAL, led_of=T.layout(True, True, 0, 0, chains))
    marks = Marks()
    bounds = T.chain_bounds(chains)
    strips = [SimStrip(count=n) for _first, n in bounds]
    for first, _n in bounds:
        marks.set(list(leds.offset_of).index(3 * first), HINT)  # the first LED of every chain
    leds.update(marks, 0)
    view = memoryview(leds.frame)
    for k in range(chains):
        a, b = T.chain_bytes(k, chains)
        strips[k].show(view[a:b])
        if strips[k].lit() != [0]:
            failures.append("chain %d lit %r" % (k, strips[k].lit()))
    check(failures)


def test_render_allocates_nothing_under_micropython():
    if sys.implementation.name != "micropython":
        return
    import gc

    failures = []
    marks = scene_marks()
    leds = L.Leds(mode=TEACHING, brightness=255, budget_ma=300)  # the limiter runs too
    leds.update(marks, 0)
    before = gc.mem_alloc()
    for _ in range(20):
        leds.update(marks, 0)  # unchanged
    unchanged = gc.mem_alloc() - before
    before = gc.mem_alloc()
    for i in range(20):
        marks.set(100 + i, LIFT, 1)
        leds.update(marks, 128 * i)  # changed marks and blink phases
    changed = gc.mem_alloc() - before
    if unchanged or changed:
        failures.append("allocated %d bytes unchanged, %d changed" % (unchanged, changed))
    check(failures)


def test_pio_strip_feeds_each_byte_msb_first_and_waits_for_the_latch():
    failures = []
    leds = L.Leds(mode=TEACHING)
    leds.update(scene_marks(), 0)
    sm = FakeStateMachine()
    slept = []
    strip = PioStrip(sm, slept.append)
    strip.show(leds.frame)
    if sm.puts != 1:
        failures.append("%d puts for one frame, want 1 (a buffer)" % sm.puts)
    want = []
    for byte in leds.frame:
        for i in range(8):
            want.append(byte >> (7 - i) & 1)
    if sm.bits() != want:
        failures.append("the bit stream is not the frame, MSB first")
    if slept != [PIO_LATCH_US] or PIO_LATCH_US < 280:
        failures.append("latch wait %r" % slept)
    check(failures)


def test_pio_strip_with_dma_returns_at_once_and_never_merges_two_frames():
    """With a DMA channel, show() starts the transfer and returns: the bytes the DMA moves to PIO0
    SM1's TX FIFO (byte writes, DREQ-paced) are the frame, MSB first; the caller's buffer may change
    at once (the strip sends its own copy); a frame asked for before the last one's wire time and
    latch are over waits for the rest of them, never longer."""
    failures = []
    leds = L.Leds(mode=TEACHING)
    leds.update(scene_marks(), 0)
    sm = FakeStateMachine()
    dma = FakeDma(sm, busy_polls=2)
    slept = []
    now = [1000]
    strip = PioStrip(sm, slept.append, dma=dma, sm_id=1, ticks_us=lambda: now[0])
    frame = bytes(leds.frame)
    strip.show(leds.frame)
    for i in range(len(leds.frame)):
        leds.frame[i] = 0  # the next frame composed while this one goes out
    want = []
    for byte in frame:
        for i in range(8):
            want.append(byte >> (7 - i) & 1)
    if sm.bits() != want:
        failures.append("the DMA's bit stream is not the frame, MSB first")
    if sm.puts or slept:
        failures.append("the CPU fed or waited: %d puts, slept %r" % (sm.puts, slept))
    write, count, ctrl = dma.configs[0]
    if (write, count) != (0x50200014, len(frame)) or ctrl["size"] != 0 or ctrl["inc_write"] or ctrl["treq_sel"] != 1:
        failures.append("transfer %r %r %r: want PIO0 TXF1, bytes, DREQ_PIO0_TX1" % (write, count, ctrl))
    wire = len(frame) * 10 + PIO_LATCH_US  # us: 8 bits at 800 kHz a byte, then the latch
    now[0] += wire // 2
    strip.show(leds.frame)  # half-way through the last frame: waits for the rest, at least
    if len(slept) != 1 or not wire // 2 <= slept[0] <= wire // 2 + 100:
        failures.append("a frame sent half-way through the last waited %r us, want ~%d" % (slept, wire // 2))
    now[0] += 20000  # the LED stage's period later: no wait
    strip.show(leds.frame)
    if len(slept) != 1 or strip.frames != 3 or len(sm.words) != 3 * len(frame):
        failures.append("frames 20 ms apart: slept %r, %d frames, %d words" % (slept, strip.frames, len(sm.words)))
    check(failures)


def test_composer_limiter_equals_limit_on_the_unlimited_frame():
    """The composer scales its colour table; limit() scales frame bytes: the same frame."""
    failures = []
    marks = scene_marks()
    for p in range(20, 361):
        marks.set(p, HINT if p % 3 else PUT_BACK, 1 + p % 2)
    for budget in (400, 700, 1500, 3000):
        free = L.Leds(mode=TEACHING, brightness=255, budget_ma=100000)
        free.update(marks, 0)
        want = bytearray(free.frame)
        T.limit(want, 361, budget)
        leds = L.Leds(mode=TEACHING, brightness=255, budget_ma=budget)
        leds.update(marks, 0)
        if leds.frame != want:
            failures.append("budget %d: composer frame differs from limit()" % budget)
        if leds.ma != T.estimate_ma(want, 361) or leds.ma > budget:
            failures.append("budget %d: %d mA reported" % (budget, leds.ma))
    check(failures)


def test_every_kind_lights_at_the_default_brightness():
    """Gamma after the brightness cap crushes dim colours: every kind must still light a channel
    to at least 4 of 255 (a WS2812 at 1-2 is dark in a lit room), the count's calm ones included."""
    leds = L.Leds()
    failures = []
    for k in range(len(T.KINDS)):
        for s in range(2):
            i = (2 * k + s) * 3
            if max(leds.lut[i:i + 3]) < 4:
                failures.append("%s (%s): %r" % (T.NAMES[k], ("black", "white")[s], list(leds.lut[i:i + 3])))
    check(failures)
