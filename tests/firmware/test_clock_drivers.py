"""Clock drivers through their simulated twins: debounced buttons, the display, the buzzer."""

from support import TICKS_PERIOD, check

from firmware.clock import Clock
from firmware.clock.cues import CUE_COUNT, CUE_FLAG, CUE_LAST, CUE_NONE, CUE_PERIOD, CUE_TEN, Cues
from firmware.drivers.buttons import B_BLACK, B_PAUSE, B_WHITE, Buttons
from firmware.drivers.buzzer import PATTERNS
from firmware.drivers.clock_display import ClockDisplay
from firmware.rules.position import BLACK, WHITE
from twins.buttons import SimButtons
from twins.buzzer import SimBuzzer
from twins.display import SimCanvas, SimClockDisplay
from twins.pins import SimPin


def test_buttons_debounce_with_injected_time():
    b = SimButtons(debounce_ms=20)
    events = []
    # (time, button, raw level down?) - a bouncy press of Black's button at 100, released at 300
    script = [(100, B_BLACK, True), (103, B_BLACK, False), (105, B_BLACK, True), (300, B_BLACK, False),
              (302, B_BLACK, True), (304, B_BLACK, False), (500, B_WHITE, True), (510, B_WHITE, False)]
    for t in range(0, 700):
        while script and script[0][0] == t:
            _t, i, down = script.pop(0)
            b.bounce(i, down)
        mask = b.poll(t)
        if mask:
            events.append((t, mask, b.at[B_BLACK] if mask & 1 else b.at[B_WHITE]))
    # one press of Black, stable 20 ms after its last bounce; the 10 ms blip of White is not a press
    check([] if events == [(125, 1 << B_BLACK, 105)] else ["events %r" % events])
    assert not b.is_down(B_BLACK)


def test_buttons_on_real_pin_objects_active_low_and_high():
    pins = [SimPin(1), SimPin(1), SimPin(0), SimPin(1)]  # pause held at power-on reads pressed
    b = Buttons(pins, debounce_ms=5)
    got = [b.poll(t) for t in range(0, 10)]
    assert got[0] == 0 and got[5] == 1 << B_PAUSE and sum(got) == 1 << B_PAUSE, got
    assert b.is_down(B_PAUSE) and not b.is_down(B_BLACK) and b.bits == 1 << B_PAUSE
    high = Buttons([SimPin(1)], debounce_ms=5, active_low=False)
    assert [high.poll(t) for t in range(7)][5] == 1


def test_buttons_latch_a_tap_between_two_polls_by_its_irq():
    """With a clock, each pin's press edge is latched by its IRQ: a 30 ms tap that begins and ends
    between two polls (a long loop pass), or is seen down by one poll only, is a press at its edge's
    time; a press seen by the debouncer counts once; a release's contact bounce is no press."""
    now = [0]
    pins = [SimPin(1) for _ in range(4)]
    b = Buttons(pins, debounce_ms=20, clock=lambda: now[0])
    events = []

    def at(t, i=None, level=None, poll=False):
        now[0] = t
        if i is not None:
            pins[i].value(level)
        if poll:
            mask = b.poll(t)
            if mask:
                events.append((t, mask, [b.at[k] for k in range(4) if mask >> k & 1]))

    at(0, poll=True)
    at(105, B_BLACK, 0)  # a 30 ms tap inside a 100 ms pass
    at(135, B_BLACK, 1)
    at(200, poll=True)
    at(300, B_WHITE, 0)  # a 30 ms tap seen down by one poll only
    at(310, poll=True)
    at(330, B_WHITE, 1)
    at(360, poll=True)
    at(500, B_PAUSE, 0)  # a press held 200 ms, polled every 10 ms; its release bounces
    for t in range(500, 700, 10):
        at(t, poll=True)
    at(700, B_PAUSE, 1)
    at(702, B_PAUSE, 0)
    at(703, B_PAUSE, 1)
    for t in range(705, 800, 10):
        at(t, poll=True)
    want = [(200, 1 << B_BLACK, [105]), (360, 1 << B_WHITE, [300]), (520, 1 << B_PAUSE, [500])]
    check([] if events == want else ["events %r, want %r" % (events, want)])
    assert not b.is_down(B_PAUSE) and not b.tapped and not b.latched


