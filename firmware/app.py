"""The board's application: every part wired together, on the device and in the simulator.

``Board(hw, ...)`` takes a hardware set (real drivers on the device, twins
in the simulator and tests) with the attributes ``sensor`` (required) and,
when fitted, ``buttons``, ``display``, ``buzzer``, ``strip`` (pixels),
``leds`` (the LED composer), ``transport`` (the serial link to a host) and
``journal`` (the journal's storage: then the board comes back to its game
after a power cut, firmware/recorder.py). Data flows one way:

    sensor -> Scanner -> Referee -> Game          (every SCAN_MS)
    buttons -> Referee.press -> Clock.press       (every TICK_MS)
    Clock -> display, buzzer; a flag ends the game
    Marks -> LEDs -> pixels                       (every LED_MS, only when changed)
    Game -> Recorder -> journal                   (every step, before the link)
    Game -> Link -> host; host commands -> Board  (every LINK_MS, never blocking)

Diagnostics mode (``diagnose(on, now_ms)``: the host's ``diag on|off``, or
PAUSE and MENU held together for DIAG_HOLD_MS): the sensor drives
firmware/diagnostics.py instead of the referee and the LEDs show its own
marks; BLACK starts the check again, MENU flags the dead sensors. Leaving
returns to the game as it was.

``step(now_ms)`` runs whatever is due at ``now_ms`` (tests and the
simulator call it with simulated time); ``run()`` is the device's asyncio
loop, one task per concern, with an exception handler that reports a failing
task and restarts it so the board stays alive.
"""

from .clock.cues import Cues
from .clock.engine import Clock
from .host.link import Link
from .host.protocol import E_MALFORMED, E_STATE, E_UNKNOWN, fields_dict
from .journal.recorder import Recorder
from .journal.store import Journal
from .leds.composer import CASUAL as CASUAL_LEDS
from .leds.composer import TEACHING as TEACHING_LEDS
from .leds.composer import TOURNAMENT as TOURNAMENT_LEDS
from .leds.marks import HINT, Marks
from .micro import const, ticks_add, ticks_diff, ticks_ms
from .modes import CASUAL, TEACHING
from .modes import NAMES as MODE_NAMES
from .referee.machine import Referee
from .referee.states import COUNTING as COUNTING_STATE
from .referee.states import OVER as OVER_STATE
from .referee.states import REJECT, SYNC
from .rules.coords import parse_vertex
from .rules.game import OVER, PLAYING, Game
from .rules.result import CYCLE, FOUL, RESIGN, SCORE, TIME, Result
from .sensing.diagnostics import Diagnostics
from .sensing.scanner import Scanner

# The LED mode of each referee mode (referee.MODE_NAMES order: casual, teaching, tournament).
LED_MODE_OF = (CASUAL_LEDS, TEACHING_LEDS, TOURNAMENT_LEDS)

SCAN_MS = const(10)
TICK_MS = const(10)
LED_MS = const(20)
DISPLAY_MS = const(100)
LINK_MS = const(10)

# Button indexes (drivers.buttons order).
_B_BLACK = const(0)
_B_WHITE = const(1)
_B_PAUSE = const(2)
_B_MENU = const(3)
_DIAG_KEYS = const(0b1100)  # PAUSE and MENU
DIAG_HOLD_MS = const(3000)


