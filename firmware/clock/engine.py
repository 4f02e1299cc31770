"""The game clock: time systems, the spec grammar, presets and tournament clauses.

Pure logic: it never reads the time. Every method takes ``now_ms``, a
``ticks_ms()`` value supplied by the caller; differences go through
``time.ticks_diff`` so a ticks wrap is harmless. Remaining time is always
computed from timestamps (elapsed = now - start of the turn, minus pauses),
never by subtracting per tick. All figures are integer milliseconds.

    clock = Clock("byoyomi 60m 3x40s")
    clock.start(now, BLACK)
    clock.press(BLACK, now)          # Black ends the move, White's time runs
    snap = clock.snapshot(now)       # preallocated: no allocation per call
    snap.white.main_ms, snap.flag

Systems: none, absolute, byoyomi, canadian, fischer (optional cap), delay
(simple/US), bronstein, simple (fixed time per move), tv (Japanese TV style)
and ing (overtime blocks costing points); presets in PRESETS; docs/clock.md.

Semantics (docs/clock.md): a budget of T ms is owned on [0, T): the flag
falls when the elapsed time reaches T exactly. The byo-yomi ``periods`` count
includes the period in use. A move made inside a byo-yomi period resets it.
A press by the side whose clock is not running is ignored. A press while
paused ends the move (the pause is not counted) and starts the opponent's
time. After a flag nothing changes.
"""

from array import array

from ..micro import const, ticks_add, ticks_diff
from ..rules.position import BLACK, WHITE

# Time systems.
NONE = const(0)
ABSOLUTE = const(1)
BYOYOMI = const(2)
CANADIAN = const(3)
FISCHER = const(4)
DELAY = const(5)  # simple (US) delay: the first D ms of each turn are free
BRONSTEIN = const(6)  # the time used, up to D, is given back after the move
SIMPLE = const(7)  # a fixed time for every move
TV = const(8)  # Japanese TV style: T per move, then N thinking periods, any fraction using one up
ING = const(9)  # Ing overtime: main time, then N blocks carried over, each costing ing_points

SYSTEM_NAMES = ("none", "absolute", "byoyomi", "canadian", "fischer", "delay", "bronstein", "simple", "tv", "ing")

# Capture-removal pause policy.
CAPTURE_NEVER = const(0)
CAPTURE_ALWAYS = const(1)  # Korean Art.14-2: a player may pause while removing captured stones
CAPTURE_THAI = const(2)  # Thai 24: in byo-yomi with >= 5 stones; without byo-yomi, in the last 10 minutes

# Event kinds of the referee's log.
EV_START = const(1)
EV_PRESS = const(2)  # value: ms the move took (pauses excluded)
EV_PAUSE = const(3)
EV_RESUME = const(4)  # value: ms the clock stood still
EV_CAPTURE_PAUSE = const(5)  # value: stones to remove
EV_CAPTURE_REFUSED = const(6)
EV_AWAY_PAUSE = const(7)  # side: the player who leaves
EV_AWAY_REFUSED = const(8)
EV_LATE = const(9)  # value: ms deducted
EV_LATE_FORFEIT = const(10)  # value: ms late
EV_FLAG = const(11)  # at: the exact tick the time ran out; value: ms the turn lasted
EV_ADJUST = const(12)  # value: ms added (negative: taken)
EV_STOP = const(13)
EV_STONES_LEFT = const(14)  # a press with captured stones still on the board; value: how many

EVENT_NAMES = ("", "start", "press", "pause", "resume", "capture_pause", "capture_refused", "away_pause",
               "away_refused", "late", "late_forfeit", "flag", "adjust", "stop", "stones_left")

# Buzzer cues (Clock.cue).
CUE_NONE = const(0)
CUE_TEN = const(1)  # another 10 s of the period used
CUE_COUNT = const(2)  # one of the last seconds
CUE_LAST = const(3)  # one of the last seconds of the last period (or of sudden death)
CUE_PERIOD = const(4)  # a byo-yomi period was used up
CUE_FLAG = const(5)

BLANK = const(10)  # a blank digit in Clock.digits output

_MAX_MS = const(360000000)  # 100 h: any duration beyond is a spec error
_FOREVER = const(0x3FFFFFFF)
SAVED = const(20)  # ints in a saved state (Clock.save)