class _CountedPin(SimPin):
    reads = 0

    def value(self, v=None):
        if v is None:
            _CountedPin.reads += 1
        return SimPin.value(self, v)


def test_buttons_with_irqs_read_no_pin_while_all_are_up():
    """With IRQs latching every press edge, a poll with every button up at the last look and no
    edge since reads no pin (an idle tick's cost on the Pico); a press is still seen, and the
    pins are read until it is let go and debounced."""
    now = [0]
    pins = [_CountedPin(1) for _ in range(4)]
    b = Buttons(pins, debounce_ms=20, clock=lambda: now[0])
    _CountedPin.reads = 0
    idle = [b.poll(t) for t in range(0, 100, 10)]
    assert idle == [0] * 10 and _CountedPin.reads == 0
    now[0] = 105
    pins[B_WHITE].value(0)
    pressed = [b.poll(t) for t in range(110, 200, 10)]
    assert pressed.count(1 << B_WHITE) == 1 and _CountedPin.reads > 0
    now[0] = 205
    pins[B_WHITE].value(1)
    after = [b.poll(t) for t in range(210, 300, 10)]
    reads = _CountedPin.reads
    assert after == [0] * 9 and not b.is_down(B_WHITE)
    assert [b.poll(t) for t in range(300, 400, 10)] == [0] * 10 and _CountedPin.reads == reads


def test_a_tap_between_two_polls_is_an_intent():
    """The controls act on taps only the driver's latch saw: Black's clock, PAUSE, and MENU (whose
    intent is its release: a tap is pressed and let go at once)."""
    from firmware.controls import BLACK as I_BLACK
    from firmware.controls import MENU as I_MENU
    from firmware.controls import PAUSE as I_PAUSE
    from firmware.controls import Controls
    from firmware.drivers.buttons import B_MENU

    now = [0]
    pins = [SimPin(1) for _ in range(4)]
    controls = Controls(Buttons(pins, debounce_ms=20, clock=lambda: now[0]))
    got = []
    for i, t in ((B_BLACK, 100), (B_PAUSE, 300), (B_MENU, 500)):
        controls.poll(t)
        now[0] = t + 5
        pins[i].value(0)
        now[0] = t + 40
        pins[i].value(1)
        got.append(controls.poll(t + 90))  # the pass after a long one: the tap is over
        got.append(controls.poll(t + 100))
    want = [I_BLACK, 0, I_PAUSE, 0, I_MENU, 0]
    check([] if got == want else ["intents %r, want %r" % (got, want)])


def test_buttons_wrap_safe():
    b = SimButtons(debounce_ms=20)
    start = TICKS_PERIOD - 10
    b.hold(B_WHITE)
    presses = 0
    for k in range(40):
        presses += b.poll((start + k) % TICKS_PERIOD) != 0
    assert presses == 1


def test_display_shows_both_clocks_and_sends_only_changes():
    c = Clock("byoyomi 1m 3x40s")
    d = SimClockDisplay()
    c.start(0, BLACK)
    for t in range(0, 62000, 250):
        c.snapshot(t)
        d.update(c)
    c.press(BLACK, 62000)
    c.snapshot(62000)
    d.update(c)
    c.pause(63000)
    c.snapshot(63000)
    d.update(c)
    want = ["B  1:00 3 * | W  1:00 3", "B  0:59 3 * | W  1:00 3", "B  0:01 3 * | W  1:00 3",
            "B  0:40 3 ot * | W  1:00 3", "B  0:39 3 ot * | W  1:00 3", "B  0:40 3 ot | W  1:00 3 *",
            "B  0:40 3 ot | W  0:59 3 ="]
    failures = [w for w in want if w not in d.shown]
    if len(d.shown) != len(set(d.shown)) or not d.frames <= d.canvas.flushes <= 2 * d.frames:
        failures.append("a frame was sent that changed nothing: %r" % d.shown)
    # pixels: the running bar over White (right half), dashed while paused
    if d.canvas.pixel(66, 1) != 1 or d.canvas.pixel(2 + 4, 1) != 0 or d.canvas.pixel(64 + 8, 1) != 0:
        failures.append("run indicator pixels")
    check(failures)