class Board:
    """One board playing one game; see the module doc.

    ``time_spec``: the clock's time control ("none" for no clock). The menu
    button, when let go, finishes the count (counting), or takes a move back
    (casual); held with PAUSE it does neither (the diagnostics chord).
    With a journal, a game found in it replaces the settings given (and its
    boot id ``boot``); ``now_ms`` is the time of the recovery.
    """

    def __init__(self, hw, size=19, rules="japanese", komi=None, handicap=0, mode=CASUAL,
                 time_spec="none", polarity=None, board_id="board", boot=0, now_ms=0):
        self.hw = hw
        self.scanner = Scanner(hw.sensor)
        self.marks = Marks()
        self.polarity = hw.sensor.bits_per_point == 2 if polarity is None else polarity
        self.link = None
        self.boot = boot
        self.held = False  # the clock waits, paused, for the stones to match a recovered game
        self.new_game(size, rules, komi, handicap, mode, time_spec)
        self.recorder = recorder = None
        recovered = False
        storage = getattr(hw, "journal", None)
        if storage is not None:
            self.recorder = recorder = Recorder(self, Journal(storage))
            recovered = recorder.recover(now_ms)
            self.boot = recorder.boot
        self.recovered = recovered  # the game in progress came back from the journal
        transport = getattr(hw, "transport", None)
        if transport is not None:
            control = HostCommands(self)
            if recorder is not None:
                control = Journaled(control, recorder)
            self.link = link = Link(transport, board_id, "polarity" if self.polarity else "presence", self.boot,
                                    control=control)
            if recorder is not None and recovered:
                link.resume_at(recorder.seq_mark)
                link.gid = max(recorder.gid, 1) - 1
                link.mode = MODE_NAMES[self.referee.mode]
                self._attach(recorder.figures)
            else:
                self._attach()
        if self.scanner.prime(now_ms):  # the stones on the board at power-up, no settle wait
            self.referee.update(self.scanner.frame, now_ms)
        if recorder is not None:
            recorder.observe(now_ms)  # a snapshot: the recovered game, compacted, or the new one
        self._next_scan = self._next_tick = self._next_led = self._next_display = self._next_link = 0
        self.errors = 0  # task failures reported and survived
        self.diag = None  # a Diagnostics while in diagnostics mode
        self._diag_held = False  # the current PAUSE+MENU hold has already acted
        self._menu_down = False
        self._menu_chord = False  # PAUSE was down during this MENU hold

    def new_game(self, size=19, rules="japanese", komi=None, handicap=0, mode=CASUAL, time_spec="none",
                 players=None):
        """Start a new game (at power-up, or asked by the host). Raises
        ValueError for settings the rules refuse (a bad time spec names its
        bad part); the current game is then kept."""
        game = Game(size, rules, komi=komi)
        if komi is None and handicap:
            game.komi = game.rules.default_komi(handicap)
        clock = None if time_spec == "none" else Clock(time_spec)
        self.cues = None if clock is None else Cues(clock)
        self.marks.clear(0xFFFF)
        referee = Referee(game, self.marks, polarity=self.polarity, mode=mode, timed=clock is not None,
                          handicap=handicap)
        self.game, self.clock, self.referee = game, clock, referee
        self.set_mode(mode)
        self.time_spec = time_spec
        self.players = players
        self.started = False
        self.held = False
        self._attach()

    def _attach(self, figures=None):
        link = self.link
        if link is not None:
            link.attach(self.game, self.players, figures)
            if self.clock is not None:
                link.clock_of = self._clock_of

    def set_mode(self, mode):
        """casual, teaching or tournament (referee.MODE_NAMES index): what the
        referee allows and what the LEDs show."""
        self.referee.mode = mode
        leds = getattr(self.hw, "leds", None)
        if leds is not None:
            leds.mode = LED_MODE_OF[mode]

    def _clock_of(self, colour):
        clock = self.clock
        if clock is None:
            return None
        side = clock.snap.black if colour == 1 else clock.snap.white
        return side.main_ms + side.period_ms, side.periods

    # -- one step of everything due ------------------------------------------

    def step(self, now_ms):
        """Run what is due at now_ms. Returns True if the game changed."""
        changed = False
        if ticks_diff(now_ms, self._next_scan) >= 0:
            self._next_scan = ticks_add(now_ms, SCAN_MS)
            changed = self.scan(now_ms)
        if ticks_diff(now_ms, self._next_tick) >= 0:
            self._next_tick = ticks_add(now_ms, TICK_MS)
            changed = self.tick(now_ms) or changed
        if ticks_diff(now_ms, self._next_led) >= 0:
            self._next_led = ticks_add(now_ms, LED_MS)
            self.render(now_ms)
        if ticks_diff(now_ms, self._next_display) >= 0:
            self._next_display = ticks_add(now_ms, DISPLAY_MS)
            self.show_clock(now_ms)
        if self.recorder is not None:
            self.recorder.observe(now_ms)  # on flash before the link tells the host
        if self.link is not None and ticks_diff(now_ms, self._next_link) >= 0:
            self._next_link = ticks_add(now_ms, LINK_MS)
            self.link.poll(now_ms)
        return changed

    def scan(self, now_ms):
        """Read the sensors; hand a changed settled frame to the referee."""
        if self.diag is not None:
            self.diag.step(now_ms)
            return False
        scanner = self.scanner
        changed = False
        if scanner.scan(now_ms):
            changed = self.referee.update(scanner.frame, now_ms)
            self._start_clock(now_ms)
        elif scanner.pending and self.referee.mode == TEACHING:
            self.referee.preview(scanner.pending_at, scanner.pending, now_ms)
        clock = self.clock
        if self.held and clock is not None and not scanner.pending and self.referee.state != SYNC \
                and self.referee.state != REJECT:
            self.held = False  # a recovered game and the stones match: time runs again
            clock.resume(now_ms)
        return changed

    def tick(self, now_ms):
        """Buttons, the clock's flag and its sound."""
        hw = self.hw
        changed = False
        buttons = getattr(hw, "buttons", None)
        if buttons is not None:
            pressed = buttons.poll(now_ms)
            self._diag_keys(buttons, now_ms)
            if pressed:
                changed = self._buttons(pressed, buttons, now_ms)
            changed = self._menu_release(buttons, now_ms) or changed
        clock = self.clock
        if clock is not None and self.started:
            cue = self.cues.cue(now_ms)
            buzzer = getattr(hw, "buzzer", None)
            if buzzer is not None:
                if cue:
                    buzzer.play(cue, now_ms)
                buzzer.update(now_ms)
            flag = clock.snap.flag
            if flag is not None and self.game.phase != OVER:
                self.game.flag(1 if flag == "B" else 2)
                self.referee.refresh(now_ms)
                changed = True
        return changed

    def diagnose(self, on, now_ms):
        """Enter (on) or leave diagnostics mode. Entering is refused (False) while a game is
        in progress (moves played or the clock started, and no result)."""
        if not on:
            self.diag = None
            return True
        if self.game.phase != OVER and (self.game.move_number or self.started):
            return False
        if self.diag is None:
            self.diag = Diagnostics(self.hw.sensor, Marks())
            self.diag.reset(now_ms)
        return True

    def _diag_keys(self, buttons, now_ms):
        # PAUSE and MENU held together for DIAG_HOLD_MS enter or leave diagnostics, once per hold.
        if buttons.bits & _DIAG_KEYS != _DIAG_KEYS:
            self._diag_held = False
            return
        at = buttons.at
        since = at[_B_MENU] if ticks_diff(at[_B_MENU], at[_B_PAUSE]) > 0 else at[_B_PAUSE]
        if not self._diag_held and ticks_diff(now_ms, since) >= DIAG_HOLD_MS:
            self._diag_held = True
            self.diagnose(self.diag is None, now_ms)

    def _buttons(self, pressed, buttons, now_ms):
        diag = self.diag
        if diag is not None:
            if pressed & (1 << _B_BLACK):
                diag.reset(now_ms)
            if pressed & (1 << _B_MENU):
                diag.check_dead()
            return False
        referee = self.referee
        clock = self.clock
        changed = False
        for index in (_B_BLACK, _B_WHITE):
            if pressed & (1 << index):
                colour = index + 1
                at = buttons.at[index]
                if clock is not None and not self.started:
                    # Like a table clock: the first press starts the time of the side to move.
                    clock.start(at, self.game.to_move)
                    self.started = True
                elif referee.press(colour, at):
                    changed = True
                    if clock is not None:
                        clock.press(colour, at)
        if pressed & (1 << _B_PAUSE) and clock is not None and self.started and not buttons.is_down(_B_MENU):
            if clock.snap.paused:
                clock.resume(now_ms)
            else:
                clock.pause(now_ms)
        if clock is not None and self.game.phase == OVER:
            clock.stop(now_ms)
        return changed

    def _menu_release(self, buttons, now_ms):
        # MENU acts when let go, and not at all if PAUSE joined it (the
        # diagnostics chord): holding both must not take a move back.
        down = buttons.is_down(_B_MENU)
        if down and buttons.is_down(_B_PAUSE):
            self._menu_chord = True
        was_down = self._menu_down
        self._menu_down = down
        if not was_down or down:
            return False
        chord = self._menu_chord
        self._menu_chord = False
        referee = self.referee
        if chord or self.diag is not None:
            return False
        if referee.state == COUNTING_STATE:
            return referee.button("ok", now_ms)
        if referee.mode == CASUAL:
            return referee.button("undo", now_ms)
        return False

    def _start_clock(self, now_ms):
        # A first stone before any press starts the clock for its player (who
        # then presses as usual); the end of the game stops it.
        clock = self.clock
        if clock is None:
            return
        if not self.started and self.game.move_number:
            clock.start(now_ms, self.referee.awaiting_press or self.game.to_move)
            self.started = True
        if self.started and self.referee.state == OVER_STATE:
            clock.stop(now_ms)

    def render(self, now_ms):
        """Compose the LED frame from the marks; transmit it only when it changed."""
        hw = self.hw
        leds = getattr(hw, "leds", None)
        strip = getattr(hw, "strip", None)
        marks = self.marks if self.diag is None else self.diag.marks
        if leds is not None and strip is not None and leds.update(marks, now_ms):
            strip.show(leds.frame)

    def show_clock(self, now_ms):
        """Redraw the clock faces if what they show changed (also before the clock starts)."""
        display = getattr(self.hw, "display", None)
        if display is not None and self.clock is not None:
            self.clock.snapshot(now_ms)
            display.update(self.clock)

    # -- the device's loop ---------------------------------------------------

    def _journal_and_link(self, now_ms):
        if self.recorder is not None:
            self.recorder.observe(now_ms)
        if self.link is not None:
            self.link.poll(now_ms)

    async def _every(self, period_ms, work):
        import asyncio

        while True:
            try:
                work(ticks_ms())
            except Exception as error:  # noqa: BLE001 - a failing task must not stop the board
                self.errors += 1
                report(error)
            await asyncio.sleep_ms(period_ms)

    async def run(self):
        """The asyncio tasks: scan, tick (buttons, clock), LEDs, display."""
        import asyncio

        loop = asyncio.get_event_loop()
        loop.set_exception_handler(lambda _loop, context: report(context.get("exception")))
        asyncio.create_task(self._every(SCAN_MS, self.scan))
        asyncio.create_task(self._every(TICK_MS, self.tick))
        asyncio.create_task(self._every(LED_MS, self.render))
        if self.recorder is not None or self.link is not None:
            asyncio.create_task(self._every(LINK_MS, self._journal_and_link))
        await self._every(DISPLAY_MS, self.show_clock)


