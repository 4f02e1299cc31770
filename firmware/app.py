"""The board's application: every part built from one Hardware record, run by one ordered loop.

``App(hw, settings, mode)`` is the composition root. ``hw`` is the written
hardware interface (firmware/hardware.py): the Pico's drivers
(firmware/drivers/pico.py) or their twins (twins/hardware.py). It builds:

    sensor -> Scanner -> Referee -> Game      sense    every SCAN_MS
    buttons -> Controls -> Timekeeper, Clock  tick     every _TICK_MS (+ buzzer cues, a flag)
    Marks -> Leds -> strip                    render   every _LED_MS, sent only when changed
    Clock -> display                          show_clock every _DISPLAY_MS
    Game -> Follower -> Recorder, Link        sync_host every _HOST_MS: the journal, then the host

Data flows one way: the referee and the host's commands change the game; the
timekeeper brings the clock in line with it; the follower tells the recorder
(journal on flash) and then the link (the host) what changed. Host commands
(host/commands.py) reach it through ``command()``, from the link and the page.

``step(now_ms)`` (firmware/loop.py: App is a Loop) runs every stage that is due, in that order, and returns
the ms until the next one is due; the tests and the simulators call it with
their own time. ``run()`` is the device's loop: ``step()``, then sleep until
the next stage is due. A stage that raises is reported (``errors``,
``last_error``) and the others run on: the board stays alive. A part missing
(``hw.faults``: left out at power-up, or dropped when its I/O fails in play)
is told once, and the board plays without it (firmware/faults.py).

Diagnostics (``diagnose(on, now_ms)``: the host's ``diag on|off``, or PAUSE and
MENU held together for 3 s): the sensor drives firmware/sensing/diagnostics.py
instead of the referee and the LEDs show its own marks; BLACK starts the check
again, MENU flags the dead sensors. Leaving returns to the game as it was.
"""


from .clock.engine import Clock
from .controls import Controls
from .events import Events
from .faults import F_SENSOR
from .follower import Follower
from .host.link import Link
from .journal import recover_once
from .journal.recorder import Recorder
from .journal.store import Journal
from .leds.composer import Leds
from .leds.marks import HINT, Marks
from .loop import Loop
from .micro import const, ticks_diff
from .modes import CASUAL
from .protocol import E_MALFORMED, E_STATE, fields_dict
from .referee.machine import Referee
from .rules.const import call_briefly, collect, uncollected
from .rules.game import OVER, Game
from .rules.result import DRAW
from .sensing.scanner import Scanner
from .settings import Settings, from_fields, is_pair
from .timekeeper import Timekeeper

_ALONE_MS = const(5000)  # a finished game found at power-up, no host heard since: the next game starts
_TOLD_MOST_MS = const(60000)  # ... a host heard but not done with it: the next game starts all the same


