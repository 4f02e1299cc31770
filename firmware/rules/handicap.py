"""Stones placed before the first move: handicaps and setup stones (``Game.setup``,
``place_handicap``), which handicaps a rule set allows (``check``), and the fixed points,
as the GTP specification (section 4.1.1) places them. Loaded while a game is set up,
and let go.

On 19x19 the points are the 4-4 star points, the side star points and
tengen: 2 = D4 Q16, 3 = + D16, 4 = + Q4, 5 = + K10, 6 = D4 Q16 D16 Q4 D10
Q10, 7 = + K10, 8 = + K4 K16, 9 = + K10. Smaller boards use the 3-3 points
(below 13x13). Even sizes and 7x7 take at most 4 stones; boards under 7x7
have no fixed handicap.
"""

from .const import const
from .coords import point
from .position import BLACK, EMPTY, WHITE
from .rulesets import HANDICAP_FIXED, HANDICAP_NONE

_MAX_HANDICAP = const(9)  # stones; more is no longer a handicap game (and no SGF reader expects it)

# Pattern letters per stone count: 0 = near edge, 1 = middle, 2 = far edge,
# as (column, row-from-bottom) pairs.
_PATTERNS = (
    "0022",
    "002202",
    "00220220",
    "0022022011",
    "002202200121",
    "00220220012111",
    "0022022001211012",
    "002202200121101211",
)


def max_fixed(size):
    """The largest fixed handicap on a board of this size (0: none)."""
    if size < 7:
        return 0
    if size % 2 == 0 or size == 7:
        return 4
    return 9


def setup(game, black, white, to_move):
    """``Game.setup``."""
    if game.hist.length > 1:
        raise ValueError("setup only before the first move")
    pos = game.pos
    for colour, points in ((BLACK, black), (WHITE, white)):
        for pt in points:
            if pos.cells[pt] != EMPTY:
                raise ValueError("setup point not empty")
            pos.add(pt, colour)
            if game.op is not None:
                game.op.setup_stone(pt, colour)
    game.setup_stones = (game.setup_stones[0] + tuple(black), game.setup_stones[1] + tuple(white))
    game.reset_play_state(game.to_move if to_move is None else to_move)


def setup_letters(size, text):
    """The ``new`` field ``setup`` (settings.py): a position's stones as SGF letters, Black's,
    ``/``, White's ("ddee/ff"), then ``/W`` if White moves first (a handicap game's record);
    as (black, white, first: 2 or None) with points as lists; ValueError for text no ``size``
    board has (off the board, a point given twice)."""
    sides = text.split("/")
    if len(sides) == 3 and sides[2] in ("B", "W"):
        first = 2 if sides.pop() == "W" else 1
    else:
        first = None
    if len(sides) != 2:
        raise ValueError("setup")
    out = []
    for side in sides:
        if len(side) % 2:
            raise ValueError("setup")
        points = []
        for i in range(0, len(side), 2):
            col, row = ord(side[i]) - 97, ord(side[i + 1]) - 97
            p = point(size, col, row)
            if not (0 <= col < size and 0 <= row < size) or p in points or (out and p in out[0]):
                raise ValueError("setup")
            points.append(p)
        out.append(points)
    return out[0], out[1], first


def setup_position(game, text, remote):
    """The ``setup`` position on ``game``: the side the field names moves first (a record's), else
    the side not played elsewhere (``remote``: "B", "W" or None: a problem's student), else Black."""
    black, white, first = setup_letters(game.size, text)
    if first is None and remote is not None:
        first = "WB".index(remote) + 1
    setup(game, black, white, first)


def place(game, points):
    """``Game.place_handicap``."""
    if game.rules.handicap == HANDICAP_NONE:
        raise ValueError(game.rules.name + " rules have no handicap")
    if len(points) < 2:
        raise ValueError("a handicap is at least 2 stones")
    setup(game, points, (), WHITE)
    game.handicap = len(points)


def check(rules, size, stones):
    """``RuleSet.check_handicap``: ValueError unless a game on ``size`` under ``rules`` may
    start with ``stones`` handicap stones."""
    if stones and (rules.handicap == HANDICAP_NONE or not 1 <= stones <= _MAX_HANDICAP):
        raise ValueError("no handicap of %d stones under %s rules" % (stones, rules.name))
    if stones > 1 and rules.handicap == HANDICAP_FIXED and stones > max_fixed(size):
        raise ValueError("no fixed handicap of %d stones on %dx%d" % (stones, size, size))


def fixed_points(size, stones):
    """Return the point indexes of a fixed handicap of ``stones`` stones.

    Raises ValueError if the board has no such fixed handicap.
    """
    if stones < 2 or stones > max_fixed(size):
        raise ValueError("no fixed handicap of " + str(stones) + " on " + str(size) + "x" + str(size))
    edge = 2 if size < 13 else 3
    where = (edge, (size - 1) // 2, size - 1 - edge)
    pattern = _PATTERNS[stones - 2]
    out = []
    for i in range(0, len(pattern), 2):
        col = where[ord(pattern[i]) - 48]
        up = where[ord(pattern[i + 1]) - 48]
        out.append(point(size, col, size - 1 - up))
    return out


def fixed_sets(size, stones):
    """Every arrangement a fixed handicap of ``stones`` may take on the board: the
    GTP placement under the board's 8 symmetries, each a sorted list of points.
    Empty when the board has no such fixed handicap."""
    if stones < 2 or stones > max_fixed(size):
        return []
    stride = size + 2
    out = []
    for t in range(8):
        pts = []
        for g in fixed_points(size, stones):
            r, c = g // stride - 1, g % stride - 1
            if t & 1:
                r = size - 1 - r
            if t & 2:
                c = size - 1 - c
            if t & 4:
                r, c = c, r
            pts.append((r + 1) * stride + c + 1)
        pts.sort()
        if pts not in out:
            out.append(pts)
    return out
