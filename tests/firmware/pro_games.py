"""The bundled professional games as move lists (tests/data/pro_games.txt).

Shared by tests and benchmarks on CPython and MicroPython.
"""

from firmware.rules.coords import PASS, parse_vertex
from firmware.rules.game import COUNTING, PLAYING, Game, IllegalMove
from firmware.rules.position import BLACK, WHITE


class ProGame:
    """One record: name, size, setup stones, moves as (colour, point), and
    sgfmill's final captures and board rows."""

    def __init__(self, name):
        self.name = name
        self.size = 19
        self.black = []
        self.white = []
        self.moves = []
        self.captures = (0, 0)
        self.rows = []


def load_games(path):
    return list(games(path))


def longest_game(path):
    """The record with the most moves, the others read and let go (a small heap holds one)."""
    return max(games(path), key=lambda record: len(record.moves))


def games(path):
    """The records one at a time, as they are read."""
    game = None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            key, _, rest = line.partition(" ")
            if key == "game":
                if game is not None:
                    yield game
                game = ProGame(rest)
            elif key == "size":
                game.size = int(rest)
            elif key in ("black", "white"):
                points = [parse_vertex(game.size, v) for v in rest.split()]
                if key == "black":
                    game.black = points
                else:
                    game.white = points
            elif key == "moves":
                for item in rest.split():
                    colour, where = item.split(":")
                    pt = PASS if where == "pass" else parse_vertex(game.size, where)
                    game.moves.append((BLACK if colour == "B" else WHITE, pt))
            elif key == "captures":
                b, w = rest.split()
                game.captures = (int(b), int(w))
            elif key == "row":
                game.rows.append(rest)
    if game is not None:
        yield game


def new_game(record, rules):
    # Records sometimes omit a pass (two moves of one colour in a row): play
    # them as sgfmill and GTP do.
    game = Game(record.size, rules, strict_turns=False)
    first = record.moves[0][0] if record.moves else BLACK
    if record.black or record.white:
        if record.white or rules == "op":
            game.setup(record.black, record.white, first)
        else:
            game.place_handicap(record.black)
    return game


def replay(record, rules):
    """Play a record under ``rules``. Returns (game, index of the first
    illegal move or None, its IllegalMove or None). Stops where the rules
    stop the game (a cycle, for example)."""
    game = new_game(record, rules)
    for i, (colour, pt) in enumerate(record.moves):
        if game.phase == COUNTING:
            game.resume(3 - colour)
        if game.phase != PLAYING:
            return game, None, None
        try:
            game.play(colour, pt)
        except IllegalMove as e:
            return game, i, e
    return game, None, None
