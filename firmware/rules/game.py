"""A game of Go under one rule set: turns, legality, ko and superko, history, undo.

``Position`` does the mechanics (placing, capturing); ``Game`` decides what is
allowed and remembers everything needed to check repetition and take moves
back. Playing a legal move that captures nothing allocates no memory.

    game = Game(19, "korean")
    game.play(BLACK, parse_vertex(19, "Q16"))   # returns stones captured
    game.play(WHITE, PASS)
    game.undo()

Illegal moves raise ``IllegalMove`` with a machine-readable ``reason`` and
leave the game exactly as it was.
"""

from array import array

from .const import call_briefly
from .coords import PASS
from .ending import COUNTING, OVER, PLAYING, Ending  # noqa: F401  (the phases, also game.COUNTING...)
from .history import COLOUR_SHIFT, SELF_CAPTURE, History, encode, is_pass, move_colour, move_point
from .illegal import (  # noqa: F401  (also game.IllegalMove, game.OCCUPIED...)
    GAME_OVER,
    KO,
    NO_STONES,
    OCCUPIED,
    OFF_BOARD,
    OUT_OF_TURN,
    PLACE_REMOVE,
    SUICIDE,
    SUPERKO,
    IllegalMove,
)
from .position import BLACK, EDGE, EMPTY, WHITE, Position
from .result import FOUL, Result
from .rulesets import (
    CYCLE_NONE,
    KO_POSITIONAL,
    KO_SITUATIONAL,
    SUICIDE_MULTI,
    SUICIDE_NONE,
    RuleSet,
    by_name,
)


