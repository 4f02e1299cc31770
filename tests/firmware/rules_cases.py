"""Run the rules cases of tests/data/rules_cases.jsonl against the rules core.

Shared by the CPython and the MicroPython test runs, so it uses only what
MicroPython has (json, no pytest). ``run_case`` returns a list of failure
messages (empty when the case passes).
"""

import json

from firmware.rules.coords import PASS, parse_vertex
from firmware.rules.game import COUNTING, Game, IllegalMove
from firmware.rules.position import BLACK, WHITE
from firmware.rules.rulesets import ILLEGAL_LOSS, ILLEGAL_WARN, by_name
from host_tools.board.rules import diagram, parse_colour

PENALTIES = {"loss": ILLEGAL_LOSS, "lose_turn+warning": ILLEGAL_WARN}


def load_cases(path):
    cases = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                cases.append(json.loads(line))
    return cases


def new_game(case):
    size = case["size"]
    game = Game(size, case["rules"], komi=case.get("komi"))
    setup = case.get("setup", {})
    black = [parse_vertex(size, v) for v in setup.get("B", [])]
    white = [parse_vertex(size, v) for v in setup.get("W", [])]
    if case.get("handicap") and black and not white:
        game.place_handicap(black)
    elif black or white:
        first = case["moves"][0][0] if case["moves"] else "B"
        game.setup(black, white, parse_colour(first))
    return game


def play_case(case, game=None):
    """Play the case's moves. Returns (game, illegal index or None, IllegalMove or None, game over index or None)."""
    game = game or new_game(case)
    size = case["size"]
    expect = case["expect"]
    over_at = None
    for i, (colour_name, where) in enumerate(case["moves"]):
        colour = parse_colour(colour_name)
        pt = PASS if where == "pass" else parse_vertex(size, where)
        try:
            game.play(colour, pt)
        except IllegalMove as e:
            if "illegal_at" in expect:
                return game, i, e, over_at
            game.apply_illegal(colour, e.reason)
        if game.phase != 0 and over_at is None:
            over_at = i
            break
    return game, None, None, over_at


def count_case(game, case):
    """Mark the case's dead stones and finish a game stopped by passes."""
    for v in case.get("dead", []):
        game.mark_dead(parse_vertex(case["size"], v))
    return game.finish()


def check_case(case):
    """Failures of one case, as messages (empty when it passes)."""
    fails = []
    expect = case["expect"]
    game, illegal_at, error, over_at = play_case(case)
    score = None
    if game.phase == COUNTING and ("score" in expect or "result" in expect):
        score = game.count()
        count_case(game, case)
    name = case["id"] + ": "
    if "illegal_at" in expect:
        if illegal_at != expect["illegal_at"]:
            fails.append(name + "illegal at %s, expected %s" % (illegal_at, expect["illegal_at"]))
        elif error.reason != expect["reason"]:
            fails.append(name + "reason %s, expected %s" % (error.reason, expect["reason"]))
        if "penalty" in expect and by_name(case["rules"]).illegal != PENALTIES[expect["penalty"]]:
            fails.append(name + "penalty is not " + expect["penalty"])
    elif illegal_at is not None:
        fails.append(name + "unexpected illegal move %d: %s" % (illegal_at, error.reason))
    if "game_over_at" in expect and over_at != expect["game_over_at"]:
        fails.append(name + "game over at %s, expected %s" % (over_at, expect["game_over_at"]))
    if "captures" in expect:
        got = {"B": game.captures[BLACK], "W": game.captures[WHITE]}
        if got != expect["captures"]:
            fails.append(name + "captures %s, expected %s" % (got, expect["captures"]))
    if "board" in expect and diagram(game.pos) != expect["board"]:
        fails.append(name + "board\n" + "\n".join(diagram(game.pos)))
    if "stones_left" in expect:
        got = {"B": game.op.supply[BLACK], "W": game.op.supply[WHITE]}
        if got != expect["stones_left"]:
            fails.append(name + "stones left %s, expected %s" % (got, expect["stones_left"]))
    if "isolated" in expect:
        got = {"B": game.op.isolated[BLACK], "W": game.op.isolated[WHITE]}
        if got != expect["isolated"]:
            fails.append(name + "isolated %s, expected %s" % (got, expect["isolated"]))
    if "score" in expect:
        got = None if score is None else {"B": score.points[BLACK], "W": score.points[WHITE]}
        if got != expect["score"]:
            fails.append(name + "score %s, expected %s" % (got, expect["score"]))
    if "result" in expect:
        got = game.result.sgf() if game.result is not None else None
        if got != expect["result"]:
            fails.append(name + "result %s, expected %s" % (got, expect["result"]))
    return fails
