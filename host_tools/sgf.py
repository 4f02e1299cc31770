"""SGF FF[4] records on the host, read and written through sgfmill.

The rules core speaks point indexes; sgfmill speaks (row, col) with row 0 at
the bottom. This module converts between the two and maps rule sets to the
``RU`` values that Sabaki, CGoban, KaTrain and sgfmill understand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sgfmill import sgf, sgf_moves

from firmware.rules.catalog import ALL
from firmware.rules.coords import PASS, col_row, point
from firmware.rules.game import Game
from firmware.rules.history import LOST_TURN, move_colour, move_point
from firmware.rules.position import BLACK, WHITE
from firmware.rules.rulesets import by_name

_COLOURS = {BLACK: "b", WHITE: "w"}


def to_sgfmill(size: int, pt: int):
    """sgfmill (row, col) of a point index; None for PASS."""
    if pt == PASS:
        return None
    col, row = col_row(size, pt)
    return size - 1 - row, col


def from_sgfmill(size: int, move) -> int:
    """Point index of an sgfmill (row, col); PASS for None."""
    if move is None:
        return PASS
    row, col = move
    return point(size, col, size - 1 - row)


def rules_from_ru(value: str | None):
    """The RuleSet named by an SGF RU value, or None if unknown/missing."""
    if not value:
        return None
    key = value.strip().lower()
    for rules in ALL:
        if key in (rules.name, rules.sgf.lower(), rules.title.lower()):
            return rules
    try:
        return by_name(key)
    except ValueError:
        return None


@dataclass
class Record:
    """A game record as the rules core needs it."""

    size: int = 19
    komi: float | None = None
    rules: object = None  # RuleSet or None when RU is missing or unknown
    handicap: int = 0
    black: list = field(default_factory=list)  # setup / handicap points
    white: list = field(default_factory=list)
    moves: list = field(default_factory=list)  # (colour, point)
    to_move: int | None = None  # PL, if given
    root: dict = field(default_factory=dict)  # other root properties, as text


def read(data: bytes) -> Record:
    """Parse SGF bytes (main line only). Raises ValueError on a bad record."""
    game = sgf.Sgf_game.from_bytes(data)
    size = game.get_size()
    root = game.get_root()
    try:
        board, plays = sgf_moves.get_setup_and_moves(game)
    except ValueError as error:
        raise ValueError(_bad_point(game) or str(error) or "bad setup or move") from None
    record = Record(size=size)
    for colour, move in board.list_occupied_points():
        (record.black if colour == "b" else record.white).append(from_sgfmill(size, move))
    record.moves = [(BLACK if c == "b" else WHITE, from_sgfmill(size, m)) for c, m in plays]
    if root.has_property("KM"):
        record.komi = root.get("KM")
    if root.has_property("HA"):
        record.handicap = root.get("HA")
    if root.has_property("RU"):
        record.rules = rules_from_ru(root.get("RU"))
    if root.has_property("PL"):
        record.to_move = BLACK if root.get("PL") == "b" else WHITE
    for key in ("PB", "PW", "BR", "WR", "EV", "RO", "DT", "RE", "PC"):
        if root.has_property(key):
            record.root[key] = root.get(key)
    return record


def _bad_point(game) -> str | None:
    """Which node holds a point sgfmill cannot read, said briefly (the value cut short)."""
    size = game.get_size()
    for number, node in enumerate(game.get_main_sequence()):
        for prop in ("AB", "AW", "AE", "B", "W"):
            if node.has_property(prop):
                try:
                    node.get(prop)
                except ValueError:
                    raw = node.get_raw(prop)[:12].decode("ascii", "replace")
                    return "node %d: %s[%s%s] is not a point of a %dx%d board" % (
                        number, prop, raw, "..." if len(node.get_raw(prop)) > 12 else "", size, size)
    return None


def write(game: Game, root: dict | None = None, move_props=None) -> bytes:
    """SGF FF[4] bytes for a game: SZ, KM, RU, HA/AB, the moves, and the
    result if the game has one. ``root`` adds root properties (PB, PW, EV,
    RO, DT, TM, OT...); ``move_props(k)`` may return extra properties for
    move k (BL, WL, OB, OW...). Lost turns (Thai) are nodes with no move and a comment saying so."""
    size = game.size
    out = sgf.Sgf_game(size)
    node = out.get_root()
    node.set("KM", float(game.komi))
    node.set("RU", game.rules.sgf)
    hist = game.hist
    black, white = game.setup_stones
    if game.handicap:
        node.set("HA", game.handicap)
    if black or white:
        node.set_setup_stones([to_sgfmill(size, p) for p in black],
                              [to_sgfmill(size, p) for p in white])
    if hist.first == WHITE and not game.handicap:
        node.set("PL", "w")
    for key, value in (root or {}).items():
        node.set(key, value)
    parent = node
    for k in range(1, hist.length):
        record = hist.moves[k]
        colour = move_colour(record)
        child = parent = parent.new_child()  # (not extend_main_sequence: it walks the sequence every time)
        props = dict(move_props(k) or {}) if move_props is not None else {}
        if record & LOST_TURN:  # (its clock figures too: a sealed record hashes them, host_tools/records.py)
            lost = ("Black" if colour == BLACK else "White") + " lost the turn (penalty)"
            props["C"] = lost + ("\n" + props["C"] if "C" in props else "")
        else:
            child.set_move(_COLOURS[colour], to_sgfmill(size, move_point(record)))
        for key, value in props.items():
            child.set(key, value)
    if game.result is not None:
        node.set("RE", game.result.sgf())
    return out.serialise()
