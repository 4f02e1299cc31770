"""Where the game's board lies on the physical 19x19 board (a 9x9 or 13x13 game in the middle, by default).

Physical points are numbered ``row * 19 + col``, row 0 at the top (the
scanner's and the LEDs' numbering); game points are the rules core's indexes.
"""

from ..micro import const
from ..rules.const import zeros

_PHYS = const(19)
POINTS = const(361)
NONE = const(0xFFFF)  # no point: outside the game, or no physical point


class Region:
    """``game_of[p]``: the game point at physical point p (NONE outside);
    ``phys_of[g]``: the physical point of game point g."""

    def __init__(self, size, row=None, col=None):
        self.size = size
        top = (_PHYS - size) // 2 if row is None else row
        left = (_PHYS - size) // 2 if col is None else col
        if top < 0 or left < 0 or top + size > _PHYS or left + size > _PHYS:
            raise ValueError("a %dx%d game does not fit there" % (size, size))
        self.top = top
        self.left = left
        stride = size + 2
        self.game_of = zeros("H", POINTS, NONE)
        self.phys_of = zeros("H", stride * stride, NONE)
        for r in range(size):
            for c in range(size):
                p = (top + r) * _PHYS + left + c
                g = (r + 1) * stride + c + 1
                self.game_of[p] = g
                self.phys_of[g] = p
