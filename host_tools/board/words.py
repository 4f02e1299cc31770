"""Results and fouls in words: the page's and the record's long form.

``result_words(result, rules)``: "White wins by 3.5 points", "Black wins on
time", "Black loses by a foul: immediate ko retake (Korean regulations
19-1-5)": the page and the logger's SGF say a result through here (the clock
display's two short lines are firmware/clock/verdict.py's).
"""

from firmware.rules.result import BOTH_LOSE, CYCLE, DRAW, FOUL, NO_POINTS, RESIGN, SCORE, TIME, half_points

# A foul's reason (rules/ending.py ``foul`` detail) -> what the player did.
FOULS = {
    "out_of_turn": "two moves in a row",
    "removed_stone": "removing stones that were not captured",
    "captures_left": "leaving captured stones on the board",
    "occupied": "a stone on an occupied point",
    "suicide": "a move on a forbidden point (suicide)",
    "ko": "immediate ko retake",
    "superko": "a move repeating an earlier position (superko)",
    "place_remove": "a move breaking the place-remove rule",
    "filled_chain": "a move before the chain without liberties was removed",
    "warnings": "too many warnings",
    "cautions": "too many warnings",
    "late": "arriving too late",
    "wrong_order": "a third move out of the pair order",
    "forfeit": "the referee's decision",
    "annihilation": "no stones left on the board",
    "took_back": "taking back a stone placed",
    "pressed_captures": "pressing the clock before lifting the captured stones",
    "pushed_stone": "pressing the clock with a stone pushed",
    "pressed_together": "placing a stone and pressing the clock together",
    "white_first": "White moving first",
    "black_first_pass": "Black passing on the first move",
}
# The clause each rule set's text gives for a foul (a loss at once, or the warning that lost) or a warning.
CLAUSES = {
    "korean": {"out_of_turn": "Korean regulations 19-1-1", "removed_stone": "Korean regulations 19-1-2",
               "captures_left": "Korean regulations 19-1-3", "occupied": "Korean regulations 19-1-4",
               "suicide": "Korean regulations 19-1-4", "ko": "Korean regulations 19-1-5",
               "warnings": "Korean regulations 19-1-9", "pressed_captures": "Korean regulations 18-1-4",
               "took_back": "Korean regulations 18-1-2", "pushed_stone": "Korean regulations 18-1-3",
               "cautions": "Korean regulations 18-1-7"},
    "thai": {"out_of_turn": "Thai rules 20", "wrong_order": "Thai rules 16.5.3", "late": "Thai rules 14",
             "pressed_captures": "Thai rules 24", "captures_left": "Thai rules 27", "removed_stone": "Thai rules 27",
             "took_back": "Thai rules 21", "pressed_together": "Thai rules 23", "ko": "Thai rules 28",
             "suicide": "Thai rules 29"},
    "op": {"place_remove": "OP rules Art.4", "annihilation": "OP rules Art.9", "white_first": "OP rules Art.2",
           "black_first_pass": "OP rules Art.2"},
}


def _side(colour):
    return "Black" if colour == 1 else "White"


def _points(margin2):
    return "%s point%s" % (half_points(margin2), "" if margin2 == 2 else "s")


def foul_words(reason, rules_name="", warned=False):
    """A foul in words with the rule text's clause when it has one: "immediate ko retake
    (Korean regulations 19-1-5)". ``warned``: it was the warning that lost the game."""
    what = FOULS.get(reason, reason.replace("_", " "))
    clauses = CLAUSES.get(rules_name, {})
    if warned and reason not in ("warnings", "cautions"):
        what = "a last warning, for " + what
        clause = clauses.get("warnings") or ("Thai rules 39" if rules_name == "thai" else "")
    else:
        clause = clauses.get(reason, "")
    return what + (" (" + clause + ")" if clause else "")


def result_words(result, rules_name="", warned=False, capture_goal=1):
    """The result as a sentence (see the module doc); ``warned``: a foul's loser lost on warnings;
    ``capture_goal``: capture Go's stones to capture (the game's ``captures`` field)."""
    if result is None:
        return "game in progress"
    winner = result.winner
    if winner is None:
        return "no result (the game was voided)"
    if winner == BOTH_LOSE:
        if result.reason == NO_POINTS:
            return "both players lose: neither has points (OP rules Art.9-3)"
        return "both players lose: the referee's decision" + (" (Thai rules 40)" if rules_name == "thai" else "")
    if winner == DRAW:
        if result.reason == CYCLE:
            if result.detail == "agreed":
                return "a draw agreed after the position repeated" + (
                    " (Thai rules 11.1)" if rules_name == "thai" else "")
            return "a draw: the position repeated" + (" (Korean rules Art.9)" if rules_name == "korean" else "")
        if result.detail == "host":
            return "a draw: the referee's decision"
        return "a draw (jigo): the count is even"
    side = _side(winner)
    reason = result.reason
    if reason == SCORE:
        return "%s wins by %s" % (side, _points(result.margin2))
    if reason == RESIGN:
        return "%s wins by resignation" % side
    if reason == TIME:
        return "%s wins on time" % side
    if reason == FOUL:
        return "%s loses by a foul: %s" % (_side(3 - winner), foul_words(result.detail or "forfeit", rules_name, warned))
    if reason == NO_POINTS:
        return "%s wins: the opponent has no points (OP rules Art.9-3)" % side
    if reason == "captures":  # (rules/game.py: capture Go)
        return "%s wins at capture Go, the first to capture %s" % (side, _stones(capture_goal))
    return "%s wins" % side


def _stones(n):
    return "1 stone" if n == 1 else "%d stones" % n


def game_result_words(game):
    """A finished game's result in words (a foul's loser who reached the rule set's
    warnings lost on them)."""
    result = game.result
    loser = 3 - result.winner if result.winner in (1, 2) else 0
    limit = game.rules.warning_loss
    return result_words(result, game.rules.name, bool(loser and limit and game.warnings[loser] >= limit),
                        game.captures[0])
