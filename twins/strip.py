"""The pixel twin: records every transmitted frame (see strip.py for the contract).

``SimStrip(count, order)`` keeps ``frames`` (a copy of each buffer shown;
copying allocates: it is a test double, not firmware) and decodes pixels
back to RGB: ``rgb(i)`` of the last frame, ``lit()`` the lit LED indices.
``FakeNeoPixel`` stands in for MicroPython's ``neopixel.NeoPixel`` (GRB,
``buf`` + ``write()``) so ``NeoStrip`` is tested unchanged; ``FakeStateMachine`` stands in for an
``rp2.StateMachine`` running the WS2812 program (``put`` records FIFO words,
``bits()`` turns them back into the bit stream the program sends).
"""


class SimStrip:
    def __init__(self, count=361, order="GRB", keep=64):
        self.count = count
        self.order = order
        self.keep = keep  # most recent frames kept
        self.frames = []
        self.shown = 0

    def show(self, buf):
        if len(buf) != 3 * self.count:
            raise ValueError("frame length does not match the chain")
        self.frames.append(bytes(buf))
        if len(self.frames) > self.keep:
            self.frames.pop(0)
        self.shown += 1

    def rgb(self, i, frame=-1):
        f = self.frames[frame]
        a, b, c = f[3 * i], f[3 * i + 1], f[3 * i + 2]
        if self.order == "GRB":
            return (b, a, c)
        return (a, b, c)

    def lit(self, frame=-1):
        f = self.frames[frame]
        return [i for i in range(self.count) if f[3 * i] or f[3 * i + 1] or f[3 * i + 2]]


class FakeNeoPixel:
    """MicroPython's neopixel.NeoPixel without a pin: write() records the GRB bytes."""

    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.written = []

    def write(self):
        self.written.append(bytes(self.buf))


class FakeStateMachine:
    """rp2.StateMachine for pio_strip: records the FIFO words; the TX FIFO drains at once."""

    def __init__(self):
        self.words = []
        self.puts = 0

    def put(self, value, shift=0):
        self.puts += 1
        if isinstance(value, int):
            self.words.append((value << shift) & 0xFFFFFFFF)
        else:
            for v in value:
                self.words.append((v << shift) & 0xFFFFFFFF)

    def tx_fifo(self):
        return 0

    def bits(self, per_word=8):
        """The bits the program shifts out (left shift, autopull every ``per_word`` bits)."""
        out = []
        for w in self.words:
            for i in range(per_word):
                out.append(w >> (31 - i) & 1)
        return out


class FakeDma:
    """rp2.DMA for pio_strip: a transfer to the state machine's TX FIFO register lands in ``sm``
    (each byte written to a 32-bit register: in all four byte lanes, as on the RP2040's bus),
    at once; ``active()`` is True for ``busy_polls`` calls after a transfer starts."""

    def __init__(self, sm, busy_polls=0):
        self.sm = sm
        self.busy_polls = busy_polls
        self.busy = 0
        self.configs = []  # (write address, count, ctrl) of each transfer

    def pack_ctrl(self, size=2, inc_read=True, inc_write=True, treq_sel=0x3F):
        return {"size": size, "inc_read": inc_read, "inc_write": inc_write, "treq_sel": treq_sel}

    def config(self, read=None, write=None, count=0, ctrl=None, trigger=False):
        self.configs.append((write, count, ctrl))
        if trigger:
            for b in read[:count]:
                self.sm.words.append(b * 0x01010101)
            self.busy = self.busy_polls

    def active(self):
        if self.busy:
            self.busy -= 1
            return True
        return False
