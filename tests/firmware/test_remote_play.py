"""A side played elsewhere (``new ... remote=W``: an engine, a player online) on the assembled
board: its move arrives by the host's ``play``, is the game's at once with its clock stopped, is
lit to place with the person's stones it captured lit to lift, and only a stone on the lit point
matches it; a stone placed elsewhere is not a move; refusals say why; a power cut before the stone
is placed takes the move back on a casual board (the host sends it again) and keeps it asked for
on a tournament board.
"""

from harness import Table

from firmware.leds.marks import LIFT, PUT_BACK
from firmware.modes import TOURNAMENT
from firmware.protocol import unquote
from firmware.referee.states import PLAY, SYNC
from firmware.rules.position import BLACK, WHITE
from host_tools.board.messages import message
from twins.storage import SimStorage


def remote_table(time_spec="none", mode=0, storage=None):
    """A 9x9 game begun by the host with White played elsewhere."""
    table = Table("japanese", time_spec, mode=mode, cable=True, storage=storage)
    table.wait(100)
    lines = table.says("new size=9 remote=W" + ("" if time_spec == "none" else " time=" + time_spec.replace(" ", "%20")))
    assert lines[-2][0] == "GAME" and "remote=W" in lines[-2][1], lines
    return table


def reply(table, command):
    """The board's reply to ``command`` (("OK", fields) or ("ERR", fields))."""
    return [line for line in table.says(command) if line[0] in ("OK", "ERR")][-1]


def test_a_remote_move_is_lit_and_only_its_point_matches_it():
    table = remote_table()
    table.place(BLACK, "E5")
    assert reply(table, "play W D4")[0] == "OK"
    assert table.moves() == "BE5 WD4"  # the game's at once
    assert table.marked(PUT_BACK) == ["D4"] and table.app.marks.stone[table.at("D4")] == WHITE
    assert table.app.referee.state == SYNC
    table.place(BLACK, "C3")  # the person's next stone, before the engine's: not a move
    assert table.moves() == "BE5 WD4" and table.marked(PUT_BACK) == ["D4"]
    assert "C3" in table.marked(LIFT) or table.app.referee.reason == "moved", message(table.app.referee)
    table.lift("C3")
    table.place(WHITE, "D4")  # the lit point: the board matches
    assert table.app.referee.state == PLAY and not table.marked(PUT_BACK)
    table.place(BLACK, "C3")
    assert table.moves() == "BE5 WD4 BC3"


def test_a_remote_capture_lights_the_stones_to_lift_and_charges_nobody():
    table = remote_table("byoyomi 10m 3x30s", TOURNAMENT)
    table.app.command("mode", ["tournament", "referee"], table.t)
    table.place(BLACK, "A1")
    assert reply(table, "play W A2")[0] == "ERR"  # Black has not pressed: not White's turn yet
    table.press(BLACK)
    assert reply(table, "play W A2")[0] == "OK"
    table.place(WHITE, "A2")
    table.place(BLACK, "E5")
    table.press(BLACK)
    assert reply(table, "play W B1")[0] == "OK"  # captures A1
    assert table.marked(LIFT) == ["A1"] and table.marked(PUT_BACK) == ["B1"]
    table.place(WHITE, "B1")
    table.lift("A1")
    assert table.app.referee.state == PLAY and table.game.penalties == [] and table.result() is None
    assert table.moves() == "BA1 WA2 BE5 WB1"
    left = table.left(WHITE)
    table.wait(2000)
    assert table.left(WHITE) == left  # White's clock stopped when its move came; Black's runs


def test_refusals_say_why_and_change_nothing():
    table = remote_table()
    assert reply(table, "play B E5")[1][0] == "state"  # Black plays at the board
    assert reply(table, "play W E5")[1][0] == "state"  # Black to move
    table.place(BLACK, "E5")
    for command in ("play W E5", "play W", "play W Z9", "play X E5"):
        kind, fields = reply(table, command)
        assert kind == "ERR", command
    assert unquote(reply(table, "play W E5")[1][1]) == "play: illegal move (occupied)"
    assert table.moves() == "BE5"
    assert reply(table, "play W pass")[0] == "OK"
    assert table.moves() == "BE5 Wpass"
    assert reply(table, "new size=9 remote=X")[1][0] == "state"  # (a game with moves is on)


def test_a_power_cut_before_the_stone_is_placed_loses_nothing():
    table = remote_table(storage=SimStorage())
    table.place(BLACK, "E5")
    assert reply(table, "play W D4")[0] == "OK"
    table.power_up()
    table.wait(300)
    assert table.moves() == "BE5"  # casual: its missing stone was the last one lifted, taken back
    assert reply(table, "play W D4")[0] == "OK"  # the host sends it again
    table.place(WHITE, "D4")
    assert table.moves() == "BE5 WD4" and table.app.referee.state == PLAY

    table = remote_table(storage=SimStorage(), mode=TOURNAMENT)
    table.place(BLACK, "E5")
    assert reply(table, "play W D4")[0] == "OK"
    table.power_up(mode=TOURNAMENT)
    table.wait(300)
    assert table.moves() == "BE5 WD4" and table.marked(PUT_BACK) == ["D4"] and table.game.penalties == []
    table.place(WHITE, "D4")
    assert table.app.referee.state == PLAY and table.game.penalties == []


def test_a_bad_remote_side_is_refused():
    table = Table("japanese", "none", cable=True)
    table.wait(100)
    assert reply(table, "new size=9 remote=X")[1][0] == "malformed"


def test_the_remote_side_proposes_the_dead_stones():
    table = remote_table()
    for black, white in (("C3", "G7"), ("D3", "F7"), ("E3", "E7")):
        table.place(BLACK, black)
        assert reply(table, "play W " + white)[0] == "OK"
        table.place(WHITE, white)
    table.place(BLACK, "F6")  # a black stone inside White's side
    assert reply(table, "show dead F6")[1][0] == "state"  # not while playing
    assert reply(table, "play W pass")[0] == "OK"
    table.control("pass")
    table.wait(300)
    assert table.game.phase == 1  # counting
    assert reply(table, "show dead F6 Z9")[0] == "ERR"  # (no point of the board: nothing changes)
    assert reply(table, "show dead F6")[0] == "OK"
    assert table.marked(LIFT) == ["F6"]
    table.lift("F6")
    table.control("ok")
    assert table.result() is not None and table.game.dead_marks()[table.app.referee.region.game_of[table.at("F6")]]


def test_the_remote_sides_clock_button_is_not_the_persons_to_press():
    table = remote_table("byoyomi 10m 3x30s")
    table.place(BLACK, "E5")
    table.press(BLACK)
    table.press(WHITE)  # (a habit, or a slip: White's moves and clock are the host's)
    assert table.moves() == "BE5" and table.game.to_move == WHITE
    assert reply(table, "play W D4")[0] == "OK"
