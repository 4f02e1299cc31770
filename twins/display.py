"""The clock display's twin: the real ``ClockDisplay`` drawing on a canvas of bytes, each frame
also kept as text (``"B  4:59 3 | W  0:40 2 *"``) for tests and the simulator's page."""

from firmware.clock.face import BLANK
from firmware.drivers.clock_display import HEIGHT, WIDTH, ClockDisplay


class SimCanvas:
    """A 128x64 one-bit canvas in a bytearray (one byte per pixel; no framebuf needed on CPython)."""

    def __init__(self):
        self.pixels = bytearray(WIDTH * HEIGHT)
        self.flushes = 0  # bands sent (``halves``)
        self.halves = []
        self.inverted = 0  # the SSD1306's inverse display (0xA7), as the alert sets it
        self.words = []  # the text drawn since the last fill

    def fill(self, c):
        self.words = []
        self.pixels[:] = bytes((c,)) * len(self.pixels)

    def fill_rect(self, x, y, w, h, c):
        p = self.pixels
        x0, x1 = max(x, 0), min(x + w, WIDTH)
        if x1 <= x0:
            return
        run = bytes((c,)) * (x1 - x0)
        for yy in range(max(y, 0), min(y + h, HEIGHT)):  # (a row's run at once: the simulators draw many frames)
            row = yy * WIDTH
            p[row + x0:row + x1] = run

    def invert(self, on):
        self.inverted = on

    def text(self, s, x, y, c):
        """framebuf's text, kept as the words (8x8 glyphs are not drawn: what was said is what counts);
        a box where each glyph would be, so the frame is not blank."""
        self.words.append(s)
        self.fill_rect(x, y, 8 * len(s), 8, c)

    def pixel(self, x, y):
        return self.pixels[y * WIDTH + x]

    def flush(self, half, first, last):
        """The SSD1306's band of one half's pages: ``halves`` keeps each (half, first, last) sent."""
        self.flushes += 1
        self.halves.append((half, first, last))


def _text(last, base, name):
    chars = " 0123456789"
    d = [chars[last[base + i] + 1] if last[base + i] != BLANK else " " for i in range(8)]
    out = name + " " + d[0] + d[1] + (":" if last[base + 4] else " ") + d[2] + d[3]
    out += " " + (d[5] + d[6]).strip() if last[base + 5] != BLANK or last[base + 6] != BLANK else ""
    if last[base + 7] & 1:
        out += " ot"
    if last[base + 7] & 2:
        out += " LAST"
    if last[base + 8]:
        out += " *" if not last[base + 9] else " ="
    if last[base + 10]:
        out += " FLAG"
    return out


class SimClockDisplay(ClockDisplay):
    """Draws on a SimCanvas and records every frame sent as text in ``shown``."""

    def __init__(self):
        super().__init__(SimCanvas())
        self.shown = []

    def update(self, clock):
        sent = ClockDisplay.update(self, clock)
        if sent:
            self.shown.append(self.text())
        return sent

    def words(self, lines):
        ClockDisplay.words(self, lines)
        self.shown.append(self.said())

    def said(self):
        """The words the display shows instead of the times ('WHITE WINS / BY 3.5'), or ''."""
        return " / ".join(self.canvas.words) if self.wordy else ""

    def text(self):
        """The times as last drawn, as text: '<black> | <white>' (' *' running, ' =' paused, ' ot' period or delay, ' LAST' last period);
        'B | W' before the first frame."""
        alert = " (INVERSE)" if self.canvas.inverted else ""
        if self.last[0] == 0xFF:
            return "B | W" + alert
        return _text(self.last, 0, "B") + " | " + _text(self.last, 12, "W") + alert
