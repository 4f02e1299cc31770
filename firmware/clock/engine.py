"""The game clock: two players' time under one time control.

Pure logic: it never reads the time. Every method takes ``now_ms``, a
``ticks_ms()`` value supplied by the caller; differences go through
``ticks_diff`` so a ticks wrap is harmless. Remaining time is always
computed from timestamps (elapsed = now - start of the turn, minus pauses),
never by subtracting per tick. All figures are integer milliseconds.

    clock = Clock("byoyomi 60m 3x40s")
    clock.start(now, BLACK)
    clock.press(BLACK, now)          # Black ends the move, White's time runs
    snap = clock.snapshot(now)       # preallocated: no allocation per call
    snap.white.main_ms, snap.flag

Systems (control.py, read by spec.py): none, absolute, byoyomi, canadian, fischer (optional cap),
delay (simple/US), bronstein, simple (fixed time per move), tv (Japanese TV
style) and ing (overtime blocks costing points); docs/clock.md. What the
display shows is face.py's, what the buzzer plays cues.py's, the tournament
clauses (capture and away pauses, lateness, Ing points, a replay's times)
clauses.py's. Every change is written to the ``events`` ring (firmware/events.py).

Semantics (docs/clock.md): a budget of T ms is owned on [0, T): the flag
falls when the elapsed time reaches T exactly. The byo-yomi ``periods`` count
includes the period in use. A move made inside a byo-yomi period resets it.
A press by the side whose clock is not running is ignored. A press while
paused ends the move (the pause is not counted) and starts the opponent's
time. After a flag nothing changes.
"""

from array import array

from ..events import (
    EV_ADJUST,
    EV_AWAY_PAUSE,
    EV_FLAG,
    EV_HAND_OVER,
    EV_PAUSE,
    EV_PRESS,
    EV_REFEREE_STOP,
    EV_RESUME,
    EV_START,
    EV_STONES_LEFT,
    EV_STOP,
    Events,
)
from ..micro import const, ticks_add, ticks_diff
from ..rules.const import call_briefly
from ..rules.position import BLACK, WHITE
from .control import BRONSTEIN, BYOYOMI, CANADIAN, DELAY, FISCHER, ING, NONE, SIMPLE, TV, TimeControl

_FOREVER = const(0x3FFFFFFF)
SAVED = const(20)  # ints in a saved state (Clock.save)


class SideView:
    """One side's clock as shown now (filled in place by Clock.snapshot)."""

    def __init__(self):
        self.main_ms = 0  # main time left (NONE: time used so far)
        self.periods = 0  # byo-yomi periods left, the one in use included
        self.period_ms = 0  # time left in the current byo-yomi / Canadian period
        self.stones = 0  # Canadian: stones still to play in this period
        self.delay_ms = 0  # delay: free time left in this turn
        self.overtime = False  # main time is spent: periods are in use


class Snapshot:
    """The whole clock as shown now; one preallocated instance per Clock."""

    def __init__(self):
        self.black = SideView()
        self.white = SideView()
        self.sides = (None, self.black, self.white)
        self.flag = None  # type: str | None  # None, "B" or "W"
        self.running = 0  # the side whose turn it is (0 before start)
        self.paused = False