class HostCommands:
    """What the board does with a host's commands (the link's ``control``):
    ``new``, ``mode``, ``show``, ``end``, ``time``, ``diag``. Returns None when done,
    or (error code, detail) naming the problem."""

    def __init__(self, board):
        self.board = board

    def command(self, name, args, now_ms):
        board = self.board
        game = board.game
        if name == "new":
            if game.phase == PLAYING and game.move_number:
                return E_STATE, "a game is in progress: end it first"
            fields = fields_dict(args)
            try:
                komi = fields.get("komi")
                board.new_game(int(fields.get("size", "19")), fields.get("rules", "japanese"),
                               None if komi is None else float(komi), int(fields.get("handicap", "0")),
                               board.referee.mode, fields.get("time", "none"), fields)
            except ValueError as error:
                return E_MALFORMED, "new: " + str(error)[:60]
            return None
        if name == "mode":
            board.set_mode(MODE_NAMES.index(args[0]))
            return None
        if name == "show":
            marks = board.marks
            marks.clear(HINT)
            if args[0] != "clear":
                for text in args[1:]:
                    try:
                        pt = parse_vertex(game.size, text)
                    except ValueError:
                        return E_MALFORMED, "show: bad vertex " + text[:8]
                    marks.set(board.referee.region.phys_of[pt], HINT)
            return None
        if name == "end":
            if game.phase == OVER:
                return E_STATE, "no game in progress"
            result = parse_result(args[0] if args else "Void")
            if result is None:
                return E_MALFORMED, "end: bad result " + (args[0][:12] if args else "")
            game.end(result)
            board.referee.refresh(now_ms)
            return None
        if name == "time":
            clock = board.clock
            if clock is None:
                return E_STATE, "time: this game has no clock"
            snap = clock.snapshot(now_ms)
            for colour, side, ms in ((1, snap.black, int(args[0])), (2, snap.white, int(args[1]))):
                clock.adjust(colour, ms - side.main_ms, now_ms)
            return None
        if name == "diag":
            if not board.diagnose(args[0] == "on", now_ms):
                return E_STATE, "a game is in progress: end it first"
            return None
        return E_UNKNOWN, name


