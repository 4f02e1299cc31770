"""Stand-in for MicroPython's ``rp2`` on the unix port: a PIO state machine that takes the LED frames.

Never deployed (the device has the real ``rp2``); see bench/device/machine.py.
"""


class PIO:
    OUT_LOW = 0
    SHIFT_LEFT = 0


def asm_pio(**_):
    return lambda program: program  # the program is assembled by the real rp2 only


class StateMachine:
    def __init__(self, *args, **_):
        pass

    def active(self, on):
        pass

    def put(self, *args):
        pass

    def tx_fifo(self):
        return 0


class DMA:
    """A DMA channel: pio_strip's frames go nowhere."""

    def pack_ctrl(self, **_):
        return 0

    def config(self, **_):
        pass

    def active(self):
        return False
