"""The rules core stays faster than sgfmill on CPython (the host tools all run it): a same-process ratio.

bench/run.py prints the figures (target: 3x); this fails only on a regression below 1.5x, such as
modules compiled again inside every game or arrays rebuilt entry by entry.
"""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import run as bench  # noqa: E402


def test_game_play_is_at_least_one_and_a_half_times_sgfmills_board_play():
    sequences = bench.playable(bench.mp_rules._games(), "japanese")
    theirs = bench.best_of(5, bench.sgfmill_speed, sequences)
    ours = bench.best_of(5, bench.ours_speed, sequences, "japanese")
    assert ours[0] == theirs[0]
    ratio = (theirs[1] / theirs[0]) / (ours[1] / ours[0])
    assert ratio >= 1.5, "Game.play is %.2fx sgfmill's Board.play (at least 1.5x)" % ratio
