"""What the clock display says in words: a game's result, and what the players are told of at once
(a pass, a warning, a lost turn, play resumed, a referee's penalty), in two short lines (the loop's
show_clock). The page and the record say it in full (host_tools/board/words.py, messages.py).
"""

from ..events import EV_PASS, EV_PENALTY, EV_REFEREE, EV_RESUME_PLAY
from ..rules.game import COUNTING
from ..rules.result import BOTH_LOSE, DRAW, FOUL, RESIGN, SCORE, TIME

_REFEREE_KINDS = ("CAUTION", "WARNING", "PENALTY POINTS", "FORFEIT")  # rules/ending.py PENALTY_KINDS order

_SHORT_FOULS = {  # a foul's reason, in 14 capitals at most
    "out_of_turn": "2 MOVES IN ROW", "removed_stone": "REMOVED STONES", "captures_left": "CAPTURES LEFT",
    "ko": "KO RETAKE", "suicide": "SUICIDE", "occupied": "OCCUPIED POINT", "superko": "SUPERKO",
    "place_remove": "PLACE-REMOVE", "warnings": "WARNINGS", "late": "LATE"}


def result_lines(result):
    """The result in two lines of at most 16 capitals for the clock display."""
    if result is None or result.winner is None:
        return "NO RESULT", "VOID"
    winner = result.winner
    if winner == BOTH_LOSE:
        return "BOTH LOSE", "NO POINTS" if result.reason != FOUL else "REFEREE"
    if winner == DRAW:
        return "DRAW", "JIGO" if result.reason == SCORE else "REPETITION"
    side = "BLACK" if winner == 1 else "WHITE"
    reason = result.reason
    if reason == SCORE:
        return side + " WINS", "BY %s" % result.margin
    if reason == RESIGN:
        return side + " WINS", "BY RESIGNATION"
    if reason == TIME:
        return side + " WINS", "ON TIME"
    if reason == FOUL:
        loser = "BLACK" if winner == 2 else "WHITE"
        return loser + " FOUL", _SHORT_FOULS.get(result.detail, "FOUL")
    return side + " WINS", "FIRST CAPTURES" if reason == "captures" else ""  # (capture Go: rules/game.py)


def notice_lines(referee):
    """The notice standing (``Referee.notify``) in two lines of at most 16 capitals."""
    colour = referee.notice_colour
    side = "BLACK" if colour == 1 else "WHITE"
    kind = referee.notice
    game = referee.game
    if kind == EV_PASS:
        if game.phase == COUNTING:
            return "BOTH PASSED", "COUNTING"
        return side + " PASSES", "PASS AGAIN: END"
    if kind == EV_RESUME_PLAY:
        return "PLAY RESUMED", side + " FIRST"
    if kind == EV_REFEREE:
        return "REFEREE: " + side, _REFEREE_KINDS[referee.notice_value]
    limit = game.rules.warning_loss
    count = "WARNING %d OF %d" % (game.warnings[colour], limit) if limit else "WARNING"
    return side + " WARNED", "TURN LOST" if kind == EV_PENALTY else count
