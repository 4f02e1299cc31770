"""How a game ends: counting and its result, penalties, resignation, time, fouls.

``Ending`` holds these methods of ``Game`` (game.py: ``class Game(Ending)``),
kept apart so that each file has one job: game.py plays, this module ends.
They read and write the game's state: ``rules``, ``phase``, ``warnings``,
``op``, ``to_move``, ``komi2``, ``result``, ``cycle``... (declared below). A
cycle (the same position for the third time) ends it as the rule set says
(cycles.py);
a Thai lost turn (``lose_turn``) is a penalty, not a pass. Play stops (``COUNTING``) after
the passes the rule set needs; the game is ``OVER`` once it has a result.
"""

from array import array

from .const import call_briefly, const
from .coords import PASS
from .history import DAME_FILL, LOST_TURN, History, encode, move_colour, move_point
from .illegal import GAME_OVER, OUT_OF_TURN, IllegalMove
from .position import Position
from .result import DRAW, FOUL, RESIGN, SCORE, TIME, Result, half_points
from .rulesets import SCORE_OP, SCORE_TERRITORY, RuleSet

TYPE_CHECKING = False  # the type checker reads the block below; op and scoring load only when a game needs them
if TYPE_CHECKING:
    from .op import Ledger
    from .scoring import Counter

# Penalties (``Game.penalise``; each is logged in ``penalties``).
CAUTION = const(0)  # Korean regulations 17 (two cautions are a warning: 18-1-7)
WARNING = const(1)  # Korean 18, Thai 21-32, 39: what it costs is the rule set's (``warn``)
POINTS = const(2)  # points given to the opponent at the count (Thai 16.5: pair go out of order)
FORFEIT = const(3)  # the game (Korean 19, Thai 40)
PENALTY_KINDS = ("caution", "warning", "points", "forfeit")

# Phases of a game.
PLAYING = const(0)
COUNTING = const(1)  # play stopped by passes; dead stones are being agreed
OVER = const(2)  # a result is known

_BLACK = const(1)
_WHITE = const(2)


def komi2_of(komi):
    """Komi in half points; ValueError unless it is a whole or half number within +-1000."""
    if not -1000 <= komi <= 1000:  # (False for nan as well)
        raise ValueError("komi must be between -1000 and 1000, not " + str(komi))
    komi2 = round(komi * 2)
    if komi2 != komi * 2:
        raise ValueError("komi must be a whole or half number, not " + str(komi))
    return int(komi2)


