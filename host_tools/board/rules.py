"""The rules core's (firmware/rules/) host half: what host tools and tests ask of a game that
the board never does (text diagrams, every point, colour names, GTP's fixed handicap).
"""

from firmware.rules.coords import point
from firmware.rules.handicap import fixed_points
from firmware.rules.position import BLACK, WHITE


def diagram(pos):
    """The Position's board as text rows, top row first: X black, O white, . empty."""
    size = pos.size
    out = []
    for r in range(size):
        start = (r + 1) * pos.stride + 1
        out.append("".join(".XO"[pos.cells[i]] for i in range(start, start + size)))
    return out


def all_points(pos):
    """Every point index of the Position's board, top row first (a list)."""
    size = pos.size
    return [point(size, c, r) for r in range(size) for c in range(size)]


def parse_colour(text):
    """BLACK or WHITE from "b", "black", "w", "white" (any case).

    Raises ValueError for anything else.
    """
    t = text.strip().lower()
    if t in ("b", "black"):
        return BLACK
    if t in ("w", "white"):
        return WHITE
    raise ValueError("bad colour " + repr(text))


def fixed_handicap(game, stones):
    """Place ``stones`` handicap stones on the game's standard points (GTP's
    ``fixed_handicap``); returns them. ValueError as ``Game.place_handicap``, or
    when the board has no such fixed handicap."""
    points = fixed_points(game.size, stones)
    game.place_handicap(points)
    return points
