"""The referee's other controls: pass, undo, resign, ok, draw, resume (``Referee.button``, machine.py).

``button`` reads and writes the referee's state as its own method would, after the counting
work under way is done.
"""

from ..events import EV_RESIGN, EV_RESUME_PLAY
from ..modes import TOURNAMENT
from ..rules.coords import PASS
from ..rules.game import OVER as GAME_OVER
from .states import COUNTING, PLAY


def button(referee, name, now_ms):
    """``name``: "pass", "undo", "resign_black", "resign_white", "ok" (finish counting),
    "resume", "draw" (a draw offered after a repetition, Thai 11.1). True if something
    happened."""
    game = referee.game
    if name == "pass":
        if referee.state == PLAY and not referee.awaiting_press:
            referee.pass_turn(game.to_move, now_ms)
            return True
        return False
    if name == "undo":
        if referee.takeback(now_ms):
            return True
        if referee.state == PLAY:  # the message says why not
            referee.reason = "no_takeback" if referee.mode == TOURNAMENT else "nothing_to_undo"
        elif referee.state == COUNTING:
            referee.reason = "counting_undo"
        return False
    if name == "resign_black" or name == "resign_white":
        if game.phase == GAME_OVER:
            return False
        colour = 1 if name == "resign_black" else 2
        game.resign(colour)
        referee.events.add(EV_RESIGN, colour, PASS, 0, now_ms)
        referee.after_game_change(now_ms)
        return True
    if name == "ok" and referee.state == COUNTING:
        # The count shown is the board's as it stands (button() finished the work under way first): the
        # result is its score, not a count again. Korean Art.7-2, Thai 9.2: dame are filled
        # before the count (the LEDs show them). Only how many are open matters: they are
        # listed in the comparison's missing-stones list, which is compared again at once.
        counter = game.counter()
        if game.rules.fill_dame and counter.unfilled_dame(referee.seen.missing):
            referee.reason = "dame_open"
            referee.compare()
            return False
        game.finish(counter.score)
        referee.after_game_change(now_ms)
        return True
    if name == "draw" and game.cycle and referee.state == PLAY:
        # Thai 11.1: after a repetition, a draw if both agree: MENU offers it, each player's
        # clock press agrees (referee.press), a stone plays on.
        referee.draw_offer = True
        referee.draw_votes = 0
        return True
    if name == "resume" and referee.state == COUNTING:
        # Play resumes from the count: a press still owed for the move that stopped play (an
        # OP cycle ends play on a move) is owed no more.
        game.resume()
        referee.awaiting_press = 0
        referee.events.add(EV_RESUME_PLAY, game.to_move, PASS, 0, now_ms)
        referee.notify(EV_RESUME_PLAY, game.to_move)
        referee.after_game_change(now_ms)
        return True
    return False
