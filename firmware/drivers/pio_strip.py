"""WS2812B/SK6812 chains through an RP2040 PIO state machine (interrupts stay on).

Same contract as strip.py: ``show(buf)`` transmits a prepared frame (3 bytes
per LED, wire order) as it is. MicroPython's ``neopixel.write()`` bit-bangs
with interrupts off for ~30 us per LED (10.8 ms for 361); here the PIO makes
the waveform and the CPU only feeds the TX FIFO with ``StateMachine.put``
(bytes, one per FIFO word, shifted to the top: the program shifts 8 bits out
MSB first per word), so timers, UART and sensing interrupts keep running.

``PioStrip`` receives the ``rp2.StateMachine`` (tests pass a fake, and a
fake ``sleep_us``);
``state_machine(pin, sm_id)`` builds the real one from a ``machine.Pin``.
After a frame it waits for the FIFO to drain and for the latch (>= 300 us
low, WS2812B-V5 / SK6812 reset) so that two frames never merge.
"""

import time

from ..micro import const

LATCH_US = const(300)
FREQ = const(8_000_000)  # 10 PIO cycles per bit: 800 kHz


def state_machine(pin, sm_id=0):
    """The WS2812 program on state machine ``sm_id`` driving ``pin`` (RP2040 only)."""
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


class PioStrip:
    def __init__(self, sm, sleep_us=None):
        self.sm = sm
        self._sleep_us = time.sleep_us if sleep_us is None else sleep_us
        self.frames = 0

    def show(self, buf):
        """Transmit buf (len == 3 * LEDs of this chain); returns once it is latched."""
        sm = self.sm
        sm.put(buf, 24)  # each byte in bits 31..24 of its FIFO word
        while sm.tx_fifo():
            pass
        self._sleep_us(LATCH_US)  # the last word's 8 bits (10 us) and the reset time
        self.frames += 1