class App(Loop):
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
    _next: "tuple | None"

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
                if not got.in_progress and hw.transport is None:
                    got = None  # finished, and no host to tell: let it go before the next game is built
        self.polarity = hw.sensor.bits_per_point == 2
        self.scanner = Scanner(hw.sensor)
        self.marks = Marks()
        self.events = Events()
        self.jobs = []  # long work a slice a loop pass (firmware/jobs.py)
        # (no sensor: no button plays either, the board cannot see its stones; firmware/faults.py)
        self.controls = None if hw.buttons is None or hw.faults & F_SENSOR else Controls(hw.buttons)
        self.leds = None if hw.strip is None else Leds(mode)
        self.follower = follower = Follower(boot)
        self.diag = None  # a Diagnostics while in diagnostics mode
        self.errors = 0  # stage failures reported and survived
        self.said = None  # what the clock display says instead of the times (a result, the sensor check)
        self._told = 0  # the referee's notices shown (loop.py _notice)
        self._previewed = False  # teaching's preview of a stone under a hand is on the LEDs (loop.py sense)
        self._notice_until = 0  # a notice's words on the display until then
        self.last_error = None
        self.running = False
        self.recorder = None
        self.journal_failing = False  # told to the players and the host (the recorder's ``failing``)
        if self.journal is not None:
            self.recorder = Recorder(self.journal, follower, self.jobs, boot, seq_mark)
            follower.listen(self.recorder)
        self.link = None
        if hw.transport is not None:
            self.link = Link(hw.transport, follower, self.jobs, board_id or hw.board_id,
                             "polarity" if self.polarity else "presence", boot, control=self, storage=hw.storage)
            if journalled:
                self.link.resume_at(seq_mark)
            follower.listen(self.link)
        self.recovered = False  # the game in progress came back from the journal
        self._next = None  # a finished game came back: the next game's (settings, mode, since), _next_game
        if got is not None:
            self.recovered = True
            self._begin(got.settings, got.game, got.mode, got.gid, got)
            self.timekeeper.recovered(got.clock_state, now_ms)
            self.referee.refresh(now_ms)
            if not got.in_progress:  # told to the host again (its end may never have reached it) first
                self._next = (settings or Settings(), mode, now_ms)
        else:
            settings = settings or Settings()
            self._begin(settings, settings.game(), mode, last_gid + 1)
        if self.scanner.prime(now_ms):  # the stones on the board at power-up, no settle wait
            self.referee.update(self.scanner.frame, now_ms, True)
        self._record(now_ms)  # the journal's snapshot: the recovered game, compacted, or the new one
        self._schedule(now_ms)
        if hw.faults:  # parts missing at power-up: told, and shown for a while (firmware/faults.py)
            call_briefly("firmware.faults", "tell", self, now_ms)

    # -- the game --------------------------------------------------------------

    def new_game(self, settings, mode=None, now_ms=0):
        """Start a game with these settings (the host's ``new``, the simulator's
        page) at ``now_ms``. The stones lying on the board then are the last
        game's: lit to lift, never a move (referee ``update``). Raises ValueError
        for settings the rules refuse (a bad time spec
        names its bad part); the current game is then kept. The current game is let
        go before the new one is built: a Pico's heap has room for one. A new game
        of its size takes over its board and history and where it lies on the
        board, the largest blocks a game needs, which a heap in pieces may not
        hold again. If the new one does not
        fit (MemoryError, raised), a game with the last settings, which did, is
        started instead, without its clock if even that does not fit: the board
        always has a game to play."""
        self._next = None
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
        self.referee.update(self.scanner.frame, now_ms, True)

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

    def sync_host(self, now_ms):
        """The host stage (firmware/loop.py), then the next game once a finished game found at power-up is told."""
        Loop.sync_host(self, now_ms)
        pending = self._next
        if pending is not None:
            self._next_game(pending, now_ms)

    def _next_game(self, pending, now_ms):
        # A finished game found at power-up is the board's until its host has heard it all (a
        # power cut can come before the host read its last lines, which the link could only
        # resend as SKIP once the next game began): two hellos on a link with every line written
        # (firmware/host/link.py ``acks``). Then, as ever, the next game with the board's own
        # settings, numbered after it. With no host heard, the players need not wait long.
        settings, mode, since = pending
        acks = self.link.acks  # pyright: ignore[reportOptionalMemberAccess]  (kept with a link only)
        waited = ticks_diff(now_ms, since)
        if acks >= 2 or (acks < 0 and waited >= _ALONE_MS) or waited >= _TOLD_MOST_MS:
            self.new_game(settings, mode, now_ms)

    def replay(self, now_ms):
        """Korean Art.21-4: a drawn game is replayed at once, colours kept, each clock
        starting from its player's time left. False unless the game is a draw."""
        result = self.game.result
        if result is None or result.winner != DRAW:
            return False
        old = self.clock
        self.new_game(self.follower.settings, None, now_ms)
        if old is not None and self.clock is not None:  # (the clauses' code: loaded for the moment)
            call_briefly("firmware.clock.clauses", "replay", old, now_ms, self.clock)
        return True

    def _let_go(self):
        """Drop every reference to the current game: the next one is built after."""
        if self.referee is not None:
            self.referee.stop()  # (its counting's work under way)
        self.follower.detach()
        self.game = self.clock = self.referee = self.timekeeper = None  # pyright: ignore[reportAttributeAccessIssue]

    def _begin(self, settings, game, mode, gid, recovered=None, region=None):
        clock = settings.clock(self.events)
        referee = Referee(game, self.marks, self.events, self.polarity, mode, clock is not None, settings.handicap,
                          region)
        referee.pair = is_pair(settings.players)
        referee.jobs = self.jobs  # (no step of the loop counts and paints the count at once)
        self.marks.clear(HINT)  # the last game's hints (the referee painted its own marks)
        self.game = game
        self.clock = clock
        self.referee = referee
        self.timekeeper = Timekeeper(game, referee, clock)
        if self.leds is not None:
            self.leds.mode = mode
        self.follower.attach(game, settings, gid, clock, mode, recovered)

    def idle(self):
        """Whether the loop has nothing to go on with, pass by pass, while nothing happens: no
        job, no host stage put off, no heap to collect, no sensor check, no line to write, no
        snapshot to write (the simulators step it until it is idle)."""
        link = self.link
        recorder = self.recorder
        return not (self.jobs or self.host_waits or uncollected[0] or self.diag is not None
                    or (link is not None and not link.idle()) or (recorder is not None and recorder.stale))

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
            error = self._new(args, now_ms)
            if error is None:  # a host's words (``show words``) give way to the new game's own
                self._notice_until = now_ms
                self.said = False  # (no result: the display draws the game's clock, or NEW GAME, again)
        elif name == "play":  # a side played elsewhere: a command every other move, its code kept (a load: 51 ms)
            error = __import__("firmware.host.commands", None, None, ("command",)).command(self, name, args, now_ms)
        else:  # (the commands' code loaded for the command: it costs a Pico's heap)
            error = call_briefly("firmware.host.commands", "command", self, name, args, now_ms)
        self.timekeeper.follow(now_ms, self.scanner.pending == 0)
        self._record(now_ms)
        return error

    def _new(self, args, now_ms):
        # The host's ``new`` (docs/protocol.md): refused while a game with moves is on or being
        # counted (the result first); no local keeps the last game alive while the next is built.
        if self.game.phase != OVER and self.game.move_number:
            return E_STATE, "a game is in progress: end it first"
        try:
            self.new_game(from_fields(fields_dict(args)), None, now_ms)
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
        game is in progress (moves played or the clock started, and no result).
        (sensing/diagnostics.py's code, loaded for the call: its Diagnostics stays while on.)"""
        return call_briefly("firmware.sensing.diagnostics", "switch", self, on, now_ms, later=True)
