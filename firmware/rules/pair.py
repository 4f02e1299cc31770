"""Pair go (Thai rules 16): who of each pair plays a move, and what playing out of order costs.

The order is B1 W1 B2 W2, then again (16.3): each colour's partners take its
moves in turn. A wrong order the referee upholds (16.5) counts the stone as
the offender's own correct move and the order goes on from there: every
later move of both colours passes to the other partner (B2 played for B1:
W2 plays next, then B1). Corrections are the game's penalties with the
reason ``WRONG_ORDER``, so they are journaled and streamed like any other.
Whether a game is pair go is its settings' (firmware/settings.py ``is_pair``);
this module is loaded only for a pair game's order (a board's heap is small).
"""

from .history import move_colour

WRONG_ORDER = "wrong_order"
ORDER_POINTS = (3, 5)  # Thai 16.5.1, 16.5.2: points for the first and second wrong order; the third loses


def corrections(penalties, k, colour=0):
    """Wrong orders upheld at moves 1..k (against ``colour`` only, if given), from a
    penalty log of (move number, colour, kind, value, reason) entries."""
    n = 0
    for entry in penalties:
        if entry[4] == WRONG_ORDER and entry[0] <= k and (not colour or entry[1] == colour):
            n += 1
    return n


def partners(colours, penalties):
    """The partner (1 or 2) who plays each move, in order: ``colours`` are the colours of
    moves 1, 2, ... (passes and lost turns included); ``penalties`` the game's log."""
    turns = [0, 0, 0]
    out = []
    for colour in colours:
        out.append(1 + (turns[colour] + corrections(penalties, len(out) + 1)) % 2)
        turns[colour] += 1
    return out


def next_partner(game):
    """The partner (1 or 2) whose turn it is for ``game.to_move``."""
    hist = game.hist
    colours = [move_colour(hist.moves[k]) for k in range(1, hist.length)]
    colours.append(game.to_move)
    return partners(colours, game.penalties)[-1]
