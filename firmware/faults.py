"""A part missing: the board plays on without it and says so, once.

A part whose driver raises while the board starts (drivers/pico.py: a display
that does not answer on I2C) is left out of the Hardware record and its bit
set in ``hw.faults`` (firmware/hardware.py). One whose I/O fails in play is
dropped the same way (``lost``): each stage of the loop drives one part's I/O
(``STAGE_PART``), so an OSError from a stage is that part failing
(firmware/loop.py ``step``): the display's I2C when its cable is knocked, the
buzzer's PWM, the LED chain, the host's link, the sensor. Either way it is
told once (``tell``), the way the journal's failure is (firmware/loop.py
``_journal_alert``): the event ring (``EV_MISSING``, the mask), the host (an
ALERT line, and ``missing=`` in every HELLO: docs/protocol.md), and for
SHOW_MS the LEDs and the clock display instead of the game (``Shown``): a
point of the top row per part missing, from the top-left corner, in the error
colour (docs/leds.md), and the parts' names in words.

A board without its sensor cannot see its stones: it shows that for as long
as it runs, its buttons are ignored (firmware/app.py) and its game is left as
it is (on flash too: after a repair and a reset it comes back); the host's
link still answers. Nothing brings a dropped part back but a reset (the
journal keeps the game over it).

Loaded only when a part is missing (rules/const.py ``call_briefly``; its
constants are folded into the code that uses them): code costs a Pico's heap.
"""

from array import array

from .events import EV_MISSING
from .leds.marks import ERROR, Marks
from .micro import const, ticks_add, ticks_diff

# The parts by their bit in a Hardware record's ``faults`` (firmware/hardware.py), and their names (its fields).
F_SENSOR = const(1)
F_BUTTONS = const(2)
F_DISPLAY = const(4)
F_BUZZER = const(8)
F_STRIP = const(16)
F_TRANSPORT = const(32)
F_STORAGE = const(64)
PARTS = ("sensor", "buttons", "display", "buzzer", "strip", "transport", "storage")

# The part whose I/O each stage of the loop drives (firmware/loop.py, in its order): the sensor (sense), the
# buzzer (tick: the buttons' pins never raise), the LED chain (render), the clock display (show_clock), the
# host's link (sync_host: the journal's storage errors are the recorder's own, firmware/journal/recorder.py).
STAGE_PART = (F_SENSOR, F_BUZZER, F_STRIP, F_DISPLAY, F_TRANSPORT)
_RENDER = const(2)  # (the loop's stages: render's place, show_clock's)
_SHOW_CLOCK = const(3)

SHOW_MS = 5000  # how long the LEDs and the display tell the parts missing (no sensor: for good)
_WIDTH = 16  # characters in a line of the clock display
_LINES = 3  # lines of words it shows


def missing(mask):
    """The parts of a ``faults`` mask by name, comma-separated: "display,buzzer"."""
    return ",".join([PARTS[i] for i in range(len(PARTS)) if mask >> i & 1])


def field(mask):
    """The host's field for them (HELLO, ALERT: docs/protocol.md): "missing=display,buzzer"."""
    return "missing=" + missing(mask)


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
    """The parts missing, told: while it lasts its ``render`` and ``show_clock`` are the loop's
    (``app.stages``; the ones it stands in for come back after SHOW_MS, never while the
    sensor is missing). The LEDs show its marks instead of the game's: point i of the top
    row, for part i (PARTS), in the error colour; the clock display its ``lines``."""

    def __init__(self, app, now_ms):
        Marks.__init__(self)
        faults = app.hw.faults
        for i in range(len(PARTS)):
            if faults >> i & 1:
                self.set(i, ERROR)  # (point i: row 0, the top one, column i)
        self.lines = lines(faults)
        self.until = ticks_add(now_ms, SHOW_MS)
        self.app = app
        self.said = False
        last = getattr(app, "fault", None)  # (told already, and still showing: the game's stages are that one's)
        self.stages = stages = app.stages if last is None else last.stages
        shown = list(stages)
        shown[_RENDER] = self.render
        shown[_SHOW_CLOCK] = self.show_clock
        app.stages = tuple(shown)
        app.fault = self

    def render(self, now_ms):
        app = self.app
        leds = app.leds
        if leds is not None and leds.update(self, now_ms):
            app.hw.strip.show(leds.frame)

    def show_clock(self, now_ms):
        app = self.app
        if ticks_diff(now_ms, self.until) >= 0 and not app.hw.faults & F_SENSOR:
            app.stages = self.stages  # told: the game's marks and times again
            app.fault = None
            self.stages[_SHOW_CLOCK](now_ms)
            return
        display = app.hw.display
        if display is not None and display.pending:  # (the words' right half)
            display.finish()
        elif display is not None and not self.said:
            self.said = True
            app.said = self  # (so the game's show_clock draws its own again after)
            display.words(self.lines)


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
    and the clock display for SHOW_MS (``Shown``)."""
    faults = app.hw.faults
    app.events.add(EV_MISSING, 0, 0, faults, now_ms)
    link = app.link
    if link is not None:
        link.parts = faults
        link.missing = field(faults)
        link.alert(app.journal_failing)
    Shown(app, now_ms)


def lost(app, stage, now_ms):
    """The part whose I/O the loop's stage number ``stage`` drives failed in play (an OSError):
    left out from now on, and told."""
    hw = app.hw
    part = STAGE_PART[stage]
    if hw.faults & part:
        return
    setattr(hw, PARTS[_index(part)], None)
    if part == F_SENSOR:  # the scanner keeps its last frame: nothing changes on the board from now on
        app.scanner.sensor = hw.sensor = NoSensor()
        app.controls = app.diag = None  # (the sensor check too)
    elif part == F_STRIP:
        app.leds = None  # (the composer and its frame let go)
    elif part == F_TRANSPORT and app.link is not None:  # (the link goes on numbering: the journal keeps
        app.link.transport = app.link.writer.sink = Unplugged()  # its numbers for the next power-up)
    hw.faults |= part
    tell(app, now_ms)


def _index(part):
    """The index in PARTS of a part's bit."""
    i = 0
    while not part >> i & 1:
        i += 1
    return i
