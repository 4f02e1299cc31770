"""Counting a finished game under each rule set, and the count map the LEDs show.

``Counter`` analyses the board into a preallocated map (one byte per cell):
who each point counts for and what kind of point it is. A game makes its
Counter once, at its first count; counting again allocates nothing. Its
floods use the position's scratch stack (``Position.stack``): each fills it
and reads it back with no call of the position's own floods in between.

The methods, as docs/rulesets.md reads the rule texts:

- territory (Korean, Japanese, Thai): dead stones are removed and go to the
  captor's prisoners; an empty region bordered by one colour is its
  territory, unless a chain bordering it is in seki (the chain touches dame,
  an empty region bordering both colours); score = territory + prisoners.
- area (Chinese, AGA, NZ): dead stones removed; score = live stones + empty
  regions bordered by one colour only.
- board (Tromp-Taylor): area of the board exactly as it stands.
- OP points: a point, stone or empty, scores for colour C when everything it
  reaches through empty points is C; nothing is removed.
"""

from array import array

from .const import const, zeros
from .history import is_pass, move_colour
from .position import EMPTY
from .rulesets import SCORE_AREA, SCORE_OP, SCORE_TERRITORY

_BLACK = const(1)
_WHITE = const(2)

# Map entries: owner (bits 0-1: 0 nobody, 1 black, 2 white) | kind (bits 2-4).
# 0 is the border around the board.
OWNER = const(3)
KIND = const(7 << 2)
TERRITORY = const(1 << 2)  # an empty point of a one-colour region
STONE = const(2 << 2)  # a stone on the board (owner 0: it counts for nobody, OP)
DEAD = const(3 << 2)  # a dead stone, removed for counting; owner = its region's
DAME = const(4 << 2)  # an empty point of a region bordering both colours
SEKI = const(5 << 2)  # a stone in seki (owner kept), or an empty point it makes neutral
_NEUTRAL = const(6 << 2)  # an empty point of a region bordering no stone at all
_OPEN = const(0x80)  # scratch: an empty point not yet given to a region


class Score:
    """The count of a game; every figure is an int, indexed by colour where
    it has one.

    ``points[c]``: territory + prisoners (territory rules) or territory +
    stones (the area, board and OP rules), before komi, compensation and
    penalties. ``territory[c]``, ``stones[c]`` (stones that count),
    ``prisoners[c]`` (captures + dead stones taken), ``penalty[c]`` (points c
    gets from the opponent's warnings), ``compensation`` (points White gets
    for handicap stones), ``komi2`` (komi in half points), ``dame`` and
    ``seki`` (empty points that count for nobody), ``pass_stones[c]`` (AGA:
    stones c handed over by passing; counted under rule sets with pass stones only).
    """

    def __init__(self):
        self.points = array("H", (0, 0, 0))
        self.territory = array("H", (0, 0, 0))
        self.stones = array("H", (0, 0, 0))
        self.prisoners = array("H", (0, 0, 0))
        self.penalty = array("H", (0, 0, 0))
        self.pass_stones = array("H", (0, 0, 0))
        self.compensation = 0
        self.komi2 = 0
        self.dame = 0
        self.seki = 0

    def total(self, colour):
        """``colour``'s points before komi: its points, penalties and (White) compensation."""
        return self.points[colour] + self.penalty[colour] + (self.compensation if colour == _WHITE else 0)

    def margin2(self):
        """Black's lead in half points: komi, compensation and penalties included."""
        return 2 * (self.total(_BLACK) - self.total(_WHITE)) - self.komi2


