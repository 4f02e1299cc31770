"""The players' simulator in make test: its kept scripts replayed, and a bounded run of seeded games.

Every script in tests/data/player_seeds/ is a game the simulator found breaking an invariant,
shrunk (host_tools/sim/shrink.py), its header naming the settings, the invariant and the
issue item it shows (``# item: 2``, or ``# item: NEW-...``). Each is replayed with every
invariant checked after every loop pass: it must break none. The bounded run fails on any
violation, with the seed to shrink (``python -m host_tools.sim.fuzz --games 1 --seed S --out
DIR``): a shrunk script goes into tests/data/player_seeds/ with its fix.
"""

from pathlib import Path

import pytest

from host_tools.sim.fuzz import run
from host_tools.sim.replay import read, replay

from .conftest import DATA

SEEDS = sorted((DATA / "player_seeds").glob("*.script"))
GAMES = 150  # the bounded run: seeds 0..149; make bench plays 20,000 more


def test_there_are_kept_scripts():
    assert SEEDS, "tests/data/player_seeds/ has no scripts"


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.stem)
def test_kept_script_breaks_no_invariant(path: Path):
    table, lines, header = read(path.read_text())
    assert "invariant" in header and "item" in header, "a kept script names its invariant and item"
    violations = replay(table, lines).violations
    assert not violations, violations


def test_bounded_run_breaks_no_invariant():
    summary, _ = run(GAMES, seed=0, keep=True)
    found = summary["found"]
    assert not found, "\n".join("seed %d: %s: %s" % (seed, v[0], v[2]) for seed, v in found[:20])
