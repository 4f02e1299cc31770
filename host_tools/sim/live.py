"""The board running in real time on simulated hardware: what the browser simulator shows.

``LiveBoard`` is the device's application (firmware/app.py ``App``: the same
scanner, referee, rules, clock, LEDs, journal and serial link) on the
simulated hardware (twins/hardware.py: the stones read by a sensor twin,
buttons, the clock display, buzzer and pixel twins and, when given, a
transport to a host: a pty the logger reads). A thread steps it every few
milliseconds with the wall clock; the web server (web.py) calls the hands,
buttons, controls and host commands and reads ``state()``. Every call takes
the one lock, so the firmware code never runs in two threads at once.
"""

from __future__ import annotations

import threading
import time
from collections import deque

from firmware.app import App
from firmware.drivers.buttons import B_BLACK, B_MENU, B_PAUSE, B_WHITE
from firmware.drivers.storage import FileStorage
from firmware.faults import missing
from firmware.leds.tables import KINDS, NAMES
from firmware.modes import NAMES as MODE_NAMES
from firmware.protocol import fields_dict, quote
from firmware.referee.machine import REASONS
from firmware.referee.states import NAMES as STATE_NAMES
from firmware.rules.coords import vertex
from firmware.rules.game import COUNTING, OVER
from firmware.rules.result import SCORE
from firmware.settings import from_fields
from host_tools.board.clock_spec import canonical
from host_tools.board.event_log import NAMES as EVENT_NAMES
from host_tools.board.event_log import first, slot
from host_tools.board.messages import message
from host_tools.board.words import game_result_words
from twins.hardware import simulated
from twins.storage import SimStorage

from .hands import Hands
from .legend import drawn, legend, sensor_check_legend
from .sensor_check import sensor_check_message
from .stones_file import StonesFile

STEP_S = 0.005
CONFIRM_MS = 5000  # a resignation's second press comes within this
BUTTONS = {"black": B_BLACK, "white": B_WHITE, "pause": B_PAUSE, "menu": B_MENU}


