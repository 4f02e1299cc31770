"""The board's application: every part built from one Hardware record, run by one ordered loop.

``App(hw, settings, mode)`` is the composition root. ``hw`` is the written
hardware interface (firmware/hardware.py): the Pico's drivers
(firmware/drivers/pico.py) or their twins (twins/hardware.py). It builds:

    sensor -> Scanner -> Referee -> Game      sense    every SCAN_MS
    buttons -> Controls -> Timekeeper, Clock  tick     every _TICK_MS (+ buzzer cues, a flag)
    Marks -> Leds -> strip                    render   every _LED_MS, sent only when changed
    Clock -> display                          faces    every _DISPLAY_MS
    Game -> Follower -> Recorder, Link        host     every _HOST_MS: the journal, then the host

Data flows one way: the referee and the host's commands change the game; the
timekeeper brings the clock in line with it; the follower tells the recorder
(journal on flash) and then the link (the host) what changed. Host commands
(host/commands.py) reach it through ``command()``, from the link and the page.

``step(now_ms)`` runs every stage that is due, in that order, and returns
the ms until the next one is due; the tests and the simulators call it with
their own time. ``run()`` is the device's loop: ``step()``, then sleep until
the next stage is due. A stage that raises is reported (``errors``,
``last_error``) and the others run on: the board stays alive.

Diagnostics (``diagnose(on, now_ms)``: the host's ``diag on|off``, or PAUSE and
MENU held together for 3 s): the sensor drives firmware/sensing/diagnostics.py
instead of the referee and the LEDs show its own marks; BLACK starts the check
again, MENU flags the dead sensors. Leaving returns to the game as it was.
"""

from array import array

from .clock.engine import Clock
from .controls import BLACK as I_BLACK
from .controls import CHORD as I_CHORD
from .controls import MENU as I_MENU
from .controls import PAUSE as I_PAUSE
from .controls import WHITE as I_WHITE
from .controls import Controls
from .drivers.buttons import B_BLACK, B_WHITE
from .events import EV_JOURNAL, Events
from .follower import Follower
from .host.link import Link
from .host.seal import load_key, load_lock
from .journal import recover_once
from .journal.recorder import Recorder
from .journal.store import Journal
from .leds.composer import Leds
from .leds.marks import HINT, Marks
from .micro import const, print_exception, ticks_add, ticks_diff, ticks_ms
from .modes import CASUAL, TEACHING, TOURNAMENT
from .protocol import E_MALFORMED, E_STATE, fields_dict
from .referee.machine import Referee
from .referee.states import COUNTING
from .rules.const import call_briefly, collect, uncollected
from .rules.game import OVER, Game
from .rules.position import BLACK, WHITE
from .rules.result import DRAW
from .rules.rulesets import CYCLE_DRAW
from .sensing.scanner import Scanner
from .settings import Settings, from_fields, is_pair
from .timekeeper import Timekeeper

SCAN_MS = const(10)
_TICK_MS = const(10)
_LED_MS = const(20)
_DISPLAY_MS = const(100)
_HOST_MS = const(10)
_PERIODS = (SCAN_MS, _TICK_MS, _LED_MS, _DISPLAY_MS, _HOST_MS)
_RENDER = const(2)  # the stages' places: render's, show_clock's, sync_host's
_DISPLAY = const(3)
_HOST = const(4)
_HOST_WAITS = const(3)  # passes it may be put off in a row (decisions in a row; counting's work waits for it)


