"""The assembled board for tests: the firmware's App on the simulated hardware, with simulated time.

    hw, app = board(size=9, time_spec="byoyomi 1m 3x10s")
    hw.stones.place(point(app, 4, 4), BLACK)
    run(app, hw, 0, 400)                 # app.step every 10 ms, the stones' clock with it
    press(app, hw, B_BLACK, 400)         # a finger on Black's clock button for 60 ms
"""

from firmware.app import App
from firmware.modes import CASUAL
from firmware.settings import Settings
from twins.hardware import simulated


def board(storage=None, transport=None, mode=CASUAL, boot=0, now_ms=0, sensors="presence", **settings):
    """(hw, app): a new board on twins; ``settings``: firmware.settings.Settings fields."""
    hw = simulated(sensors, transport, storage)
    return hw, App(hw, Settings(**settings), mode, boot=boot, now_ms=now_ms)


def power_up(hw, mode=CASUAL, boot=0, now_ms=0, **settings):
    """The same board (stones, cable, flash) powered up again: a new App; what
    the power cut loses (buttons, display, LEDs) starts afresh."""
    hw.power_up()
    return App(hw, Settings(**settings), mode, boot=boot, now_ms=now_ms)


def point(app, col, row):
    """The physical point under the game's (col, row), row 0 at the top."""
    size = app.game.size
    return app.referee.region.phys_of[(row + 1) * (size + 2) + col + 1]


def run(app, hw, start, end):
    """Step the board every 10 ms from start to end (the sensors read the stones then)."""
    for t in range(start, end, 10):
        hw.stones.set_time(t)
        app.step(t)


def press(app, hw, index, t):
    """A finger on button ``index`` (drivers/buttons.py order) at t, for 60 ms."""
    hw.buttons.hold(index)
    run(app, hw, t, t + 60)
    hw.buttons.release(index)
    run(app, hw, t + 60, t + 120)


def linked(storage=None, **options):
    """A 9x9 board with a cable to a host (and a flash, if given): (hw, pipe, app)."""
    from twins.link import Pipe

    pipe = Pipe()
    options.setdefault("size", 9)
    hw, app = board(storage, pipe.board, **options)
    return hw, pipe, app


def host_says(hw, pipe, app, command, t):
    """The host sends ``command`` at t; the board's lines in the next 40 ms, decoded (kind, fields)."""
    from firmware.protocol import encode_command
    from host_tools.board.protocol import decode

    pipe.send(encode_command(command))
    run(app, hw, t, t + 40)
    lines = []
    for raw in pipe.take().split(b"\n"):
        if raw:
            decoded = decode(raw)
            assert decoded is not None, raw
            lines.append(decoded[1:])
    return lines


# Words a message may never hold: a player or point left out ("Black has not pressed" said
# with no name: ": has not pressed"), or a value that is not words.
_GARBLED = (" None", ": has ", "; presses", "( ", " ,", "  ", ". agreed", ": , ")


class Table:
    """A game at the table: the app on twins, played by hands and fingers, ``t`` the time now (ms).

    Every loop pass is checked as players would see it: no stage error, the referee's message
    is whole words, and the clock runs for the side the board waits for (``clock_side``).
    """

    def __init__(self, rules="japanese", time_spec="byoyomi 10m 3x30s", size=9, mode=CASUAL, **settings):
        self.hw, self.app = board(size=size, rules=rules, time_spec=time_spec, mode=mode, **settings)
        self.t = 0

    @property
    def game(self):
        return self.app.game

    def at(self, col, row):
        return point(self.app, col, row)

    def place(self, colour, col, row, ms=300):
        self.hw.stones.place(self.at(col, row), colour)
        self.wait(ms)

    def lift(self, col, row, ms=300):
        self.hw.stones.lift(self.at(col, row))
        self.wait(ms)

    def button(self, index):
        """A finger on button ``index`` (drivers/buttons.py order) for 60 ms, then 60 ms more."""
        self.hw.buttons.hold(index)
        self.wait(60)
        self.hw.buttons.release(index)
        self.wait(60)

    def press(self, colour):
        """``colour``'s clock button."""
        self.button(colour - 1)

    def move(self, colour, col, row):
        self.place(colour, col, row)
        self.press(colour)

    def control(self, name):
        """The referee's other controls (the page's buttons)."""
        done = self.app.control(name, self.t)
        self.wait(20)
        return done

    def host(self, *words):
        """A host command: None when done, else why not."""
        said = self.app.command(words[0], list(words[1:]), self.t)
        self.wait(20)
        return said

    def wait(self, ms):
        """Step the board every 10 ms for ``ms``, checking each pass."""
        app, hw = self.app, self.hw
        for t in range(self.t, self.t + ms, 10):
            hw.stones.set_time(t)
            app.step(t)
            self.check(t)
        self.t += ms

    def check(self, t):
        app = self.app
        assert app.errors == 0, "a stage failed at %d ms: %r" % (t, app.last_error)
        from host_tools.board.messages import message

        said = message(app.referee, app.clock)
        for bad in _GARBLED:
            assert bad not in said and not said.startswith(":"), "at %d ms the board says %r" % (t, said)
        side, runs = clock_side(app), clock_running(app)
        assert side == runs, "at %d ms the clock runs for %d, the board waits for %d (%s)" % (t, runs, side, said)

    def left(self, colour):
        return self.app.clock.snapshot(self.t).sides[colour]

    def result(self):
        return self.game.result and self.game.result.sgf()


def clock_running(app):
    """The side whose time runs now (0: nobody's)."""
    clock = app.clock
    if clock is None or clock.paused or clock.stopped or clock.flag is not None:
        return 0
    return clock.turn


def clock_side(app):
    """The side whose clock must run now: 0 for none (no clock, not started, paused, counting,
    over); else the player the board waits for, the mover until its press ends the move."""
    from firmware.rules.game import PLAYING

    clock = app.clock
    if clock is None or not app.timekeeper.started or clock.paused or clock.stopped or clock.flag is not None:
        return 0
    if app.game.phase != PLAYING:
        return 0
    return app.referee.awaiting_press or app.game.to_move
