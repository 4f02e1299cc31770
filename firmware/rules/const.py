"""What the standalone rules core needs of MicroPython: ``const``, zeroed arrays, and code loaded for a moment.

The rules core stands alone (host tools import it without the rest of the
firmware), so it carries these itself, and the firmware uses them too.
MicroPython's compiler folds ``_NAME = const(x)`` whichever module
``const`` comes from. ``collect`` is the heap's collection on MicroPython
and does nothing on CPython, whose reference counting frees what is let go.
"""

import sys
from array import array

try:
    from gc import collect

    from micropython import const
except ImportError:  # CPython
    def const(value):
        return value

    def collect():
        pass


def zeros(typecode, n, value=0):
    """An array of ``n`` zeros (or ``value``s) of ``typecode`` ("H", "i", "I": small ints), made at its size alone.

    ``array(typecode, bytes(k))`` first makes the k zero bytes, a temporary as
    big as the array (and a hole once freed, where a heap in pieces needed
    room). MicroPython's array has no ``*`` and takes no length; made from a
    range, it takes the range's length and is filled from it, nothing else
    made: then zeroed in place (~0.03 ms for 512 entries in the unix port).
    CPython repeats a one-entry array instead (~30x faster: host tools make many games).
    """
    if sys.implementation.name != "micropython":
        return array(typecode, (value,)) * n
    zeroed = array(typecode, range(n))
    for i in range(n):
        zeroed[i] = value
    return zeroed


uncollected = bytearray(1)  # 1: code let go in play (call_briefly's later), the heap not collected since

# BRIEF: every module loaded for a moment (call_briefly), why, and what keeping it would take from
# a game's heap on a Pico, with its load's time there (bench/brief_loads.py, on the emulated Pico
# with a game built: make bench; tests/host/test_brief_loads.py holds this table to the call sites).
# A game leaves ~85 KB free of the 64 KB it must: all of them kept would take 35.6 KB. Each pays for
# itself a second way: on the 64-bit unix port that stands in for the device (bench/device_fit.py,
# 232 KB), a module kept interns the names of code the game never runs, and the game sits one name
# short of the next pool of names (~14 KB there).
#
#   module                          kept   load   loaded for
#   firmware.drivers.pico           2.5 KB  56 ms  power-up: the pins' builder (main.py)
#   firmware.journal.recovery       2.4 KB  33 ms  power-up: the journal read back
#   firmware.drivers.flashlog_read  2.0 KB  25 ms  power-up: the flash log's sectors read back
#   firmware.leds.tables            3.6 KB  27 ms  power-up: the LEDs' tables made
#   firmware.faults                 1.9 KB  32 ms  power-up with a part missing, or one failing
#   firmware.rules.catalog          2.8 KB  31 ms  each game: the rule set's record
#   firmware.clock.spec             3.3 KB  29 ms  each game: the time control read
#   firmware.rules.handicap         2.1 KB  26 ms  a handicap game's setup, a problem's position (setup=)
#   firmware.referee.handicap       0.7 KB  20 ms  a handicap game's setup, its LEDs
#   firmware.host.commands          5.8 KB  60 ms  a host command: its arguments parsed, its work (kept
#                                                  from a game's first ``play``: a side played elsewhere)
#   firmware.host.signing           1.7 KB  35 ms  a host command on a registered board
#   firmware.host.snapshot          0.9 KB  22 ms  the host's ``state``
#   firmware.rules.result_sgf       0.6 KB  21 ms  the host's ``end`` with a result
#   firmware.referee.fouls          0.9 KB  22 ms  in play, rare: a tournament clause, a stone out of turn
#   firmware.rules.penalties        0.8 KB  22 ms  in play, rare: a penalty or a warning
#   firmware.rules.cycles           0.3 KB  17 ms  in play, rare: a repetition
#   firmware.referee.asks           0.5 KB  19 ms  in play, rare: a board stuck 30 s, told the host
#   firmware.clock.clauses          1.2 KB  23 ms  a drawn game replayed (Korean Art.21-4)
#   firmware.sensing.diagnostics    2.3 KB  29 ms  the sensor check


def call_briefly(module, function, *args, later=False):
    """``module.function(*args)`` with the module's code in the heap only for the call.

    Code a board runs when it boots or sets a game up (a rule set's table, the
    time-control grammar) need not stay for the game: a module this call
    loads is dropped again after it (``sys.modules`` and its package let it
    go; MicroPython keeps only its interned names). One that was loaded
    already stays, and stays the same (on CPython, its classes keep their
    identity). The heap is collected after a module is dropped: what is made
    next fills its blocks instead of landing beyond them and leaving them as
    holes. Loading takes milliseconds on a Pico (a collection a few more).
    ``later``: a rare event in play (a penalty, a repetition, a
    host command), whose collection is left to the device loop's next pass
    (``uncollected``; App.step: a pass of its own), so that no pass holds the
    load, the work and a collection together. CPython (host tools, simulators)
    keeps the module: it has the room, and loading it again would compile it again.
    """
    loaded = module in sys.modules or sys.implementation.name != "micropython"
    try:
        return getattr(__import__(module, None, None, (function,)), function)(*args)
    finally:
        if not loaded and module in sys.modules:
            drop(module)
            if later:
                uncollected[0] = 1
            else:
                collect()


def drop(module):
    """Let the loaded ``module`` (a dotted name in a package) go: ``sys.modules`` and its
    package forget it, and once nothing else refers to it, its code and data are
    freed (its interned names stay). Importing it again loads it again."""
    del sys.modules[module]
    dot = module.rfind(".")
    package, name = sys.modules[module[:dot]], module[dot + 1:]
    if hasattr(package, name):  # (an import of it made it the package's attribute)
        delattr(package, name)
