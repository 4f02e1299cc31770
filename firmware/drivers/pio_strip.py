"""WS2812B/SK6812 chains through an RP2040 PIO state machine, fed by DMA (interrupts stay on).

Same contract as strip.py: ``show(buf)`` transmits a prepared frame (3 bytes
per LED, wire order) as it is. MicroPython's ``neopixel.write()`` bit-bangs
with interrupts off for ~30 us per LED (10.8 ms for 361); here the PIO makes
the waveform (one byte a FIFO word, in its top 8 bits: the program shifts
8 bits out MSB first a word).

With ``dma`` (an ``rp2.DMA`` channel: ``dma_channel()``) a frame is copied
into the strip's own buffer and a DMA channel paced by the state machine's
TX FIFO DREQ feeds it byte by byte (a byte write to the FIFO register lands
in all four byte lanes, so its top 8 bits are the byte): ``show`` returns
at once and the loop goes on while the chain takes its 10.8 ms. A frame
sent less than a frame's wire time and the latch (>= 300 us low, WS2812B-V5
/ SK6812 reset) after the last is first waited for, so two never merge.
Without DMA the CPU feeds the FIFO with ``StateMachine.put`` and waits for
it to drain and the latch (~11 ms for 361 LEDs).

``PioStrip`` receives the ``rp2.StateMachine`` (tests pass fakes: twins/strip.py,
and a fake ``sleep_us`` and ``ticks_us``); ``state_machine(pin, sm_id)`` builds
the real one from a ``machine.Pin``, ``dma_channel()`` a DMA channel.
"""

import time

from ..micro import const, ticks_diff

LATCH_US = const(300)
FREQ = const(8_000_000)  # 10 PIO cycles per bit: 800 kHz
BYTE_US = const(10)  # a byte on the wire: 8 bits at 800 kHz
_PIO0_TXF0 = const(0x50200010)  # PIO0's TX FIFO registers, 4 bytes apart (RP2040 datasheet 3.7)
_DREQ_PIO0_TX0 = const(0)  # ... and their DREQs, one apart


def _no_ticks():
    return 0


def state_machine(pin, sm_id=0):
    """The WS2812 program on PIO0's state machine ``sm_id`` (0-3) driving ``pin`` (RP2040 only)."""
    import rp2

    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=8)
    def ws2812():
        # T1 = 2, T2 = 5, T3 = 3 cycles (1.25 us per bit at 8 MHz)
        wrap_target()  # noqa: F821  # pyright: ignore
        label("bitloop")  # noqa: F821  # pyright: ignore
        out(x, 1).side(0)[2]  # noqa: F821  # pyright: ignore
        jmp(not_x, "do_zero").side(1)[1]  # noqa: F821  # pyright: ignore
        jmp("bitloop").side(1)[4]  # noqa: F821  # pyright: ignore
        label("do_zero")  # noqa: F821  # pyright: ignore
        nop().side(0)[4]  # noqa: F821  # pyright: ignore
        wrap()  # noqa: F821  # pyright: ignore

    sm = rp2.StateMachine(sm_id, ws2812, freq=FREQ, sideset_base=pin)
    sm.active(1)
    return sm


def dma_channel():
    """A free DMA channel (RP2040 only)."""
    import rp2

    return rp2.DMA()


class PioStrip:
    """``sm``: the state machine (PIO0's ``sm_id``); ``dma``: a DMA channel to feed it (None: the CPU does)."""

    def __init__(self, sm, sleep_us=None, dma=None, sm_id=0, ticks_us=None):
        self.sm = sm
        self._sleep_us = time.sleep_us if sleep_us is None else sleep_us
        self._ticks_us = ticks_us or _no_ticks
        self.frames = 0
        self.dma = dma
        self._buf = None  # the frame the DMA reads (made at the first frame: its size is the chain's)
        self._sent_at = 0  # ticks_us when the last frame started
        self._busy_us = 0  # ... and how long it holds the wire, with the latch
        if dma is not None:
            self._ticks_us = ticks_us or time.ticks_us
            self._fifo = _PIO0_TXF0 + 4 * sm_id
            self._ctrl = dma.pack_ctrl(size=0, inc_read=True, inc_write=False, treq_sel=_DREQ_PIO0_TX0 + sm_id)

    def show(self, buf):
        """Transmit buf (len == 3 * LEDs of this chain). With DMA: returns at once (after the last
        frame's wire time and latch, if it is not over); without: once it is latched."""
        dma = self.dma
        if dma is None:
            sm = self.sm
            sm.put(buf, 24)  # each byte in bits 31..24 of its FIFO word
            while sm.tx_fifo():
                pass
            self._sleep_us(LATCH_US)  # the last word's 8 bits (10 us) and the reset time
            self.frames += 1
            return
        ticks = self._ticks_us
        left = self._busy_us - ticks_diff(ticks(), self._sent_at)
        if left > 0:  # the last frame still on the wire (frames come 20 ms apart: rarely)
            self._sleep_us(left)
        while dma.active():  # (the DMA is done before the wire is: this never waits long)
            pass
        out = self._buf
        if out is None or len(out) != len(buf):
            out = self._buf = bytearray(len(buf))
        out[:] = buf  # the caller composes the next frame in its buffer while this one goes out
        self._sent_at = ticks()
        self._busy_us = (len(buf) + 5) * BYTE_US + LATCH_US  # (+ the FIFO's 4 words and the shift register's)
        dma.config(read=out, write=self._fifo, count=len(out), ctrl=self._ctrl, trigger=True)
        self.frames += 1