class Counter:
    """The count and the count map of one game, and its dead-stone marks (``dead``: the
    game's ``dead_marks``)."""

    def __init__(self, game):
        self.game = game
        pos = game.pos
        w = pos.stride
        self.dead = game.dead_marks()
        self.map = bytearray(len(pos.cells))
        self.score = Score()
        self._buf = pos.stack  # the floods' scratch: the position's (no call of it is under way in a flood here)
        self._hist = zeros("H", 32)  # map values are below 32
        self._taken = array("H", (0, 0, 0))  # dead stones taken off by the last _label, by colour
        self._dirs = (-w, -1, 1, w)
        self._border = 0
        self._at = 0  # the seki search's next point (begin, more)
        self._beside = False

    # -- dead stones -------------------------------------------------------

    def set_dead(self, pt, dead=True):
        """Mark (or unmark) the whole chain through the stone at pt; returns
        its size (0 if there is no stone at pt)."""
        pos = self.game.pos
        v = pos.cells[pt]
        if v != _BLACK and v != _WHITE:
            return 0
        buf = self._buf
        n = pos.chain(pt, buf)
        flag = 1 if dead else 0
        marks = self.dead
        for i in range(n):
            marks[buf[i]] = flag
        return n

    # -- the count ---------------------------------------------------------

    def count(self):
        """Count the board under the game's rule set. Fills ``map`` and
        returns the Score (the same object every time, refilled)."""
        self.begin()
        self.more(len(self.map))
        return self.score

    def begin(self):
        """A count's first part: the board labelled. ``more`` goes on from there (a count
        spread over loop passes, each kept short: referee/phases.py ``_work``)."""
        method = self.game.rules.scoring
        self._label(method == SCORE_TERRITORY or method == SCORE_AREA)
        self._at = 0 if method == SCORE_TERRITORY else len(self.map)  # the seki search's next point
        self._beside = False

    def more(self, points):
        """The count's next part: the seki search (territory rules) over up to ``points``
        more points of the map; once it has seen them all, the rest. True once ``score``
        is this count's."""
        m = self.map
        end = self._at + points
        if end < len(m):
            self._search(end)
            return False
        self._search_rest()
        game = self.game
        rules = game.rules
        method = rules.scoring
        if method == SCORE_OP:
            game.op.unscored(m)  # (OP's own module: loaded for its games only)
        score = self.score
        self._tally(score, method == SCORE_TERRITORY, method == SCORE_TERRITORY or method == SCORE_AREA)
        score.komi2 = game.komi2
        score.compensation = game.handicap - rules.comp_offset if rules.compensate and game.handicap else 0
        score.penalty[_BLACK] = game.penalty_points(_WHITE)
        score.penalty[_WHITE] = game.penalty_points(_BLACK)
        if rules.pass_stones:  # AGA: each pass hands a stone to the opponent
            passed = score.pass_stones
            passed[_BLACK] = passed[_WHITE] = 0
            moves = game.hist.moves
            for k in range(1, game.hist.length):
                if is_pass(moves[k]):
                    passed[move_colour(moves[k])] += 1
        return True

    def classify(self):
        """Label the board as territory rules see it (dead stones removed,
        seki found), whatever the rule set; for status lists and the LEDs."""
        self._label(True)
        self._at = 0
        self._beside = False
        self._search_rest()
        return self.map

    def _label(self, remove_dead):
        """Stones, and empty regions labelled by the colours they border; the dead
        stones removed are counted by colour in _taken."""
        pos = self.game.pos
        cells = pos.cells
        dead = self.dead
        m = self.map  # its border stays 0: only points of the board are written
        taken = self._taken
        taken[_BLACK] = taken[_WHITE] = 0
        size = pos.size
        w = pos.stride
        for row in range(size):
            start = (row + 1) * w + 1
            for p in range(start, start + size):
                v = cells[p]
                m[p] = _OPEN if v == EMPTY or (remove_dead and dead[p]) else v | STONE
        buf = self._buf
        for row in range(size):
            start = (row + 1) * w + 1
            for p in range(start, start + size):
                if m[p] == _OPEN:
                    n = self._fill(p)
                    border = self._border
                    if border == 3:
                        label = taken_label = DAME
                    elif border:
                        label = border | TERRITORY
                        taken_label = border | DEAD
                    else:
                        label = taken_label = _NEUTRAL
                    for i in range(n):
                        q = buf[i]
                        v = cells[q]
                        if v == EMPTY:
                            m[q] = label
                        else:  # a dead stone, removed
                            m[q] = taken_label
                            taken[v] += 1

    def _fill(self, start):
        # Flood the open region through start into _buf; its border colours
        # (bits) go to _border. Returns the number of points.
        m = self.map
        buf = self._buf
        dirs = self._dirs
        m[start] = 0
        buf[0] = start
        n = 1
        i = 0
        border = 0
        while i < n:
            p = buf[i]
            i += 1
            for d in dirs:
                q = p + d
                v = m[q]
                if v == _OPEN:
                    m[q] = 0
                    buf[n] = q
                    n += 1
                else:
                    border |= v  # a stone (STONE | colour), this region's point or the edge (0)
        self._border = border & OWNER
        return n

    def _search(self, end):
        # Chains touching a shared liberty are in seki; one-colour regions they
        # border are not territory (Japanese 1989 Art.7, Korean Art.8, Thai 10).
        # A shared liberty is a dame neither player can fill safely; an open
        # ordinary dame is neutral and puts nobody in seki (Korean Art.7-2).
        # The points from _at to end searched; _beside: a stone in seki beside a
        # one-colour region (_neutralise_beside then).
        pos = self.game.pos
        cells = pos.cells
        m = self.map
        dirs = self._dirs
        buf = self._buf
        beside = False
        for p in range(self._at, end):
            if m[p] != DAME or cells[p] != EMPTY or _fillable(pos, p):
                continue
            for d in dirs:
                q = p + d
                if m[q] & KIND == STONE:
                    n = pos.chain(q, buf)
                    for i in range(n):
                        s = buf[i]
                        m[s] = (m[s] & OWNER) | SEKI
                        for e in dirs:
                            kind = m[s + e] & KIND
                            if kind == TERRITORY or kind == DEAD:
                                beside = True
        self._at = end
        if beside:
            self._beside = True

    def _search_rest(self):
        # The seki search to the end of the map, then the regions it makes neutral.
        if self._at < len(self.map):
            self._search(len(self.map))
            if self._beside:
                self._neutralise_beside()

    def _neutralise_beside(self):
        # The one-colour regions beside stones in seki count for nobody.
        m = self.map
        dirs = self._dirs
        for p in range(len(m)):
            v = m[p]
            if v & KIND == SEKI and v & OWNER:  # a stone in seki: the regions beside it count for nobody
                for d in dirs:
                    u = m[p + d]
                    kind = u & KIND
                    if (kind == TERRITORY or kind == DEAD) and u & OWNER:
                        self._neutralise(p + d)

    def _neutralise(self, start):
        # The one-colour region through start (dead stones included) counts for nobody.
        m = self.map
        buf = self._buf
        dirs = self._dirs
        owner = m[start] & OWNER
        m[start] = SEKI
        buf[0] = start
        n = 1
        i = 0
        while i < n:
            p = buf[i]
            i += 1
            for d in dirs:
                q = p + d
                v = m[q]
                kind = v & KIND
                if (kind == TERRITORY or kind == DEAD) and v & OWNER == owner:
                    m[q] = SEKI
                    buf[n] = q
                    n += 1

    def _tally(self, score, territory_rules, removed_dead):
        game = self.game
        m = self.map
        hist = self._hist  # how many points of each map value: the figures are sums of its entries
        for v in range(len(hist)):
            hist[v] = 0
        size = game.size
        w = game.pos.stride
        for row in range(size):
            start = (row + 1) * w + 1
            for p in range(start, start + size):
                hist[m[p]] += 1
        territory = score.territory
        stones = score.stones
        prisoners = score.prisoners
        prisoners[_BLACK] = game.captures[_BLACK]
        prisoners[_WHITE] = game.captures[_WHITE]
        for c in (_BLACK, _WHITE):
            territory[c] = hist[TERRITORY | c] + hist[DEAD | c]  # dead stones are territory
            stones[c] = hist[STONE | c]
        score.dame = hist[DAME]
        score.seki = hist[SEKI]  # the empty points and dead stones seki makes neutral
        if removed_dead:
            taken = self._taken
            prisoners[_BLACK] += taken[_WHITE]
            prisoners[_WHITE] += taken[_BLACK]
        points = score.points
        if territory_rules:
            points[_BLACK] = territory[_BLACK] + prisoners[_BLACK]
            points[_WHITE] = territory[_WHITE] + prisoners[_WHITE]
        else:
            points[_BLACK] = territory[_BLACK] + stones[_BLACK]
            points[_WHITE] = territory[_WHITE] + stones[_WHITE]

    # -- dame the players must fill (Korean Art.7-2, Thai 9.2) -------------

    def unfilled_dame(self, out):
        """Write into ``out`` the dame points that one of the players could
        fill safely (a legal stone not left in atari); the shared liberties
        of a seki are not among them. Uses the map of the last ``count``.
        Returns how many points it wrote."""
        pos = self.game.pos
        cells = pos.cells
        m = self.map
        n = 0
        for p in range(len(m)):
            if m[p] == DAME and cells[p] == EMPTY and _fillable(pos, p):
                out[n] = p
                n += 1
        return n

    def fills_dame(self, p, colour):
        """True if a ``colour`` stone at ``p`` fills a dame safely (of the last ``count``'s
        map): it captures nothing and is not left in atari."""
        pos = self.game.pos
        return self.map[p] == DAME and pos.cells[p] == EMPTY and _fills(pos, p, colour)


