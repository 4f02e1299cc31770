"""The board with simulated time: the device's app on the simulated hardware, driven by a script of hands.

``Simulation(settings, ...)`` builds the firmware's ``App`` (firmware/app.py)
on ``twins.hardware.simulated(...)``: the very scanner, referee, rules,
clock, LEDs, and with a ``transport`` the serial link and with a ``storage``
the journal, that the device runs and the live simulator (live.py) runs in
real time. Physical script events (script.py) become hands on the stones,
fingers on the buttons and the referee's other controls; time advances by
scan periods while the board changes, otherwise straight to the next moment
something on it can change (a hover ending, a reading settling, a finger to
lift): a long game plays in a fraction of a second.
"""

from __future__ import annotations

from firmware.app import App
from firmware.drivers.buttons import B_BLACK
from firmware.modes import CASUAL
from twins.hardware import simulated

from .hands import Hands

SCAN_MS = 10  # the app's scan period


class Simulation:
    """One simulated board playing; see the module doc. ``sensors``: twins/sensors.py's
    kinds (presence, polarity, or shift, matrix, hall through their real drivers)."""

    def __init__(self, settings, mode=CASUAL, sensors="presence", transport=None, storage=None, board_id="board",
                 boot=0):
        self.hw = simulated(sensors, transport, storage)
        self.app = App(self.hw, settings, mode, board_id, boot)
        self.now = 0
        self.hands = Hands(self.hw)
        self._dirty = True  # the board changed since the last scan
        self._wait = 0  # ms until the app's next stage is due

    @property
    def game(self):
        return self.app.game

    @property
    def referee(self):
        return self.app.referee

    def physical(self, game_point):
        """The physical point under a game point."""
        return self.app.referee.region.phys_of[game_point]

    def apply(self, event):
        """Carry out one script event at the current time."""
        app = self.app
        if not self.hands.touch(event, self.physical, app.game.to_move, self.now):
            if event.action == "press":
                self.hands.press(B_BLACK + event.colour - 1, self.now)
            elif event.action == "button":
                app.control(event.name, self.now)
        self._dirty = True

    def advance(self, to_ms):
        """Step the app up to ``to_ms``: every SCAN_MS while something changes,
        otherwise straight to the next moment a scan could see something new."""
        scanner = self.app.scanner
        stones = self.hw.stones
        while self.now < to_ms:
            step = SCAN_MS
            if not self._dirty and not self.hands.pressing():
                settle = scanner.settles_in(self.now)
                hover = stones.next_change(self.now)
                if settle < 0 and hover < 0:
                    self.now = to_ms  # nothing can change before the next event
                    break
                step = max(min(w for w in (settle, hover) if w >= 0), self._wait, 1)
            self.now = min(self.now + step, to_ms)
            stones.set_time(self.now)
            self._dirty = False
            self.hands.let_go(self.now)
            self._wait = self.app.step(self.now)

    def run(self, events, tail_ms=1000):
        """Play a whole script, then let the board settle."""
        for event in events:
            self.advance(event.t_ms)
            self.apply(event)
        self.advance(self.now + max(tail_ms, 2 * self.app.scanner.settle_ms))
