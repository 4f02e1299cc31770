"""What a teaching host (host_tools/teach) asks of the board.

A position put down before the first move (``new ... setup=``: a problem's, a lesson's): its stones
lit to place in their colours, the side not played elsewhere first, play once they are down, the
position kept across a power cut, and setups no board can have refused with nothing changed.
Words on the clock display (``show words``: right, wrong, a lesson's step) until a notice or the
next game.
"""

from harness import Table

from firmware.leds.marks import PUT_BACK
from firmware.referee.states import PLAY, SYNC
from firmware.rules.position import BLACK, WHITE
from twins.storage import SimStorage


def reply(table, command):
    return [line for line in table.says(command) if line[0] in ("OK", "ERR")][-1]


def problem_table(storage=None):
    table = Table("japanese", "none", cable=True, storage=storage)
    table.wait(100)
    assert reply(table, "new size=9 setup=ccdd/ee remote=W")[0] == "OK"  # Black C7 D6, White E5
    return table


def test_the_position_is_lit_to_place_and_play_starts_once_it_is_down():
    table = problem_table()
    app = table.app
    assert table.marked(PUT_BACK) == ["C7", "D6", "E5"] and app.referee.state == SYNC
    assert [app.marks.stone[table.at(v)] for v in ("C7", "D6", "E5")] == [BLACK, BLACK, WHITE]
    assert table.game.to_move == BLACK and table.game.move_number == 0
    for colour, vertex in ((BLACK, "C7"), (BLACK, "D6"), (WHITE, "E5")):
        table.place(colour, vertex)
    assert app.referee.state == PLAY and not table.marked(PUT_BACK)
    table.place(BLACK, "F5")
    assert table.moves() == "BF5"
    assert reply(table, "play W F4")[0] == "OK"


def test_a_power_cut_keeps_the_position():
    table = problem_table(SimStorage())
    table.place(BLACK, "C7")
    table.power_up()
    table.wait(300)
    assert table.marked(PUT_BACK) == ["D6", "E5"] and table.game.move_number == 0


def test_a_setup_no_board_has_is_refused_and_the_game_stays():
    table = problem_table()
    for bad in ("zz/", "cc", "ccc/", "cc/cc", "cc/dd/ee"):
        kind, fields = reply(table, "new size=9 setup=" + bad)
        assert (kind, fields[0]) == ("ERR", "malformed"), bad
    assert table.marked(PUT_BACK) == ["C7", "D6", "E5"]


def test_a_hosts_words_stay_on_the_display_until_a_notice():
    table = problem_table()
    display = table.hw.display
    assert reply(table, "show words RIGHT! Well%20done")[0] == "OK"
    assert display.said() == "RIGHT! / Well done"
    table.wait(60000)  # no clock: the words stand
    assert display.said() == "RIGHT! / Well done"
    assert reply(table, "show words Try%20again")[0] == "OK" and display.said() == "Try again"
    for bad in ("show words", "show words a b c"):
        kind, fields = reply(table, bad)
        assert (kind, fields[0]) == ("ERR", "malformed"), bad
    assert display.said() == "Try again"


def test_words_give_way_to_the_clock_after_a_new_game():
    table = Table("japanese", "byoyomi 1m 3x10s", cable=True)
    table.wait(100)
    assert reply(table, "show words Lesson%201 Capture!")[0] == "OK"
    assert table.hw.display.said() == "Lesson 1 / Capture!"
    assert reply(table, "new size=9 time=byoyomi%201m%203x10s")[0] == "OK"
    table.wait(500)
    assert table.hw.display.said() == ""


def test_words_give_way_to_new_game_without_a_clock():
    table = problem_table()
    assert reply(table, "show words Solved")[0] == "OK"
    assert reply(table, "new size=9")[0] == "OK"
    table.wait(500)
    assert table.hw.display.said() == "NEW GAME / NO CLOCK"


def test_menu_takes_a_move_back_in_teaching_mode_too():
    from firmware.drivers.buttons import B_MENU
    from firmware.leds.marks import LIFT
    from firmware.modes import TEACHING

    table = Table("japanese", "none", mode=TEACHING)
    table.wait(100)
    table.in_turn("C3", "D4")
    table.button(B_MENU)
    assert table.moves() == "BC3" and table.marked(LIFT) == ["D4"]


def test_a_handicap_records_position_has_white_first():
    table = Table("japanese", "none", cable=True)
    table.wait(100)
    for bad in ("cg/gg/X", "cg/gg/W/B"):
        kind, fields = reply(table, "new size=9 setup=" + bad)
        assert (kind, fields[0]) == ("ERR", "malformed"), bad
    assert reply(table, "new size=9 setup=cgge//W")[0] == "OK"  # Black C3 G5 (a record's handicap), White first
    for vertex in ("C3", "G5"):
        table.place(BLACK, vertex)
    assert table.game.to_move == WHITE and table.app.referee.state == PLAY
    table.place(WHITE, "E5")
    assert table.moves() == "WE5"