class Game(Ending):
    """A game: a position, whose turn it is, the history and the rule set.

    Read-only attributes for callers: ``size``, ``rules`` (RuleSet), ``komi``,
    ``handicap``, ``pos`` (Position), ``to_move``, ``ko`` (point the player to
    move may not retake, 0 if none), ``passes`` (consecutive passes),
    ``captures`` (stones captured by each colour, indexed by colour; ``captures[0]``:
    capture Go's goal, settings.py, the first to capture that many stones wins; 0: none),
    ``phase`` (PLAYING, COUNTING, OVER), ``result`` (Result or None),
    ``cycle`` (a repetition has happened, for rule sets where players decide),
    ``warnings``, ``cautions`` (per colour), ``penalties`` (the penalty log:
    (move number, colour, kind, value, reason) tuples, ending.py ``penalise``),
    ``op`` (OP stone supply and isolation, or None).

    ``strict_turns=False`` lets a colour move twice in a row, as GTP
    controllers may ask; the board itself always plays strict.

    ``spent``: a game of the same size that is done with (the board's last
    one, let go for this one): this game takes its board and history (and
    its dead-stone marks, if it had any), emptied, instead of allocating them again. Their arrays are the largest
    blocks a game needs (2 KB each on 19x19), which a heap in pieces may no
    longer hold: the board's next game must not depend on finding them.
    """

    def __init__(self, size=19, rules="japanese", komi=None, strict_turns=True, spent=None):
        self.rules = rules if isinstance(rules, RuleSet) else by_name(rules)
        self.size = size
        self.komi = self.rules.default_komi() if komi is None else komi  # (a bad one raises before spent is touched)
        if spent is None:
            self.pos = Position(size)
            self.hist = History(size, BLACK)
        elif spent.size != size:
            raise ValueError("a spent game of another size")
        else:
            self.pos = spent.pos
            self.pos.clear()
            self.hist = spent.hist  # (reset_play_state starts it again)
        self.strict = strict_turns
        self.captures = array("H", (0, 0, 0))
        self.warnings = bytearray(3)  # penalty warnings per colour (Thai, Korean)
        self.cautions = bytearray(3)  # the referee's cautions per colour (Korean regulations 17)
        self.penalty_pts = array("H", (0, 0, 0))  # points each colour gives away by a referee's decision
        self.penalties = []  # the penalty log (ending.py ``penalise``)
        self.op = None
        if self.rules.stone_supply:  # OP only: its module is loaded for it alone
            from .op import Ledger

            self.op = Ledger(self)
        self.handicap = 0
        self.setup_stones = ((), ())  # (black, white) points placed before the first move
        self._counter = None
        self._dead = None if spent is None else spent._dead  # (cleared with the play state)
        self.reset_play_state(BLACK)

    def reset_play_state(self, first):
        self.hist.first = first
        self.hist.start(self.pos.hash)
        self.to_move = first
        self.ko = 0
        self.passes = 0
        self.last_pass = 0
        self.phase = PLAYING
        self.result = None
        self.cycle = False
        self.clear_dead()

    # -- setting up --------------------------------------------------------

    @property
    def move_number(self):
        """Number of moves played (passes and lost turns included)."""
        return self.hist.length - 1

    def setup(self, black=(), white=(), to_move=None):
        """Put stones on the board before the first move (SGF AB/AW).

        Raises ValueError if moves were played or a point is not empty.
        (This and ``place_handicap`` are handicap.py's code, loaded for the
        call: a game is set up once.)
        """
        call_briefly("firmware.rules.handicap", "setup", self, black, white, to_move)

    def place_handicap(self, points):
        """Place handicap stones (free placement); White moves next.

        Raises ValueError if the rule set has no handicap or moves were played.
        """
        call_briefly("firmware.rules.handicap", "place", self, points)

    # -- playing -----------------------------------------------------------

    def play(self, colour, pt):
        """Play a stone of ``colour`` at point ``pt`` (PASS to pass).

        Returns the number of stones the move removed (captured, or the
        mover's own after a legal self-capture). Raises IllegalMove, leaving
        the game unchanged, if the rule set does not allow the move.
        """
        if self.phase != PLAYING:
            raise IllegalMove(GAME_OVER, pt)
        if colour != self.to_move and (self.strict or colour != 3 - self.to_move):
            raise IllegalMove(OUT_OF_TURN, pt)
        op = self.op
        if op is not None and colour == WHITE and self.hist.length == 1:
            # OP, commentary to Art.2: Black moves first; White moving first loses by foul.
            self.end(Result(BLACK, FOUL, 0, "white_first"))
            return 0
        if pt == PASS:
            self._pass(colour)
            return 0
        pos = self.pos
        cells = pos.cells
        if pt < 0 or pt >= len(cells) or cells[pt] == EDGE:
            raise IllegalMove(OFF_BOARD, pt)
        if cells[pt] != EMPTY:
            raise IllegalMove(OCCUPIED, pt)
        if op is not None and op.supply[colour] == 0:
            raise IllegalMove(NO_STONES, pt)
        if pt == self.ko and colour == self.to_move:
            raise IllegalMove(KO, pt)
        n = pos.play(pt, colour)
        flags = 0
        if n < 0:
            suicide = self.rules.suicide
            w = pos.stride  # (multi: a lone stone's self-capture is still illegal)
            if suicide == SUICIDE_NONE or (suicide == SUICIDE_MULTI and cells[pt - w] != colour and cells[pt - 1] != colour
                                           and cells[pt + 1] != colour and cells[pt + w] != colour):
                pos.lift(pt)
                raise IllegalMove(SUICIDE, pt)
            n = pos.remove_own_chain(pt)
            flags = SELF_CAPTURE
        ko = 0
        if n == 1 and not flags and op is None and self._single_with_one_liberty(pt, colour):
            ko = pos.removed[0]
        seen = self.hist.push(pos.hash, pt | colour << COLOUR_SHIFT | flags, pos.removed, 0, n)  # (encode, inline)
        if seen:  # (rare: only then is a repetition possible)
            rule = self.rules.ko
            if (rule == KO_POSITIONAL or rule == KO_SITUATIONAL) and self._repeats_earlier(rule == KO_SITUATIONAL, 0, 1):
                self._take_back()
                raise IllegalMove(SUPERKO, pt)
        if n and op is not None and op.breaks_place_remove(pt, n):
            self._take_back()
            raise IllegalMove(PLACE_REMOVE, pt)
        taker = colour if not flags else 3 - colour
        captures = self.captures
        captures[taker] += n
        self.ko = ko
        self.to_move = 3 - colour
        self.passes = 0
        if n and captures[0] and captures[taker] >= captures[0]:
            # Capture Go: the first to take that many wins (reason and detail "captures": RE "B+";
            # result.py's reasons are names, and one more would cost a Pico's heap a name pool).
            self.end(Result(taker, "captures", 0, "captures"))
        if op is not None:
            op.after_move(pt, colour, n, flags)
        elif seen and self.rules.cycle != CYCLE_NONE and self._repeats_earlier(True, self.last_pass, 2):
            # Simple ko: the same board with the same player to move for the third time
            # since the last pass; what that does is cycles.py's, loaded for it.
            call_briefly("firmware.rules.cycles", "judge", self, later=True)
        return n

    def _pass(self, colour):
        hist = self.hist
        hist.push(self.pos.hash, encode(PASS, colour), None, 0, 0)
        self.ko = 0
        self.to_move = 3 - colour
        self.passes += 1
        self.last_pass = hist.length - 1
        self.cycle = False
        if self.op is not None and colour == BLACK and not self.op.placed[BLACK]:
            self.end(Result(WHITE, FOUL, 0, "black_first_pass"))
        elif self.passes >= 2 and (colour == WHITE or not self.rules.white_passes_last):
            self.phase = COUNTING
        elif self.op is not None:
            self.op.check_supply()

    def resume(self, requester=None):
        """Go back to play after the passes that stopped it (the players do
        not agree on the status of the stones). Who plays first follows the
        rule set: Thai 12.3, the player who passed first; otherwise
        (Japanese), the opponent of ``requester`` (default: the last passer).
        Raises ValueError if play was not stopped by passes.
        """
        if self.phase != COUNTING:
            raise ValueError("play has not stopped by passes")
        hist = self.hist
        k = hist.length - 1
        if self.rules.resume_first_passer:
            first = move_colour(hist.moves[k - self.passes + 1])
        else:
            if requester is None:
                requester = move_colour(hist.moves[k])
            first = 3 - requester
        self.phase = PLAYING
        self.passes = 0
        self.to_move = first
        self.clear_dead()

    def is_legal(self, colour, pt):
        """True if ``colour`` may play at ``pt`` now (the game is not changed)."""
        try:
            self.play(colour, pt)
        except IllegalMove:
            return False
        self.undo()
        return True

    # -- taking back -------------------------------------------------------

    def undo(self):
        """Take back the last move, pass or lost turn (also re-opens a game
        that this move ended). Raises ValueError if there is nothing to undo."""
        hist = self.hist
        k = hist.length - 1
        if k == 0:
            raise ValueError("no move to undo")
        marked = self.phase != PLAYING  # (dead stones are marked while counting only)
        record = hist.moves[k]
        pt = move_point(record)
        if pt:
            colour = move_colour(record)
            start = hist.removed_start(k)
            n = hist.removed_end[k] - start
            back = colour if record & SELF_CAPTURE else 3 - colour
            if self.op is not None:
                self.op.before_undo(k, pt, colour, n, back)
            self._take_back()
            self.captures[3 - back] -= n
            if self.op is not None:
                self.op.after_undo(k, hist.removed, start, n)
        else:
            hist.pop()
        self._restore_from_history()
        if marked:
            self.clear_dead()

    def _take_back(self):
        # Lift the last recorded stone, put back what it removed, forget the
        # position (undo, and a move recorded only to be judged).
        hist = self.hist
        k = hist.length - 1
        record = hist.moves[k]
        colour = move_colour(record)
        start = hist.removed_start(k)
        back = colour if record & SELF_CAPTURE else 3 - colour
        self.pos.unplay(move_point(record), colour, back, hist.removed, start,
                        hist.removed_end[k] - start)
        hist.pop()

    def _restore_from_history(self):
        hist = self.hist
        k = hist.length - 1
        self.to_move = hist.to_move(k)
        self.ko = self._ko_after(k)
        passes = 0
        while passes < k and is_pass(hist.moves[k - passes]):
            passes += 1
        self.passes = passes
        i = k
        while i > 0 and not is_pass(hist.moves[i]):
            i -= 1
        self.last_pass = i
        self.phase = PLAYING
        self.result = None
        self.cycle = False

    # -- repetition --------------------------------------------------------

    def _ko_after(self, k):
        """The ko point after move k, the last move played: the point of the
        one stone it captured, if the capturing stone is alone with that one
        liberty (OP has no ko point: its place-remove rule judges retakes)."""
        hist = self.hist
        record = hist.moves[k]
        pt = move_point(record)
        start = hist.removed_start(k)
        if (k == 0 or not pt or self.op is not None or record & SELF_CAPTURE
                or hist.removed_end[k] - start != 1):
            return 0
        if not self._single_with_one_liberty(pt, move_colour(record)):
            return 0
        return hist.removed[start]

    def _single_with_one_liberty(self, pt, colour):
        cells = self.pos.cells
        w = self.pos.stride
        a = cells[pt - w]
        b = cells[pt - 1]
        c = cells[pt + 1]
        d = cells[pt + w]
        if a == colour or b == colour or c == colour or d == colour:
            return False
        return (a == EMPTY) + (b == EMPTY) + (c == EMPTY) + (d == EMPTY) == 1
