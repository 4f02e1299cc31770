"""WS2812B/SK6812 chains through MicroPython's ``neopixel`` (``machine.bitstream``).

The pixel driver contract (this driver, ``pio_strip.PioStrip``, ``cp_strip.CpStrip``
and the twin ``twins/strip.py SimStrip``): ``show(buf)`` transmits a prepared
buffer (``Leds.frame`` or a memoryview slice of it for one chain) as it is:
3 bytes per LED in wire order, nothing converted, nothing allocated.

``NeoStrip`` receives a ``neopixel.NeoPixel`` built by the application on its
``machine.Pin`` (``NeoPixel(Pin(LED_PIN), LED_COUNT)``: GRB, 800 kHz). It
lends the frame to the object as its ``buf`` and calls ``write()``: the
bit-bang keeps interrupts off for about 30 us per LED (10.8 ms for 361).
"""


class NeoStrip:
    def __init__(self, pixels):
        self.pixels = pixels
        self.frames = 0

    def show(self, buf):
        """Transmit buf (len == 3 * LEDs of this chain)."""
        px = self.pixels
        px.buf = buf
        px.write()
        self.frames += 1
