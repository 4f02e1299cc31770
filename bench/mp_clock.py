"""Game-clock benchmarks under MicroPython (they run on CPython too, without the OLED).

bench/mp_bench.mjs runs each snippet of ``STEPS`` in its own runPython call;
every ``REPORT`` line printed is shown by ``make bench``. Inside one call the
WebAssembly port's GC frees nothing, so a gc.mem_alloc() delta around a loop
is exactly what the loop allocated (minus the same empty loop's own cost).
"""

import gc
import time

from firmware.clock import Clock
from firmware.clock.cues import Cues
from firmware.drivers.buzzer import Buzzer
from firmware.drivers.clock_display import ClockDisplay
from twins.buttons import SimButtons
from twins.display import SimCanvas
from twins.pins import SimPWM


class NullI2C:
    def writeto(self, addr, buf):
        return None


def make(spec="byoyomi 1m 3x40s"):
    """A clock in play with the tick-path companions: buttons, buzzer, display."""
    clock = Clock(spec)
    try:
        from firmware.drivers.clock_display import Ssd1306

        canvas = Ssd1306(NullI2C())
        part = "SSD1306+framebuf"
    except ImportError:
        canvas = SimCanvas()
        part = "SimCanvas"
    return clock, SimButtons(), Buzzer(SimPWM()), ClockDisplay(canvas), part


def _tick(cues, buttons, buzzer, t):
    cues.clock.snapshot(t)
    q = cues.cue(t)
    if q:
        buzzer.play(q, t)
    buzzer.update(t)
    buttons.poll(t)


def _empty(n):
    before = gc.mem_alloc()
    for _ in range(n):
        pass
    return gc.mem_alloc() - before


def ticks(spec="byoyomi 1m 3x40s", n=4000, step=50):
    """Bytes allocated and microseconds per tick (snapshot, cue, buzzer, buttons) over main time,
    byo-yomi periods with their counting cues, and a press every 30 s."""
    clock, buttons, buzzer, _display, _part = make(spec)
    cues = Cues(clock)
    clock.start(0, 1)
    _tick(cues, buttons, buzzer, 0)
    overhead = _empty(n)
    before = gc.mem_alloc()
    t0 = time.ticks_us()
    t = 0
    for i in range(n):
        t += step
        if i % 600 == 599:
            clock.press(clock.turn, t)
        _tick(cues, buttons, buzzer, t)
    us = time.ticks_diff(time.ticks_us(), t0)
    allocated = gc.mem_alloc() - before - overhead
    print("REPORT clock tick (%s): %.1f bytes allocated per tick (target 0), %.1f us per tick, %d ticks"
          % (spec, allocated / n, us / n, n))


def display(spec="byoyomi 1m 3x40s", n=200):
    """Bytes allocated and microseconds per display update that redraws (one per second shown)."""
    clock, _buttons, _buzzer, disp, part = make(spec)
    clock.start(0, 1)
    clock.snapshot(0)
    disp.update(clock)
    overhead = _empty(n)
    before = gc.mem_alloc()
    t0 = time.ticks_us()
    sent = 0
    t = 0
    for _ in range(n):
        t += 1000
        clock.snapshot(t)
        sent += disp.update(clock)
    us = time.ticks_diff(time.ticks_us(), t0)
    allocated = gc.mem_alloc() - before - overhead
    print("REPORT clock display (%s): %.1f bytes allocated per update (target 0), %.0f us per redraw, %d of %d sent"
          % (part, allocated / n, us / n, sent, n))


def unchanged(n=2000):
    """Display updates that find nothing changed (the usual case between seconds)."""
    clock, _buttons, _buzzer, disp, part = make()
    clock.start(0, 1)
    clock.snapshot(0)
    disp.update(clock)
    overhead = _empty(n)
    before = gc.mem_alloc()
    t0 = time.ticks_us()
    for i in range(n):
        clock.snapshot(i % 500)
        disp.update(clock)
    us = time.ticks_diff(time.ticks_us(), t0)
    allocated = gc.mem_alloc() - before - overhead
    print("REPORT clock display, nothing changed: %.1f bytes per update, %.1f us per update" % (allocated / n, us / n))


def retained():
    gc.collect()
    before = gc.mem_alloc()
    parts = make()
    gc.collect()
    print("REPORT clock retained heap: Clock + buttons + buzzer + display (%s): %d bytes"
          % (parts[4], gc.mem_alloc() - before))


STEPS = [
    "import mp_clock",
    "mp_clock.retained()",
    "mp_clock.ticks('byoyomi 1m 3x40s')",
    "mp_clock.ticks('canadian 1m 5/30s')",
    "mp_clock.ticks('fischer 1m +10s max 2m')",
    "mp_clock.ticks('delay 2m 5s')",
    "mp_clock.ticks('tv 30s 10x1m')",
    "mp_clock.ticks('ing 1m 3x1m')",
    "mp_clock.display()",
    "mp_clock.unchanged()",
]