class Journaled:
    """A link's control that journals what a host command changed before
    the link acknowledges it."""

    def __init__(self, control, recorder):
        self.control = control
        self.recorder = recorder

    def command(self, name, args, now_ms):
        err = self.control.command(name, args, now_ms)
        self.recorder.observe(now_ms)
        return err


def parse_result(text):
    """A Result from an SGF RE value ("B+R", "W+3.5", "0", "Void"), or None."""
    if text == "Void":
        return Result(None, CYCLE, 0, "host")
    if text in ("0", "Draw", "Jigo"):
        return Result(0, SCORE, 0, "host")
    if len(text) < 3 or text[0] not in "BW" or text[1] != "+":
        return None
    winner = 1 if text[0] == "B" else 2
    rest = text[2:]
    reasons = {"R": RESIGN, "Resign": RESIGN, "T": TIME, "Time": TIME, "F": FOUL, "Forfeit": FOUL}
    if rest in reasons:
        return Result(winner, reasons[rest], 0, "host")
    try:
        margin2 = round(float(rest) * 2)
    except ValueError:
        return None
    return Result(winner, SCORE, margin2, "host")


def report(error):
    """Say what went wrong without stopping (the serial link shows it too)."""
    import sys

    if error is not None:
        sys.print_exception(error)
