"""A tournament's stone refused, a player charged: the referee's rare decisions.

``judge`` (for a stone out of turn: the rule set's penalty, decided here;
for another stone that is not a legal move, the rule set's, which the game
applies) and the tournament clauses on captured and removed stones (Korean
regulations, Thai rules: a warning or the game; ``pressed``, ``left``,
``removed``) decide; the ``Referee`` (machine.py ``foul``, ``_refuse``)
applies what they decide. It loads this module only while it makes one of
these decisions (rules/const.py ``call_briefly``): the heap keeps none of it
while a game is played. A clause marks the captured stones it charged in
the comparison (``CHARGED_*``), so that each is charged once.
"""

from ..rules.history import DAME_FILL, LOST_TURN, SELF_CAPTURE, move_colour, move_point
from ..rules.rulesets import ILLEGAL_LOSS, ILLEGAL_REJECT
from .comparison import CHARGED_LEFT, CHARGED_PRESS
from .region import POINTS


def judge(game, colour, reason):
    """A tournament's stone of ``colour`` that is not a legal move, for ``reason``: (reason, an
    ILLEGAL_* penalty) for one out of turn, else (reason, None): the rule set's, which the game
    applies (Game.apply_illegal)."""
    if reason != "out_of_turn":
        return reason, None
    # Korean Art.19-1-1, Thai 20: two stones in a row loses (not a stone after one's own pass:
    # the opponent passed, as when play resumes after two passes, Thai 12.3); OP Art.2:
    # White moving first loses.
    hist = game.hist
    last = hist.moves[hist.length - 1]
    if game.op is not None and hist.length == 1:
        reason = "white_first"
    elif hist.length == 1 or move_colour(last) != colour or not move_point(last):
        reason = ""
    return reason, ILLEGAL_REJECT if not reason or game.rules.illegal == ILLEGAL_REJECT else ILLEGAL_LOSS


def pressed(referee, colour):
    """``colour`` pressed its clock with stones it captured still on the board (Korean
    Art.18-1-4, Thai 24): a warning, once for those stones. The charge, (colour, reason,
    loss), or None."""
    if _charged(referee.seen, 3 - colour, CHARGED_PRESS):
        return colour, "pressed_captures", False
    return None


def left(referee, colour):
    """``colour`` plays with stones it captured still on the board: Korean regulations
    19-1-3, the game; Thai 27, a warning (none if 24 already gave one). The charge, or None."""
    loss = referee.game.rules.illegal == ILLEGAL_LOSS
    if _charged(referee.seen, 3 - colour, CHARGED_LEFT if loss else CHARGED_LEFT | CHARGED_PRESS):
        return colour, "captures_left", loss
    return None


def _charged(seen, colour, clause):
    # Captured stones of ``colour`` still on the board (the comparison's ``pending``) not yet
    # charged under ``clause`` (a CHARGED_* bit): marked charged; how many.
    pending = seen.pending
    n = 0
    for p in range(POINTS):
        v = pending[p]
        if v & 3 == colour and not v & clause:
            pending[p] = v | clause
            n += 1
    return n


def removed(referee):
    """Stones missing that were not captured, and nothing else amiss. During a player's turn
    the hands on the board are that player's (the mover's until its press ends the move): the
    mover lifting its own stone just placed is warned (Korean regulations 18-1-2, Thai 21);
    the player lifting the opponent's live stones is charged (Korean 19-1-2: the game; Thai 27:
    a warning); its own other stones only go back. Charged once until the board matches
    again; they go back either way. The charge, or None."""
    seen = referee.seen
    game = referee.game
    hist = game.hist
    last = hist.moves[hist.length - 1]
    mover = move_colour(last)
    game_of = referee.region.game_of
    placed = move_point(last)
    if (seen.nmissing == 1 and placed and not last & (LOST_TURN | SELF_CAPTURE | DAME_FILL)
            and game_of[seen.missing[0]] == placed and (not referee.timed or referee.awaiting_press == mover)):
        return mover, "took_back", False
    actor = referee.awaiting_press or game.to_move
    cells = game.pos.cells
    for i in range(seen.nmissing):
        if cells[game_of[seen.missing[i]]] == actor:
            return None  # its own stone: put back, no clause
    return actor, "removed_stone", game.rules.illegal == ILLEGAL_LOSS
