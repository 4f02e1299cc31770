"""The board's loop: the app's stages, run in order each pass (``App`` is a ``Loop``).

``step(now_ms)`` runs each stage that is due and returns the ms until the
next one is due; ``run()`` is the device's loop around it. The stages read
and change the app's parts (firmware/app.py builds them): sense (the
scanner, then the referee), tick (the buttons, the clock, the buzzer),
render (the LEDs), show_clock (the display), sync_host (the journal, then
the link). One long job a pass: see ``_others_wait``. Each stage drives one
part's I/O (firmware/faults.py ``STAGE_PART``): an OSError from a stage is
that part failing, which is then left out and told, once.
"""

from array import array

from .clock.cues import CUE_NOTICE
from .clock.verdict import notice_lines, result_lines
from .controls import BLACK as I_BLACK
from .controls import CHORD as I_CHORD
from .controls import MENU as I_MENU
from .controls import PAUSE as I_PAUSE
from .controls import WHITE as I_WHITE
from .drivers.buttons import B_BLACK, B_WHITE
from .events import EV_JOURNAL
from .jobs import resume
from .micro import const, print_exception, ticks_add, ticks_diff, ticks_ms
from .modes import TEACHING, TOURNAMENT
from .referee.states import COUNTING, REJECT, SYNC
from .rules.const import call_briefly, collect, uncollected
from .rules.game import OVER, PLAYING
from .rules.position import BLACK, WHITE
from .rules.rulesets import CYCLE_DRAW

SCAN_MS = const(10)
_TICK_MS = const(10)
_LED_MS = const(20)
_DISPLAY_MS = const(100)
_HOST_MS = const(10)
_PERIODS = (SCAN_MS, _TICK_MS, _LED_MS, _DISPLAY_MS, _HOST_MS)
_RENDER = const(2)  # the stages' places: render's, show_clock's, sync_host's
_DISPLAY = const(3)
_HOST = const(4)
_STAGES = const(5)
_HOST_WAITS = const(3)  # passes it may be put off in a row (decisions in a row; counting's work waits for it)
_NOTICE_MS = const(3000)  # a notice's words stay on the clock display this long
_ASK_MS = const(1000)  # how often the host stage looks whether the players are asked to fix the board
_ASKED_S = const(30)  # the host is told once they were asked this long (firmware/host/link.py ``waiting``)...
_ASKED_AGAIN_S = const(60)  # ... and again every so long while it lasts



TYPE_CHECKING = False  # the type checker reads the blocks below; nothing in them runs
if TYPE_CHECKING:
    from .clock.engine import Clock
    from .controls import Controls
    from .events import Events
    from .follower import Follower
    from .hardware import Hardware
    from .host.link import Link
    from .journal.recorder import Recorder
    from .leds.composer import Leds
    from .leds.marks import Marks
    from .referee.machine import Referee
    from .rules.game import Game
    from .sensing.diagnostics import Diagnostics
    from .sensing.scanner import Scanner
    from .timekeeper import Timekeeper