class App:
    """The board playing its games; see the module doc. ``settings``: the game to
    start with (firmware/settings.py; a game in the journal wins); ``board_id``:
    the board's name on its link (default: the hardware's, ``hw.board_id``);
    ``boot``: this power-up's number when no journal counts them (one holding a
    count makes it that count + 1); ``now_ms``: the time of this power-up."""

    # The current game's parts (_begin makes them; _let_go drops them before the next).
    game: Game
    clock: "Clock | None"
    referee: Referee
    timekeeper: Timekeeper

    def __init__(self, hw, settings=None, mode=CASUAL, board_id=None, boot=1, now_ms=0):
        self.hw = hw
        got = None
        journalled = False  # the journal held a game: the link goes on numbering after its lines
        seq_mark = last_gid = 0
        self.journal = None
        if hw.storage is not None:
            # First: the recovery's code and reading are let go before the long-lived
            # buffers are made, so they leave no holes between them (a Pico's heap is small).
            self.journal = Journal(hw.storage)
            got = recover_once(self.journal)
            if got is not None:
                journalled = True
                boot, seq_mark, last_gid = got.boot + 1, got.seq_mark, got.gid
                if not got.in_progress:
                    got = None  # finished: let it go before the next game is built
        self.polarity = hw.sensor.bits_per_point == 2
        self.scanner = Scanner(hw.sensor)
        self.marks = Marks()
        self.events = Events()
        self.controls = None if hw.buttons is None else Controls(hw.buttons)
        self.leds = None if hw.strip is None else Leds(mode)
        self.follower = follower = Follower(boot)
        self.diag = None  # a Diagnostics while in diagnostics mode
        self.errors = 0  # stage failures reported and survived
        self._said = None  # what the clock display says instead of the times (a result, the sensor check)
        self.last_error = None
        self.running = False
        self.recorder = None
        self.journal_failing = False  # told to the players and the host (the recorder's ``failing``)
        if self.journal is not None:
            self.recorder = Recorder(self.journal, follower, boot, seq_mark)
            follower.listen(self.recorder)
        self.link = None
        if hw.transport is not None:
            self.link = Link(hw.transport, follower, board_id or hw.board_id,
                             "polarity" if self.polarity else "presence", boot, control=self)
            if journalled:
                self.link.resume_at(seq_mark)
            self.link.seal.key = load_key(hw.storage)
            self.link.locked = load_lock(hw.storage)
            follower.listen(self.link)
        self.recovered = False  # the game in progress came back from the journal
        if got is not None:
            self.recovered = True
            self._begin(got.settings, got.game, got.mode, got.gid, got)
            self.timekeeper.recovered(got.clock_state, now_ms)
            self.referee.refresh(now_ms)
        else:
            settings = settings or Settings()
            self._begin(settings, settings.game(), mode, last_gid + 1)
        if self.scanner.prime(now_ms):  # the stones on the board at power-up, no settle wait
            self.referee.update(self.scanner.frame, now_ms)
        self._record(now_ms)  # the journal's snapshot: the recovered game, compacted, or the new one
        self._stages = (self.sense, self.tick, self.render, self.show_clock, self.sync_host)
        self._due = array("i", [now_ms] * len(_PERIODS))
        self.host_waits = 0  # passes the host stage has been put off (_others_wait): work pending

    # -- the game --------------------------------------------------------------

    def new_game(self, settings, mode=None):
        """Start a game with these settings (the host's ``new``, the simulator's
        page). Raises ValueError for settings the rules refuse (a bad time spec
        names its bad part); the current game is then kept. The current game is let
        go before the new one is built: a Pico's heap has room for one. A new game
        of its size takes over its board and history and where it lies on the
        board, the largest blocks a game needs, which a heap in pieces may not
        hold again. If the new one does not
        fit (MemoryError, raised), a game with the last settings, which did, is
        started instead, without its clock if even that does not fit: the board
        always has a game to play."""
        last = self.follower.settings or Settings()  # (always a game's by now)
        settings.share(last)  # (the same rules or time control: not loaded again)
        settings.check()
        mode = self.referee.mode if mode is None else mode
        gid = self.follower.gid + 1
        board = self.game  # the game whose board and history the next one of its size takes over
        region = self.referee.region  # (and where it lies on the physical board)
        if board.size != settings.size:
            board = region = None
        self._let_go()
        collect()  # the last game's parts: the next one's are made in their place
        try:
            board = settings.game(board)  # (the rest of the last game goes: only its board was wanted)
            self._begin(settings, board, mode, gid, region=region)
        except MemoryError:
            if board is not None and board.size != last.size:
                board = region = None  # (not held while the last settings' game is made)
            self._rebuild(last, board, region, mode, gid)
            raise

    def _rebuild(self, settings, board, region, mode, gid):
        # After a game that did not fit: the last settings' game, which did, on ``board``'s board and
        # history and ``region`` (None: new ones); if even that does not fit, the same with no clock,
        # the smallest.
        while True:
            self._let_go()  # what was made of the game that did not fit
            collect()
            try:
                board = settings.game(board)
                self._begin(settings, board, mode, gid, region=region)
                return
            except MemoryError:
                if settings.time_spec == "none":
                    raise
            bare = Settings(settings.size, settings.rules, settings.komi, settings.handicap, "none", settings.players)
            bare.share(settings)
            settings = bare

    def replay(self, now_ms):
        """Korean Art.21-4: a drawn game is replayed at once, colours kept, each clock
        starting from its player's time left. False unless the game is a draw."""
        result = self.game.result
        if result is None or result.winner != DRAW:
            return False
        old = self.clock
        self.new_game(self.follower.settings)
        if old is not None and self.clock is not None:  # (the clauses' code: loaded for the moment)
            call_briefly("firmware.clock.clauses", "replay", old, now_ms, self.clock)
        return True

    def _let_go(self):
        """Drop every reference to the current game: the next one is built after."""
        self.follower.detach()
        self.game = self.clock = self.referee = self.timekeeper = None  # pyright: ignore[reportAttributeAccessIssue]

    def _begin(self, settings, game, mode, gid, recovered=None, region=None):
        clock = settings.clock(self.events)
        referee = Referee(game, self.marks, self.events, self.polarity, mode, clock is not None, settings.handicap,
                          region)
        referee.pair = is_pair(settings.players)
        referee.defer = True  # (no step of the loop counts and paints the count at once)
        self.marks.clear(HINT)  # the last game's hints (the referee painted its own marks)
        self.game = game
        self.clock = clock
        self.referee = referee
        self.timekeeper = Timekeeper(game, referee, clock)
        if self.leds is not None:
            self.leds.mode = mode
        self.follower.attach(game, settings, gid, clock, mode, recovered)

    def set_mode(self, mode):
        """casual, teaching or tournament (firmware/modes.py): what the referee allows
        and what the LEDs show."""
        self.referee.mode = mode
        if self.leds is not None:
            self.leds.mode = mode
        self.follower.set_mode(mode)

    def command(self, name, args, now_ms):
        """A host's command (the link's control, the simulator's page): None when done,
        or (error code, detail). What it changed is on flash before this returns."""
        if name == "new":  # the app's own: no command code is loaded while the next game is built
            error = self._new(args)
        else:  # (the commands' code loaded for the command: it costs a Pico's heap)
            error = call_briefly("firmware.host.commands", "command", self, name, args, now_ms)
        self.timekeeper.follow(now_ms, self.scanner.pending == 0)
        self._record(now_ms)
        return error

    def _new(self, args):
        # The host's ``new`` (docs/protocol.md): refused while a game with moves is on or being
        # counted (the result first); no local keeps the last game alive while the next is built.
        if self.game.phase != OVER and self.game.move_number:
            return E_STATE, "a game is in progress: end it first"
        try:
            self.new_game(from_fields(fields_dict(args)))
        except ValueError as error:
            return E_MALFORMED, "new: " + str(error)[:60]
        return None

    def control(self, name, now_ms):
        """The referee's other controls (firmware/referee/machine.py ``button``: pass,
        undo, resign_black, resign_white, ok, resume), then the clock follows. True if
        something happened."""
        done = self.referee.button(name, now_ms)
        self.timekeeper.follow(now_ms, self.scanner.pending == 0)
        return done

    def diagnose(self, on, now_ms):
        """Enter (on) or leave diagnostics mode. Entering is refused (False) while a
        game is in progress (moves played or the clock started, and no result)."""
        if not on:
            self.diag = None
            return True
        if self.game.phase != OVER and (self.game.move_number or self.timekeeper.started):
            return False
        if self.diag is None:
            from .sensing.diagnostics import Diagnostics  # loaded when asked for: code costs heap

            self.diag = Diagnostics(self.hw.sensor, Marks())
            self.diag.reset(now_ms)
        return True

    # -- the loop --------------------------------------------------------------

    def step(self, now_ms):
        """Run every stage due at now_ms, in order (one pass, every 10 ms); the ms until the next is due.
        Code let go in the last pass (rules/const.py call_briefly's later) is collected in a pass of its own."""
        if uncollected[0]:
            uncollected[0] = 0
            collect()
            return 0
        due = self._due
        stages = self._stages
        diff = ticks_diff
        wait = _DISPLAY_MS
        for i in range(len(stages)):
            left = diff(due[i], now_ms)
            if left <= 0:
                left = _PERIODS[i]
                due[i] = ticks_add(now_ms, left)
                try:
                    stages[i](now_ms)
                except Exception as error:  # noqa: BLE001 - a failing stage must not stop the board
                    self.errors += 1
                    self.last_error = error
                    print_exception(error)
            if left < wait:
                wait = left
        return wait

    async def run(self, clock_ms=ticks_ms, sleep_ms=None):
        """The device's loop: step(), then sleep until the next stage is due, until
        ``running`` is cleared. ``clock_ms`` and ``sleep_ms`` (a coroutine) default
        to the ticks and asyncio's sleep; tests give their own."""
        if sleep_ms is None:
            import asyncio

            sleep_ms = asyncio.sleep_ms
        self.running = True
        while self.running:
            await sleep_ms(self.step(clock_ms()))

    # -- the stages --------------------------------------------------------------

    def sense(self, now_ms):
        """Read the sensors; a changed settled frame goes to the referee (diagnostics: the sensor check)."""
        if self.diag is not None:
            self.diag.step(now_ms)
            return
        scanner = self.scanner
        if scanner.scan(now_ms):
            self.referee.update(scanner.frame, now_ms)
            self._others_wait(now_ms)
        elif self.referee.owed and not self.host_waits:  # counting's long work, a piece a pass,
            self.referee.catch_up()  # the host's stage between two (the journal is never behind)
            self._others_wait(now_ms)
        elif scanner.pending and self.referee.mode == TEACHING:
            self.referee.preview(scanner.pending_at, scanner.pending, now_ms)
        self.timekeeper.follow(now_ms, scanner.pending == 0)

    def tick(self, now_ms):
        """The buttons' intents, then the clock: its sound, its flag, its policy."""
        controls = self.controls
        intents = 0 if controls is None else controls.poll(now_ms)
        if intents:
            self._act(intents, now_ms)
            self._others_wait(now_ms)
        settled = self.scanner.pending == 0
        cue = self.timekeeper.tick(now_ms, settled)  # (a flag: it follows)
        buzzer = self.hw.buzzer
        if buzzer is not None and (cue or buzzer.pattern):  # (silent: nothing to step)
            if cue:
                buzzer.play(cue, now_ms)
            buzzer.update(now_ms)
        if intents:  # else the game is as the sense stage left it
            self.timekeeper.follow(now_ms, settled)

    def _others_wait(self, now_ms):
        # One long job a pass: after a decision or counting's work, the journal and the link
        # wait for the next pass, and so do the LEDs' compose and the clock's redraw if due now
        # (a count's map changes every LED; a result's words load their code).
        if self.host_waits < _HOST_WAITS:
            self.host_waits += 1
            due = self._due
            later = ticks_add(now_ms, _HOST_MS)
            due[_HOST] = later
            for i in (_RENDER, _DISPLAY):
                if ticks_diff(due[i], now_ms) <= 0:
                    due[i] = later

    def _act(self, intents, now_ms):
        if intents & I_CHORD:
            self.diagnose(self.diag is None, now_ms)
        diag = self.diag
        if diag is not None:
            if intents & I_BLACK:
                diag.reset(now_ms)
            if intents & I_MENU:
                diag.check_dead()
            return
        timekeeper = self.timekeeper
        at = self.hw.buttons.at
        settled = self.scanner.pending == 0  # else a stone just put down is judged first
        if intents & I_BLACK:
            timekeeper.press(BLACK, at[B_BLACK], settled)
        if intents & I_WHITE:
            timekeeper.press(WHITE, at[B_WHITE], settled)
        if intents & I_PAUSE:
            timekeeper.pause_button(now_ms)
        if intents & I_MENU:
            # MENU finishes a count (a tournament's: both clock buttons), votes for a draw after
            # a repetition (Thai 11), replays a drawn game (Korean Art.21-4), or takes back (casual).
            referee = self.referee
            game = self.game
            if referee.state == COUNTING:
                if referee.mode != TOURNAMENT:
                    referee.button("ok", now_ms)
            elif game.cycle:
                referee.button("draw", now_ms)
            elif game.phase == OVER and game.rules.cycle == CYCLE_DRAW:
                self.replay(now_ms)
            elif referee.mode == CASUAL:
                referee.button("undo", now_ms)

    def render(self, now_ms):
        """Compose the LED frame from the marks; transmit it only when it changed."""
        leds = self.leds
        if leds is not None and leds.update(self.marks if self.diag is None else self.diag.marks, now_ms):
            self.hw.strip.show(leds.frame)

    def show_clock(self, now_ms):
        """Redraw the clock faces if what they show changed (also before the clock starts);
        once a game is over, its result in two short lines; in the sensor check, its step."""
        display = self.hw.display
        if self.diag is not None:  # the sensor check's step instead of the times
            lines = self.diag.lines()
            if display is not None and lines != self._said:
                self._said = lines
                display.words(lines)
            return
        clock = self.clock
        result = self.game.result
        if display is not None and result is not self._said:
            self._said = result
            if result is not None:  # (its words' code is loaded for the moment: code costs heap)
                display.words(call_briefly("firmware.clock.verdict", "result_lines", result, later=True))
            elif clock is None:
                display.words(("NEW GAME", "NO CLOCK"))  # (a clock draws its times over the last result)
        if display is not None and clock is not None and result is None:
            clock.snapshot(now_ms)
            display.update(clock)

    def sync_host(self, now_ms):
        """The journal, then the host: a change is on flash before the link tells it."""
        self.host_waits = 0
        self._record(now_ms)
        if self.link is not None:
            self.link.poll(now_ms)

    def _record(self, now_ms):
        self.follower.follow()
        recorder = self.recorder
        if recorder is not None:
            recorder.record(now_ms, self.clock, 0 if self.link is None else self.link.next)
            if recorder.failing != self.journal_failing:
                self._journal_alert(recorder.failing, now_ms)

    def _journal_alert(self, failing, now_ms):
        """The flash cannot keep the game (full, failing) or can again: display inverse, events, host told."""
        self.journal_failing = failing
        self.events.add(EV_JOURNAL, 0, 0, 1 if failing else 0, now_ms)
        if self.hw.display is not None:
            self.hw.display.alert(failing)
        if self.link is not None:
            self.link.alert(failing)
