"""Helpers for firmware tests that run on CPython (pytest) and MicroPython alike."""

import sys

from firmware.micro import ticks_add
from firmware.rules.const import drop

# The ticks period of this port: 2**30 on 32-bit ports (and the CPython stand-ins), 2**62 on 64-bit unix.
TICKS_PERIOD = ticks_add(0, -1) + 1


def data_path(name):
    """Path of a file in tests/data, from this file's location (no os.path on MicroPython)."""
    here = __file__.replace("\\", "/")
    return here.rsplit("/", 2)[0] + "/data/" + name


def check(failures):
    """Fail with every message at once (a table test reports all its bad rows)."""
    if failures:
        raise AssertionError("%d failures:\n" % len(failures) + "\n".join(failures))


def not_loaded(*modules):
    """Forget ``modules`` if a test before imported them: a board loads them only for a moment
    (rules/const.py call_briefly), which a test then checks by their absence."""
    for name in modules:
        if name in sys.modules:
            drop(name)


def let_go(module):
    """A module loaded for a moment (rules/const.py call_briefly) is gone again; CPython keeps it."""
    return module not in sys.modules or sys.implementation.name != "micropython"
