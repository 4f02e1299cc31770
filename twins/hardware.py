"""The one simulated hardware set: every part of firmware/hardware.py a twin, on simulated stones.

    hw = simulated()                     # presence sensors reading hw.stones
    app = App(hw, Settings(size=9))
    hw.stones.place(p, BLACK)            # a hand puts a stone down
    hw.buttons.hold(B_BLACK)             # a finger on Black's clock button

The tests, the headless simulator and the live simulator all build their
boards with ``simulated()``.
"""

from firmware.hardware import Hardware

from .buttons import SimButtons
from .buzzer import SimBuzzer
from .display import SimClockDisplay
from .sensors import twin
from .stones import Stones
from .strip import SimStrip


class SimHardware(Hardware):
    """A Hardware of twins, plus what only a simulation has: ``stones``, the
    physical board the sensor twin reads."""

    def __init__(self, stones, sensor, transport=None, storage=None, frames_kept=64, board_id="board"):
        Hardware.__init__(self, sensor, transport=transport, storage=storage, board_id=board_id)
        self.stones = stones
        self.frames_kept = frames_kept
        self.power_up()

    def power_up(self):
        """The parts whose state a power cut loses start afresh (buttons, display,
        buzzer, LEDs); the stones, the sensors (a Hall array keeps its calibration
        on flash), the cable and the flash stay; none is missing (``faults``)."""
        self.faults = 0
        self.buttons = SimButtons()
        self.display = SimClockDisplay()
        self.buzzer = SimBuzzer()
        self.strip = SimStrip(keep=self.frames_kept)


def simulated(sensors="presence", transport=None, storage=None, frames_kept=64, board_id="board"):
    """Twins of every part. ``sensors``: twins/sensors.py's kinds (presence,
    polarity, or the real driver of shift, matrix, hall over simulated wiring);
    ``transport``: a cable (twins/link.py, a pty); ``storage``: the flash
    (twins/storage.py, or a file); ``board_id``: the board's name (a device makes
    its own from the chip's unique id). The stones start empty (``hw.stones``)."""
    stones = Stones()
    return SimHardware(stones, twin(stones, sensors), transport, storage, frames_kept, board_id)
