"""Smart Go board firmware: the same package runs on the device, in the simulator and in tests."""

from . import compat  # noqa: F401  (makes MicroPython idioms importable on CPython)