def test_a_side_redrawn_alone_shows_what_a_whole_frame_would():
    """A second ticking on one side redraws and sends only the band of that side's pages that
    changed (the big digits: pages 1-4 of its half); the pixels then are a whole frame's."""
    c = Clock("byoyomi 1m 3x10s")
    d = SimClockDisplay()
    c.start(0, BLACK)
    failures = []
    for t in list(range(0, 3000, 100)) + [59500, 60000, 61000, 69000, 70500]:
        c.snapshot(t)
        sent = d.update(c)
        whole = ClockDisplay(SimCanvas())
        whole.update(c)  # (a new display draws everything)
        if d.canvas.pixels != whole.canvas.pixels:
            failures.append("t=%d: the pixels differ from a whole frame's" % t)
        if sent and t in (1000, 2000) and d.canvas.halves[-1] != (0, 1, 4):
            failures.append("t=%d: sent %r, not Black's digits" % (t, d.canvas.halves[-1]))
    if not any(first > 1 or last > 4 for _, first, last in d.canvas.halves):
        failures.append("the periods' pages never sent: %r" % d.canvas.halves)  # (byo-yomi begins at 60 s)
    c.press(BLACK, 71000)  # both sides change (the bar moves): Black's band now, White's in a call of its own
    c.snapshot(71000)
    d.update(c)
    sent = d.canvas.halves[-1]
    d.finish()
    if sent[0] != 0 or d.canvas.halves[-1][0] != 1 or d.pending:
        failures.append("a press sent %r, then %r" % (sent, d.canvas.halves[-1]))
    check(failures)


def test_display_flag_and_count_up():
    c = Clock("absolute 10s")
    d = SimClockDisplay()
    c.start(0, WHITE)
    c.snapshot(10000)
    d.update(c)
    assert d.shown[-1] == "B  0:10 | W  0:00 * FLAG", d.shown
    assert d.canvas.pixel(100, 62) == 1 and d.canvas.pixel(20, 62) == 0
    c = Clock("none")
    d = SimClockDisplay()
    c.start(0, BLACK)
    c.snapshot(3601000)
    d.update(c)
    assert d.shown[-1] == "B  1:00 * | W  0:00", d.shown


def test_seven_segment_digits_are_drawn():
    # the digit 8 lights every segment, 1 only the right side
    c = Clock("absolute 8m")
    d = ClockDisplay(SimCanvas())
    c.start(0, BLACK)
    c.snapshot(0)
    d.update(c)
    canvas = d.canvas
    lit = sum(canvas.pixels)
    assert lit > 300, lit
    # Black's "8:00": second digit box x 16..27, y 8..37: its middle bar is lit
    assert canvas.pixel(20, 21) == 1 and canvas.pixel(20, 23) == 1 and canvas.pixel(20, 25) == 0
    assert canvas.pixel(3, 22) == 0  # first digit blank


class FakeI2C:
    """An SSD1306 on the bus: its RAM as the column and page windows (0x21, 0x22) and the data write it."""

    def __init__(self):
        self.writes = 0
        self.ram = bytearray(1024)
        self.args = []  # a window command's bytes while its arguments come
        self.cols = [0, 127]
        self.pages = [0, 7]
        self.at = [0, 0]  # column, page

    def writeto(self, addr, buf):
        self.writes += 1
        if buf[0] == 0x80:  # a command byte
            self.command(buf[1])
            return
        assert buf[0] == 0x40  # data
        for b in buf[1:]:
            col, page = self.at
            self.ram[page * 128 + col] = b
            if col < self.cols[1]:
                self.at = [col + 1, page]
            else:
                self.at = [self.cols[0], page + 1 if page < self.pages[1] else self.pages[0]]

    def command(self, b):
        if self.args or b in (0x21, 0x22):
            self.args.append(b)
            if len(self.args) == 3:
                op, lo, hi = self.args
                if op == 0x21:
                    self.cols = [lo, hi]
                else:
                    self.pages = [lo, hi]
                self.at = [self.cols[0], self.pages[0]]
                self.args = []