PRESETS = {
    "korean-pro": "byoyomi 1h 3x60s",
    "korean-amateur": "byoyomi 30m 3x30s",
    "japanese-pro": "byoyomi 3h 5x60s",
    "chinese": "byoyomi 2h 5x60s",
    "aga": "canadian 60m 20/5m",
    "egf": "fischer 90m +30s",
    "thai-gat": "absolute 45m",
    "thai-gat-byoyomi": "byoyomi 30m 1x20s",
    "janggi-amateur": "byoyomi 5m 3x30s",
    "nhk": "tv 30s 10x1m",
    "ing": "ing 3h30m 3x35m",
    "blitz": "fischer 3m +2s max 5m",
}


class SpecError(ValueError):
    """A time-control spec that cannot be read; the message names the bad part."""


class TimeControl:
    """A parsed spec: ``system`` and its figures in ms (0 when unused)."""

    def __init__(self, system, main_ms=0, periods=0, period_ms=0, stones=0, increment_ms=0, cap_ms=0,
                 delay_ms=0):
        self.system = system
        self.main_ms = main_ms
        self.periods = periods
        self.period_ms = period_ms
        self.stones = stones
        self.increment_ms = increment_ms
        self.cap_ms = cap_ms
        self.delay_ms = delay_ms

    def spec(self):
        """The canonical spec string."""
        s = self.system
        if s == NONE:
            return "none"
        name = SYSTEM_NAMES[s] + " " + format_duration(self.main_ms)
        if s == BYOYOMI or s == TV or s == ING:
            return name + " %dx%s" % (self.periods, format_duration(self.period_ms))
        if s == CANADIAN:
            return name + " %d/%s" % (self.stones, format_duration(self.period_ms))
        if s == FISCHER:
            name += " +" + format_duration(self.increment_ms)
            return name + (" max " + format_duration(self.cap_ms) if self.cap_ms else "")
        if s == DELAY or s == BRONSTEIN:
            return name + " " + format_duration(self.delay_ms)
        return name

    def has_overtime(self):
        s = self.system
        return s == BYOYOMI or s == CANADIAN or s == TV or s == ING


