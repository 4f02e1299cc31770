"""The firmware's sensing and refereeing, running on a simulated board with simulated time.

A ``Stones`` (what lies on each point, and hands passing by) is read by a
sensor — by default the fast presence or polarity twin, or the real driver
of a hardware variant over its simulated hardware ("shift": 74HC165 chain,
"matrix": diode matrix, both presence; "hall": analog Hall array, polarity)
— then the firmware's ``Scanner`` and ``Referee`` do exactly what they do
on the device. Physical events (host_tools.script) drive it; time advances in
scan periods, skipping ahead when nothing on the board can change.
"""

from __future__ import annotations

from firmware.leds.marks import Marks
from firmware.modes import CASUAL
from firmware.referee.machine import Referee
from firmware.rules.game import Game
from firmware.rules.rulesets import by_name
from firmware.sensing.scanner import Scanner
from twins.sensors import twin
from twins.stones import Stones

SCAN_MS = 10  # one scan every 10 ms, as the device's scan task runs


def touch(board, event, physical, to_move, now_ms):
    """A script event's hand on the physical board (place, lift, hover), the
    code the headless simulation and the live board (host_tools.live) share.
    Returns False for events that are not hands on stones."""
    action = event.action
    if action == "place":
        board.place(physical(event.point), event.colour or to_move)
    elif action == "lift":
        board.lift(physical(event.point))
    elif action == "hover":
        board.hover(physical(event.point), now_ms, event.duration_ms, event.colour or to_move)
    else:
        return False
    return True


class Simulation:
    """One simulated board playing one game; see the module doc."""

    def __init__(self, size=19, rules="japanese", komi=None, handicap=0, polarity=False,
                 mode=CASUAL, clock=False, hardware="fast", settle_ms=None):
        self.board = Stones()
        if hardware == "fast":
            hardware = "polarity" if polarity else "presence"
        elif (hardware == "hall") != polarity:
            raise ValueError(hardware + " sensors cannot " + ("tell" if polarity else "ignore") + " colours")
        sensor = twin(self.board, hardware)
        self.scanner = Scanner(sensor) if settle_ms is None else Scanner(sensor, settle_ms)
        self.game = Game(size, rules, komi=by_name(rules).default_komi(handicap) if komi is None else komi)
        self.marks = Marks()
        self.referee = Referee(self.game, self.marks, polarity=polarity, mode=mode, timed=clock,
                               handicap=handicap)
        self.polarity = polarity
        self.now = 0
        self._dirty = True  # the board changed since the last scan

    def physical(self, game_point):
        """The physical point under a game point."""
        return self.referee.region.phys_of[game_point]

    def apply(self, event):
        """Carry out one script event at the current time."""
        if not touch(self.board, event, self.physical, self.game.to_move, self.now):
            if event.action == "press":
                self.referee.press(event.colour, self.now)
            elif event.action == "button":
                self.referee.button(event.name, self.now)
        self._dirty = True

    def advance(self, to_ms):
        """Scan up to ``to_ms``, handing settled frames to the referee: every
        SCAN_MS after the board changed, otherwise straight to the next moment
        a scan could see something new (a hover ending, a reading settling)."""
        scanner = self.scanner
        board = self.board
        while self.now < to_ms:
            step = SCAN_MS
            if not self._dirty:
                settle = scanner.settles_in(self.now)
                hover = board.next_change(self.now)
                if settle < 0 and hover < 0:
                    self.now = to_ms  # nothing can change before the next event
                    break
                waits = [w for w in (settle, hover) if w >= 0]
                step = max(min(waits), 1)
            self.now = min(self.now + step, to_ms)
            board.set_time(self.now)
            self._dirty = False
            if scanner.scan(self.now):
                self.referee.update(scanner.frame, self.now)

    def run(self, events, tail_ms=1000):
        """Play a whole script, then let the board settle."""
        for event in events:
            self.advance(event.t_ms)
            self.apply(event)
        self.advance(self.now + max(tail_ms, 2 * self.scanner.settle_ms))
