"""The two front doors to the rules agree: the GTP arbiter (a tournament mode controller) and the
headless simulator (the whole board: hands, clock presses, sensors, referee, link, logger) play the
shared rules cases (tests/data/rules_cases.jsonl) to the same results, captures and boards.

The script for the board is what players would do: place each stone, lift what it captured, press
the clock (a press alone is a pass), lift a refused stone; at the count, lift the dead stones,
fill the dame where the rule set asks (Korean Art.7-2, Thai 9.2), then OK.
"""

import json

from sgfmill import sgf as sgfmod

from firmware.modes import TOURNAMENT
from firmware.rules.coords import vertex
from firmware.rules.game import COUNTING, OVER, PLAYING
from firmware.settings import Settings
from host_tools.gtp.arbiter import Arbiter
from host_tools.sim.headless import Simulation
from host_tools.sim.script import parse

from .conftest import DATA

STEP = 400  # ms between a player's actions: longer than the sensors' settle time


def shared_cases():
    cases = [json.loads(line) for line in (DATA / "rules_cases.jsonl").read_text().splitlines() if line.strip()]
    # (A stone on an occupied point is a GTP move no hand can make.)
    return [c for c in cases if not c.get("setup") and not c.get("handicap") and c["expect"].get("reason") != "occupied"]


def stones(game):
    return {p: c for p, c in enumerate(game.pos.cells) if c in (1, 2)}


class Script:
    """A physical event script, written as the arbiter's game goes."""

    def __init__(self, size):
        self.size = size
        self.t = 0
        self.lines = []

    def add(self, text):
        self.t += STEP
        self.lines.append("%d %s" % (self.t, text))

    def lift_gone(self, before, after):
        for p in sorted(before):
            if p not in after:
                self.add("lift " + vertex(self.size, p))


def play_both(case):
    """The arbiter's game after the case, and the script of the same game on the board."""
    size = case["size"]
    arbiter = Arbiter(rules=case["rules"], size=size, komi=case["komi"], tournament=True)
    game = arbiter.game
    script = Script(size)
    for colour, where in case["moves"]:
        if game.phase != PLAYING:
            break
        name = "black" if colour == "B" else "white"
        before = stones(game)
        answer = arbiter.handle("play %s %s" % (colour, where))
        if where.lower() != "pass":
            script.add("place %s %s" % (where, name))
            script.lift_gone(before, stones(game))
            if not answer.startswith("="):  # refused: the stone comes off again
                script.add("lift " + where)
        script.add("press " + name)
    if game.phase == COUNTING:
        before = stones(game)
        for v in case.get("dead", ()):
            arbiter.handle("mark_dead " + v)
        dead = game.counter().dead
        for p in sorted(before):
            if dead[p]:
                script.add("lift " + vertex(size, p))
        if game.rules.fill_dame:
            buf = bytearray(size * size + 4 * size + 8)
            colour = "black"
            for i in range(game.unfilled_dame(buf)):
                script.add("place %s %s" % (vertex(size, buf[i]), colour))
                colour = "white" if colour == "black" else "black"
        script.add("button ok")
    return arbiter, script


def test_the_board_and_the_gtp_arbiter_agree_on_the_shared_rules_cases():
    cases = shared_cases()
    failures = []
    for case in cases:
        arbiter, script = play_both(case)
        events, errors = parse(script.lines, case["size"])
        assert not errors, (case["id"], errors)
        settings = Settings(case["size"], case["rules"], case["komi"], 0, "absolute 99h")
        sim = Simulation(settings, TOURNAMENT, "polarity", board_id="t", record=True)
        sim.run(events)
        want = arbiter.handle("final_score").strip("= \n") if arbiter.game.phase in (COUNTING, OVER) else None
        got = sim.game.result.sgf() if sim.game.result is not None else None
        if got != want:
            failures.append("%s: board %s, arbiter %s (%s)" % (case["id"], got, want, sim.log[-3:]))
            continue
        if "result" in case["expect"] and got != case["expect"]["result"]:
            failures.append("%s: %s, the case says %s" % (case["id"], got, case["expect"]["result"]))
        played = [p for p, c in stones(sim.game).items()]
        if sorted(played) != sorted(stones(arbiter.game)) and not arbiter.game.rules.fill_dame:
            failures.append("%s: the boards differ" % case["id"])
        record = sgfmod.Sgf_game.from_bytes(sim.sgf())
        if want is not None and record.get_root().get("RE") != want:
            failures.append("%s: the SGF says %r" % (case["id"], record.get_root().get("RE")))
        moves = [n.get_move() for n in record.get_main_sequence()[1:]]
        arbiter_moves = sum(1 for k in range(1, arbiter.game.hist.length))
        if len(moves) < arbiter_moves:
            failures.append("%s: %d moves in the SGF, %d played" % (case["id"], len(moves), arbiter_moves))
    assert not failures, "\n".join(failures)
    assert len(cases) >= 18
