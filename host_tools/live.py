"""The board running in real time on simulated hardware: what the browser simulator shows.

``LiveBoard`` is the device's application (firmware/app.py ``Board``: the
same scanner, referee, rules, clock, LED composer and serial link) on the
drivers' twins: a ``Stones`` read by a sensor twin, simulated buttons, the
clock display's twin, the pixel twin and, when given, a transport to a host
(a pty the logger reads). A thread steps it every few milliseconds with the
wall clock; the web server (host_tools.web) calls the hand and button
methods and reads ``state()``. Every call takes the one lock, so the
firmware code never runs in two threads at once.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque

from firmware.app import Board, HostCommands
from firmware.drivers.storage import FileStorage
from firmware.events import NAMES as EVENT_NAMES
from firmware.leds.composer import Leds
from firmware.leds.marks import KINDS, NAMES
from firmware.modes import NAMES as MODE_NAMES
from firmware.referee.messages import message
from firmware.referee.states import NAMES as STATE_NAMES
from firmware.referee.states import REASONS
from firmware.rules.coords import vertex
from firmware.rules.game import OVER
from host_tools.simulation import touch
from twins.buttons import SimButtons
from twins.buzzer import SimBuzzer
from twins.display import SimClockDisplay
from twins.sensors import twin
from twins.stones import Stones
from twins.storage import SimStorage
from twins.strip import SimStrip

STEP_S = 0.005
PRESS_MS = 60  # a simulated finger holds a button at least this long (the driver debounces 20 ms)
BUTTONS = ("black", "white", "pause", "menu")  # firmware/app.py button order


class SimHardware:
    """The hardware set of firmware/app.py, every part a twin; ``journal`` a
    storage for the game journal (firmware/drivers/storage.py)."""

    def __init__(self, sensors="presence", transport=None, journal=None):
        self.board = Stones()
        self.sensor = twin(self.board, sensors)
        if transport is not None:
            self.transport = transport
        if journal is not None:
            self.journal = journal
        self.power_up()

    def power_up(self):
        """The parts whose state a power cut loses start afresh; the stones,
        the sensors (a Hall array's calibration is kept on flash), the cable
        and the flash stay."""
        self.buttons = SimButtons()
        self.display = SimClockDisplay()
        self.buzzer = SimBuzzer()
        self.leds = Leds()
        self.strip = SimStrip(keep=2)


class Table:
    """The physical stones kept in a file, so that they outlive the simulated
    board's process as a real board's stones outlive its power."""

    def __init__(self, path):
        self.path = path

    def load(self, board):
        try:
            data = self.path.read_bytes()
        except OSError:
            return False
        if len(data) != len(board.colour) or any(c > 2 for c in data):
            return False  # not a table file: start with an empty board
        board.colour[:] = data
        return True

    def save(self, board):
        part = self.path.with_name(self.path.name + ".part")
        part.write_bytes(bytes(board.colour))
        os.replace(part, self.path)


class LiveBoard:
    """See the module doc. ``sensors``: presence, polarity, or a wired
    variant (shift, matrix, hall) read through its real driver. With
    ``state`` (a folder) the board keeps its game journal there
    (``journal.bin``, the device's flash) and the stones on it
    (``table.bin``), so a restarted simulator is a board powered up again
    with the stones as they were: it recovers the game."""

    def __init__(self, size=19, rules="japanese", komi=None, handicap=0, mode="casual", time_spec="none",
                 sensors="presence", transport=None, board_id="sim", boot=0, clock=time.monotonic, state=None):
        self._clock = clock
        self._t0 = clock()
        self.sensors = sensors
        journal = SimStorage()  # the board's flash, for as long as the simulator runs
        self.table = None
        if state is not None:
            state.mkdir(parents=True, exist_ok=True)
            journal = FileStorage(str(state / "journal.bin"))
            self.table = Table(state / "table.bin")
        self.hw = SimHardware(sensors, transport, journal)
        restored = self.table is not None and self.table.load(self.hw.board)
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.version = 0
        self.log = deque(maxlen=200)
        self._releases = []  # (due ms, button index)
        self._settings_at_power_up = (size, rules, komi, handicap, MODE_NAMES.index(mode), time_spec, board_id, boot)
        self.powered = False
        self._power_up()
        if restored:
            self._say("the stones on the board are as they were left")

    def _power_up(self):
        size, rules, komi, handicap, mode, time_spec, board_id, boot = self._settings_at_power_up
        self.board = Board(self.hw, size, rules, komi, handicap, mode, time_spec, board_id=board_id, boot=boot,
                           now_ms=self.now_ms())
        self.commands = HostCommands(self.board)
        self.powered = True
        self._events_seen = 0
        self._seen = None
        if self.board.recovered:
            self._say("power back: game recovered at move %d (%s)%s" % (
                self.board.game.move_number, self._settings(),
                "; the clock waits for the stones to match" if self.board.held else ""))
        else:
            self._say("new game: %s" % self._settings())

    def power(self, on):
        """Unplug the board (it stops; the stones can still be moved) or plug
        it in again: a new start of the firmware on the same flash, stones
        and cable, which recovers the game from its journal."""
        with self.lock:
            if on and not self.powered:
                self.hw.power_up()
                self._releases.clear()
                self._power_up()
            elif not on and self.powered:
                self.powered = False
                self._say("unplugged: the board is off (the stones can still be moved)")
            self._bump()

    # -- time ------------------------------------------------------------------

    def now_ms(self):
        return int((self._clock() - self._t0) * 1000) & 0x3FFFFFFF

    def step(self):
        """One round of the device's loop at the current time (nothing while unplugged)."""
        with self.lock:
            if not self.powered:
                return
            now = self.now_ms()
            self.hw.board.set_time(now)
            for due, index in list(self._releases):
                # Let go once the board has seen the press, however late this thread runs.
                if due <= now and self.hw.buttons.is_down(index):
                    self.hw.buttons.release(index)
                    self._releases.remove((due, index))
            self.board.step(now)
            self._log_referee_events()
            faces = self.hw.display.text() if self.board.clock is not None else ""
            seen = (self.hw.strip.shown, faces, message(self.board.referee),
                    self.board.game.move_number, self.board.referee.state, len(self.log))
            if seen != self._seen:
                self._seen = seen
                self._bump()

    def run(self, stop):
        """Step until ``stop`` (a threading.Event) is set; report, never die, on an error."""
        while not stop.is_set():
            try:
                self.step()
            except Exception as error:  # noqa: BLE001 - the simulated device stays up, like the real one
                self._say("error: %r" % error)
                time.sleep(0.5)
            time.sleep(STEP_S)

    def _bump(self):
        self.version += 1
        self.changed.notify_all()

    def wait_change(self, version, timeout):
        """Block until the state's version differs from ``version`` (or timeout)."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != version, timeout)
            return self.version

    # -- hands and buttons --------------------------------------------------------

    def physical(self, game_point):
        return self.board.referee.region.phys_of[game_point]

    def toggle(self, p, colour=0):
        """A click on physical point p: lift the stone there, or place one of
        ``colour`` (0: the side to move)."""
        with self.lock:
            stones = self.hw.board.colour
            if stones[p]:
                self.hw.board.lift(p)
            else:
                self.hw.board.place(p, colour or self.board.game.to_move)
            self._table_changed()

    def press(self, name):
        """A finger on one of the board's buttons: black, white, pause, menu."""
        index = BUTTONS.index(name)
        with self.lock:
            self.hw.buttons.hold(index)
            self._releases.append((self.now_ms() + PRESS_MS, index))

    def control(self, name):
        """A referee control the simulator offers beside the buttons: pass,
        undo, resign_black, resign_white, ok (finish counting), resume.
        Returns None when done, or why not."""
        with self.lock:
            error = None
            if not self.board.referee.button(name, self.now_ms()):
                error = "not now: " + message(self.board.referee)
                self._say("%s: %s" % (name.replace("_", " "), error))
            self._bump()
            return error

    def play(self, event):
        """One physical script event (host_tools.script) at the current time."""
        with self.lock:
            game = self.board.game
            if not touch(self.hw.board, event, self.physical, game.to_move, self.now_ms()):
                if event.action == "press":
                    self.press(BUTTONS[event.colour - 1])
                elif event.action == "button":
                    self.control(event.name)
            self._table_changed()

    def _table_changed(self):
        if self.table is not None:
            self.table.save(self.hw.board)
        self._bump()

    # -- host commands (the same code a connected host reaches) ---------------------

    def command(self, name, args):
        """Run a host command (firmware/app.py HostCommands); returns an error text or None."""
        with self.lock:
            error = self.commands.command(name, args, self.now_ms())
            if error is None:
                self._say("%s %s" % (name, " ".join(args)))
            else:
                self._say("%s refused: %s" % (name, error[1]))
            self._bump()
            return None if error is None else error[1]

    def new_game(self, rules, size, handicap, time_spec, komi=None):
        """A new game on a cleared board: the one in progress (if any) is ended as Void."""
        with self.lock:
            fields = ["rules=" + rules, "size=%d" % size, "handicap=%d" % handicap, "time=" + time_spec]
            if komi is not None:
                fields.append("komi=%s" % komi)
            game = self.board.game
            if game.phase != OVER and game.move_number:
                self.command("end", ["Void"])
            error = self.commands.command("new", fields, self.now_ms())
            if error is not None:
                self._say("new game refused: " + error[1])
                self._bump()
                return error[1]
            self.hw.board.clear()
            self._table_changed()
            self._events_seen = self.board.referee.events.count
            self._say("new game: " + self._settings())
            self._bump()
            return None

    # -- what the page shows ---------------------------------------------------------

    def _say(self, text):
        self.log.append((self.now_ms(), text))

    def _settings(self):
        b = self.board
        g = b.game
        return "%s rules, %dx%d, komi %s%s, %s mode, time %s" % (
            g.rules.name, g.size, g.size, g.komi, ", handicap %d" % b.referee.handicap if b.referee.handicap else "",
            MODE_NAMES[b.referee.mode], b.clock.tc.spec() if b.clock else "none")

    def _log_referee_events(self):
        events = self.board.referee.events
        start = max(self._events_seen, events.first())
        size = self.board.game.size
        for i in range(start, events.count):
            k = events.slot(i)
            kind = EVENT_NAMES[events.kind[k]]
            colour = ("", "Black", "White")[events.colour[k]] if events.colour[k] < 3 else ""
            point = events.point[k]
            text = kind + (" " + colour if colour else "")
            if point:
                text += " " + vertex(size, point)
            arg = events.value[k]
            if kind in ("illegal", "warning"):
                text += ": " + REASONS[arg].replace("_", " ")
            elif kind == "move" and arg:
                text += ", %d captured" % arg
            elif kind == "end" and self.board.game.result is not None:
                text += ": " + self.board.game.result.sgf()
            self.log.append((events.at[k], text))
        self._events_seen = events.count

    def state(self):
        """Everything the page draws, as JSON-ready data."""
        with self.lock:
            b = self.board
            hw = self.hw
            game = b.game
            referee = b.referee
            region = referee.region
            strip = hw.strip
            led_of = hw.leds.led_of
            on = self.powered
            leds = []
            if strip.frames and on:
                for p in range(361):
                    r, g, bl = strip.rgb(led_of[p])
                    leds.append("%02x%02x%02x" % (r, g, bl) if r or g or bl else "")
            shown = b.marks if b.diag is None else b.diag.marks
            marks = []
            for p in range(361):
                bits = shown.bits[p] if on else 0
                marks.append(next((NAMES[i] for i, k in enumerate(KINDS) if bits & k), ""))
            clock = b.clock
            faces = hw.display.text().split(" | ") if clock is not None and on else ["", ""]
            snap = clock.snap if clock is not None else None  # as the device last drew it
            return {
                "version": self.version,
                "rules": game.rules.name, "size": game.size, "komi": game.komi,
                "handicap": referee.handicap, "mode": MODE_NAMES[referee.mode], "sensors": self.sensors,
                "polarity": b.polarity, "diagnostics": b.diag is not None,
                "region": [region.top, region.left, region.size],
                "powered": on, "state": STATE_NAMES[referee.state],
                "message": message(referee) if on else "the board is off (unplugged)",
                "to_move": ("", "black", "white")[game.to_move], "moves": game.move_number,
                "captures": [game.captures[1], game.captures[2]],
                "result": game.result.sgf() if game.result is not None else "",
                "stones": "".join(".bw"[c] for c in hw.board.colour),
                "leds": leds, "marks": marks,
                "clock": None if clock is None else {
                    "spec": clock.tc.spec(), "black": faces[0], "white": faces[1],
                    "running": ("", "black", "white")[snap.running] if on else "", "paused": snap.paused,
                    "flag": snap.flag or ""},
                "log": ["%7.1f  %s" % (t / 1000, text) for t, text in list(self.log)[-60:]],
            }
