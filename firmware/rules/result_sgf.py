"""A Result read from an SGF ``RE`` value, the inverse of ``Result.sgf()``: the host's ``end``
command and the logger read results. Apart from result.py, which the board holds for its
game: the board loads this for an ``end`` and lets it go (``const.call_briefly``).
"""

from .result import BOTH_LOSE, CYCLE, DRAW, FOUL, NO_POINTS, RESIGN, SCORE, TIME, Result


def parse_sgf(text, detail=""):
    """A Result from an SGF RE value ("B+R", "W+3.5", "0", "Void"...) and its ``detail`` (an END
    line's ``why``: "host" for the host's ``end``), the inverse of ``Result.sgf()``; None when
    the text is not one."""
    if text == "Void":
        return Result(None, CYCLE, 0, detail)
    if text == "Both lose":  # (OP Art.9-3 when the board counted it; else a referee's decision)
        return Result(BOTH_LOSE, FOUL if detail == "host" else NO_POINTS, 0, detail)
    if text in ("0", "Draw", "Jigo"):  # (a cycle's draw says so in its detail: rules/cycles.py)
        return Result(DRAW, CYCLE if detail in ("repetition", "agreed") else SCORE, 0, detail)
    if len(text) < 2 or text[0] not in "BW" or text[1] != "+":
        return None
    winner = 1 if text[0] == "B" else 2
    if len(text) == 2:  # a win with no score: capture Go's (rules/game.py), else OP Art.9-3's
        return Result(winner, "captures" if detail == "captures" else NO_POINTS, 0, detail)
    rest = text[2:]
    reasons = {"R": RESIGN, "Resign": RESIGN, "T": TIME, "Time": TIME, "F": FOUL, "Forfeit": FOUL}
    if rest in reasons:
        return Result(winner, reasons[rest], 0, detail)
    try:
        margin = float(rest)
    except ValueError:
        return None
    if not 0 < margin <= 10000:  # a winner's margin (nan and inf fail too)
        return None
    return Result(winner, SCORE, round(margin * 2), detail)