def _fills(pos, p, colour):
    # A colour stone on the empty point p captures nothing and keeps two liberties.
    return pos.liberties_at(p, colour, 2) >= 2 and not pos.atari_on(p, 3 - colour)


def _fillable(pos, p):
    # Either colour fills the dame at p safely. A stone with two empty neighbours
    # there keeps two liberties: only a capture could make it unsafe, and a capture
    # for both colours needs chains of both beside p, in atari on it.
    cells = pos.cells
    w = pos.stride
    a = cells[p - w]
    b = cells[p - 1]
    c = cells[p + 1]
    d = cells[p + w]
    if a == EMPTY:  # two empty neighbours at least?
        two = b == EMPTY or c == EMPTY or d == EMPTY
    elif b == EMPTY:
        two = c == EMPTY or d == EMPTY
    else:
        two = c == EMPTY and d == EMPTY
    if two:
        # (x % 3: a stone's colour, 0 for an empty point or the edge) stones of both colours beside p?
        return a % 3 | b % 3 | c % 3 | d % 3 != 3 or not (pos.atari_on(p, _WHITE) and pos.atari_on(p, _BLACK))
    # One empty neighbour at most: a colour with no stone beside p would have one liberty there.
    return (((a == _BLACK or b == _BLACK or c == _BLACK or d == _BLACK) and _fills(pos, p, _BLACK))
            or ((a == _WHITE or b == _WHITE or c == _WHITE or d == _WHITE) and _fills(pos, p, _WHITE)))
