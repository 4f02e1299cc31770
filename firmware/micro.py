"""The MicroPython built-ins the firmware uses, with stand-ins where it runs on CPython.

The device's idioms, importable on both interpreters without patching anything::

    from .micro import const, ticks_add, ticks_diff

On MicroPython these are the built-ins themselves. On CPython (the simulator,
the host tools, the tests) ``const`` is the identity and the ticks functions
wrap at 2**30 ms, as on the 32-bit ports, so a wrap behaves the same;
``mem_free``/``mem_alloc`` (the heap's free and used bytes) are -1 there:
CPython does not tell. CPython alone gets ``ticks_us`` (wrapping at 2**30
us) and ``sleep_us`` (at least that long) here: on MicroPython their one
user, the Hall driver, imports them from ``time`` itself, so this module
holds no more names on a board without it.
(The rules core has its own ``const`` fallback: it imports nothing of the rest.)

Frames: MicroPython keeps a call's frame on the C stack only when it needs
at most 11 words (its locals, its deepest stack, 3 words a try block:
py/objfun.c ``VM_MAX_STATE_ON_STACK``); a larger one is taken from the heap
at each call and given back at its return, unseen by ``mem_alloc``. Finding
room for it searches the heap's table, from its beginning after a
collection, across every live block: ~0.45 ms a call on a Pico with a game
in its heap. So every function an idle loop pass calls stays within 11
words (tests/host/test_frames.py): a small gate that returns when there is
nothing to do, the work in another function.
"""

try:
    from gc import mem_alloc, mem_free
    from time import ticks_add, ticks_diff, ticks_ms

    from micropython import const
except ImportError:  # CPython
    import time

    _PERIOD = 1 << 30
    _HALF = _PERIOD // 2

    def const(value):
        return value

    def ticks_ms():
        return time.monotonic_ns() // 1_000_000 % _PERIOD

    def ticks_us():
        return time.monotonic_ns() // 1000 % _PERIOD

    def sleep_us(us):
        time.sleep(us / 1_000_000)

    def ticks_add(ticks, delta):
        return (ticks + delta) % _PERIOD

    def ticks_diff(a, b):
        return (a - b + _HALF) % _PERIOD - _HALF

    def mem_free():
        return -1

    mem_alloc = mem_free

try:
    from sys import print_exception
except ImportError:  # CPython
    from traceback import print_exception  # noqa: F401  (one argument: the exception)
