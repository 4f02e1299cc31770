"""Boards written as diagrams (X black, O white, . empty; top row first), for table tests."""

from firmware.rules.coords import point
from firmware.rules.game import Game
from firmware.rules.position import BLACK, WHITE, Position


def stones(rows):
    """(black points, white points) of a diagram."""
    size = len(rows)
    black, white = [], []
    for r, row in enumerate(rows):
        row = row.replace(" ", "")
        for c, ch in enumerate(row):
            if ch == "X":
                black.append(point(size, c, r))
            elif ch == "O":
                white.append(point(size, c, r))
    return black, white


def position(rows):
    pos = Position(len(rows))
    black, white = stones(rows)
    for p in black:
        pos.add(p, BLACK)
    for p in white:
        pos.add(p, WHITE)
    return pos


def game(rows, rules="japanese", to_move=BLACK, **kw):
    g = Game(len(rows), rules, **kw)
    black, white = stones(rows)
    g.setup(black, white, to_move)
    return g


def at(size, vertex_name):
    from firmware.rules.coords import parse_vertex
    return parse_vertex(size, vertex_name)


class Lcg:
    """A tiny deterministic random generator: identical on CPython and MicroPython."""

    def __init__(self, seed):
        self.state = seed & 0x3FFFFFFF

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.state >> 8) % n
