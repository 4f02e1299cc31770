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

With ``record=True`` a cable (twins/link.py) joins the board's serial link
to the logger's own sync and game model (host_tools/logger: ``LinkSync``,
``Games``), so ``sgf()`` is the record a host would write of the game (its
clock figures, penalties, result). ``log`` lists what the referee and the
clock decided, as the app's event ring tells it (``take_events``).
"""

from __future__ import annotations

from firmware import protocol as pr
from firmware.app import App
from firmware.drivers.buttons import B_BLACK
from firmware.event_log import NAMES, first, slot
from firmware.events import EV_END, EV_ILLEGAL, EV_PENALTY, EV_REFEREE, EV_WARNING
from firmware.modes import CASUAL
from firmware.referee.machine import REASONS
from firmware.rules.coords import PASS, vertex
from firmware.rules.ending import PENALTY_KINDS
from firmware.rules.rulesets import ILLEGAL_LOSS, ILLEGAL_WARN
from host_tools.logger.games import Games
from host_tools.logger.sync import LinkSync
from twins.hardware import simulated
from twins.link import Pipe

from .hands import Hands

# Event names for people and tools (--events): the clock's pause kinds are pauses, and so on.
_KINDS = {"capture_pause": "pause", "away_pause": "pause", "end": "result"}
_REFEREE_KINDS = {"points": "penalty", "forfeit": "foul"}  # (caution and warning keep their names)

SCAN_MS = 10  # the app's scan period


class Simulation:
    """One simulated board playing; see the module doc. ``sensors``: twins/sensors.py's
    kinds (presence, polarity, or shift, matrix, hall through their real drivers)."""

    def __init__(self, settings, mode=CASUAL, sensors="presence", transport=None, storage=None, board_id="board",
                 boot=1, record=False):
        self.recording = None
        if record:
            self.recording = Recording(Pipe())
            transport = self.recording.pipe.board
        self.hw = simulated(sensors, transport, storage, board_id=board_id)
        self._settings, self._mode = settings, mode
        self.app = App(self.hw, settings, mode, boot=boot)
        self.board_id = board_id
        self.now = 0
        self.hands = Hands(self.hw)
        self._dirty = True  # the board changed since the last scan
        self._wait = 0  # ms until the app's next stage is due
        self._seen = 0  # events of the app's ring taken into the log
        self.log = []  # the referee's and the clock's events, as dicts (see take_events)

    @property
    def game(self):
        return self.app.game

    def power_cut(self):
        """The power goes and comes back: the app starts again from the journal (the
        stones, the cable and the flash stay; buttons, display and LEDs start afresh)."""
        self.hw.power_up()
        self.hands = Hands(self.hw)
        self.app = App(self.hw, self._settings, self._mode, now_ms=self.now)
        self._seen = 0
        self._dirty = True

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
        """Step the app up to ``to_ms``: every SCAN_MS while something changes or the app has
        work put off to its next passes, otherwise straight to the next moment a scan could
        see something new."""
        scanner = self.app.scanner
        stones = self.hw.stones
        while self.now < to_ms:
            step = SCAN_MS
            app = self.app
            if not self._dirty and not self.hands.pressing() and not app.host_waits and not app.referee.owed:
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
            self.take_events()
            if self.recording is not None:
                self.recording.poll(self.now)

    def run(self, events, tail_ms=1000):
        """Play a whole script, then let the board settle (and the recording catch up)."""
        for event in events:
            self.advance(event.t_ms)
            self.apply(event)
        self.advance(self.now + max(tail_ms, 2 * self.app.scanner.settle_ms))
        recording = self.recording
        if recording is not None:
            for _ in range(200):  # a few round trips: a hello, a resend
                if recording.caught_up(self.app.link.next):
                    break
                self._dirty = True
                self.advance(self.now + SCAN_MS)

    def take_events(self):
        """Move the app's new events into ``log``: dicts of t_ms, kind, colour ("B", "W" or
        None), point (a GTP vertex or None), reason and value."""
        ring = self.app.events
        game = self.app.game
        n = max(self._seen, first(ring))
        while n < ring.count:
            i = slot(ring, n)
            kind, value, pt = ring.kind[i], ring.value[i], ring.point[i]
            name, reason = _KINDS.get(NAMES[kind], NAMES[kind]), None
            if kind == EV_ILLEGAL or kind == EV_WARNING:
                reason = REASONS[value] if value < len(REASONS) else None
            elif kind == EV_PENALTY:
                name = "foul" if value == ILLEGAL_LOSS else "lost_turn" if value == ILLEGAL_WARN else name
            elif kind == EV_REFEREE:
                kind_name = PENALTY_KINDS[value]
                name, reason = _REFEREE_KINDS.get(kind_name, kind_name), "referee"
            elif kind == EV_END and game.result is not None:
                reason = game.result.sgf() + (" (" + game.result.detail + ")" if game.result.detail else "")
            self.log.append({"t_ms": ring.at[i], "kind": name, "colour": {1: "B", 2: "W"}.get(ring.colour[i]),
                             "point": vertex(game.size, pt) if pt and pt != PASS else None,
                             "reason": reason, "value": value})
            n += 1
        self._seen = n

    def sgf(self):
        """The recorded game's SGF, as the logger writes it (needs ``record``)."""
        games = self.recording.games
        log = games.games.get(self.app.follower.gid)
        return None if log is None else log.sgf_bytes(self.board_id)


class Recording:
    """The host's end of the simulated cable: the logger's sync and game model (no files)."""

    def __init__(self, pipe):
        self.pipe = pipe
        self.games = Games()
        self.sync = LinkSync(self)
        self.sync.connect(0.0)

    def send(self, command, now, heartbeat=False):
        self.pipe.send(pr.encode_command(command))
        return True

    def audit(self, event, text, seq=None):
        pass

    def accept(self, seq, kind, fields):
        self.games.apply(kind, fields)

    def new_boot(self):
        self.games = Games()

    def poll(self, now_ms):
        self.sync.feed(self.pipe.take(), now_ms / 1000)
        self.sync.step(now_ms / 1000)

    def caught_up(self, next_seq):
        """Every line up to the board's ``next_seq`` taken."""
        return self.sync.synced and self.sync.expected >= next_seq and self.sync.asked < 0