class Loop:
    """The app's stages and the loop that runs them (see the module doc)."""

    # The app's parts the stages use (firmware/app.py's App makes them).
    hw: "Hardware"
    scanner: "Scanner"
    marks: "Marks"
    events: "Events"
    jobs: list  # the app's jobs (firmware/jobs.py)
    controls: "Controls | None"
    leds: "Leds | None"
    follower: "Follower"
    recorder: "Recorder | None"
    link: "Link | None"
    diag: "Diagnostics | None"
    game: "Game"
    clock: "Clock | None"
    referee: "Referee"
    timekeeper: "Timekeeper"

    if TYPE_CHECKING:  # App's own methods
        def diagnose(self, on, now_ms) -> bool: ...

        def replay(self, now_ms) -> bool: ...

    def _schedule(self, now_ms):
        """The stages, each due first at now_ms."""
        self.stages = (self.sense, self.tick, self.render, self.show_clock, self.sync_host)
        self._due = array("i", [now_ms] * _STAGES)
        self._at = 0  # the stage the pass runs (an exception's)
        self.host_waits = 0  # passes the host stage has been put off (_others_wait): work pending
        self._ask_due = now_ms  # when the host stage next looks at the players' request (_asking)
        self._asked_at = None  # since when the board asks the players to fix it (None: it does not)
        self._asked_told = 0  # the seconds of it the host was last told (0: nothing told)

    def step(self, now_ms):
        """Run every stage due at now_ms, in order (one pass, every 10 ms); the ms until the next is due.
        A stage that raises is counted and told (an OSError: its part left out), and the stages
        after it run. Code let go in the last pass (rules/const.py call_briefly's later) is
        collected in a pass of its own."""
        while True:
            try:
                return self._pass(now_ms)
            except Exception as error:  # noqa: BLE001 - a failing stage must not stop the board
                self._error(error, now_ms)  # (the stages not yet run are still due: the next _pass)

    def _pass(self, now_ms):
        # The pass itself, its stages' exceptions left to step and run. Each function a pass
        # calls keeps its frame within 11 words, or MicroPython takes it from the heap at each
        # call (see firmware/micro.py): so no try here, and one stage at a time.
        if uncollected[0]:
            uncollected[0] = 0
            collect()
            return 0
        wait = _DISPLAY_MS
        for i in range(_STAGES):
            left = ticks_diff(self._due[i], now_ms)
            if left <= 0:
                left = _PERIODS[i]
                self._due[i] = ticks_add(now_ms, left)
                self._at = i
                self.stages[i](now_ms)
            if left < wait:
                wait = left
        return wait

    def _error(self, error, now_ms):
        self.errors += 1
        self.last_error = error
        print_exception(error)
        if isinstance(error, OSError):  # its part's I/O: that part is left out, and told
            self._lost(self._at, now_ms)

    def _lost(self, stage, now_ms):
        # The part whose I/O the stage drives failed: dropped, and told once (firmware/faults.py).
        try:
            call_briefly("firmware.faults", "lost", self, stage, now_ms, later=True)
        except Exception as error:  # noqa: BLE001 - (no heap for its code now: again at its next failure)
            print_exception(error)

    async def run(self, clock_ms=ticks_ms, sleep_ms=None):
        """The device's loop: step(), then sleep until the next stage is due, until
        ``running`` is cleared. ``clock_ms`` and ``sleep_ms`` (a coroutine) default
        to the ticks and asyncio's sleep; tests give their own."""
        if sleep_ms is None:
            import asyncio

            sleep_ms = asyncio.sleep_ms
        self.running = True
        while self.running:  # (step's work, its try here: a coroutine's frame is made once)
            now_ms = clock_ms()
            try:
                wait = self._pass(now_ms)
            except Exception as error:  # noqa: BLE001 - a failing stage must not stop the board
                self._error(error, now_ms)
                wait = 0
            await sleep_ms(wait)

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
        elif self.jobs and not self.host_waits:  # long work (firmware/jobs.py), a slice a pass,
            resume(self.jobs, now_ms)  # the host's stage between two (the journal is never behind)
            self._others_wait(now_ms)
        elif scanner.pending and self.referee.mode == TEACHING:
            self._previewed = self.referee.preview(scanner.pending_at, scanner.pending, now_ms) or self._previewed
        elif self._previewed:  # the hand went away without letting a stone go: its preview goes too
            self._previewed = False
            self.referee.paint()
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
        # wait for the next pass, and the LEDs' compose and the clock's redraw for the passes
        # after it (a count's map changes every LED; a result's words load their code).
        # Each in a pass of its own (the journal's write can take a flash erase, the redraw 25 ms
        # of I2C): the host's first, then the LEDs', then the display's, a pass apart.
        if self.host_waits < _HOST_WAITS:
            self.host_waits += 1
            due = self._due
            later = ticks_add(now_ms, _HOST_MS)
            due[_HOST] = later
            for i in (_RENDER, _DISPLAY):
                later = ticks_add(later, _HOST_MS)
                if ticks_diff(due[i], later) < 0:
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
        if intents & (I_BLACK | I_WHITE) and self.game.phase == PLAYING:
            settings = self.follower.settings  # (a side played elsewhere: its moves and clock are the host's)
            remote = settings and (settings.players or {}).get("remote")
            if remote:
                intents &= ~(I_BLACK if remote == "B" else I_WHITE)
        timekeeper = self.timekeeper
        at = self.hw.buttons.at  # pyright: ignore[reportOptionalMemberAccess]  (intents come from buttons)
        settled = self.scanner.pending == 0  # else a stone just put down is judged first
        if intents & I_BLACK:
            timekeeper.press(BLACK, at[B_BLACK], settled)
        if intents & I_WHITE:
            timekeeper.press(WHITE, at[B_WHITE], settled)
        if intents & I_PAUSE:
            timekeeper.pause_button(now_ms)
        if intents & I_MENU:
            # MENU finishes a count (a tournament's: both clock buttons), votes for a draw after
            # a repetition (Thai 11), replays a drawn game (Korean Art.21-4), or takes back (casual, teaching).
            referee = self.referee
            game = self.game
            if referee.state == COUNTING:
                if referee.mode != TOURNAMENT:
                    referee.button("ok", now_ms)
            elif game.cycle:
                referee.button("draw", now_ms)
            elif game.phase == OVER and game.rules.cycle == CYCLE_DRAW:
                self.replay(now_ms)
            elif referee.mode != TOURNAMENT:  # (casual and teaching)
                referee.button("undo", now_ms)

    def render(self, now_ms):
        """Compose the LED frame from the marks; transmit it only when it changed (while parts missing
        are told, firmware/faults.py's ``Shown`` stands in for this stage and the next)."""
        leds = self.leds
        if leds is not None and leds.update(self.marks if self.diag is None else self.diag.marks, now_ms):
            self.hw.strip.show(leds.frame)  # pyright: ignore[reportOptionalMemberAccess]  (Leds only with a strip)

    def show_clock(self, now_ms):
        """Redraw the clock faces if what they show changed (also before the clock starts);
        once a game is over, its result in two short lines; in the sensor check, its step."""
        display = self.hw.display
        if display is not None and display.pending:  # the rest of the last frame: a pass of its own
            display.finish()
            self._due[_DISPLAY] = ticks_add(now_ms, _DISPLAY_MS - _HOST_MS)  # (the stage's times as they were)
        elif self.diag is not None:  # the sensor check's step instead of the times
            lines = self.diag.lines()
            if display is not None and lines != self.said:
                self.said = lines
                display.words(lines)
        else:
            self._results(now_ms, display)
        if display is not None and display.pending:
            self._due[_DISPLAY] = ticks_add(now_ms, _HOST_MS)  # ... the next one

    def _results(self, now_ms, display):
        # A new notice's words, or the times, or once a game is over its result's words.
        # (The game's result read where it is used: a local more and the frame would be 12 words.)
        if self.referee.notices != self._told and self._notice(now_ms, display, self.game.result):
            return
        if self.said is None and ticks_diff(self._notice_until, now_ms) > 0 and self.game.result is None:
            return  # a notice's words stand
        if display is None:
            return
        if self.game.result is not self.said:
            self.said = self.game.result
            if self.said is not None:
                display.words(result_lines(self.said))
            elif self.clock is None:
                display.words(("NEW GAME", "NO CLOCK"))  # (a clock draws its times over the last result)
        if self.clock is not None and self.game.result is None:
            self.clock.snapshot(now_ms)
            display.update(self.clock)

    def _notice(self, now_ms, display, result):
        # A new notice of the referee's (a pass, a warning...): a chirp and its words on the
        # display for _NOTICE_MS, then the times again. True if the words are shown.
        referee = self.referee
        self._told = referee.notices
        if result is None and referee.noticed():
            buzzer = self.hw.buzzer
            if buzzer is not None:
                buzzer.play(CUE_NOTICE, now_ms)
            if display is not None:
                display.words(notice_lines(referee))
                self._notice_until = ticks_add(now_ms, _NOTICE_MS)
                self.said = None
                return True
        return False

    def sync_host(self, now_ms):
        """The journal, then the host: a change is on flash before the link tells it."""
        self.host_waits = 0
        self._record(now_ms)
        link = self.link
        if link is not None:
            if ticks_diff(now_ms, self._ask_due) >= 0:  # (a time compared: the other passes do no more)
                self._asking(link, now_ms)
            link.poll(now_ms)

    def _asking(self, link, now_ms):
        # Once a second: the board asking the players to fix it (SYNC, REJECT: stones to put
        # back or lift) for _ASKED_S is told on the link, again every _ASKED_AGAIN_S while it
        # lasts, and its end (a stuck table shows at the venue). The words' code is loaded then.
        self._ask_due = ticks_add(now_ms, _ASK_MS)
        state = self.referee.state
        if (state != SYNC and state != REJECT) or self.diag is not None:
            self._asked_at = None
            if self._asked_told:
                self._asked_told = 0
                link.waiting(0)
            return
        self._waiting(link, now_ms)

    def _waiting(self, link, now_ms):
        if self._asked_at is None:
            self._asked_at = now_ms
        due = self._asked_told + _ASKED_AGAIN_S if self._asked_told else _ASKED_S
        if ticks_diff(now_ms, self._asked_at) >= 1000 * due:
            self._asked_told = due
            link.waiting(due, call_briefly("firmware.referee.asks", "words", self.referee, later=True))

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
        if self.link is not None:
            self.link.alert(failing)
        if self.hw.display is not None:
            try:
                self.hw.display.alert(failing)
            except OSError:  # the display failing (not the stage's part): left out, and told
                self._lost(_DISPLAY, now_ms)
