"""WS2812B/SK6812 chains through Adafruit's CircuitPython ``neopixel`` library.

Same contract as strip.py: ``show(buf)`` transmits a prepared frame (3 bytes
per LED in ``order``, brightness, gamma and the current budget applied).
``CpStrip`` receives an ``adafruit neopixel.NeoPixel`` built by the
application as ``NeoPixel(board.GP16, 361, brightness=1.0, auto_write=False)``:
``auto_write`` would send the whole chain on every pixel assignment, and a
library brightness below 1.0 would scale the frame a second time, so both
are refused. Only the LEDs that differ from the previous frame are handed to
the library (as 0xRRGGBB ints, no tuples), then one ``show()`` transmits.
"""


class CpStrip:
    def __init__(self, pixels, order="GRB"):
        if pixels.auto_write:
            raise ValueError("build the NeoPixel with auto_write=False")
        if pixels.brightness != 1.0:
            raise ValueError("leave the library brightness at 1.0 (the frame is already scaled)")
        if order == "GRB":
            self._r, self._g = 1, 0
        elif order == "RGB":
            self._r, self._g = 0, 1
        else:
            raise ValueError("order must be GRB or RGB")
        self.pixels = pixels
        self.count = len(pixels)
        self._last = bytearray(3 * self.count)
        self._first = True
        self.frames = 0

    def show(self, buf):
        """Transmit buf (len == 3 * LEDs of this chain) through the library."""
        if len(buf) != 3 * self.count:
            raise ValueError("frame length does not match the chain")
        px = self.pixels
        last = self._last
        ro = self._r
        go = self._g
        first = self._first
        for i in range(self.count):
            o = 3 * i
            a = buf[o]
            b = buf[o + 1]
            c = buf[o + 2]
            if first or a != last[o] or b != last[o + 1] or c != last[o + 2]:
                last[o] = a
                last[o + 1] = b
                last[o + 2] = c
                r = buf[o + ro]
                g = buf[o + go]
                px[i] = (r << 16) | (g << 8) | c
        self._first = False
        px.show()
        self.frames += 1
