"""This PC's speed now: the time of a fixed piece of bytecode (timing.py and loads.py scale by it)."""

import time


def pace():
    """The time (us) of a fixed piece of bytecode, the fastest of five: this PC's speed
    now (it varies by tens of percent from one second to the next: its clock)."""
    best = 0
    for _ in range(5):
        t0 = time.ticks_us()
        x = 0
        for i in range(2000):
            x += i & 7
        us = time.ticks_diff(time.ticks_us(), t0)
        if not best or us < best:
            best = us
    return best
