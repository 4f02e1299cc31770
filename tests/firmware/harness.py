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
    from firmware.protocol_host import decode

    pipe.send(encode_command(command))
    run(app, hw, t, t + 40)
    lines = []
    for raw in pipe.take().split(b"\n"):
        if raw:
            decoded = decode(raw)
            assert decoded is not None, raw
            lines.append(decoded[1:])
    return lines
