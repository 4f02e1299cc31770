"""A part missing: the board plays on without it and says so, once.

A part whose driver raises while the board starts (drivers/pico.py: a display
that does not answer on I2C) is left out of the Hardware record and its bit
set in ``hw.faults`` (firmware/hardware.py). One whose I/O fails in play (an
OSError from the stage that drives it: firmware/loop.py ``step``; the
display's I2C when its cable is knocked, the buzzer's PWM, the LED chain, the
host's link, the sensor) is dropped the same way: ``lost``. Either way it is
told once, by the path the journal's failure takes (firmware/loop.py
``_journal_alert``), ``tell``: the event ring (``EV_MISSING``, the mask), the
host (an ALERT line, and ``missing=`` in every HELLO: docs/protocol.md), and
for SHOW_MS the LEDs and the clock display instead of the game: a point of
the top row per part missing, from the top-left corner, in the error colour
(docs/leds.md), and the parts' names in words.

A board without its sensor cannot see its stones: it shows that for as long
as it runs, its buttons are ignored (firmware/app.py) and its game is left as
it is (on flash too: after a repair and a reset it comes back); the host's
link still answers. Nothing brings a dropped part back but a reset (the
journal keeps the game over it).

Loaded only when a part is missing (rules/const.py ``call_briefly``): code
costs a Pico's heap.
"""

from array import array

from .events import EV_MISSING
from .hardware import F_BUTTONS, F_SENSOR, F_STRIP, F_TRANSPORT, PARTS, missing
from .leds.marks import ERROR, Marks
from .micro import ticks_add

SHOW_MS = 5000  # how long the LEDs and the display tell the parts missing (not a sensor: for good)
_WIDTH = 16  # characters in a line of the clock display
_LINES = 3  # lines of words it shows


class NoSensor:
    """Stands for a sensor that failed: one byte read, no slot a point (the scanner's
    contract, firmware/sensing/scanner.py), so nothing is ever seen on the board."""

    nbytes = 1
    bits_per_point = 1

    def __init__(self):
        self.point_at = array("H", b"\xff\xff" * 8)

    def read(self, buf):
        pass


class Unplugged:
    """Stands for a link's transport that failed: nothing comes, what is written goes nowhere."""

    def read_into(self, buf):
        return 0

    def write(self, data):
        return 0


class Shown(Marks):
    """The LEDs while the parts missing are told (the game's marks are not shown meanwhile):
    point i of the top row lit in the error colour for part i (hardware.py PARTS); with the
    clock display's ``lines`` and the tick it ``until``."""

    def __init__(self, faults, now_ms):
        Marks.__init__(self)
        for i in range(len(PARTS)):
            if faults >> i & 1:
                self.set(i, ERROR)  # (point i: row 0, the top one, column i)
        self.lines = lines(faults)
        self.until = ticks_add(now_ms, SHOW_MS)


def lines(faults):
    """The clock display's words for the parts missing: ``MISSING:`` over their names,
    upper case, as many to a line as fit (16 characters; three lines at most)."""
    out = []
    line = ""
    for name in missing(faults).upper().split(","):
        if line and len(line) + 1 + len(name) > _WIDTH:
            out.append(line)
            line = name
        else:
            line = line + " " + name if line else name
    out.append(line)
    if len(out) < _LINES:
        out.insert(0, "MISSING:")
    return tuple(out[:_LINES])


def tell(app, now_ms):
    """Say which parts are missing (``app.hw.faults``): the event ring, the host, and the LEDs
    and the clock display for SHOW_MS (firmware/loop.py's render and show_clock)."""
    faults = app.hw.faults
    app.events.add(EV_MISSING, 0, 0, faults, now_ms)
    if app.link is not None:
        app.link.alert(app.journal_failing, faults)
    app.fault = Shown(faults, now_ms)


def lost(app, part, now_ms):
    """The part of bit ``part`` failed in play (its I/O raised): left out from now on, and told."""
    hw = app.hw
    if hw.faults & part:
        return
    i = 0
    while not part >> i & 1:
        i += 1
    setattr(hw, PARTS[i], None)
    if part == F_SENSOR:  # the scanner keeps its last frame: nothing changes on the board from now on
        app.scanner.sensor = hw.sensor = NoSensor()
        app.controls = app.diag = None  # (the sensor check too)
    elif part == F_BUTTONS:
        app.controls = None
    elif part == F_STRIP:
        app.leds = None  # (the composer and its frame let go)
    elif part == F_TRANSPORT and app.link is not None:  # (the link goes on numbering: the journal keeps
        app.link.transport = app.link.writer.sink = Unplugged()  # its numbers for the next power-up)
    hw.faults |= part
    tell(app, now_ms)
