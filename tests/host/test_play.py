"""Play against an engine on the simulated board (host_tools/play): GNU Go against a person whose hands
follow the LEDs, with the person's captured stones lifted, an undo, a power cut in the middle of an
engine's move and the count the engine proposes; and an engine that fails, each way told, the game
on the board kept as it was.
"""

import pytest

from firmware.referee.states import PLAY, SYNC
from firmware.rules.coords import PASS, vertex
from host_tools.gtp.engine import Engine, default_engine
from host_tools.play.board import Board
from host_tools.play.match import Match, MatchError
from host_tools.play.sim import Moves, SimTable
from host_tools.sim.played import moves_of
from host_tools.sim.script import Event

NINE = {"size": "9", "komi": "7", "rules": "japanese", "handicap": "0", "time": "none"}


def table_and_board(seed, **options):
    import random

    table = SimTable(seed, Moves([], random.Random(seed)), **options)
    return table, Board(table.port, table)


def moves(game):
    """A GameLog's moves as (colour, GTP vertex)."""
    return [("BW"[c - 1], "pass" if p == PASS else vertex(game.size, p)) for c, p, *_ in game.moves]


def gnugo(seed=1):
    command = default_engine(1, seed)
    if command is None:
        pytest.skip("GNU Go is not installed (make test installs it)")
    return Engine(command)


def test_gnugo_plays_the_person_through_a_power_cut_an_undo_and_the_count():
    table, board = table_and_board(11, slip=0.2)
    with gnugo() as engine:
        match = Match(board, engine, "W", NINE, say=lambda text: None)
        cut = undone = False
        while not match.over:
            match.step()
            game, app = board.game, table.sim.app
            n = len(game.moves)
            if not cut and n >= 12 and game.moves[-1][0] == 2 and app.referee.state == SYNC:
                # The engine's move is lit and not placed yet: the power goes.
                before = moves(game)
                table.power_cut()
                cut = True
                board.wait(2.0)
                assert moves(board.game) == before[:-1]  # a casual board took the engine's move back, nothing else
            if cut and not undone and n >= 20 and game.moves[-1][0] == 2 and app.referee.state == PLAY:
                undone = before_undo = n
                table.sim.apply(Event(table.sim.now, "button", name="undo"))  # the person takes the engine's move back
                board.wait(1.0)
                assert len(board.game.moves) == before_undo - 1
            assert n < 400, "the game does not end"
        game = board.game
    assert cut and undone
    assert game.result is not None
    assert table.hands.corrections > 0  # the hands put some of the engine's stones on a wrong point first
    rules = game.game()
    assert not game.unplayable and rules.captures[2] > 0  # the engine captured the person's stones: lifted
    assert [f"{'BW'[c - 1]}" for c, *_ in game.moves] == ["BW"[i % 2] for i in range(len(game.moves))]


def test_the_engine_proposes_the_dead_stones_and_the_board_counts_them():
    table, board = table_and_board(3)
    with gnugo() as engine:
        said = []
        match = Match(board, engine, "W", NINE, say=said.append)
        game = match.run()
        dead = set(engine.dead_stones())
    assert any("holds dead" in line for line in said)
    assert game.result is not None and {vertex(9, p) for p in game.dead} == dead
    sgf = game.sgf_bytes("board").decode()
    assert "PW[GNU Go 3.8]" in sgf or "PW[GNU Go" in sgf


@pytest.mark.parametrize("how, words", [
    ("die", "exited (code 3) during genmove; it said: out of memory"),
    ("garbage", "which is not GTP"),
    ("illegal", "which the board refused"),
    ("offboard", "not a point of the 9x9 board"),
])
def test_an_engine_that_fails_stops_the_match_and_the_game_is_kept(fake, how, words):
    table, board = table_and_board(5)
    with Engine(fake(how)) as engine:
        match = Match(board, engine, "W", NINE, say=lambda text: None)
        with pytest.raises(MatchError) as failed:
            while not match.over:
                match.step()
        assert words in str(failed.value), str(failed.value)
    game = board.game
    assert game.result is None and len(game.moves) == 1 and game.moves[0][0] == 1  # the person's move, kept
    assert table.sim.app.game.move_number == 1


def test_an_engine_too_slow_for_its_time_is_given_up(fake):
    table, board = table_and_board(5)
    with Engine(fake("slow")) as engine:
        match = Match(board, engine, "W", NINE, move_s=0.5, say=lambda text: None)
        with pytest.raises(MatchError, match="no answer to genmove in 0.5 s"):
            while not match.over:
                match.step()
    assert len(board.game.moves) == 1


def test_a_cable_out_in_the_middle_of_the_engines_move_loses_nothing():
    table, board = table_and_board(8)
    with gnugo() as engine:
        match = Match(board, engine, "W", NINE, say=lambda text: None)
        plug_in_at = None
        real_wait = table.wait

        def wait(seconds):  # (the cable goes back in after 8 s of the board's time)
            real_wait(seconds)
            if plug_in_at is not None and table.sim.now >= plug_in_at:
                table.pipe.unplugged = False

        table.wait = wait
        while not match.over:
            if plug_in_at is None and len(board.game.moves) >= 9:  # the person's move told: the engine's turn
                table.pipe.unplugged = True
                plug_in_at = table.sim.now + 8000
            match.step()
            assert len(board.game.moves) < 400
        game = board.game
    assert plug_in_at is not None and not table.pipe.unplugged
    assert game.result is not None and not game.unplayable
    assert moves(game) == [("BW"[c - 1], "pass" if p == PASS else vertex(9, p)) for c, p in moves_of(table.sim.app.game)]



def test_a_handicap_game_the_engine_is_told_the_stones_placed():
    table, board = table_and_board(6)
    with gnugo() as engine:
        match = Match(board, engine, "W", dict(NINE, handicap="3", komi="0.5"), say=lambda text: None)
        while len(board.game.moves) < 6:
            match.step()
        stones = engine.command("list_stones black").split()
        game = board.game
    assert len(game.setup[0]) == 3 and game.moves[0][0] == 2  # White moved first, after the three
    assert {vertex(9, p) for p in game.setup[0]} <= set(stones)
