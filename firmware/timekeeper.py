"""The game clock's policy: when it starts, switches, pauses and stops, and the end of a game on time.

The one place that ties the clock to the game:

- it starts with the first press of either clock button (like a table clock:
  the time of the side to move runs), with the first stone (its player's
  time runs; that player then presses as usual) or, in a handicap game, when
  the last handicap stone is down (White's time runs: White plays first);
- a press ends its player's turn only if the referee takes it (a press with
  no stone placed is a pass, Korean Art.14-4); a press while a stone just
  put down is still settling waits for the referee to judge the stone;
- PAUSE stops and restarts it during play (in tournament play under the
  Korean and Thai rules, only to remove captured stones: Korean Art.14-2,
  Thai 24); the host's ``clock`` command gives the referee's pause, a Thai
  absence (31) and lateness (14);
- ``follow(now_ms)``, run after anything that may have changed the game:
  however play stopped — two passes, a result agreed, the host's ``end``, a
  resignation, a flag, a foul, a cycle — the clock pauses for counting
  (Korean regulations 10-2, Thai 12.2: it does not run while the players
  count) or stops for good at a result; resumption after counting restarts
  it; a game recovered after a power cut keeps it paused until the stones
  on the board match the game again;
- ``tick(now_ms, settled)``: the buzzer's cue due now, and a flag ends the game.
"""

from array import array

from .clock.cues import CUE_NONE, Cues
from .events import EV_CALL_PAUSE, EV_REFEREE_STOP
from .micro import ticks_diff
from .modes import TOURNAMENT
from .referee.states import REJECT, SYNC
from .rules.game import COUNTING, OVER, PLAYING
from .rules.position import BLACK, WHITE
from .rules.rulesets import CAPTURE_THAI


