"""What the clock display says when a game is over: the result in two short lines.

Loaded only while a result is put into words (App.show_clock, call_briefly:
code costs a Pico's heap); the page and the record say it in full
(firmware/referee/words.py).
"""

from ..rules.result import BOTH_LOSE, DRAW, FOUL, RESIGN, SCORE, TIME

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
        return "BOTH LOSE", "NO POINTS"
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
    return side + " WINS", ""