class Ending:
    """The end of a game: see the module doc (the methods of ``Game`` that end it)."""

    # The game's state these methods share (game.py's Game sets it).
    rules: RuleSet
    pos: Position
    hist: History
    op: "Ledger | None"  # under the OP rules
    phase: int
    to_move: int
    ko: int
    passes: int
    last_pass: int
    komi2: int
    warnings: bytearray
    cautions: bytearray
    penalty_pts: array
    penalties: list
    result: "Result | None"
    cycle: bool
    _counter: "Counter | None"  # made at the first count
    _dead: "bytearray | None"  # the dead-stone marks, made at their first use

    @property
    def komi(self):
        """Komi in points (a float when it has a half); counting uses ``komi2``."""
        return half_points(self.komi2)

    @komi.setter
    def komi(self, value):
        self.komi2 = komi2_of(value)

    def dead_marks(self):
        """The dead-stone marks, a byte a point (1: marked dead), made on first use. They
        are the game's, not its Counter's: the board's proposal (dead.py) marks them before
        the count's code is first loaded."""
        if self._dead is None:
            self._dead = bytearray(len(self.pos.cells))
        return self._dead

    def clear_dead(self):
        """Forget every dead-stone mark."""
        dead = self._dead
        if dead is not None:
            for i in range(len(dead)):
                dead[i] = 0

    def counter(self):
        """The game's Counter (the count, its map; the dead-stone marks it reads and
        writes are ``dead_marks``), made on first use."""
        if self._counter is None:
            from .scoring import Counter  # imported at the first count: code costs a Pico's heap

            self._counter = Counter(self)
        return self._counter

    def count_map(self):
        """The last count's map (scoring.py's, a byte a point), or None before the first
        count: showing that nothing was counted loads no code."""
        return None if self._counter is None else self._counter.map

    def mark_dead(self, pt, dead=True):
        """While counting, mark (or unmark) the whole chain at pt as dead.
        Returns the number of stones marked. Raises ValueError outside the
        counting phase."""
        if self.phase != COUNTING:
            raise ValueError("dead stones are marked after play has stopped")
        return self.counter().set_dead(pt, dead)

    def count(self):
        """Count the position under the rule set (dead stones as marked);
        returns the Score. Does not end the game: see ``finish``."""
        return self.counter().count()

    def unfilled_dame(self, out):
        """Dame the players must still fill before counting (Korean Art.7-2,
        Thai 9.2), written into ``out``; returns how many."""
        counter = self.counter()
        counter.count()
        return counter.unfilled_dame(out)

    def fill_dame(self, colour, pt):
        """While counting under territory scoring, ``colour``'s stone on a dame it
        fills safely (Korean Art.7-2, Thai 9.2: dame are filled before the count and
        change nothing): recorded as a move, play stays stopped. Returns False, the game
        unchanged, for any other stone. Where the rule set has the players fill them
        (``fill_dame``: Korean Art.7-2 and how-to-play 10, Thai 9.2), they fill in turn:
        IllegalMove(OUT_OF_TURN) for a fill by the side that filled last."""
        if self.phase != COUNTING or self.rules.scoring != SCORE_TERRITORY:
            return False
        counter = self.counter()
        counter.count()
        if not counter.fills_dame(pt, colour):
            return False
        if self.rules.fill_dame and colour != self.to_move:
            raise IllegalMove(OUT_OF_TURN, pt)
        self.pos.play(pt, colour)
        self.hist.push(self.pos.hash, encode(pt, colour, DAME_FILL), self.pos.removed, 0, 0)
        self.to_move = 3 - colour
        return True

    def filled_dame(self, pt):
        """The stone at ``pt`` filled a dame while counting (fills are the history's last records)."""
        hist = self.hist
        k = hist.length - 1
        while k > 0 and hist.moves[k] & DAME_FILL:
            if move_point(hist.moves[k]) == pt:
                return True
            k -= 1
        return False

    def unfill_dame(self, pt):
        """Take back the last dame fill, if it is the stone at ``pt`` (lifted again while
        counting). Returns False, the game unchanged, otherwise."""
        hist = self.hist
        record = hist.moves[hist.length - 1]
        if self.phase != COUNTING or not record & DAME_FILL or move_point(record) != pt:
            return False
        self.pos.lift(pt)
        hist.pop()
        self.to_move = move_colour(record)
        return True

    def finish(self, score=None):
        """End a game whose play stopped by passes: count it and set the
        result. Returns the Result. ``score``: a count of the board as it
        stands, made already (the referee's, kept current over loop passes)."""
        if self.phase != COUNTING:
            raise ValueError("play has not stopped")
        self.end(self.result_of(self.count() if score is None else score))
        return self.result

    def result_of(self, score):
        """The Result a Score gives under this rule set."""
        if self.rules.scoring == SCORE_OP:
            from .op import result

            return result(score)
        margin2 = score.margin2()
        if margin2 > 0:
            return Result(_BLACK, SCORE, margin2)
        if margin2 < 0:
            return Result(_WHITE, SCORE, -margin2)
        return Result(DRAW, SCORE, 0, "jigo")

    def penalty_points(self, colour):
        """Points the opponent gets for ``colour``'s warnings and point penalties."""
        table = self.rules.warning_points
        return table[min(self.warnings[colour], len(table) - 1)] + self.penalty_pts[colour]

    def penalise(self, colour, kind, value=0, reason="referee"):
        """A referee's decision against ``colour`` (the host's ``referee`` command):
        a CAUTION (the rule set's ``cautions_per_warning`` make a warning), a
        WARNING (``warn``), POINTS (``value`` points to the opponent at the count)
        or a FORFEIT (the game). ValueError once the game is over or for a bad
        kind or value. (This and the other penalties are penalties.py's code,
        loaded for the call: they are rare.)"""
        call_briefly("firmware.rules.penalties", "penalise", self, colour, kind, value, reason, later=True)

    def restore_penalty(self, k, colour, kind, value, reason):
        """Put back a logged penalty as it was (a journal's): counts, points and the
        log; what it ended comes back with the result."""
        call_briefly("firmware.rules.penalties", "restore", self, k, colour, kind, value, reason)

    def warn(self, colour, detail=""):
        """Give ``colour`` a warning (Korean Art.18, Thai 39). The rule set
        decides what it costs: points at the count, or the game."""
        call_briefly("firmware.rules.penalties", "warn", self, colour, detail, later=True)

    def apply_illegal(self, colour, reason):
        """Apply the rule set's tournament penalty for an illegal placement by
        ``colour`` (the move itself was refused by ``play``). Returns what
        was done: ILLEGAL_LOSS (the game ends W+F / B+F), ILLEGAL_WARN
        (Thai: a warning and the turn is lost) or ILLEGAL_REJECT (nothing).
        """
        return call_briefly("firmware.rules.penalties", "apply_illegal", self, colour, reason, later=True)

    def resign(self, colour):
        """``colour`` resigns: the opponent wins."""
        self.end(Result(3 - colour, RESIGN))

    def flag(self, colour):
        """``colour`` lost on time."""
        self.end(Result(3 - colour, TIME))

    def foul(self, colour, detail=""):
        """``colour`` loses by a foul (an illegal move under tournament rules)."""
        self.end(Result(3 - colour, FOUL, 0, detail))

    def end(self, result):
        """Stop the game with this Result."""
        self.result = result
        self.phase = OVER

    def agree_draw(self):
        """Thai 11: after a repetition (``cycle``) both players agree to a draw (or the
        repeating side chooses one, 11.2). ValueError when no repetition stands.
        (cycles.py's code, loaded for the call: cycles are rare.)"""
        call_briefly("firmware.rules.cycles", "agree_draw", self, later=True)

    def lose_turn(self, colour):
        """The player to move loses the turn (Thai 28/29 after an illegal
        placement); it is not a pass for ending the game."""
        if self.phase != PLAYING or colour != self.to_move:
            raise IllegalMove(OUT_OF_TURN if self.phase == PLAYING else GAME_OVER)
        self.hist.push(self.pos.hash, encode(PASS, colour, LOST_TURN), None, 0, 0)
        self.ko = 0
        self.passes = 0
        self.to_move = 3 - colour

    def _repeats_earlier(self, same_side, since, needed):
        """True if the last position's board (with the same player to move if
        ``same_side``) occurred ``needed`` times at positions >= ``since``."""
        hist = self.hist
        last = hist.length - 1
        h = hist.hashes[last]
        side = hist.to_move(last)
        cells = self.pos.cells
        found = 0
        slot = hist.next_match(h, h)
        while slot >= 0:
            k = hist.table[slot] - 1
            if since <= k < last and (not same_side or hist.to_move(k) == side):
                if hist.board_equals(k, cells, self.pos.marks):
                    found += 1
                    if found >= needed:
                        return True
            slot = hist.next_match(h, slot + 1)
        return False

    # -- helpers -----------------------------------------------------------
