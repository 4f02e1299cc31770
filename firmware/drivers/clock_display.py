"""The clock display: an SSD1306 128x64 OLED on I2C, both players' times side by side.

``Ssd1306`` is the part: it receives a ``machine.I2C`` object (never pins),
keeps a 1 KB frame buffer (MicroPython's ``framebuf``) and sends it whole
(``flush``) or a band of one half's pages (``flush_half``: a second ticking
on one side is a quarter of the frame, 6 ms on the 400 kHz bus, not 23).
``ClockDisplay`` draws a clock's snapshot on any canvas with ``fill``,
``fill_rect``, ``text``, ``flush`` and ``flush_half``: big seven-segment digits drawn with rectangles
(no font, no strings, so an update allocates nothing), Black on the left,
White on the right. Under each time: the byo-yomi periods left, the Canadian
stones still to play or the delay seconds; a bar over the side whose clock
runs (dashed while paused); a bar under a side whose flag fell. The frame is
sent only when what it shows changed, and when one side's did, only the
pages of that side that changed are drawn again and sent. (Its twin:
twins/display.py.)
"""

from ..clock.face import digits
from ..micro import const
from ..rules.position import BLACK, WHITE

WIDTH = const(128)
HEIGHT = const(64)

# Segments a..g as bits 0..6 for 0-9, then blank.
_SEGMENTS = b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f\x00"

_INIT = (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, HEIGHT - 1, 0xC8, 0xD3, 0x00, 0xDA, 0x12, 0xD5, 0x80,
         0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF)
