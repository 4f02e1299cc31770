"""Pair go (Thai rules 16): who of each pair plays a move, and what playing out of order costs.

The order is B1 W1 B2 W2, then again (16.3): each colour's partners take its
moves in turn. A wrong order the referee upholds (16.5) counts the stone as
the offender's own correct move and the order goes on from there: every
later move of both colours passes to the other partner (B2 played for B1:
W2 plays next, then B1). Corrections are the game's penalties with the
reason ``WRONG_ORDER``, so they are journaled and streamed like any other.
"""

from .history import move_colour

WRONG_ORDER = "wrong_order"
ORDER_POINTS = (3, 5)  # Thai 16.5.1, 16.5.2: points for the first and second wrong order; the third loses


def is_pair(players):
    """A game's fields (Settings.players: the host's ``new`` fields) ask for pair go (``pair=1``)."""
    return bool(players) and players.get("pair", "0") not in ("0", "")


def partner(turns_before, corrections):
    """The partner (1 or 2) of a colour's move: ``turns_before`` of that colour's turns came
    before it, ``corrections`` wrong orders were upheld at or before it."""
    return 1 + (turns_before + corrections) % 2


def corrections(penalties, k):
    """Wrong orders upheld at moves 1..k, from a penalty log of (move number, colour, kind,
    value, reason) entries."""
    n = 0
    for entry in penalties:
        if entry[4] == WRONG_ORDER and entry[0] <= k:
            n += 1
    return n


def next_partner(game):
    """The partner (1 or 2) whose turn it is for ``game.to_move``."""
    hist = game.hist
    turns = 0
    for k in range(1, hist.length):
        if move_colour(hist.moves[k]) == game.to_move:
            turns += 1
    return partner(turns, corrections(game.penalties, hist.length))