class Timekeeper:
    """The clock policy of one game (``clock`` None: the game is not timed)."""

    def __init__(self, game, referee, clock):
        self.game = game
        self.referee = referee
        self.clock = clock
        self.cues = None if clock is None else Cues(clock)
        self.started = False
        self.held = False  # a recovered game: paused until the stones match
        self.counting = False  # paused for counting
        self.clauses = None  # the tournament clauses' settings (clock/clauses.py), made when first used
        self.waiting = bytearray(3)  # a clock press waiting for a settling reading, per colour
        self.waiting_at = array("i", bytes(12))

    def press(self, colour, at_ms, settled=True, waited=False):
        """``colour``'s clock button, pressed at ``at_ms``. True if the game changed.
        Not ``settled`` (a reading on the board is still settling: a stone put down
        within the sensors' settle time), the press waits: ``follow`` hands it over,
        with its own time, once the referee has judged the stone (``waited``)."""
        if not settled:
            self.waiting[colour] = 1
            self.waiting_at[colour] = at_ms
            return False
        clock = self.clock
        if clock is not None and not self.started:
            if self.referee.awaiting_press != colour:
                clock.start(at_ms, self.game.to_move)  # a table clock: the side to move's time runs
                self.started = True
                return False
            clock.start(at_ms, colour)  # the first stone's own press: it ends that move
            self.started = True
        if not self.referee.press(colour, at_ms, waited):
            return False
        if clock is not None:
            clock.press(colour, at_ms)
        return True

    def pause_button(self, now_ms):
        """PAUSE: stop the running clock or restart it (during play only: counting and a
        recovery's wait own their pauses; the referee's stop is the referee's to end, Korean
        regulations 11-4). In tournament play under the Korean rules a pause is only the
        capture-removal one (Art.14-2): refused, the referee says why; under the Thai rules it
        is that one (24) when it applies, else a stop to call the referee (17, 35). True if the
        clock paused or restarted."""
        clock = self._in_play()
        if clock is None:
            return False
        referee = self.referee
        if clock.paused:
            if clock.pause_kind == EV_REFEREE_STOP:
                referee.note("referee_stop")
                return False
            return clock.resume(now_ms)
        capture = self.game.rules.capture_pause
        if referee.mode != TOURNAMENT or not capture:
            return clock.pause(now_ms)
        if self._clauses().capture_pause(clock, referee.seen.npending, now_ms, capture != CAPTURE_THAI):
            return True
        if capture == CAPTURE_THAI:
            return clock.pause(now_ms, EV_CALL_PAUSE)
        referee.note("pause_refused")
        return False

    def referee_pause(self, on, now_ms):
        """The referee stops the clock (a dispute, Korean regulations 11-4: only the referee
        restarts it) or restarts it, whoever stopped it."""
        clock = self._in_play()
        if clock is None:
            return False
        return clock.pause(now_ms, EV_REFEREE_STOP) if on else clock.resume(now_ms)

    def away(self, colour, now_ms):
        """Thai 31: ``colour`` leaves the table with the referee's leave, once, in byo-yomi,
        during the opponent's turn; its clock waits until resumed. False if refused."""
        clock = self._in_play()
        if clock is None:
            return False
        return self._clauses().away_pause(clock, colour, now_ms)

    def late(self, colour, late_ms, now_ms):
        """Thai 14: ``colour`` came ``late_ms`` late: deducted from its main time; beyond the
        limit (15 minutes) the game is lost. True if the game goes on."""
        clock = self.clock
        clauses = self._clauses()
        if clock is not None:
            return clauses.late(clock, colour, late_ms, now_ms)
        return late_ms <= clauses.late_limit_ms

    def _in_play(self):
        # The clock, when it is running a game in play (counting and a recovery's wait own
        # their pauses); else None.
        clock = self.clock
        if clock is None or not self.started or self.held or self.game.phase != PLAYING:
            return None
        return clock

    def _clauses(self):
        if self.clauses is None:
            from .clock.clauses import Clauses  # loaded when a clause is first used: code costs heap

            self.clauses = Clauses(self.game.rules.capture_pause)
        return self.clauses

    def follow(self, now_ms, settled):
        """Bring the clock in line with the game (see the module doc). ``settled``: no
        reading is waiting to settle on the board."""
        if settled and (self.waiting[1] or self.waiting[2]):
            self._pressed_while_settling(now_ms)
        clock = self.clock
        if clock is None:
            return
        game = self.game
        if not self.started:
            if not (game.move_number or game.handicap) or game.phase != PLAYING:
                return  # nothing played or placed yet, or over before anyone pressed
            clock.start(now_ms, self.referee.awaiting_press or game.to_move)
            self.started = True
        phase = game.phase
        if phase == OVER:
            if not clock.stopped:
                clock.stop(now_ms)
            return
        if phase == COUNTING:
            if not self.counting:
                self.counting = True
                clock.pause(now_ms)
            return
        if self.counting:
            self.counting = False
            clock.resume(now_ms)
        elif self.held and settled and self.referee.state != SYNC and self.referee.state != REJECT:
            self.held = False
            clock.resume(now_ms)
        # The time of the player the board waits for runs: the mover until its press ends the
        # move, else the side to move (after a takeback, a pass from a control, a lost turn).
        side = self.referee.awaiting_press or game.to_move
        if clock.turn != side:
            clock.hand_over(side, now_ms)

    def _pressed_while_settling(self, now_ms):
        # The presses that waited for the board, in the order they were made (a press that
        # waited for the stone judged in this pass came with it: ``waited``).
        waiting = self.waiting
        at = self.waiting_at
        later_first = waiting[2] and (not waiting[1] or ticks_diff(at[1], at[2]) > 0)
        for colour in (WHITE, BLACK) if later_first else (BLACK, WHITE):
            if waiting[colour]:
                waiting[colour] = 0
                self.press(colour, at[colour], True, self.referee.moved_at == now_ms)

    def tick(self, now_ms, settled):
        """The buzzer's cue due now (CUE_NONE: none); a fallen flag ends the game on time,
        and the clock follows (``settled``: as for ``follow``)."""
        cues = self.cues
        if cues is None or not self.started:
            return CUE_NONE
        cue = cues.cue(now_ms)
        flag = self.clock.snap.flag
        if flag is not None and self.game.phase != OVER:
            self.game.flag(BLACK if flag == "B" else WHITE)
            self.referee.refresh(now_ms)
            self.follow(now_ms, settled)
        return cue

    def recovered(self, saved, now_ms):
        """A game recovered after a power cut: its clock as journalled (``saved``:
        Clock.save's ints, or None), paused without charging the time the board was
        off, until the stones match the game again."""
        clock = self.clock
        if clock is None or saved is None:
            return
        clock.restore(saved, now_ms)
        if clock.turn and not (clock.paused or clock.stopped or clock.flag is not None):
            clock.pause(now_ms)
            self.held = True
        self.started = clock.turn != 0
        game = self.game
        if clock.turn and clock.turn != game.to_move and game.phase == PLAYING:
            self.referee.await_press(clock.turn)  # the mover had not pressed yet
