"""Sensing benchmarks under MicroPython (they run on CPython too): the Scanner
per scan with the bus transfer excluded, and each driver's own overhead on a
bus that does nothing.

bench/mp_bench.mjs runs each snippet of ``STEPS`` in its own runPython call;
in the WebAssembly port the GC frees nothing inside one call, so a
gc.mem_alloc() delta around a loop is exactly what the loop allocated.
"""

import gc
import time

from firmware.drivers.hall import HallArray
from firmware.drivers.matrix import DiodeMatrix
from firmware.drivers.shift165 import ShiftChain
from firmware.sensing.scanner import Scanner
from twins.sensors import NullSensor

SCANS = 20000  # ticks_us has millisecond steps in the WebAssembly port: long loops


def _report(text):
    print("REPORT " + text)


class _NullBus:
    """SPI, Pin, ADC and I2C that do nothing (the transfer excluded)."""

    def write_readinto(self, tx, rx):
        pass

    def value(self, v=None):
        return 0

    __call__ = value  # a Pin is set by calling it too

    def read_u16(self):
        return 32768

    def writeto_mem(self, addr, reg, buf):
        pass

    def readfrom_mem_into(self, addr, reg, buf):
        pass


def idle(nbytes, bpp, label):
    scanner = Scanner(NullSensor(nbytes, bpp))
    scanner.scan(0)
    t = 0
    before = gc.mem_alloc()
    t0 = time.ticks_us()
    for _ in range(SCANS):
        scanner.scan(t)
        t += 10
    us = time.ticks_diff(time.ticks_us(), t0)
    allocated = gc.mem_alloc() - before
    _report("Scanner.scan idle, %-22s %6.2f us/scan, %d bytes allocated in %d scans (targets <= 30 us, 0)"
            % (label, us / SCANS, allocated, SCANS))


def one_point(nbytes, bpp, label):
    """Each round: a point's reading changes (the scan decodes its byte, the
    point goes pending), then a scan settle_ms later settles it."""
    scanner = Scanner(NullSensor(nbytes, bpp))
    raw = scanner.raw
    settle = scanner.settle_ms
    scanner.scan(0)
    t = 0
    rounds = SCANS // 2
    changed = 0
    before = gc.mem_alloc()
    t0 = time.ticks_us()
    for _ in range(rounds):
        raw[20] ^= 1
        scanner.scan(t)
        t += settle
        if scanner.scan(t):
            changed += 1
        t += 10
    us = time.ticks_diff(time.ticks_us(), t0)
    allocated = gc.mem_alloc() - before
    if changed != rounds:
        raise AssertionError("the point did not settle every round")
    _report("Scanner.scan, one point, %-19s %6.2f us/scan (change + settle, mean), %d bytes allocated in %d scans"
            % (label, us / (2 * rounds), allocated, 2 * rounds))


def driver(kind, reads):
    bus = _NullBus()
    if kind == "shift":
        d = ShiftChain(bus, bus)
    elif kind == "matrix":
        d = DiodeMatrix(bus)
    else:
        d = HallArray((bus, bus), (bus, bus, bus, bus), (bus, bus, bus, bus))
    buf = bytearray(d.nbytes)
    d.read(buf)
    before = gc.mem_alloc()
    t0 = time.ticks_us()
    for _ in range(reads):
        d.read(buf)
    us = time.ticks_diff(time.ticks_us(), t0)
    allocated = gc.mem_alloc() - before
    _report("%-11s driver read on a null bus %8.1f us/read, %d bytes allocated in %d reads (target 0)"
            % (type(d).__name__, us / reads, allocated, reads))


def build(kind):
    """The Scanner and driver of a variant on a null bus (kept for retained())."""
    bus = _NullBus()
    if kind == "shift":
        d = ShiftChain(bus, bus)
    elif kind == "matrix":
        d = DiodeMatrix(bus)
    else:
        d = HallArray((bus, bus), (bus, bus, bus, bus), (bus, bus, bus, bus))
    return Scanner(d)


def retained(kind, nbytes):
    _report("retained heap, Scanner + %-6s driver: %d bytes" % (kind, nbytes))


STEPS = [
    "import mp_sense, gc; _base = 0; _kept = None",
]
# Retained heap: four of each kept (one alone is skewed by what the
# conservative GC still sees on the stack), the figure per instance.
for _kind in ("shift", "matrix", "hall"):
    STEPS += [
        "gc.collect(); _base = gc.mem_alloc()",
        "_kept = [mp_sense.build('%s') for _ in range(4)]" % _kind,
        "gc.collect(); mp_sense.retained('%s', (gc.mem_alloc() - _base) // 4); _kept = None" % _kind,
    ]
STEPS += [
    "mp_sense.idle(46, 1, '1-bit (46 bytes)')",
    "mp_sense.idle(91, 2, '2-bit (91 bytes)')",
    "mp_sense.one_point(46, 1, '1-bit')",
    "mp_sense.one_point(91, 2, '2-bit')",
    "mp_sense.driver('shift', 5000)",
    "mp_sense.driver('matrix', 500)",
    "mp_sense.driver('hall', 50)",
]
