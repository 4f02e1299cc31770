"""Capture Go (``new ... captures=N``): the first to capture N stones wins, on any board size.

The result is the board's: the game ends on the capturing move, the display says who won and
why, the END line says ``re=B+ why=captures`` and the stones placed after it are no moves.
"""

from harness import Table, clock_running, said

from firmware.rules.game import OVER, PLAYING
from firmware.rules.position import BLACK, WHITE
from twins.storage import SimStorage

# On 7x7, White's D4 surrounded: Black's fourth stone around it captures it (Black's 4th move).
_CAPTURE_D4 = (("B", "C4"), ("W", "D4"), ("B", "E4"), ("W", "A1"), ("B", "D5"), ("W", "A2"), ("B", "D3"))


def started(options, time="none", storage=None):
    table = Table("japanese", time, size=7, cable=True, storage=storage)
    table.wait(100)
    spec = "" if time == "none" else " time=" + time.replace(" ", "%20")
    lines = table.says("new size=7 " + options + spec)
    assert lines[-1][0] == "OK", lines
    return table


def play(table, moves):
    for colour, vertex in moves:
        table.play(BLACK if colour == "B" else WHITE, vertex)


def test_the_first_capture_wins_on_7x7_with_a_clock():
    table = started("captures=1", "byoyomi 5m 3x30s")
    play(table, _CAPTURE_D4[:-1])
    assert table.game.phase == PLAYING
    table.pipe.take()
    play(table, _CAPTURE_D4[-1:])
    game = table.game
    assert game.phase == OVER and game.result.sgf() == "B+" and game.captures[BLACK] == 1
    ended = [fields for kind, fields in said(table.pipe) if kind == "END"]
    assert ended and ended[-1][1:3] == ["re=B+", "why=captures"], ended
    table.wait(1000)
    assert table.hw.display.said() == "BLACK WINS / FIRST CAPTURES"
    assert clock_running(table.app) == 0
    table.place(WHITE, "G7")  # the game is over: no move
    assert table.moves() == "BC4 WD4 BE4 WA1 BD5 WA2 BD3"


def test_a_goal_of_three_plays_on_after_one_capture():
    table = started("captures=3")
    play(table, _CAPTURE_D4)
    assert table.game.phase == PLAYING and table.game.captures[BLACK] == 1


def test_the_goal_survives_a_power_cut():
    storage = SimStorage()
    table = started("captures=1", storage=storage)
    play(table, _CAPTURE_D4[:-1])
    table.power_up()
    table.wait(300)
    assert table.game.captures[0] == 1 and table.game.phase == PLAYING
    play(table, _CAPTURE_D4[-1:])
    assert table.game.result.sgf() == "B+"


def test_a_goal_no_board_can_reach_is_refused():
    table = started("captures=1")
    for bad in ("captures=49", "captures=-1", "captures=x"):
        kind, fields = table.says("new size=7 " + bad)[-1]
        assert (kind, fields[0]) == ("ERR", "malformed"), bad
    assert table.game.captures[0] == 1
