"""LED benchmarks under MicroPython (they run on CPython too): Leds.update on
an unchanged frame and a full-frame compose (bytes allocated, target 0; us per
compose), the current limiter at work, and the drivers' own overhead on a
strip that does nothing (the 10.8 ms transmission excluded).

bench/mp_bench.mjs runs each snippet of ``STEPS`` in its own runPython call;
in the WebAssembly port the GC frees nothing inside one call, so a
gc.mem_alloc() delta around a loop is exactly what the loop allocated.
"""

import gc
import time

from led_scenes import mid_game_marks

from firmware.drivers.pio_strip import PioStrip
from firmware.drivers.strip import NeoStrip
from firmware.leds import CASUAL, TEACHING, Leds
from firmware.leds.marks import HINT, PUT_BACK, Marks

ROUNDS = 2000


def _report(text):
    print("REPORT " + text)


def _full_marks():
    marks = Marks()
    for p in range(361):
        marks.set(p, HINT if p & 1 else PUT_BACK, 2)
    return marks


def unchanged():
    leds = Leds(mode=TEACHING)
    marks = mid_game_marks()
    leds.update(marks, 0)
    before = gc.mem_alloc()
    t0 = time.ticks_us()
    for _ in range(ROUNDS * 10):
        leds.update(marks, 1)
    us = time.ticks_diff(time.ticks_us(), t0)
    allocated = gc.mem_alloc() - before
    _report("Leds.update, unchanged frame %8.2f us/call, %d bytes allocated in %d calls (target 0)"
            % (us / (ROUNDS * 10), allocated, ROUNDS * 10))


def changed(kind):
    if kind == "game":
        leds = Leds(mode=TEACHING)
        marks = mid_game_marks()
        label = "mid-game marks, under budget"
    else:
        leds = Leds(mode=CASUAL, brightness=255, budget_ma=2000)
        marks = _full_marks()
        label = "361 lit at full, limiter on"
    leds.update(marks, 0)
    before = gc.mem_alloc()
    t0 = time.ticks_us()
    for _ in range(ROUNDS):
        marks.version += 1  # as a referee change would: a full compose
        leds.update(marks, 0)  # blinking kinds in their on half
    us = time.ticks_diff(time.ticks_us(), t0)
    allocated = gc.mem_alloc() - before
    _report("Leds.update, full compose, %-29s %8.1f us/compose, %d bytes allocated in %d (target 0), %d mA"
            % (label, us / ROUNDS, allocated, ROUNDS, leds.ma))


class _NullNeoPixel:
    def __init__(self):
        self.buf = bytearray(0)

    def write(self):
        pass


class _NullSm:
    def put(self, value, shift=0):
        pass

    def tx_fifo(self):
        return 0


def _no_sleep(us):
    pass


def drivers():
    leds = Leds()
    for strip, name in ((NeoStrip(_NullNeoPixel()), "NeoStrip"), (PioStrip(_NullSm(), _no_sleep), "PioStrip")):
        strip.show(leds.frame)
        before = gc.mem_alloc()
        t0 = time.ticks_us()
        for _ in range(ROUNDS * 10):
            strip.show(leds.frame)
        us = time.ticks_diff(time.ticks_us(), t0)
        allocated = gc.mem_alloc() - before
        _report("%-8s show on a null strip %8.2f us/frame, %d bytes allocated in %d frames (target 0)"
                % (name, us / (ROUNDS * 10), allocated, ROUNDS * 10))


def retained(nbytes):
    _report("retained heap, Leds (frame, LED offsets, colour table): %d bytes" % nbytes)


STEPS = [
    "import mp_leds, gc; _base = 0; _kept = None",
    "gc.collect(); _base = gc.mem_alloc()",
    "_kept = [mp_leds.Leds() for _ in range(4)]",
    "gc.collect(); mp_leds.retained((gc.mem_alloc() - _base) // 4); _kept = None",
    "mp_leds.unchanged()",
    "mp_leds.changed('game')",
    "mp_leds.changed('full')",
    "mp_leds.drivers()",
]
