"""The host's commands on the assembled board, refused where they would lose or garble a record:
``new`` while a game is being counted, impossible settings, a negative margin; the GAME line says
each field once, the time control included.
"""


from harness import host_says, linked, point, press, run
from support import let_go, not_loaded

from firmware.drivers.buttons import B_BLACK, B_WHITE
from firmware.rules.position import BLACK, WHITE


def _reply(lines):
    return [line for line in lines if line[0] in ("OK", "ERR")][-1]


def test_new_waits_for_the_count_and_refuses_what_no_game_can_be():
    hw, pipe, app = linked(time_spec="byoyomi 10m 3x30s")
    run(app, hw, 0, 100)
    for i, colour in enumerate((BLACK, WHITE)):
        hw.stones.place(point(app, 2 + 4 * i, 2), colour)
        run(app, hw, 100 + 500 * i, 400 + 500 * i)
        press(app, hw, B_BLACK if colour == BLACK else B_WHITE, 400 + 500 * i)
    press(app, hw, B_BLACK, 1200)
    press(app, hw, B_WHITE, 1400)
    assert app.game.phase == 1  # counting
    assert _reply(host_says(hw, pipe, app, "new size=13", 1600))[1][0] == "state"
    assert app.game.move_number == 4 and app.game.result is None  # the game waits for its count
    t = 1700
    for command in ("end W+-5", "end B+inf", "end B+nan"):
        assert _reply(host_says(hw, pipe, app, command, t))[1][0] == "malformed", command
        t += 100
    assert _reply(host_says(hw, pipe, app, "end W+5", t))[0] == "OK"
    t += 100
    for command in ("new size=9 handicap=20", "new size=9 handicap=5 rules=korean size=7", "new komi=1e300",
                    "new komi=nan", "new size=9 rules=japanese handicap=10"):
        reply = _reply(host_says(hw, pipe, app, command, t))
        t += 100
        assert reply[0] == "ERR" and reply[1][0] == "malformed", (command, reply)
    assert app.game.result.sgf() == "W+5"  # the finished game is still the board's


def test_the_game_line_says_each_field_once_with_the_time_control():
    hw, pipe, app = linked()
    run(app, hw, 0, 100)
    lines = host_says(hw, pipe, app, "new rules=korean size=9 komi=0.5 time=byoyomi%2010m%203x30s pb=Kim pw=Lee", 100)
    game = [fields for kind, fields in lines if kind == "GAME"][-1]
    keys = [f.split("=", 1)[0] for f in game[1:]]
    assert sorted(keys) == sorted(set(keys)) and set(keys) == {"rules", "size", "komi", "handicap", "time", "boot", "pb",
                                                                  "pw"}, game
    assert "time=byoyomi%2010m%203x30s" in game


def test_the_commands_code_is_let_go_after_each_command():
    """A Pico's heap: the code that parses and carries out a command is loaded for it only."""
    not_loaded("firmware.host.commands")
    hw, pipe, app = linked()
    run(app, hw, 0, 100)
    assert _reply(host_says(hw, pipe, app, "new size=13", 100))[0] == "OK" and app.game.size == 13
    assert _reply(host_says(hw, pipe, app, "mode blitz", 200))[0] == "ERR"
    assert let_go("firmware.host.commands")
