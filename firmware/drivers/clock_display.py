"""The clock display: an SSD1306 128x64 OLED on I2C, both players' times side by side.

``Ssd1306`` is the part: it receives a ``machine.I2C`` object (never pins),
keeps a 1 KB frame buffer (MicroPython's ``framebuf``) and sends a band of
one half's pages at a time (``flush``: a second ticking on one side is
a quarter of the frame, 6 ms on the 400 kHz bus; the whole frame 23 ms).
``ClockDisplay`` draws a clock's snapshot on any canvas with ``fill``,
``fill_rect``, ``text`` and ``flush``: big seven-segment digits drawn with rectangles
(no font, no strings, so an update allocates nothing), Black on the left,
White on the right. Under each time: the byo-yomi periods left, the Canadian
stones still to play or the delay seconds; a bar over the side whose clock
runs (dashed while paused); a bar under a side whose flag fell. The frame is
sent only when what it shows changed, and when one side's did, only the
pages of that side that changed are drawn again and sent. A frame that
changes both halves sends the second in a call of its own (``pending``,
``finish``): the loop's display stage has a pass for it. (Its twin:
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
_HALF = const(64)  # a side's columns
_LEFT = const(0x1007)  # ClockDisplay.pending's bands: 0x1000 | half << 8 | first page << 4 | last page
_RIGHT = const(0x1107)


class Ssd1306:
    """SSD1306 over I2C with a MONO_VLSB frame buffer; canvas interface fill/fill_rect/text/flush."""

    def __init__(self, i2c, addr=0x3C):
        import framebuf

        self.i2c = i2c
        self.addr = addr
        self.buf = bytearray(WIDTH * HEIGHT // 8)
        self.fb = framebuf.FrameBuffer(self.buf, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.fill = self.fb.fill  # (the framebuf's own methods: no Python call between)
        self.fill_rect = self.fb.fill_rect
        self.text = self.fb.text  # framebuf's 8x8 font
        self._buf = bytearray(1 + _HALF)  # a data byte (0x40) and a half page: one I2C write
        self._buf[0] = 0x40
        self._out = framebuf.FrameBuffer(memoryview(self._buf)[1:], _HALF, 8, framebuf.MONO_VLSB)
        self._cmd = bytearray(2)
        self._cmd[0] = 0x80  # one command byte follows
        for c in _INIT:
            self.command(c)
        self.fill(0)
        self.flush(0, 0, 7)
        self.flush(1, 0, 7)

    def command(self, c):
        self._cmd[1] = c
        self.i2c.writeto(self.addr, self._cmd)

    def invert(self, on):
        self.command(0xA7 if on else 0xA6)

    def flush(self, half, first, last):
        """Send pages ``first``..``last`` of one half (0: columns 0-63, 1: 64-127)."""
        self.command(0x21)  # the controller's window: those columns and pages
        self.command(_HALF * half)
        self.command(_HALF * half + _HALF - 1)
        self.command(0x22)
        self.command(first)
        self.command(last)
        for page in range(first, last + 1):
            self._out.blit(self.fb, -_HALF * half, -8 * page)  # (the half page, copied by framebuf)
            self.i2c.writeto(self.addr, self._buf)


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
        self.digits = bytearray(11)  # what a side's face shows (clock/face.py digits)
        self.last = bytearray(24)  # per side: 8 digit bytes, running, paused, flag (+1 spare)
        self.last[0] = 0xFF  # nothing shown yet
        self.frames = 0
        self.wordy = False  # words are shown, not the times
        self.pending = 0  # a band of the last frame left for ``finish`` (_LEFT's form), or 0

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
        self._write()
        self.wordy = True  # the next update draws the times whatever they are
        self.frames += 1

    def _write(self):
        # The whole frame, a half a call: 12 ms of I2C each, not 23 in one pass.
        self.pending = _LEFT
        self.finish()
        self.pending = _RIGHT

    def finish(self):
        """Send the band the last frame left for a call of its own (``pending``)."""
        band = self.pending
        self.pending = 0
        self.canvas.flush(band >> 8 & 1, band >> 4 & 15, band & 15)

    def update(self, clock):
        """Redraw and send what changed; True if anything was sent. Allocation-free."""
        black = self._check(0, digits(clock, BLACK, self.digits))  # (both sides looked at: what each shows is kept)
        white = self._check(12, digits(clock, WHITE, self.digits))
        if self.wordy:  # words were shown: all of it, a half a call
            self.wordy = False
            self.canvas.fill(0)
            self._draw_side(BLACK)
            self._draw_side(WHITE)
            self._write()
        elif black and white:  # both sides changed (a press): Black's band, White's at finish
            self.pending = self._paint(BLACK, black)
            self.finish()
            self.pending = self._paint(WHITE, white)
        elif black or white:
            self.pending = self._paint(WHITE if white else BLACK, white or black)
            self.finish()
        else:
            return False
        self.frames += 1
        return True

    def _paint(self, side, bits):
        # The band of ``side``'s pages from the first to the last in ``bits`` cleared and the side
        # drawn again (what lies outside the band is drawn where it was): the band, as ``pending``.
        first = 0
        while not bits >> first & 1:
            first += 1
        last = 7
        while not bits >> last & 1:
            last -= 1
        half = 0 if side == BLACK else 1
        self.canvas.fill_rect(_HALF * half, 8 * first, _HALF, 8 * (last - first + 1), 0)
        self._draw_side(side)
        return 0x1000 | half << 8 | first << 4 | last

    def _check(self, at, d):
        # What a side's face shows (digits()), kept in ``last`` from ``at``; the mask of the pages
        # it changed in (0: none).
        last = self.last
        bits = 0
        for i in range(11):
            if last[at + i] != d[i]:
                # the pages (a bit each) byte i is drawn in: the big digits and colon, the count
                # and the marks under them, the bar over the side, the bar under it
                bits |= b"\x1e\x1e\x1e\x1e\x1e\xe0\xe0\xe0\x01\x01\x80"[i]
                last[at + i] = d[i]
        return bits

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
