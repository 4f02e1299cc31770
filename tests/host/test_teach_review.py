"""GNU Go's review of a game (host_tools/teach/review.py): the moves that lost the most by its estimate,
its own move beside each as a variation, the game's own line left as it was."""

import subprocess
import sys

import pytest
from sgfmill import sgf as sgfmill

from host_tools import sgf
from host_tools.gtp.engine import Engine, default_engine
from host_tools.teach.review import annotate, lead, review

from .conftest import ROOT

RECORD = b"(;FF[4]GM[1]SZ[9]KM[7];B[ee];W[cc];B[gc];W[cg];B[gg];W[ec];B[aa];W[dd];B[ii];W[fd])"


def test_a_lead_is_read_from_the_engines_estimate():
    assert lead("W+10.8 (upper bound: 10.8, lower: 10.8)") == -10.8
    assert lead("B+3.5") == 3.5 and lead("0") == 0.0 and lead("") == 0.0


def test_the_moves_that_lost_most_get_gnugos_move_as_a_variation(tmp_path):
    if default_engine() is None:
        pytest.skip("GNU Go is not installed (make test installs it)")
    record = sgf.read(RECORD)
    with Engine(default_engine(1, 1)) as engine:
        swings = review(record, engine, count=2)
    assert swings and all(swing.lost > 0 for swing in swings)
    assert all(record.moves[swing.number - 1] == (swing.colour, swing.played) for swing in swings)
    reviewed = sgfmill.Sgf_game.from_bytes(annotate(RECORD, swings))
    main = [node.get_move() for node in reviewed.get_main_sequence()[1:]]
    assert main == [node.get_move() for node in sgfmill.Sgf_game.from_bytes(RECORD).get_main_sequence()[1:]]
    for swing in swings:
        parent = reviewed.get_main_sequence()[swing.number - 1]
        assert len(parent) == 2 and parent[1].get("C").startswith("GNU Go's move instead of")
        assert "GNU Go: this move lost about" in reviewed.get_main_sequence()[swing.number].get("C")
    path = tmp_path / "game.sgf"
    path.write_bytes(RECORD)
    done = subprocess.run([sys.executable, "-m", "host_tools.teach", "review", str(path), "--level", "1"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "the review is in" in done.stdout, done.stderr
    assert (tmp_path / "game-review.sgf").exists()
