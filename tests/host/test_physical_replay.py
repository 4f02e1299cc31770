"""Every bundled professional game, played by simulated hands on the simulated board.

Stones placed by hand with transients from the sliding hand, captured stones
lifted one by one in random order after random delays (sometimes the last
only after the opponent's reply), passes as clock presses: the board (the
firmware's app on the simulated hardware) must record the game move for
move, with presence sensors and with polarity sensors. Where a record has two moves of one colour in a row, the script has
the other player pass (press the clock) in between, as a real board needs.
"""

import zlib

import pytest
from pro_games import load_games, replay
from sgfmill import sgf as sgfmill

from firmware.rules.history import move_colour, move_point
from firmware.settings import Settings
from host_tools import sgf
from host_tools.sim.headless import Simulation
from host_tools.sim.physical import script_lines
from host_tools.sim.script import parse

from .conftest import DATA

GAMES = load_games(str(DATA / "pro_games.txt"))


def recorded(game):
    hist = game.hist
    return [(move_colour(hist.moves[k]), move_point(hist.moves[k])) for k in range(1, hist.length)]


def play_physically(record, polarity, hardware="fast", clock=False):
    _game, illegal_at, _error = replay(record, "japanese")
    moves = record.moves[:illegal_at] if illegal_at is not None else record.moves  # the board refuses the rest
    handicap = record.black if record.black and not record.white else ()
    lines, expected = script_lines(record.size, moves, handicap, polarity=polarity,
                                   seed=zlib.crc32(record.name.encode()), clock=clock)
    events, errors = parse(lines, record.size)
    assert not errors
    if hardware == "fast":
        hardware = "polarity" if polarity else "presence"
    time_spec = "absolute 99h" if clock else "none"  # a clock: each move's turn ends with a press
    sim = Simulation(Settings(record.size, "japanese", handicap=len(handicap), time_spec=time_spec), sensors=hardware)
    sim.run(events)
    return sim, expected, lines


@pytest.mark.parametrize("record", GAMES, ids=lambda r: r.name[:-4])
def test_recorded_move_for_move(record):
    for polarity in (False, True):
        sim, expected, lines = play_physically(record, polarity)
        got = recorded(sim.game)
        assert got == expected, ("polarity" if polarity else "presence", next(
            (i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b), len(got)))
        seen = sim.referee.seen
        assert seen.nmissing == seen.nwrong == 0
        # the only stones on the board the game does not count: those the board proposes dead (counting)
        proposed = sim.referee.proposed
        assert all(proposed is not None and proposed[seen.extra[i]] for i in range(seen.nextra))
        assert sum(" hover " in line for line in lines) > len(expected) // 2  # the hands really slid


@pytest.mark.parametrize("record", GAMES[::20], ids=lambda r: r.name[:-4])
def test_with_a_clock_every_move_ends_with_a_press(record):
    sim, expected, lines = play_physically(record, False, clock=True)
    assert recorded(sim.game) == expected
    assert sum(" press " in line for line in lines) >= len(expected)


def test_the_real_74hc165_driver_end_to_end():
    record = next(r for r in GAMES if r.name.startswith("128_"))  # a 3-stone handicap game
    sim, expected, _lines = play_physically(record, False, hardware="shift")
    assert recorded(sim.game) == expected
    written = sgfmill.Sgf_game.from_bytes(sgf.write(sim.game))
    assert written.get_root().get("HA") == 3
    assert len(written.get_main_sequence()) == len(expected) + 1
