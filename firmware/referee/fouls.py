"""A tournament's stone refused, a player charged: the referee's rare decisions.

``penalise`` (the rule set's penalty for a stone that is not a legal move,
the stone shown by the referee) and the tournament clauses on captured and removed stones
(Korean regulations, Thai rules: a warning or the game; ``pressed``,
``left``, ``removed``) are the ``Referee``'s
(machine.py), which loads this module only while it makes one of these
decisions (rules/const.py ``call_briefly``): the heap keeps none of it
while a game is played. Both read and write the referee's state as its own
methods would.
"""

from ..events import EV_PENALTY, EV_WARNING
from ..rules.coords import PASS
from ..rules.history import DAME_FILL, LOST_TURN, SELF_CAPTURE, move_colour, move_point
from ..rules.rulesets import ILLEGAL_LOSS, ILLEGAL_REJECT, ILLEGAL_WARN
from .comparison import CHARGED_LEFT, CHARGED_PRESS
from .machine import reason_index
from .region import POINTS


def penalise(referee, p, colour, reason, now_ms):
    """A tournament's stone at physical point p that is not a legal move (the referee shows
    it): the rule set's penalty."""
    game = referee.game
    if reason == "out_of_turn":
        # Korean Art.19-1-1, Thai 20: two stones in a row loses (not a stone after one's own pass:
        # the opponent passed, as when play resumes after two passes, Thai 12.3); OP Art.2:
        # White moving first loses.
        hist = game.hist
        last = hist.moves[hist.length - 1]
        if game.op is not None and hist.length == 1:
            reason = "white_first"
        elif hist.length == 1 or move_colour(last) != colour or not move_point(last):
            reason = ""
        penalty = ILLEGAL_REJECT if not reason or game.rules.illegal == ILLEGAL_REJECT else ILLEGAL_LOSS
        if penalty == ILLEGAL_LOSS:
            game.foul(colour, reason)
    else:
        penalty = game.apply_illegal(colour, reason)
    if penalty != ILLEGAL_REJECT:
        referee.events.add(EV_PENALTY, colour, referee.region.game_of[p], penalty, now_ms)
    if penalty == ILLEGAL_WARN:  # (a warning and the turn lost: the players are told)
        referee.notify(EV_PENALTY, colour, reason_index(reason))
    if penalty == ILLEGAL_WARN:
        # Thai 28, 29: the turn is lost; the offender's press hands the clock over.
        referee.awaiting_press = colour if referee.timed else 0
    referee.after_game_change(now_ms)


def pressed(referee, colour, now_ms):
    """``colour`` pressed its clock with stones it captured still on the board (Korean
    Art.18-1-4, Thai 24): a warning, once for those stones."""
    if _charged(referee.seen, 3 - colour, CHARGED_PRESS):
        charge(referee, colour, "pressed_captures", False, now_ms)


def left(referee, colour, now_ms):
    """``colour`` plays with stones it captured still on the board: Korean regulations
    19-1-3, the game; Thai 27, a warning (none if 24 already gave one). True if it lost."""
    loss = referee.game.rules.illegal == ILLEGAL_LOSS
    if _charged(referee.seen, 3 - colour, CHARGED_LEFT if loss else CHARGED_LEFT | CHARGED_PRESS):
        charge(referee, colour, "captures_left", loss, now_ms)
        return loss
    return False


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


def charge(referee, colour, reason, loss, now_ms):
    """``colour`` broke a tournament clause on captured or removed stones: it loses the
    game (``loss``) or is warned."""
    game = referee.game
    if loss:
        game.foul(colour, reason)
        referee.events.add(EV_PENALTY, colour, PASS, ILLEGAL_LOSS, now_ms)
    else:
        referee.events.add(EV_WARNING, colour, PASS, reason_index(reason), now_ms)
        referee.notify(EV_WARNING, colour, reason_index(reason))
        game.warn(colour, reason)
    referee.after_game_change(now_ms)


def removed(referee, now_ms):
    """Stones missing that were not captured, and nothing else amiss. During a player's turn
    the hands on the board are that player's (the mover's until its press ends the move): the
    mover lifting its own stone just placed is warned (Korean regulations 18-1-2, Thai 21);
    the player lifting the opponent's live stones is charged (Korean 19-1-2: the game; Thai 27:
    a warning); its own other stones only go back. Charged once until the board matches
    again; they go back either way. True if charged."""
    seen = referee.seen
    game = referee.game
    hist = game.hist
    last = hist.moves[hist.length - 1]
    mover = move_colour(last)
    game_of = referee.region.game_of
    placed = move_point(last)
    if (seen.nmissing == 1 and placed and not last & (LOST_TURN | SELF_CAPTURE | DAME_FILL)
            and game_of[seen.missing[0]] == placed and (not referee.timed or referee.awaiting_press == mover)):
        referee.removal_charged = True
        charge(referee, mover, "took_back", False, now_ms)
        return True
    actor = referee.awaiting_press or game.to_move
    cells = game.pos.cells
    for i in range(seen.nmissing):
        if cells[game_of[seen.missing[i]]] == actor:
            return False  # its own stone: put back, no clause
    referee.removal_charged = True
    charge(referee, actor, "removed_stone", game.rules.illegal == ILLEGAL_LOSS, now_ms)
    return True


def pressed_pushed(referee, colour, now_ms):
    """``colour`` pressed its clock with a stone pushed off its point (Korean regulations
    18-1-3): a warning."""
    charge(referee, colour, "pushed_stone", False, now_ms)


def pressed_together(referee, colour, now_ms):
    """``colour`` placed its stone and pressed its clock together (Thai 23): a warning."""
    charge(referee, colour, "pressed_together", False, now_ms)
