"""The board with simulated time: the device's app on the simulated hardware, driven by a script of hands.

``Simulation(settings, ...)`` builds the firmware's ``App`` (firmware/app.py)
on ``twins.hardware.simulated(...)``: the very scanner, referee, rules,
clock, LEDs, and with a ``transport`` the serial link and with a ``storage``
the journal, that the device runs and the live simulator (live.py) runs in
real time. Physical script events (script.py, docs/script.md) become hands
on the stones, fingers on the buttons, the referee's other controls, a
host's commands and power cuts. After every event the board makes a pass at
its time (events at the same time: one pass after each); then the loop's
passes follow at their own pace while anything can happen without a hand (a
finger to lift, a reading settling, a hover ending, work the app put off to
its next passes, lines to send), else straight to the next moment something
can (the clock's next second or its flag, a journal checkpoint): a flag is a
result in the pass it falls in, and a long game plays in a fraction of a second.

With ``record=True`` a cable (twins/link.py) joins the board's serial link
to the logger's own sync and game model (host_tools/logger: ``LinkSync``,
``Games``), so ``sgf()`` is the record a host would write of the game (its
clock figures, penalties, result). ``log`` lists what the referee and the
clock decided, as the app's event ring tells it (``take_events``), and the
host commands played with their replies (kind ``host``). ``on_pass``, when
set, is called after every pass (the players' simulator checks its invariants there).
"""

from __future__ import annotations