class LiveBoard:
    """See the module doc. ``sensors``: presence, polarity, or a wired
    variant (shift, matrix, hall) read through its real driver. With
    ``state`` (a folder) the board keeps its game journal there
    (``journal.bin``, the device's flash) and the stones on it
    (``table.bin``), so a restarted simulator is a board powered up again
    with the stones as they were: it recovers the game."""

    def __init__(self, settings, mode="casual", sensors="presence", transport=None, board_id="sim",
                 clock=time.monotonic, state=None):
        self._clock = clock
        self._t0 = clock()
        self.sensors = sensors
        storage = SimStorage()  # the board's flash, for as long as the simulator runs
        self.stones_file = None
        if state is not None:
            state.mkdir(parents=True, exist_ok=True)
            storage = FileStorage(str(state / "journal.bin"))
            self.stones_file = StonesFile(state / "table.bin")
        self.hw = simulated(sensors, transport, storage, frames_kept=2, board_id=board_id)
        self.hands = Hands(self.hw)
        restored = self.stones_file is not None and self.stones_file.load(self.hw.stones)
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.version = 0
        self.log = deque(maxlen=200)
        self._confirm = None  # (control, ms): a resignation asked for, waiting for its second press
        self._power_up_with = (settings, MODE_NAMES.index(mode))
        self.powered = False
        self._power_up()
        if restored:
            self._say("the stones on the board are as they were left")

    def _power_up(self):
        settings, mode = self._power_up_with
        self.app = App(self.hw, settings, mode, now_ms=self.now_ms())
        self.powered = True
        self._events_seen = 0
        self._errors_seen = 0
        self._seen = None
        if self.app.recovered:
            self._say("power back: game recovered at move %d (%s)%s" % (
                self.app.game.move_number, self._settings(),
                "; the clock waits for the stones to match" if self.app.timekeeper.held else ""))
        else:
            self._say("new game: %s" % self._settings())

    def power(self, on):
        """Unplug the board (it stops; the stones can still be moved) or plug
        it in again: a new start of the firmware on the same flash, stones
        and cable, which recovers the game from its journal."""
        with self.lock:
            if on and not self.powered:
                self.hw.power_up()
                self.hands.forget()
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
            self.hw.stones.set_time(now)
            self.hands.let_go(now)
            app = self.app
            app.step(now)
            self._log_events()
            if app.errors != self._errors_seen:  # a stage failed: the device reports it and goes on
                self._errors_seen = app.errors
                self._say("error: %r" % app.last_error)
            faces = self.hw.display.text() if app.clock is not None else ""
            seen = (self.hw.strip.shown, faces, self.hw.display.said(), self._message(), app.game.move_number,
                    app.referee.state, len(self.log), self.confirming())
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
        return self.app.referee.region.phys_of[game_point]

    def toggle(self, p, colour=0):
        """A click on physical point p: lift the stone there, or place one of
        ``colour`` (0: the side to move)."""
        with self.lock:
            stones = self.hw.stones
            if stones.colour[p]:
                stones.lift(p)
            else:
                stones.place(p, colour or self.app.game.to_move)
            self._stones_moved()

    def liberties(self, p):
        """The page asks for the liberties of the chain on physical point ``p``: the board lights them
        (``show hint``; ``show clear`` for a point with no stone of the game). Their number, or None."""
        with self.lock:
            game = self.app.game
            pos, region = game.pos, self.app.referee.region
            g = region.game_of[p] if p < len(region.game_of) else None
            if g is None or g >= len(pos.cells) or pos.cells[g] not in (1, 2):
                self.command("show", ["clear"])
                return None
            chain = [0] * (game.size * game.size)
            w = pos.stride
            libs = sorted({q + d for q in chain[:pos.chain(g, chain)] for d in (-w, -1, 1, w) if pos.cells[q + d] == 0})
            self.command("show", ["hint"] + [vertex(game.size, q) for q in libs])
            return len(libs)

    def press(self, name):
        """A finger on one of the board's buttons: black, white, pause, menu."""
        with self.lock:
            self.hands.press(BUTTONS[name], self.now_ms())

    def control(self, name):
        """A referee control the simulator offers beside the buttons: pass,
        undo, resign_black, resign_white, ok (finish counting), resume. A
        resignation ends the game only at a second press within CONFIRM_MS (the
        first one asks, as good clocks do): a slip of the hand ends nothing.
        Returns None when done (or asked), or why not."""
        with self.lock:
            error = None
            now = self.now_ms()
            asked, self._confirm = self._confirm, None
            if name.startswith("resign") and self.app.game.phase != OVER and (
                    asked is None or asked[0] != name or now - asked[1] > CONFIRM_MS):
                self._confirm = (name, now)
                self._say("%s resigns? press again within %d s to confirm" % (
                    name[7:].capitalize(), CONFIRM_MS // 1000))
            elif not self.app.control(name, now):
                error = "not now: " + message(self.app.referee, self.app.clock)
                self._say("%s: %s" % (name.replace("_", " "), error))
            self._bump()
            return error

    def confirming(self):
        """The question a first resignation press asked, while it waits for its second press."""
        asked = self._confirm
        if asked is None or self.now_ms() - asked[1] > CONFIRM_MS or self.app.game.phase == OVER:
            return ""
        who = asked[0][7:].capitalize()
        return "%s resigns? Press \u201c%s resigns\u201d again within %d seconds to confirm" % (
            who, who, CONFIRM_MS // 1000)

    def play(self, event):
        """One physical script event (host_tools/sim/script.py) at the current time. A
        resignation by script needs no second press; with the power off, fingers and commands reach nothing."""
        with self.lock:
            action = event.action
            if action == "power":
                if event.name != "on":
                    self.power(False)
                if event.name != "off":
                    self.power(True)
            elif not self.hands.touch(event, self.physical, self.app.game.to_move, self.now_ms()) and self.powered:
                if not self.hands.fingers(event, self.now_ms()):
                    if action == "button":
                        if event.name.startswith("resign"):
                            self._confirm = (event.name, self.now_ms())
                        self.control(event.name)
                    elif action == "host":
                        self.command(event.name, list(event.args))
            self._stones_moved()

    def _stones_moved(self):
        if self.stones_file is not None:
            self.stones_file.save(self.hw.stones)
        self._bump()

    # -- host commands (the same path a connected host's take, journal included) ------

    def set_mode(self, mode, by=""):
        """The mode (casual, teaching, tournament); during a game ``by`` is "agreed" (both
        players confirmed on the page) or "referee" (a tournament game's only way)."""
        return self.command("mode", [mode, by] if by else [mode])

    def command(self, name, args):
        """Run a host command (firmware/app.py ``App.command``); returns an error text or None."""
        with self.lock:
            error = self.app.command(name, args, self.now_ms())
            if error is None:
                self._say("%s %s" % (name, " ".join(args)))
            else:
                self._say("%s refused: %s" % (name, error[1]))
            self._bump()
            return None if error is None else error[1]

    def new_game(self, rules, size, handicap, time_spec, komi=None, void=False, captures=0):
        """A new game on a cleared board (``captures``: capture Go, the first to capture that many
        stones wins). A game in progress is ended as Void only when asked
        (``void``: the page asked the players first); else that is the refusal. Settings the
        rules refuse raise ValueError (naming the bad part) and change nothing; a refusal by
        the board (not now) is returned as text."""
        with self.lock:
            fields = self.checked(rules, size, handicap, time_spec, komi)
            if captures:
                fields.append("captures=%d" % captures)
            refused = self.make_room(void)
            if refused is not None:
                return refused
            error = self.app.command("new", fields, self.now_ms())
            if error is not None:
                self._say("new game refused: " + error[1])
                self._bump()
                return error[1]
            self.clear_stones()
            self._events_seen = self.app.events.count
            self._say("new game: " + self._settings())
            self._bump()
            return None

    def checked(self, rules, size, handicap, time_spec, komi=None):
        """The ``new`` command's fields for these settings; ValueError (told in the log too) for
        settings the rules refuse, naming the bad part."""
        fields = ["rules=" + rules, "size=%d" % size, "handicap=%d" % handicap, "time=" + quote(time_spec)]
        if komi is not None:
            fields.append("komi=%s" % komi)
        try:
            from_fields(fields_dict(fields)).check()
        except ValueError as error:
            with self.lock:
                self._say("new game refused: " + str(error))
                self._bump()
            raise
        return fields

    def make_room(self, void):
        """Before another game: a game in progress is ended as Void when asked (``void``: the page
        asked the players first); else the refusal's words. None: the board may start one."""
        with self.lock:
            game = self.app.game
            if game.phase != OVER and game.move_number:
                if not void:
                    return "a game is in progress (move %d): confirm to void it" % game.move_number
                self.command("end", ["Void"])
            return None

    def clear_stones(self):
        """The hands clear the board for the next game."""
        with self.lock:
            self.hw.stones.clear()
            self._stones_moved()

    # -- what the page shows ---------------------------------------------------------

    def tell(self, text):
        """A line for the page's log from elsewhere (the host program on the board's port)."""
        with self.lock:
            self._say(text)
            self._bump()

    def _say(self, text):
        self.log.append((self.now_ms(), text))

    def _settings(self):
        b = self.app
        g = b.game
        goal = g.captures[0]
        return "%s%s rules, %dx%d, komi %s%s, %s mode, time %s" % (
            "capture Go (the first to capture %d), " % goal if goal else "",
            g.rules.name, g.size, g.size, g.komi, ", handicap %d" % b.referee.handicap if b.referee.handicap else "",
            MODE_NAMES[b.referee.mode], canonical(b.clock.tc) if b.clock else "none")

    def _log_events(self):
        # What the referee and the clock wrote to the app's event ring since the last look.
        events = self.app.events
        start = max(self._events_seen, first(events))
        size = self.app.game.size
        for i in range(start, events.count):
            k = slot(events, i)
            kind = EVENT_NAMES[events.kind[k]]
            arg = events.value[k]
            if kind == "dead" and not arg:
                kind = "alive again"  # a chain counted dead put back (events.py EV_DEAD, value 0)
            colour = ("", "Black", "White")[events.colour[k]] if events.colour[k] < 3 else ""
            point = events.point[k]
            text = kind + (" " + colour if colour else "")
            if point:
                text += " " + vertex(size, point)
            if kind in ("illegal", "warning"):
                text += ": " + REASONS[arg].replace("_", " ")
            elif kind == "move" and arg:
                text += ", %d captured" % arg
            elif kind == "end" and self.app.game.result is not None:
                text += ": %s (%s)" % (self.app.game.result.sgf(), game_result_words(self.app.game))
            elif kind == "journal":
                text = ("the flash cannot keep the game (full or failing): play goes on, but a power cut "
                        "loses the moves since" if arg else "the flash keeps the game again")
            elif kind == "missing":
                text = "the board runs without: " + missing(arg).replace(",", ", ")
            self.log.append((events.at[k], text))
        self._events_seen = events.count

    def _message(self):
        app = self.app
        if app.diag is not None:
            return sensor_check_message(app.diag, self.now_ms())
        return message(app.referee, app.clock)

    def _prisoners(self):
        """Each side's prisoners: its captures and, once the game is counted, the opponent's
        dead stones it takes off (rules/scoring.py Score.prisoners, as the count says them)."""
        game = self.app.game
        counted = game.count_map() is not None and (
            game.phase == COUNTING or game.result is not None and game.result.reason == SCORE)
        prisoners = game.counter().score.prisoners if counted else game.captures
        return [prisoners[1], prisoners[2]]

    def state(self):
        """Everything the page draws, as JSON-ready data. ``leds``: each point's LED as the page
        draws it (legend.py ``drawn``: the colours of the legend's swatches too)."""
        with self.lock:
            b = self.app
            hw = self.hw
            game = b.game
            referee = b.referee
            region = referee.region
            strip = hw.strip
            offset_of = b.leds.offset_of  # (3 x each point's LED index)
            on = self.powered
            leds = []
            if strip.frames and on:
                for p in range(361):
                    leds.append(drawn(strip.rgb(offset_of[p] // 3)))  # as the legend's swatches
            shown = b.marks if b.diag is None else b.diag.marks
            marks = []
            for p in range(361):
                bits = shown.bits[p] if on else 0
                marks.append(next((NAMES[i] for i, k in enumerate(KINDS) if bits & k), ""))
            clock = b.clock
            faces = hw.display.text().split(" | ") if clock is not None and on else ["", ""]
            snap = clock.snap if clock is not None else None  # as the device last drew it
            captures = self._prisoners()
            return {
                "version": self.version,
                "rules": game.rules.name, "size": game.size, "komi": game.komi,
                "handicap": referee.handicap, "mode": MODE_NAMES[referee.mode], "sensors": self.sensors,
                "polarity": b.polarity, "diagnostics": b.diag is not None,
                "region": [region.top, region.left, region.size],
                "powered": on, "state": STATE_NAMES[referee.state],
                "message": self._message() if on else "the board is off (unplugged)",
                "confirm": self.confirming() if on else "",
                "legend": (legend(referee.mode, referee.state, b.leds) if b.diag is None
                           else sensor_check_legend(b.leds)) if on else [],
                "to_move": ("", "black", "white")[game.to_move], "moves": game.move_number,
                "captures": captures, "dead_taken": [captures[0] - game.captures[1], captures[1] - game.captures[2]],
                "result": game.result.sgf() if game.result is not None else "",
                "result_words": game_result_words(game) if game.result is not None else "",
                "stones": "".join(".bw"[c] for c in hw.stones.colour),
                "leds": leds, "marks": marks,
                "display_words": hw.display.said() if on else "",
                "clock": None if clock is None else {
                    "spec": canonical(clock.tc), "black": faces[0], "white": faces[1],
                    # (a clock stopped at a result runs for nobody: its snapshot keeps the last turn)
                    "running": ("", "black", "white")[snap.running] if on and not clock.stopped else "",
                    "paused": snap.paused, "stopped": clock.stopped, "flag": snap.flag or ""},
                "log": ["%7.1f  %s" % (t / 1000, text) for t, text in list(self.log)[-60:]],
            }