class Clock:
    """Two players' clocks under one time control. ``spec``: string, preset name (read by
    spec.py, loaded for the moment) or TimeControl; ``events``: the ring to write to (the
    app's, shared with the referee; by default its own)."""

    def __init__(self, spec, events=None):
        self.tc = tc = spec if isinstance(spec, TimeControl) else call_briefly("firmware.clock.spec", "parse", spec)
        self.events = Events() if events is None else events
        self.overtime_system = tc.has_overtime()
        self.snap = Snapshot()
        self.main = array("i", (0, tc.main_ms, tc.main_ms))
        self.periods = array("i", (0, tc.periods, tc.periods))
        self.period_ms = array("i", (0, tc.period_ms, tc.period_ms))
        self.stones = array("i", (0, tc.stones, tc.stones))
        self.used = array("i", (0, 0, 0))  # total ms used by each side in finished moves
        self.away_used = bytearray(3)  # away pauses taken (clauses.py), kept with the clock's state
        self.turn = 0  # side whose clock runs (0: not started)
        self.acc = 0  # ms of this turn before the current running segment
        self.seg = 0  # tick at which the current running segment began
        self.paused = False
        self.pause_at = 0
        self.pause_kind = 0
        self.stopped = False
        self.flag = None
        self.moves = 0
        self.changes = 0  # events written: the journal saves the clock when this moves

    def log(self, kind, side, at, value):
        self.changes += 1
        self.events.add(kind, side, 0, value, at)

    # -- time arithmetic ---------------------------------------------------

    def elapsed(self, now_ms):
        if self.paused or self.stopped or self.flag is not None:
            return self.acc
        return self.acc + ticks_diff(now_ms, self.seg)

    def _budget(self, side):
        """Elapsed ms at which ``side``'s flag falls in the turn that starts now."""
        tc = self.tc
        s = tc.system
        m = self.main[side]
        if s == NONE:
            return _FOREVER
        if s == BYOYOMI or s == TV:
            return m + self.periods[side] * tc.period_ms
        if s == ING:
            n = self.periods[side]
            return m + self.period_ms[side] + (n - 1) * tc.period_ms if n > 0 else m
        if s == CANADIAN:
            return m + self.period_ms[side]
        if s == DELAY:
            return m + tc.delay_ms
        return m

    def view(self, side, e, v):
        """Fill SideView v with ``side``'s clock after e ms of its turn (e below its budget)."""
        s = self.tc.system
        m = self.main[side]
        v.periods = self.periods[side]
        v.period_ms = self.period_ms[side]
        v.stones = self.stones[side]
        v.delay_ms = 0
        v.overtime = False
        if s == NONE:
            v.main_ms = self.used[side] + e
        elif s == DELAY:
            d = self.tc.delay_ms - e if side == self.turn else 0  # only the side to move has a delay
            v.delay_ms = d if d > 0 else 0
            v.main_ms = m if d > 0 else m + d
        elif e < m or not self.overtime_system:
            v.main_ms = m - e
        else:
            self.overtime(e - m, v)

    def overtime(self, over, v):
        # view's, ``over`` ms past the main time (apart: a frame over 11 words is taken from the heap
        # at each call, see micro.py).
        s = self.tc.system
        p = self.tc.period_ms
        v.main_ms = 0
        v.overtime = True
        if s == BYOYOMI or s == TV:
            k = over // p
            v.periods -= k
            v.period_ms = p - (over - k * p)
        elif s == ING:
            if over >= v.period_ms:
                over -= v.period_ms
                k = over // p
                v.periods -= k + 1
                v.period_ms = p - (over - k * p)
            else:
                v.period_ms -= over
        else:
            v.period_ms -= over

    def check_flag(self, now_ms):
        """Set the flag if the running side's time is out at now_ms; True if flagged."""
        if self.flag is not None:
            return True
        side = self.turn
        if not side or self.stopped:
            return False
        budget = self._budget(side)
        if self.elapsed(now_ms) < budget:  # (no local more: 11 words, the frame on the stack, see micro.py)
            return False
        at = ticks_add(self.seg, budget - self.acc) if not self.paused else now_ms
        self.acc = budget
        self.flag = "B" if side == BLACK else "W"
        self.log(EV_FLAG, side, at, budget)
        return True

    # -- play --------------------------------------------------------------

    def start(self, now_ms, side=BLACK):
        """Start ``side``'s clock (Black, or White in a handicap game). False if already started."""
        if self.turn or self.flag is not None:
            return False
        self.turn = side
        self.acc = 0
        self.seg = now_ms
        self.log(EV_START, side, now_ms, 0)
        return True

    def press(self, side, now_ms, stones_left=0):
        """``side`` ends its move. Returns True if the clock switched; False if ignored
        (not that side's turn, not started, stopped, or flagged, which this press may discover).
        ``stones_left``: captured stones the referee sees still on the board (Korean Art.18-1-4,
        Thai 24): logged for the referee; the clock switches all the same."""
        if side != self.turn or self.stopped or self.check_flag(now_ms):
            return False
        e = self._end_turn(side, now_ms, True)
        self.log(EV_PRESS, side, now_ms, e)
        if stones_left:
            self.log(EV_STONES_LEFT, side, now_ms, stones_left)
        # a press ends a pause, except an away pause (Thai 31: the clock waits for the absent
        # player's return) and the referee's stop (Korean regulations 11-4: the referee restarts it)
        self.paused = self.paused and (self.pause_kind == EV_AWAY_PAUSE or self.pause_kind == EV_REFEREE_STOP)
        return True

    def hand_over(self, side, now_ms):
        """The game gives the turn to ``side`` without a move ending (a move taken back, a pass
        from a control): the time the other side ran is theirs, with nothing a move earns (no
        increment, no Canadian stone); a pause stays. False if ``side``'s time already runs,
        or the clock is not started, stopped or flagged."""
        if not self.turn or side == self.turn or self.stopped or self.check_flag(now_ms):
            return False
        e = self._end_turn(self.turn, now_ms, False)
        self.log(EV_HAND_OVER, side, now_ms, e)
        return True

    def _end_turn(self, side, now_ms, moved):
        # ``side``'s turn ends now (``moved``: by a move, which earns what the system gives):
        # its time is charged, the other side's starts. Returns the ms the turn took.
        e = self.elapsed(now_ms)
        tc = self.tc
        s = tc.system
        v = self.snap.sides[side]
        self.view(side, e, v)
        self.main[side] = v.main_ms
        self.periods[side] = v.periods
        if s == NONE:
            self.main[side] = 0
        elif s == BYOYOMI:
            self.period_ms[side] = tc.period_ms
        elif s == SIMPLE or s == TV:
            self.main[side] = tc.main_ms
            if v.overtime:  # TV: the thinking period in use is used up, whatever is left of it
                self.periods[side] = v.periods - 1
        elif s == ING:
            self.period_ms[side] = v.period_ms
        elif s == CANADIAN:
            if v.overtime:
                if moved and v.stones <= 1:
                    self.stones[side] = tc.stones
                    self.period_ms[side] = tc.period_ms
                else:
                    self.stones[side] = v.stones - 1 if moved else v.stones
                    self.period_ms[side] = v.period_ms
        elif s == FISCHER and moved:
            m = v.main_ms + tc.increment_ms
            if tc.cap_ms and m > tc.cap_ms:
                m = tc.cap_ms if v.main_ms < tc.cap_ms else v.main_ms
            self.main[side] = m
        elif s == BRONSTEIN and moved:
            self.main[side] = v.main_ms + (e if e < tc.delay_ms else tc.delay_ms)
        self.used[side] += e
        self.moves += 1
        self.turn = WHITE if side == BLACK else BLACK
        self.acc = 0
        self.seg = now_ms
        return e

    def pause(self, now_ms, kind=EV_PAUSE, side=0, value=0):
        """Stop the running clock (Korean Art.14-2, Thai 12.2 before counting...). False if not running."""
        if not self.turn or self.paused or self.stopped or self.check_flag(now_ms):
            return False
        self.acc = self.elapsed(now_ms)
        self.paused = True
        self.pause_at = now_ms
        self.pause_kind = kind
        self.log(kind, side or self.turn, now_ms, value)
        return True

    def resume(self, now_ms):
        """Restart the clock after a pause. False if it was not paused."""
        if not self.paused or self.stopped or self.flag is not None:
            return False
        self.paused = False
        self.seg = now_ms
        self.log(EV_RESUME, self.turn, now_ms, ticks_diff(now_ms, self.pause_at))
        return True

    def stop(self, now_ms):
        """The game is over (result known, or counting starts): the clock stops for good."""
        if self.stopped or self.check_flag(now_ms):
            return False
        self.acc = self.elapsed(now_ms)
        self.stopped = True
        self.log(EV_STOP, self.turn, now_ms, self.acc)
        return True

    def adjust(self, side, delta_ms, now_ms):
        """The referee adds (or takes, if negative) main time (Korean Art.18-1-4). Not after a flag."""
        if self.flag is not None or self.tc.system == NONE:
            return False
        m = self.main[side] + delta_ms
        self.main[side] = m if m > 0 else 0
        self.log(EV_ADJUST, side, now_ms, delta_ms)
        return True

    # -- what is shown -----------------------------------------------------

    def snapshot(self, now_ms):
        """Both clocks as of now_ms, in the preallocated ``self.snap`` (returned). Allocation-free."""
        self.check_flag(now_ms)
        snap = self.snap
        turn = self.turn
        e = self.elapsed(now_ms)
        self.view(BLACK, e if turn == BLACK else 0, snap.black)
        self.view(WHITE, e if turn == WHITE else 0, snap.white)
        if self.flag is not None:
            v = snap.black if self.flag == "B" else snap.white
            v.main_ms = v.period_ms = v.delay_ms = 0
            if self.tc.system == BYOYOMI or self.tc.system == TV or self.tc.system == ING:
                v.periods = 0
        snap.flag = self.flag
        snap.running = turn
        snap.paused = self.paused or self.stopped
        return snap

    def in_last_period(self, v):
        """Is the side of view v in its last period (the LAST mark and cue)?"""
        s = self.tc.system
        if s == SIMPLE:
            return True
        if s == TV:
            return v.periods == 0 or (v.overtime and v.periods == 1)
        return (s == BYOYOMI or s == ING) and v.overtime and v.periods == 1

    # -- power-loss safety ---------------------------------------------------

    def save(self, now_ms):
        """The state as a tuple of ints (for the journal); the spec is the caller's to keep."""
        out = array("i", bytes(4 * SAVED))
        self.save_into(out, now_ms)
        return tuple(out)

    def save_into(self, out, now_ms):
        """save() into a preallocated array("i", SAVED ints): no allocation (firmware/journal/recorder.py)."""
        self.check_flag(now_ms)
        out[0] = 1
        out[1] = self.turn
        out[2] = self.elapsed(now_ms)
        out[3] = 1 if self.paused else 0
        out[4] = 1 if self.stopped else 0
        out[5] = 0 if self.flag is None else (BLACK if self.flag == "B" else WHITE)
        out[6] = self.moves
        out[7] = self.main[1]
        out[8] = self.main[2]
        out[9] = self.periods[1]
        out[10] = self.periods[2]
        out[11] = self.period_ms[1]
        out[12] = self.period_ms[2]
        out[13] = self.stones[1]
        out[14] = self.stones[2]
        out[15] = self.used[1]
        out[16] = self.used[2]
        out[17] = self.away_used[1]
        out[18] = self.away_used[2]
        out[19] = self.pause_kind

    def restore(self, state, now_ms):
        """Continue from save()'s tuple at now_ms (the time the board was off is not counted)."""
        if len(state) != SAVED or state[0] != 1:
            raise ValueError("not a saved clock state")
        (_v, self.turn, self.acc, paused, stopped, flag, self.moves, self.main[1], self.main[2], self.periods[1],
         self.periods[2], self.period_ms[1], self.period_ms[2], self.stones[1], self.stones[2], self.used[1],
         self.used[2], self.away_used[1], self.away_used[2], self.pause_kind) = state
        self.paused = bool(paused)
        self.stopped = bool(stopped)
        self.flag = None if not flag else ("B" if flag == BLACK else "W")
        self.seg = now_ms
        self.pause_at = now_ms