_WINDOW = (0x21, 0, WIDTH - 1, 0x22, 0, HEIGHT // 8 - 1)
_HALF = const(64)  # a side's columns
# The pages (8-pixel rows, a bit each) a side's shown byte i (digits(), then running, paused,
# flag) is drawn in: the big digits and colon y 8-38, the count and marks y 43-57, the bars.
_PAGES = b"\x1e\x1e\x1e\x1e\x1e\xe0\xe0\xe0\x01\x01\x80"


class Ssd1306:
    """SSD1306 over I2C with a MONO_VLSB frame buffer; canvas interface fill/fill_rect/flush."""

    def __init__(self, i2c, addr=0x3C):
        import framebuf

        self.i2c = i2c
        self.addr = addr
        self.buf = bytearray(1 + WIDTH * HEIGHT // 8)
        self.buf[0] = 0x40  # data stream
        self.fb = framebuf.FrameBuffer(memoryview(self.buf)[1:], WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.fill = self.fb.fill  # (the framebuf's own methods: no Python call between)
        self.fill_rect = self.fb.fill_rect
        self.text = self.fb.text  # framebuf's 8x8 font
        rows = memoryview(self.buf)  # each page's half after a data byte, made once: flush_half allocates nothing
        self._halves = tuple((b"\x40", rows[1 + _HALF * k:1 + _HALF * (k + 1)]) for k in range(2 * HEIGHT // 8))
        self._cmd = bytearray(2)
        self._cmd[0] = 0x80  # one command byte follows
        for c in _INIT:
            self.command(c)
        self.fill(0)
        self.flush()

    def command(self, c):
        self._cmd[1] = c
        self.i2c.writeto(self.addr, self._cmd)

    def invert(self, on):
        self.command(0xA7 if on else 0xA6)

    def flush(self):
        for c in _WINDOW:
            self.command(c)
        self.i2c.writeto(self.addr, self.buf)

    def flush_half(self, half, first, last):
        """Send pages ``first``..``last`` of one half (0: columns 0-63, 1: 64-127)."""
        self.command(0x21)
        self.command(_HALF * half)
        self.command(_HALF * half + _HALF - 1)
        self.command(0x22)
        self.command(first)
        self.command(last)
        for page in range(first, last + 1):
            self.i2c.writevto(self.addr, self._halves[2 * page + half])


def draw_digit(canvas, x, y, w, h, t, d):
    """Seven-segment digit d (BLANK draws nothing) in the box (x, y, w, h), strokes t thick."""
    s = _SEGMENTS[d]
    mid = y + (h - t) // 2
    half = (h - t) // 2 + t
    if s & 1:
        canvas.fill_rect(x, y, w, t, 1)
    if s & 2:
        canvas.fill_rect(x + w - t, y, t, half, 1)
    if s & 4:
        canvas.fill_rect(x + w - t, mid, t, h - (mid - y), 1)
    if s & 8:
        canvas.fill_rect(x, y + h - t, w, t, 1)
    if s & 16:
        canvas.fill_rect(x, mid, t, h - (mid - y), 1)
    if s & 32:
        canvas.fill_rect(x, y, t, half, 1)
    if s & 64:
        canvas.fill_rect(x, mid, w, t, 1)


class ClockDisplay:
    """Draws a Clock on a canvas (Ssd1306 or SimCanvas). ``update(clock)`` after clock.snapshot()."""

    def __init__(self, canvas):
        self.canvas = canvas
        self.digits = bytearray(11)  # a side's 8 digit bytes, then running, paused, flag
        self.last = bytearray(24)  # per side: 8 digit bytes, running, paused, flag (+1 spare)
        self.last[0] = 0xFF  # nothing shown yet
        self.frames = 0
        self.wordy = False  # words are shown, not the times

    def alert(self, on):
        """The whole screen inverse (white on black turns black on white) while the board has
        something wrong to tell (the journal cannot write): seen from across the table."""
        self.canvas.invert(1 if on else 0)

    def words(self, lines):
        """Two short lines (16 characters at most) instead of the times: the result of a
        game (firmware/clock/verdict.py). The next ``update`` draws the times again."""
        c = self.canvas
        c.fill(0)
        y = 18
        for line in lines:
            c.text(line, (WIDTH - 8 * len(line)) // 2, y, 1)
            y += 18
        c.flush()
        self.wordy = True  # the next update draws the times whatever they are
        self.frames += 1

    def update(self, clock):
        """Redraw and send what changed; True if anything was sent. Allocation-free."""
        wordy = self.wordy
        self.wordy = False
        black = self._side_changed(clock, BLACK)  # (both sides looked at: what each shows is kept)
        white = self._side_changed(clock, WHITE)
        if not (wordy or black or white):
            return False
        c = self.canvas
        if wordy or (black and white):  # words were shown, or both sides changed (a press): all of it
            c.fill(0)
            self._draw_side(BLACK)
            self._draw_side(WHITE)
            c.flush()
        else:
            self._redraw(WHITE if white else BLACK, white or black)
        self.frames += 1
        return True

    def _redraw(self, side, pages):
        # The band of ``side``'s pages from the first to the last in ``pages`` cleared, the side
        # drawn again (what lies outside the band is drawn where it was), the band sent.
        first = 0
        while not pages >> first & 1:
            first += 1
        last = 7
        while not pages >> last & 1:
            last -= 1
        half = 0 if side == BLACK else 1
        self.canvas.fill_rect(_HALF * half, 8 * first, _HALF, 8 * (last - first + 1), 0)
        self._draw_side(side)
        self.canvas.flush_half(half, first, last)

    def _side_changed(self, clock, side):
        # What ``side``'s face shows, kept in ``last``; the mask of the pages it changed in (0: none).
        # (Small: a frame over 11 words is taken from the heap at each call, see micro.py.)
        d = digits(clock, side, self.digits)
        snap = clock.snap
        d[8] = 1 if snap.running == side else 0
        d[9] = 1 if snap.paused else 0
        d[10] = 1 if snap.flag == ("B" if side == BLACK else "W") else 0
        return self._keep((side - 1) * 12, d)

    def _keep(self, base, d):
        last = self.last
        pages = 0
        for i in range(11):
            if last[base + i] != d[i]:
                pages |= _PAGES[i]
                last[base + i] = d[i]
        return pages

    def _draw_side(self, side):
        c = self.canvas
        base = (side - 1) * 12
        last = self.last
        x0 = 0 if side == BLACK else 64
        if last[base + 8]:
            if last[base + 9]:
                for x in range(x0 + 2, x0 + 62, 8):
                    c.fill_rect(x, 0, 4, 3, 1)
            else:
                c.fill_rect(x0 + 2, 0, 60, 3, 1)
        draw_digit(c, x0 + 2, 8, 12, 30, 3, last[base])
        draw_digit(c, x0 + 16, 8, 12, 30, 3, last[base + 1])
        draw_digit(c, x0 + 36, 8, 12, 30, 3, last[base + 2])
        draw_digit(c, x0 + 50, 8, 12, 30, 3, last[base + 3])
        if last[base + 4]:
            c.fill_rect(x0 + 30, 15, 3, 3, 1)
            c.fill_rect(x0 + 30, 28, 3, 3, 1)
        if last[base + 7] & 1:
            c.fill_rect(x0 + 4, 48, 6, 6, 1)  # the big digits show a period or the delay
        if last[base + 7] & 2:  # LAST period: an L beside the count
            c.fill_rect(x0 + 14, 43, 3, 14, 1)
            c.fill_rect(x0 + 14, 54, 10, 3, 1)
        draw_digit(c, x0 + 40, 43, 8, 14, 2, last[base + 5])
        draw_digit(c, x0 + 51, 43, 8, 14, 2, last[base + 6])
        if last[base + 10]:
            c.fill_rect(x0 + 2, 60, 60, 4, 1)