from firmware import protocol as pr
from firmware.app import App
from firmware.events import EV_END, EV_ILLEGAL, EV_PENALTY, EV_REFEREE, EV_WARNING
from firmware.micro import ticks_diff
from firmware.modes import CASUAL
from firmware.referee.machine import REASONS
from firmware.rules.coords import PASS, vertex
from firmware.rules.ending import PENALTY_KINDS
from firmware.rules.rulesets import ILLEGAL_LOSS, ILLEGAL_WARN
from host_tools.board.event_log import NAMES, first, slot
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
        self.powered = True
        self.passes = 0  # loop passes run
        self.hands = Hands(self.hw)
        self._dirty = True  # something happened since the last full pass: the next comes now
        self._last = 0  # when the last pass ran
        self._wait = 0  # ms after it until the app's next stage is due
        self._seen = 0  # events of the app's ring taken into the log
        self.log = []  # the referee's and the clock's events, as dicts (see take_events)
        self.on_pass = None

    @property
    def game(self):
        return self.app.game

    def power_off(self):
        """The power goes: the board stops (the stones stay, and hands may move them)."""
        self.powered = False
        self.hands.forget()

    def power_on(self):
        """The power comes back: the app starts again from the journal (the stones, the
        cable and the flash stay; buttons, display and LEDs start afresh)."""
        self.hw.power_up()
        self.hands = Hands(self.hw)
        self.app = App(self.hw, self._settings, self._mode, now_ms=self.now)
        self.powered = True
        self._seen = 0
        self._dirty = True
        self._wait = 0

    def power_cut(self):
        """The power goes and comes back at once."""
        self.power_off()
        self.power_on()

    @property
    def referee(self):
        return self.app.referee

    def physical(self, game_point):
        """The physical point under a game point."""
        return self.app.referee.region.phys_of[game_point]

    def apply(self, event):
        """Carry out one script event at the current time (the next ``advance`` makes a pass
        at this time first). Stones move with the power off too; fingers and commands then reach nothing."""
        action = event.action
        if action == "power":
            if event.name != "on":
                self.power_off()
            if event.name != "off" and not self.powered:
                self.power_on()
        elif not self.hands.touch(event, self.physical, self.app.game.to_move, self.now) and self.powered:
            if not self.hands.fingers(event, self.now):
                if action == "button":
                    self.app.control(event.name, self.now)
                elif action == "host":
                    self.command(event.name, event.args)
        self._dirty = True

    def command(self, name, args):
        """A host's command through the app's door (``App.command``), logged with its reply."""
        self.take_events()
        entry = {"t_ms": self.now, "kind": "host", "colour": None, "point": None,
                 "reason": " ".join((name,) + tuple(args)), "value": "OK"}
        self.log.append(entry)  # (before what it made happen)
        error = self.app.command(name, list(args), self.now)
        if error is not None:
            entry["value"] = "ERR %s %s" % error
        self.take_events()
        return error

    def advance(self, to_ms):
        """Run the app's passes up to ``to_ms`` (see the module doc), then the time is ``to_ms``."""
        while self.powered:
            at = self._next_pass()
            if at < 0 or at > to_ms:
                break
            self._pass(at)
        if to_ms > self.now:
            self.now = to_ms
            self.hw.stones.set_time(to_ms)

    def _pass(self, at):
        self.now = at
        self.hw.stones.set_time(at)
        self.hands.let_go(at)
        app = self.app
        sense_due = app._due[0]  # (the loop's schedule: the sense stage is first)
        wait = app.step(at)
        self.passes += 1
        self._last, self._wait = at, wait
        if app._due[0] != sense_due:  # the sense stage ran (not a pass that only collected, rules/const.py)
            self._dirty = False
        self.take_events()
        if self.recording is not None:
            self.recording.poll(at)
        if self.on_pass is not None:
            self.on_pass(self)

    def _next_pass(self):
        """When the next pass that can change anything is due (-1: none before a hand acts)."""
        app = self.app
        due = self._last + self._wait  # the loop's own next pass
        now = self.now
        if due < now:
            due = now
        if self._dirty or self._busy(app):
            return due
        soonest = -1
        for left in self._timers(app):
            if left >= 0 and (soonest < 0 or left < soonest):
                soonest = left
        if soonest < 0:
            return -1
        return max(due, now + soonest)

    def _busy(self, app):
        # Work that goes on pass by pass with no hand acting.
        buttons = self.hw.buttons
        recording = self.recording
        clock = app.clock
        return bool(self.hands.pressing() or buttons.bits or buttons.levels or not app.idle()
                    or (recording is not None and recording.pipe.to_board)
                    or (clock is not None and app.timekeeper.started and clock.changes != app.timekeeper.cues._changes))

    def _timers(self, app):
        # Ms until each timed change: a reading settling, a hover's edge, the running clock's next
        # second or its flag (its cues' due time), a journal checkpoint or retry.
        now = self.now
        yield app.scanner.settles_in(now)
        yield self.hw.stones.next_change(now)
        clock = app.clock
        running = (clock is not None and app.timekeeper.started and clock.turn and not clock.paused
                   and not clock.stopped and clock.flag is None)
        if running:
            yield max(ticks_diff(app.timekeeper.cues._due, now), 0)
        recorder = app.recorder
        if recorder is not None:
            if recorder.failing:
                yield max(ticks_diff(recorder._retry_at, now), 0)
            elif running:
                yield max(ticks_diff(recorder.clock_at, now) + recorder.checkpoint_ms, 0)

    def play_due(self, events, now_ms):
        """Carry out the events of a script (``events``, in time order) due by ``now_ms``, taken
        from its front, then run to ``now_ms`` with a pass then (a host on the cable is heard every
        call, not only when something can happen). Returns the events carried out."""
        done = []
        while events and events[0].t_ms <= now_ms:
            event = events.pop(0)
            self.advance(event.t_ms)
            self.apply(event)
            done.append(event)
        self._dirty = True
        self.advance(now_ms)
        return done

    def run(self, events, tail_ms=1000):
        """Play a whole script, then let the board settle for ``tail_ms`` after the last event (and
        after the last finger is lifted), and the recording catch up."""
        for event in events:
            self.advance(event.t_ms)
            self.apply(event)
        tail = max(tail_ms, 2 * self.app.scanner.settle_ms)
        self.advance(self.now + tail)
        while self.powered and (self.hands.pressing() or self.hw.stones.next_change(self.now) >= 0):
            self.advance(self.now + tail)  # fingers still on the buttons, a hand still passing
        recording = self.recording
        if recording is not None and self.powered:
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