def format_duration(ms):
    """1h30m, 40s, 0 ... (the inverse of parse_duration for whole seconds)."""
    s = ms // 1000
    if s == 0:
        return "0"
    out = ""
    if s >= 3600:
        out += "%dh" % (s // 3600)
    if s % 3600 >= 60:
        out += "%dm" % (s % 3600 // 60)
    if s % 60:
        out += "%ds" % (s % 60)
    return out


def parse_duration(text, spec=""):
    """``1h30m``, ``90s``, ``5m``, ``0`` -> ms. Units h, m, s, largest first."""
    if text == "0":
        return 0
    total = 0
    number = -1
    last = 4
    for ch in text:
        if "0" <= ch <= "9":
            number = (0 if number < 0 else number * 10) + ord(ch) - 48
            if number > _MAX_MS:
                break
            continue
        rank = "smh".find(ch) + 1
        if number < 0 or rank == 0 or rank >= last:
            number = -2
            break
        total += number * (1000, 60000, 3600000)[rank - 1]
        number = -1
        last = rank
    if number != -1 or not text or total > _MAX_MS:
        raise SpecError("bad duration '%s' in '%s' (expected e.g. 30m, 1h30m, 40s or 0)" % (text, spec))
    return total


def _count(text, what, spec):
    ok = 0 < len(text) < 4
    for ch in text:
        ok = ok and "0" <= ch <= "9"
    if not ok or int(text) < 1 or int(text) > 255:
        raise SpecError("bad %s '%s' in '%s' (expected 1-255)" % (what, text, spec))
    return int(text)


def parse(spec):
    """A spec string or preset name -> TimeControl; SpecError names the bad part.

    Grammar: ``none`` | ``absolute MAIN`` | ``byoyomi MAIN NxPERIOD`` |
    ``canadian MAIN STONES/PERIOD`` | ``fischer MAIN +INC [max CAP]`` |
    ``delay MAIN D`` | ``bronstein MAIN D``; durations like 1h30m, 40s, 0.
    """
    if not isinstance(spec, str):
        raise SpecError("time-control spec must be a string")
    text = spec.strip().lower()
    if text in PRESETS:
        text = PRESETS[text]
    words = text.split()
    if not words:
        raise SpecError("empty time-control spec")
    name = words[0]
    if name not in SYSTEM_NAMES:
        raise SpecError("unknown time system '%s' in '%s' (expected one of %s, or a preset: %s)"
                        % (name, spec, ", ".join(SYSTEM_NAMES), ", ".join(sorted(PRESETS))))
    system = SYSTEM_NAMES.index(name)
    need = (1, 2, 3, 3, 3, 3, 3, 2, 3, 3)[system]
    if system == FISCHER and len(words) == 5:
        need = 5
    if len(words) != need:
        if len(words) > need:
            raise SpecError("unexpected '%s' in '%s'" % (" ".join(words[need:]), spec))
        raise SpecError("'%s' is missing a part (e.g. %s)" % (spec, _EXAMPLES[system]))
    if system == NONE:
        return TimeControl(NONE)
    main = parse_duration(words[1], spec)
    if system == ABSOLUTE or system == SIMPLE:
        if main == 0:
            raise SpecError("main time '0' in '%s': %s time needs some time" % (spec, name))
        return TimeControl(system, main)
    part = words[2]
    if system == BYOYOMI or system == TV or system == ING:
        if main == 0 and system != BYOYOMI:
            raise SpecError("time '0' in '%s': %s needs some time" % (spec, name))
        n, period, sep = _split(part, "x")
        if not sep:
            raise SpecError("bad byo-yomi '%s' in '%s' (expected e.g. 3x40s)" % (part, spec))
        tc = TimeControl(system, main, periods=_count(n, "period count", spec),
                         period_ms=_positive(period, "period", spec))
        if main + tc.periods * tc.period_ms > _MAX_MS:
            raise SpecError("'%s' in '%s' makes more than 100h in all" % (part, spec))
        return tc
    if system == CANADIAN:
        n, period, sep = _split(part, "/")
        if not sep:
            raise SpecError("bad Canadian period '%s' in '%s' (expected e.g. 25/5m)" % (part, spec))
        return TimeControl(CANADIAN, main, periods=1, stones=_count(n, "stone count", spec),
                           period_ms=_positive(period, "period", spec))
    if system == FISCHER:
        if not part.startswith("+"):
            raise SpecError("bad increment '%s' in '%s' (expected e.g. +10s)" % (part, spec))
        inc = _positive(part[1:], "increment", spec)
        cap = 0
        if need == 5:
            if words[3] != "max":
                raise SpecError("unexpected '%s' in '%s' (expected 'max')" % (words[3], spec))
            cap = _positive(words[4], "cap", spec)
            if cap < main:
                raise SpecError("cap '%s' in '%s' is below the main time" % (words[4], spec))
        if main == 0:
            raise SpecError("main time '0' in '%s': Fischer needs some time" % spec)
        return TimeControl(FISCHER, main, increment_ms=inc, cap_ms=cap)
    if main == 0:
        raise SpecError("main time '0' in '%s': %s needs some time" % (spec, name))
    return TimeControl(system, main, delay_ms=_positive(part, "delay", spec))


def _split(text, sep):
    i = text.find(sep)
    if i < 0:
        return text, "", False
    return text[:i], text[i + 1:], True


def _positive(text, what, spec):
    ms = parse_duration(text, spec)
    if ms < 1000:
        raise SpecError("%s '%s' in '%s' must be at least 1s" % (what, text, spec))
    return ms


_EXAMPLES = ("none", "absolute 30m", "byoyomi 60m 3x40s", "canadian 10m 25/5m", "fischer 5m +10s max 10m",
             "delay 30m 5s", "bronstein 30m 5s", "simple 30s", "tv 30s 10x1m", "ing 3h30m 3x35m")


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


class EventLog:
    """The referee's log: a ring of the last ``capacity`` events, preallocated."""

    def __init__(self, capacity=128):
        self.capacity = capacity
        self.kind = bytearray(capacity)
        self.side = bytearray(capacity)
        self.at = array("i", bytes(4 * capacity))
        self.value = array("i", bytes(4 * capacity))
        self.count = 0  # events ever logged

    def add(self, kind, side, at, value):
        i = self.count % self.capacity
        self.kind[i] = kind
        self.side[i] = side
        self.at[i] = at
        self.value[i] = value
        self.count += 1

    def entries(self):
        """(kind name, side, at, value) tuples, oldest kept first (allocates: not for the tick path)."""
        out = []
        first = self.count - self.capacity if self.count > self.capacity else 0
        for n in range(first, self.count):
            i = n % self.capacity
            out.append((EVENT_NAMES[self.kind[i]], self.side[i], self.at[i], self.value[i]))
        return out


class Clock:
    """Two players' clocks under one time control. ``spec``: string, preset name or TimeControl.

    Options: ``capture_policy`` (CAPTURE_ALWAYS, CAPTURE_THAI, CAPTURE_NEVER),
    ``capture_min_stones`` and ``capture_last_ms`` (Thai 24: 5 stones, 10 min),
    ``away_pauses`` (Thai 31: 1 per player, in byo-yomi), ``late_limit_ms``
    (Thai 14: 15 min), ``cue_every_ms`` / ``cue_count_ms`` (byo-yomi counting).
    """

    def __init__(self, spec, capture_policy=CAPTURE_ALWAYS, capture_min_stones=5, capture_last_ms=600000,
                 away_pauses=1, late_limit_ms=900000, cue_every_ms=10000, cue_count_ms=10000, log_capacity=128,
                 ing_points=2):
        self.tc = tc = spec if isinstance(spec, TimeControl) else parse(spec)
        self.capture_policy = capture_policy
        self.capture_min_stones = capture_min_stones
        self.capture_last_ms = capture_last_ms
        self.away_pauses = away_pauses
        self.late_limit_ms = late_limit_ms
        self.cue_every_ms = cue_every_ms
        self.cue_count_ms = cue_count_ms
        self.ing_points = ing_points
        self._ot = tc.has_overtime()
        self.log = EventLog(log_capacity)
        self.snap = Snapshot()
        self.main = array("i", (0, tc.main_ms, tc.main_ms))
        self.periods = array("i", (0, tc.periods, tc.periods))
        self.period_ms = array("i", (0, tc.period_ms, tc.period_ms))
        self.stones = array("i", (0, tc.stones, tc.stones))
        self.used = array("i", (0, 0, 0))  # total ms used by each side in finished moves
        self.away_used = bytearray(3)
        self.turn = 0  # side whose clock runs (0: not started)
        self.acc = 0  # ms of this turn before the current running segment
        self.seg = 0  # tick at which the current running segment began
        self.paused = False
        self.pause_at = 0
        self.pause_kind = 0
        self.stopped = False
        self.flag = None
        self.moves = 0
        self._cue_moves = -1
        self._cue_periods = -1
        self._cue_secs = -1

    # -- time arithmetic ---------------------------------------------------

    def _elapsed(self, now_ms):
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

    def _view(self, side, e, v):
        """Fill SideView v with ``side``'s clock after e ms of its turn (e below its budget)."""
        tc = self.tc
        s = tc.system
        m = self.main[side]
        v.periods = self.periods[side]
        v.period_ms = self.period_ms[side]
        v.stones = self.stones[side]
        v.delay_ms = 0
        v.overtime = False
        if s == NONE:
            v.main_ms = self.used[side] + e
        elif s == DELAY:
            d = tc.delay_ms - e if side == self.turn else 0  # only the side to move has a delay
            if d > 0:
                v.delay_ms = d
                v.main_ms = m
            else:
                v.main_ms = m + d
        elif e < m or not self._ot:
            v.main_ms = m - e
        else:
            over = e - m
            v.main_ms = 0
            v.overtime = True
            p = tc.period_ms
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

    def _check_flag(self, now_ms):
        """Set the flag if the running side's time is out at now_ms; True if flagged."""
        if self.flag is not None:
            return True
        side = self.turn
        if not side or self.stopped:
            return False
        e = self._elapsed(now_ms)
        budget = self._budget(side)
        if e < budget:
            return False
        at = ticks_add(self.seg, budget - self.acc) if not self.paused else now_ms
        self.acc = budget
        self.flag = "B" if side == BLACK else "W"
        self.log.add(EV_FLAG, side, at, budget)
        return True

    # -- play --------------------------------------------------------------

    def start(self, now_ms, side=BLACK):
        """Start ``side``'s clock (Black, or White in a handicap game). False if already started."""
        if self.turn or self.flag is not None:
            return False
        self.turn = side
        self.acc = 0
        self.seg = now_ms
        self.log.add(EV_START, side, now_ms, 0)
        return True

    def press(self, side, now_ms, stones_left=0):
        """``side`` ends its move. Returns True if the clock switched; False if ignored
        (not that side's turn, not started, stopped, or flagged, which this press may discover).
        ``stones_left``: captured stones the referee sees still on the board (Korean Art.18-1-4,
        Thai 24): logged for the referee; the clock switches all the same."""
        if side != self.turn or self.stopped or self._check_flag(now_ms):
            return False
        e = self._elapsed(now_ms)
        tc = self.tc
        s = tc.system
        v = self.snap.black if side == BLACK else self.snap.white
        self._view(side, e, v)
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
                if v.stones <= 1:
                    self.stones[side] = tc.stones
                    self.period_ms[side] = tc.period_ms
                else:
                    self.stones[side] = v.stones - 1
                    self.period_ms[side] = v.period_ms
        elif s == FISCHER:
            m = v.main_ms + tc.increment_ms
            if tc.cap_ms and m > tc.cap_ms:
                m = tc.cap_ms if v.main_ms < tc.cap_ms else v.main_ms
            self.main[side] = m
        elif s == BRONSTEIN:
            self.main[side] = v.main_ms + (e if e < tc.delay_ms else tc.delay_ms)
        self.used[side] += e
        self.log.add(EV_PRESS, side, now_ms, e)
        if stones_left:
            self.log.add(EV_STONES_LEFT, side, now_ms, stones_left)
        self.moves += 1
        self.turn = WHITE if side == BLACK else BLACK
        self.acc = 0
        self.seg = now_ms
        # a press ends a pause, except an away pause: the absent player's clock waits for resume()
        self.paused = self.paused and self.pause_kind == EV_AWAY_PAUSE
        return True

    def pause(self, now_ms, kind=EV_PAUSE, side=0, value=0):
        """Stop the running clock (Korean Art.14-2, Thai 12.2 before counting...). False if not running."""
        if not self.turn or self.paused or self.stopped or self._check_flag(now_ms):
            return False
        self.acc = self._elapsed(now_ms)
        self.paused = True
        self.pause_at = now_ms
        self.pause_kind = kind
        self.log.add(kind, side or self.turn, now_ms, value)
        return True

    def resume(self, now_ms):
        """Restart the clock after a pause. False if it was not paused."""
        if not self.paused or self.stopped or self.flag is not None:
            return False
        self.paused = False
        self.seg = now_ms
        self.log.add(EV_RESUME, self.turn, now_ms, ticks_diff(now_ms, self.pause_at))
        return True

    def stop(self, now_ms):
        """The game is over (result known, or counting starts): the clock stops for good."""
        if self.stopped or self._check_flag(now_ms):
            return False
        self.acc = self._elapsed(now_ms)
        self.stopped = True
        self.log.add(EV_STOP, self.turn, now_ms, self.acc)
        return True

    # -- tournament clauses ------------------------------------------------

    def capture_pause(self, stones, now_ms):
        """The mover pauses to remove ``stones`` captured stones. Policy CAPTURE_ALWAYS (Korean
        Art.14-2), CAPTURE_THAI (Thai 24: in byo-yomi with at least ``capture_min_stones`` stones;
        without byo-yomi, in the last ``capture_last_ms`` of main time) or CAPTURE_NEVER.
        Returns True if the clock paused; a refusal is logged. Finish with press() or resume()."""
        side = self.turn
        if not side or self.paused or self.stopped or self._check_flag(now_ms):
            return False
        ok = self.capture_policy == CAPTURE_ALWAYS
        if self.capture_policy == CAPTURE_THAI:
            v = self.snap.black if side == BLACK else self.snap.white
            self._view(side, self._elapsed(now_ms), v)
            if self.tc.has_overtime() or self.tc.system == SIMPLE:
                ok = self._byoyomi(v) and stones >= self.capture_min_stones
            else:
                ok = self.tc.system != NONE and v.main_ms + v.delay_ms <= self.capture_last_ms
        if not ok:
            self.log.add(EV_CAPTURE_REFUSED, side, now_ms, stones)
            return False
        return self.pause(now_ms, EV_CAPTURE_PAUSE, side, stones)

    def away_pause(self, side, now_ms):
        """Thai 31: ``side``, in byo-yomi, leaves the table during the opponent's turn with the
        referee's leave; the clock stops while away (``away_pauses`` times per game). Resume with
        resume(). Returns True if paused; a refusal is logged."""
        running = self.turn
        if not running or self.paused or self.stopped or self._check_flag(now_ms):
            return False
        v = self.snap.black if side == BLACK else self.snap.white
        self._view(side, 0, v)
        ok = running != side and self._byoyomi(v) and self.away_used[side] < self.away_pauses
        if not ok:
            self.log.add(EV_AWAY_REFUSED, side, now_ms, 0)
            return False
        self.away_used[side] += 1
        return self.pause(now_ms, EV_AWAY_PAUSE, side, 0)

    def _byoyomi(self, v):
        """Is the side of view v in byo-yomi (its main time spent, or none to spend)?"""
        s = self.tc.system
        return v.overtime or s == SIMPLE or s == TV or (s == BYOYOMI and self.tc.main_ms == 0)

    def _last(self, v):
        """Is the side of view v in its last period (the LAST mark and cue)?"""
        s = self.tc.system
        if s == SIMPLE:
            return True
        if s == TV:
            return v.periods == 0 or (v.overtime and v.periods == 1)
        return (s == BYOYOMI or s == ING) and v.overtime and v.periods == 1

    def penalty_points(self, side, now_ms):
        """Ing: points ``side`` owes for the overtime blocks it has entered (any fraction counts)."""
        if self.tc.system != ING:
            return 0
        if self.flag is not None and (self.flag == "B") == (side == BLACK):
            return self.tc.periods * self.ing_points
        v = self.snap.black if side == BLACK else self.snap.white
        self._view(side, self._elapsed(now_ms) if side == self.turn else 0, v)
        if not v.overtime:
            return 0
        return (self.tc.periods - v.periods + 1) * self.ing_points

    def late(self, side, late_ms, now_ms):
        """Thai 14: ``side`` arrived ``late_ms`` late. Up to ``late_limit_ms`` the lateness comes off
        its main time (True); beyond, the game is lost (False: the referee records it)."""
        if late_ms > self.late_limit_ms:
            self.log.add(EV_LATE_FORFEIT, side, now_ms, late_ms)
            return False
        if self.tc.system != NONE:
            cut = late_ms if late_ms < self.main[side] else self.main[side]
            self.main[side] -= cut
            late_ms = cut
        self.log.add(EV_LATE, side, now_ms, late_ms)
        return True

    def adjust(self, side, delta_ms, now_ms):
        """The referee adds (or takes, if negative) main time (Korean Art.18-1-4). Not after a flag."""
        if self.flag is not None or self.tc.system == NONE:
            return False
        m = self.main[side] + delta_ms
        self.main[side] = m if m > 0 else 0
        self.log.add(EV_ADJUST, side, now_ms, delta_ms)
        return True

    # -- what is shown -----------------------------------------------------

    def snapshot(self, now_ms):
        """Both clocks as of now_ms, in the preallocated ``self.snap`` (returned). Allocation-free."""
        self._check_flag(now_ms)
        snap = self.snap
        turn = self.turn
        e = self._elapsed(now_ms)
        self._view(BLACK, e if turn == BLACK else 0, snap.black)
        self._view(WHITE, e if turn == WHITE else 0, snap.white)
        if self.flag is not None:
            v = snap.black if self.flag == "B" else snap.white
            v.main_ms = v.period_ms = v.delay_ms = 0
            if self.tc.system == BYOYOMI or self.tc.system == TV or self.tc.system == ING:
                v.periods = 0
        snap.flag = self.flag
        snap.running = turn
        snap.paused = self.paused or self.stopped
        return snap

    def cue(self, now_ms):
        """The buzzer cue due now (CUE_*), each at most once; call it every tick. Allocation-free.

        In a byo-yomi or Canadian period: CUE_TEN each ``cue_every_ms`` of the period, then
        CUE_COUNT each of the last ``cue_count_ms`` (CUE_LAST in the last byo-yomi period),
        CUE_PERIOD when a period is used up. In sudden-death systems: CUE_LAST in the last
        ``cue_count_ms``. CUE_FLAG once when the flag falls."""
        was = self.flag
        snap = self.snapshot(now_ms)
        if snap.flag is not None:
            if was is None:
                return CUE_FLAG
            return CUE_NONE
        side = self.turn
        if not side or snap.paused or self.tc.system == NONE:
            return CUE_NONE
        v = snap.black if side == BLACK else snap.white
        s = self.tc.system
        last = self._last(v)
        if s == SIMPLE or (s == TV and not v.overtime):
            left = v.main_ms
            full = self.tc.main_ms
        elif v.overtime:
            left = v.period_ms
            full = 0 if s == ING else self.tc.period_ms  # Ing blocks are long: only their last seconds
        elif self._ot:
            self._cue_moves = -1
            return CUE_NONE
        else:
            left = v.main_ms + v.delay_ms
            full = 0
            last = True
        secs = (left + 999) // 1000
        if self.moves == self._cue_moves and v.periods == self._cue_periods and secs == self._cue_secs:
            return CUE_NONE
        first = self.moves != self._cue_moves
        period_used = not first and v.periods != self._cue_periods
        self._cue_moves = self.moves
        self._cue_periods = v.periods
        self._cue_secs = secs
        if period_used:
            return CUE_PERIOD
        if first:
            return CUE_NONE
        if secs * 1000 <= self.cue_count_ms:
            return CUE_LAST if last else CUE_COUNT
        if full > 0 and (full - secs * 1000) % self.cue_every_ms == 0 and secs * 1000 != full:
            return CUE_TEN
        return CUE_NONE

    def digits(self, side, out):
        """Fill bytearray ``out`` (8 bytes) with what a display shows for ``side`` (after snapshot()):
        out[0:4] big digits (BLANK = 10), out[4] colon, out[5:7] the small count (byo-yomi periods
        or Canadian stones, BLANK when none), out[7] bit 0: the big digits show a period or delay,
        bit 1: the LAST period.
        Seconds are rounded up; an hour or more shows H:MM. Allocation-free."""
        v = self.snap.black if side == BLACK else self.snap.white
        ms = v.main_ms
        out[7] = 0
        out[5] = out[6] = BLANK
        if v.overtime:
            ms = v.period_ms
            out[7] = 1
        if self._last(v):
            out[7] |= 2
        s = self.tc.system
        if self._ot:
            n = v.stones if s == CANADIAN else v.periods
            if n > 99:
                n = 99
            out[5] = n // 10 if n >= 10 else BLANK
            out[6] = n % 10
        if v.delay_ms:
            n = (v.delay_ms + 999) // 1000
            out[5] = n // 10 if n >= 10 else BLANK
            out[6] = n % 10
        secs = (ms + 999) // 1000
        if secs >= 3600:
            hi = secs // 3600
            lo = secs % 3600 // 60
        else:
            hi = secs // 60
            lo = secs % 60
        if hi > 99:
            hi = 99
        out[0] = hi // 10 if hi >= 10 else BLANK
        out[1] = hi % 10
        out[2] = lo // 10
        out[3] = lo % 10
        out[4] = 1
        return out

    # -- power-loss safety and replays ----------------------------------------

    def replay(self, now_ms):
        """Korean Art.21-4: a drawn game is replayed with each player's remaining time. A new,
        not yet started Clock holding this clock's times (periods, stones, blocks) as of now_ms."""
        self._check_flag(now_ms)
        e = self._elapsed(now_ms)
        other = Clock(self.tc, self.capture_policy, self.capture_min_stones, self.capture_last_ms,
                      self.away_pauses, self.late_limit_ms, self.cue_every_ms, self.cue_count_ms,
                      self.log.capacity, self.ing_points)
        for side in (BLACK, WHITE):
            v = other.snap.black
            self._view(side, e if side == self.turn else 0, v)
            other.main[side] = v.main_ms if self.tc.system != NONE else 0
            other.periods[side] = v.periods
            other.period_ms[side] = v.period_ms
            other.stones[side] = v.stones
        if self.tc.system == BYOYOMI:
            other.period_ms[BLACK] = other.period_ms[WHITE] = self.tc.period_ms
        if self.tc.system == SIMPLE or self.tc.system == TV:
            other.main[BLACK] = other.main[WHITE] = self.tc.main_ms
        return other

    def save(self, now_ms):
        """The state as a tuple of ints (for the journal); the spec is the caller's to keep."""
        out = array("i", bytes(4 * SAVED))
        self.save_into(out, now_ms)
        return tuple(out)

    def save_into(self, out, now_ms):
        """save() into a preallocated array("i", SAVED ints): no allocation (firmware/recorder.py)."""
        self._check_flag(now_ms)
        out[0] = 1
        out[1] = self.turn
        out[2] = self._elapsed(now_ms)
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
        self._cue_moves = -1
