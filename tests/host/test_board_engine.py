"""The board as a GTP engine (``python -m host_tools.gtp --board sim``): whole 9x9 games against GNU Go
driven by Sabaki's own GTP controller (@sabaki/gtp, tests/tools/gtp_match.mjs), the board's logged
record equal to the controller's game and both final scores agreeing; and what a controller meets
on the way: the board's own colour refused to ``play``, a takeback on the board sent again, the
referee's undo, a resignation from the board's controls, a game left for a new one.
"""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from sgfmill import sgf

from firmware.referee.states import PLAY
from firmware.rules.coords import parse_vertex
from host_tools.gtp.board_engine import BoardEngine
from host_tools.gtp.engine import default_engine
from host_tools.play.board import Board
from host_tools.play.sim import Moves, SimTable
from host_tools.sim.script import Event

ROOT = Path(__file__).resolve().parents[2]


def match(black, white, size=9, komi=7):
    """One game through Sabaki's controller: its JSON (moves, scores, dead stones, the board's SGF)."""
    out = subprocess.run(["node", str(ROOT / "tests" / "tools" / "gtp_match.mjs"), "--size", str(size),
                          "--komi", str(komi), "--black", black, "--white", white, "--sgf-from", "white"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.stdout, out.stderr[-2000:]
    return json.loads(out.stdout.splitlines()[-1])


def board_engine(seed, hands):
    return f"{sys.executable} -m host_tools.gtp --board sim --seed {seed} --patience 600 --sim-hands {hands}"


def score(text):
    """A result's margin, signed (B+ positive): "B+12.0" and "B+12" are the same count."""
    if text[:2] in ("B+", "W+") and text[2:] not in ("R", "T", "F"):
        return float(text[2:]) * (1 if text[0] == "B" else -1)
    return text


@pytest.mark.parametrize("seed, hands", [(1, "gtp"), (2, "gtp"), (3, "random")])
def test_gnugo_against_the_board_through_sabakis_controller(seed, hands):
    if default_engine() is None:
        pytest.skip("GNU Go is not installed (make test installs it)")
    person = f"gtp '{default_engine(1, seed + 100)}'" if hands == "gtp" else "random"
    game = match(default_engine(1, seed), board_engine(seed, person))
    assert "error" not in game, game
    record = sgf.Sgf_game.from_string(game["sgf"])  # the board's record, as its logger writes it
    logged = [(colour.upper(), "PASS" if move is None else _gtp(move))
              for colour, move in (node.get_move() for node in record.get_main_sequence()[1:])]
    assert logged == [tuple(m.split()) for m in game["moves"]]
    if game["result"] is None:
        assert record.get_root().get("RE") == game["score"]["W"]
        if hands == "gtp":  # the person judges the dead stones as GNU Go does: the same count
            assert score(game["score"]["B"]) == score(game["score"]["W"]), game["score"]
            assert sorted(game["dead"]["B"]) == sorted(game["dead"]["W"])


def _gtp(move):
    row, col = move
    return "ABCDEFGHJ"[col] + str(row + 1)


def engine_on_sim(seed=4, moves=()):
    table = SimTable(seed, Moves(list(moves), random.Random(seed)))
    engine = BoardEngine(Board(table.port, table), patience_s=120)
    for line in ("boardsize 9", "komi 7"):
        assert engine.handle(line) == "=\n\n"
    return table, engine


def test_what_a_controller_meets_on_the_way():
    table, engine = engine_on_sim(moves=[(1, parse_vertex(9, "E5"))])
    assert engine.handle("genmove B") == "= E5\n\n"  # the person's first stone
    assert engine.handle("play B D4").startswith("? the board plays B")
    assert engine.handle("play W D4") == "=\n\n"
    board = engine.board
    assert board.game.moves[-1][:2] == (2, parse_vertex(9, "D4"))
    # The person lifts the opponent's stone once placed (a casual takeback): genmove sends it again.
    assert board.wait(5.0, lambda: table.sim.app.referee.state == PLAY)
    table.hands.busy_until = 10 ** 9  # (the person's hands wait)
    table.sim.apply(Event(table.sim.now, "lift", point=board.game.moves[-1][1]))
    board.wait(1.0)
    assert len(board.game.moves) == 1
    table.hands.busy_until = 0
    answer = engine.handle("genmove B")
    assert answer.startswith("= ") and len(board.game.moves) == 3, answer
    assert engine.handle("undo") == "=\n\n" and len(board.game.moves) == 2  # the referee's take-back
    table.hands.busy_until = 10 ** 9
    board.wait(2.0)
    table.sim.apply(Event(table.sim.now, "button", name="resign_black"))
    assert engine.handle("genmove B") == "= resign\n\n"
    table.hands.busy_until = 0
    assert engine.handle("clear_board") == "=\n\n" and engine.handle("genmove B").startswith("= ")
    assert board.game.gid == 3  # a new game on the board


def test_the_sim_hands_play_an_sgf_and_refuse_what_they_cannot(tmp_path):
    from host_tools.play.connect import brain

    record = tmp_path / "game.sgf"
    record.write_text("(;FF[4]GM[1]SZ[9];B[ee];W[cc];B[gc])")
    table, engine = engine_on_sim()
    table.hands.brain = brain(["sgf", str(record)])
    assert engine.handle("genmove B") == "= E5\n\n"
    assert engine.handle("play W C7") == "=\n\n"
    assert engine.handle("genmove B") == "= G7\n\n"  # (its colour's moves, in order)
    with pytest.raises(ValueError, match="cannot read"):
        brain(["sgf", str(tmp_path / "none.sgf")])
    with pytest.raises(ValueError, match="'random', 'sgf FILE' or 'gtp COMMAND'"):
        brain(["sgf"])
