"""CPython stand-ins for the MicroPython built-ins the firmware uses.

This is the only module in firmware/ that looks at which interpreter runs it.
On MicroPython it does nothing. On CPython it registers a ``micropython``
module (``const``, ``native``, ``viper``, ``kbd_intr``), adds the wrap-safe
``time.ticks_*`` functions and ``sys.print_exception``, so every other firmware module can use the device
idioms unchanged::

    from micropython import const
    import time; time.ticks_diff(time.ticks_ms(), start)
"""

import sys

if sys.implementation.name != "micropython":
    import time
    import types

    _TICKS_PERIOD = 1 << 30  # same wrap as MicroPython's ticks on 32-bit ports
    _TICKS_HALF = _TICKS_PERIOD // 2

    def _identity(x):
        return x

    def _ignore(*_args):
        return None

    mp = types.ModuleType("micropython")
    mp.const = _identity  # type: ignore[attr-defined]
    mp.native = _identity  # type: ignore[attr-defined]
    mp.viper = _identity  # type: ignore[attr-defined]
    mp.kbd_intr = _ignore  # type: ignore[attr-defined]
    sys.modules.setdefault("micropython", mp)

    def ticks_ms():
        return time.monotonic_ns() // 1_000_000 % _TICKS_PERIOD

    def ticks_us():
        return time.monotonic_ns() // 1_000 % _TICKS_PERIOD

    def ticks_add(ticks, delta):
        return (ticks + delta) % _TICKS_PERIOD

    def ticks_diff(a, b):
        return (a - b + _TICKS_HALF) % _TICKS_PERIOD - _TICKS_HALF

    def sleep_ms(ms):
        time.sleep(ms / 1000)

    def print_exception(error, file=None):
        import traceback

        traceback.print_exception(type(error), error, error.__traceback__, file=file)

    if not hasattr(sys, "print_exception"):
        sys.print_exception = print_exception  # type: ignore[attr-defined]

    for _name, _fn in (("ticks_ms", ticks_ms), ("ticks_us", ticks_us),
                       ("ticks_add", ticks_add), ("ticks_diff", ticks_diff),
                       ("sleep_ms", sleep_ms)):
        if not hasattr(time, _name):
            setattr(time, _name, _fn)