def test_ssd1306_on_micropython_framebuf():
    """The real driver over framebuf: what the display's RAM holds after each update, bands and
    halves sent in their passes, is the frame buffer the driver drew."""
    try:
        import framebuf  # noqa: F401  (MicroPython; absent on CPython)
    except ImportError:
        return
    from firmware.drivers.clock_display import Ssd1306

    i2c = FakeI2C()
    oled = Ssd1306(i2c)
    assert i2c.writes > 25 and i2c.ram == bytearray(1024)  # initialised, and cleared
    c = Clock("byoyomi 1m 3x10s")
    d = ClockDisplay(oled)
    c.start(0, BLACK)
    for t in (0, 1000, 2000, 30500):
        c.snapshot(t)
        assert d.update(c)
        while d.pending:
            d.finish()
        assert i2c.ram == oled.buf and sum(1 for x in i2c.ram if x) > 20
    c.press(BLACK, 31000)  # both halves change: the second in a call of its own
    c.snapshot(31000)
    assert d.update(c) and d.pending and i2c.ram != oled.buf
    d.finish()
    assert i2c.ram == oled.buf and not d.update(c)


def test_buzzer_plays_cues_and_is_silent_when_quiet():
    c = Clock("byoyomi 10s 2x30s")
    cues = Cues(c)
    bz = SimBuzzer()
    quiet = SimBuzzer(quiet=True)
    c.start(0, BLACK)
    seen = []
    for t in range(0, 80000, 50):
        q = cues.cue(t)
        if q != CUE_NONE:
            seen.append(q)
            bz.play(q, t)
            quiet.play(q, t)
        bz.update(t)
        quiet.update(t)
    assert quiet.beeps == [] and quiet.pwm.duty == 0
    freqs = {}
    for _t, f, _ms in bz.beeps:
        freqs[f] = freqs.get(f, 0) + 1
    assert seen.count(CUE_TEN) == 2 and seen.count(CUE_COUNT) == 10 and seen.count(CUE_LAST) == 10
    assert seen.count(CUE_PERIOD) == 1 and seen.count(CUE_FLAG) == 1
    # the last period's count has its own tone
    assert PATTERNS[CUE_LAST][0] != PATTERNS[CUE_COUNT][0]
    assert len(bz.beeps) == 2 + 10 + 10 + 2 + 3, bz.beeps
    assert bz.pwm.duty == 0 and not bz.pattern


def test_buzzer_pattern_timing():
    bz = SimBuzzer()
    bz.play(CUE_PERIOD, 1000)
    duty = []
    for t in range(1000, 1300, 10):
        bz.update(t)
        duty.append(1 if bz.pwm.duty else 0)
    # on 80 ms, off 60 ms, on 80 ms, then silent
    assert duty == [1] * 8 + [0] * 6 + [1] * 8 + [0] * 8, duty
    assert bz.beeps == [(1000, 2000, 80), (1140, 2000, 80)]
    assert not bz.play(0, 0) and not bz.pattern


def test_display_marks_the_last_period():
    c = Clock("byoyomi 10s 2x30s")
    d = SimClockDisplay()
    c.start(0, BLACK)
    for t in (0, 15000, 45000):
        c.snapshot(t)
        d.update(c)
    assert d.shown == ["B  0:10 2 * | W  0:10 2", "B  0:25 2 ot * | W  0:10 2",
                       "B  0:25 1 ot LAST * | W  0:10 2"], d.shown
    assert d.canvas.pixel(15, 50) == 1 and d.canvas.pixel(64 + 15, 50) == 0
