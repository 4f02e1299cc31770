"""The GTP engine client (host_tools/gtp/engine.py): GNU Go plays through it, and every way an engine fails is told.

The failing engines are small Python programs written for each test; GNU Go is Debian's (make test installs it).
"""

import pytest

from firmware.rules.coords import PASS, parse_vertex, vertex
from firmware.rules.game import Game, IllegalMove
from host_tools.gtp.engine import Engine, EngineError, EngineRefused, default_engine


def test_a_well_behaved_engine_plays_passes_and_says_who_it_is(fake):
    with Engine(fake("ok")) as engine:
        assert engine.new_game(size=9, komi=7) == []
        engine.play("B", "D4")
        assert [engine.genmove("W"), engine.genmove("W"), engine.genmove("W")] == ["E5", "C3", "pass"]
        assert engine.identity() == "fake_engine.py"  # (it refuses "version": its program's name instead)
        with pytest.raises(EngineRefused, match=r"^fake_engine.py refused 'version': unknown command$"):
            engine.command("version")


@pytest.mark.parametrize("how, words", [
    ("die", "exited (code 3) during genmove; it said: out of memory"),
    ("garbage", "answered genmove with 'thinking... E5', which is not GTP"),
    ("slow", "no answer to genmove in 0.5 s"),
    ("offboard", "genmove W answered 'Z19', not a point of the 9x9 board, pass or resign"),
])
def test_an_engine_that_fails_is_told_in_words(fake, how, words):
    with Engine(fake(how)) as engine:
        engine.new_game(size=9)
        with pytest.raises(EngineError) as raised:
            engine.genmove("W", timeout=0.5)
    assert str(raised.value) == "fake_engine.py: " + words


def test_an_engine_that_cannot_start_or_speaks_another_gtp_is_not_taken(fake, tmp_path):
    with pytest.raises(EngineError, match=r"^no-such-engine: cannot start it: No such file or directory"):
        Engine(str(tmp_path / "no-such-engine") + " --mode gtp")
    with pytest.raises(EngineError, match=r"speaks GTP version '1', not 2"):
        Engine(fake("v1"))
    with pytest.raises(EngineError, match=r"^no engine given"):
        Engine(None)


def test_gnu_go_plays_a_whole_9x9_game_through_the_client_under_the_rules_core():
    # Two GNU Go processes, each told the other's moves; every move is played through the rules core
    # (an illegal one would raise), to two passes; both engines' dead stones and scores agree.
    command = default_engine(level=1)
    assert command is not None, "GNU Go is not installed (make test installs it: scripts/ensure-system.sh gnugo)"
    game = Game(9, "chinese", komi=7)
    with Engine(command) as black, Engine(command) as white:
        assert black.identity().startswith("GNU Go 3.")
        for engine in (black, white):
            engine.new_game(size=9, komi=7)
        passes = 0
        players = {1: (black, white), 2: (white, black)}
        while passes < 2 and game.move_number < 200:
            colour = game.to_move
            mover, other = players[colour]
            move = mover.genmove("BW"[colour - 1], timeout=30)
            assert move != "resign" or game.move_number > 20, "resigned at move %d" % game.move_number
            if move == "resign":
                break
            try:
                game.play(colour, parse_vertex(9, move))
            except IllegalMove as error:
                pytest.fail("GNU Go played %s, illegal here: %s" % (move, error.reason))
            passes = passes + 1 if move == "pass" else 0
            other.play("BW"[colour - 1], move)
        assert game.move_number > 20
        dead = sorted(black.dead_stones())
        assert dead == sorted(white.dead_stones())
        score_b, score_w = black.command("final_score"), white.command("final_score")
        assert score_b == score_w and score_b[:2] in ("B+", "W+"), (score_b, score_w)
    for text in dead:
        g = parse_vertex(9, text)
        assert g != PASS and game.pos.cells[g], "%s is dead and empty" % vertex(9, g)
