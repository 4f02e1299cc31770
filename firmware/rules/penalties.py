"""A referee's decisions against a player: cautions, warnings, penalty points, forfeits, and the
rule set's penalty for an illegal placement (the code of ``Game.penalise``, ``warn``,
``apply_illegal`` and ``restore_penalty``, ending.py).

They are rare on a board, so their code is loaded for each decision and let go after
(``const.call_briefly``): a board's heap holds the game, not what a foul would run.
Each is logged in ``game.penalties``: (move number, colour, kind, value, reason).
"""

from .ending import CAUTION, FORFEIT, OVER, PLAYING, POINTS, WARNING
from .rulesets import ILLEGAL_LOSS, ILLEGAL_WARN


def penalise(game, colour, kind, value, reason):
    """``Game.penalise``."""
    if game.phase == OVER:
        raise ValueError("the game is over")
    if kind == CAUTION:
        game.cautions[colour] += 1
        _log(game, colour, CAUTION, game.cautions[colour], reason)
        per = game.rules.cautions_per_warning
        if per and game.cautions[colour] % per == 0:
            warn(game, colour, "cautions")
    elif kind == WARNING:
        warn(game, colour, reason)
    elif kind == POINTS and 0 < value < 1000:
        game.penalty_pts[colour] += value
        _log(game, colour, POINTS, value, reason)
    elif kind == FORFEIT:
        _log(game, colour, FORFEIT, 0, reason)
        game.foul(colour, "forfeit" if reason == "referee" else reason)
    else:
        raise ValueError("bad penalty")


def restore(game, k, colour, kind, value, reason):
    """``Game.restore_penalty``."""
    if kind == CAUTION:
        game.cautions[colour] = value
    elif kind == WARNING:
        game.warnings[colour] = value
    elif kind == POINTS:
        game.penalty_pts[colour] += value
    game.penalties.append((k, colour, kind, value, reason))


def warn(game, colour, detail):
    """``Game.warn``."""
    game.warnings[colour] += 1
    _log(game, colour, WARNING, game.warnings[colour], detail or "warnings")
    loss = game.rules.warning_loss
    if loss and game.warnings[colour] >= loss and game.phase != OVER:
        game.foul(colour, detail or "warnings")


def apply_illegal(game, colour, reason):
    """``Game.apply_illegal``."""
    penalty = game.rules.illegal
    if penalty == ILLEGAL_LOSS or game.op is not None:
        game.foul(colour, reason)
        return ILLEGAL_LOSS
    if penalty == ILLEGAL_WARN:
        if colour == game.to_move and game.phase == PLAYING:
            game.lose_turn(colour)
        warn(game, colour, reason)
    return penalty


def _log(game, colour, kind, value, reason):
    # (move number, colour, kind, value: the count so far or the points, reason)
    game.penalties.append((game.hist.length - 1, colour, kind, value, reason))
