"""Stand-in for MicroPython's ``rp2`` on the unix port: a PIO state machine that takes the LED frames.

Never deployed (the device has the real ``rp2``); see bench/device/machine.py.
"""


class PIO:
    OUT_LOW = 0
    SHIFT_LEFT = 0


def asm_pio(**options):
    return lambda program: program  # the program is assembled by the real rp2 only


class StateMachine:
    frames = 0

    def __init__(self, sm_id, program, freq=0, sideset_base=None):
        pass

    def active(self, on):
        pass

    def put(self, buf, shift=0):
        StateMachine.frames += 1

    def tx_fifo(self):
        return 0
