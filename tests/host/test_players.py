"""The players' simulator in make test: its kept scripts replayed, and a bounded run of seeded games.

Every script in tests/data/player_seeds/ is a game the simulator found breaking an invariant,
shrunk (host_tools/sim/shrink.py), its header naming the settings, the invariant and the
issue item it shows (``# item: 2``, or ``# item: NEW-...``). Each is replayed with every
invariant checked after every loop pass: it must break none. While its item is still OPEN
below, the test is an expected failure, strictly: once the fix lands the test passes
unexpectedly and fails, so the one who fixed it removes the item from OPEN. The bounded run
plays the same way: a violation of a kind an OPEN item explains makes it an expected
failure (it says which), any other violation fails it, with the seed to shrink
(``python -m host_tools.sim.fuzz --games 1 --seed S --out DIR``).
"""

import re
from pathlib import Path

import pytest

from host_tools.sim.fuzz import run
from host_tools.sim.invariants import AFTER_CLOCK, kind
from host_tools.sim.replay import read, replay

from .conftest import DATA

SEEDS = sorted((DATA / "player_seeds").glob("*.script"))
GAMES = 150  # the bounded run: seeds 0..149 (about 25 s on one core); make bench plays 20,000 more

# Issue 36's items the firmware still shows, with the kinds of violation each explains (regular
# expressions over invariants.kind). Remove an item when its fix lands.
OPEN = {
    "1": ("agreeing the count: referee/messages.py _side(votes) with votes == 3",
          [r"^message: the message raised IndexError\('tuple index out of range'\) \(referee state _, votes _\)"]),
    "2": ("a takeback in a clocked game leaves the clock running for the other side",
          [r"^clock: _'s clock runs while _ is to move \(after: (button undo|press menu|lift _) # _ (takeback|taken back)\)"]),
    "3": ("a refusal's words lose the names once the awaited press comes",
          [r"^message: a name left out: 'not accepted at _: +has not pressed"]),
    "4": ("a stone removed is charged by its colour, not to the player who acted",
          [r"^penalty: (foul|warning removed_stone|lost by a foul \(removed_stone\)) charged to _ \(_\), but only _ acted "
           r"\(after: (lift _|place _( _)?) # _ knocked\)"]),
    "5": ("a press before the clock has started only starts it: the move is not ended, the reply refused",
          [r"^clock: _'s clock runs while _ is to press \(after: press _ # _( wrong side)?\)",
           r"^record: the board's game differs from the players' from move _: the board has nothing, the players "
           r"played _ _ \(after: (press _ # _|hover _ _ # _|host clock resume # host|lift _ # _ early)\)"]),
    "6": ("a stone by the second passer resuming play after two passes is refused, or recorded as the other colour",
          [r"^record: the board's game differs from the players' from move _: the board has (nothing|_ _), the players "
           r"played _ _ \(after: place _( _)? # _ move _\)"]),
    "7": ("the count's dame: 'dame still open' with no dame left to fill, and the agreement refused",
          [r"^message: says dame are open, and no dame is lit",
           r"^result: the players agreed to the count and the game has no result"]),
    "11": ("a player's PAUSE restarts the clock the referee stopped (Korean regulations 11-4); the away pause "
           "stops the running clock (Thai 31)",
           [r"^clock: the clock the referee stopped was restarted by a player",
            r"^clock: the away pause stopped _'s clock too"]),
    "NEW-button-pass": ("a pass by the Pass control in a clocked game leaves the passer's clock running",
                        [r"^clock: _'s clock runs while _ is to move \(after: button pass # _ pass\)",
                         r"^clock: _'s clock runs while _ is to move \(after: button resume # _ resume\)"]),
    "NEW-dame-fill": ("a stone on a point lit as dame resumes play unless its colour fills it safely",
                      [r"^record: the board's game differs from the players' from move _: the board has _ _, the players "
                       r"played nothing \(after: (press _ # _ agree|button ok # _ agree both|press menu # _ agree both)\)",
                       r"^record: the board's game differs from the players' from move _: the board has _ _, _ pass, the "
                       r"players played nothing \(after: press _ # _ agree\)",
                       r"^clock: _'s clock runs while _ is to (press|move) \(after: place _( _)? # _ dame\)"]),
    "NEW-recovery-captures": ("a power cut while captured stones still lie on the board: at power-up one is taken "
                              "as the next move",
                              [r"^record: the board's game differs from the players' from move _: the board has _ (_|pass), "
                               r"the players played nothing \(after: (power cut|lift _ # _ capture)\)",
                               r"^penalty: lost_turn charged to _ \(_\), but only _ acted \(after: power cut\)"]),
    "NEW-recovery-resume": ("play resumed after two passes is not in the journal: a power cut brings the count back",
                            [r"^record: the board's game differs from the players' from move _: the board has nothing, "
                             r"the players played _ pass \(after: press _ # _ pass\)"]),
    "NEW-undo-replay": ("after Undo or MENU, the captured stones put back before the stone taken back is lifted: "
                        "the board plays that move again",
                        [r"^record: the board's game differs from the players' from move _: the board has _ _, the "
                         r"players played nothing \(after: button resign_(black|white) # _ resign\)"]),
    "NEW-teaching-preview": ("teaching's preview of a stone a hand only passes with keeps its ERROR mark",
                             [r"^leds: ERROR lit at _ where no stone lies \(after: hover _ _( _)? # _\)"]),
}


CLOCK_ITEMS = ("2", "5", "11", "NEW-button-pass", "NEW-dame-fill")  # items that put a game's clock wrong


def explained(violation):
    """The OPEN item that explains a violation, or None. One that came after the game's clock
    went wrong (invariants.AFTER_CLOCK) is that clock item's while one is open."""
    k = kind(violation)
    for item, (_words, patterns) in OPEN.items():
        if any(re.search(p, k) for p in patterns):
            return item
    if AFTER_CLOCK in k:
        return next((item for item in CLOCK_ITEMS if item in OPEN), None)
    return None


def test_there_are_kept_scripts():
    assert SEEDS, "tests/data/player_seeds/ has no scripts"


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.stem)
def test_kept_script_breaks_no_invariant(path: Path):
    table, lines, header = read(path.read_text())
    assert "invariant" in header and "item" in header, "a kept script names its invariant and item"
    item = header["item"].split()[0]
    violations = replay(table, lines).violations
    if item in OPEN:
        if not violations:
            pytest.fail("item %s (%s) no longer shows in %s: its fix has landed, remove it from OPEN" % (
                item, OPEN[item][0], path.name))
        pytest.xfail("item %s is open: %s" % (item, OPEN[item][0]))
    assert not violations, violations


def test_bounded_run_breaks_no_invariant():
    summary, _ = run(GAMES, seed=0, keep=True)
    unexplained = [(seed, v) for seed, v in summary["found"] if explained(v) is None]
    assert not unexplained, "\n".join("seed %d: %s: %s" % (seed, v[0], v[2]) for seed, v in unexplained[:20])
    items = sorted({explained(v) for _seed, v in summary["found"]})
    if items:
        pytest.xfail("open items still shown: " + ", ".join(items))
