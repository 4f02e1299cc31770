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
    done = subprocess.run([sys.executable, "-m", "host_tools.teach", "review", str(path), "--level", "1", "--retry"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "the review is in" in done.stdout, done.stderr
    assert b"Tried on the board" in (tmp_path / "game-review.sgf").read_bytes()


def test_the_positions_are_retried_on_the_board_and_the_tries_become_variations(tmp_path):
    """The review's positions set up on the simulated board: the player first plays the game's own
    move again (wrong), then GNU Go's (right); both tries are variations in the reviewed record."""
    if default_engine() is None:
        pytest.skip("GNU Go is not installed (make test installs it)")
    import random

    from host_tools.play.board import Board
    from host_tools.play.sim import SimTable
    from host_tools.teach.retry import positions, with_tries
    from host_tools.teach.solving import Progress, Solving
    from host_tools.teach.student import RIGHT, WRONG, Student

    record = sgf.read(RECORD)
    with Engine(default_engine(1, 1)) as engine:
        swings = review(record, engine, count=2)
    problems = positions(record, swings)
    assert problems and problems[0].title == "Move %d" % swings[0].number
    student = Student(problems, random.Random(1), [WRONG, RIGHT] + [RIGHT] * len(problems), wrong=0)
    table = SimTable(1, student)
    solving = Solving(Board(table.port, table), problems, Progress(None), lambda _words: None, patience_s=60)
    assert solving.run(0) == len(problems)
    first = swings[0]
    assert [(title, verdict) for title, _moves, verdict in solving.tries][:2] == [
        ("Move %d" % first.number, "wrong"), ("Move %d" % first.number, "right")]
    assert solving.tries[0][1][0] == first.played and solving.tries[1][1][0] == first.better
    reviewed = sgfmill.Sgf_game.from_bytes(with_tries(RECORD, swings, solving.tries))
    parent = reviewed.get_main_sequence()[first.number - 1]
    said = {child.get_move(): child.get("C") for child in parent}
    game_move, gnugo_move = reviewed.get_main_sequence()[first.number].get_move(), parent[1].get_move()
    assert "Tried on the board: wrong" in said[game_move] and "Tried on the board: right" in said[gnugo_move]
    assert said[gnugo_move].startswith("GNU Go's move instead of")
