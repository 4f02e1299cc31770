"""What a repeated position does to a game under a simple-ko rule set: the same board with the
same player to move for the third time since the last pass (``Game.play`` finds it) ends the
game as the rule set says (Korean Art.9: a draw; Japanese, Chinese: no result) or lets the
players agree to a draw (Thai 11: ``Game.cycle``, then ``Game.agree_draw``).

Cycles are rare: the board loads this when one happens and lets it go after
(``const.call_briefly``).
"""

from .ending import PLAYING
from .result import CYCLE, DRAW, Result
from .rulesets import CYCLE_AGREE, CYCLE_DRAW


def judge(game):
    """The game's third repetition: what the rule set makes of it."""
    cycle = game.rules.cycle
    if cycle == CYCLE_DRAW:
        game.end(Result(DRAW, CYCLE, 0, "repetition"))
    elif cycle == CYCLE_AGREE:
        game.cycle = True
    else:
        game.end(Result(None, CYCLE, 0, "repetition"))


def agree_draw(game):
    """``Game.agree_draw``."""
    if not game.cycle or game.phase != PLAYING:
        raise ValueError("no repetition to agree on")
    game.end(Result(DRAW, CYCLE, 0, "agreed"))
