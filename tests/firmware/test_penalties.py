"""A referee in the loop, on the assembled board: the host's ``referee`` command, the
board's own warnings, each streamed (PENALTY lines), journaled and counted.

Korean regulations 17 (cautions), 18 (warnings, 2 points each; two cautions are a
warning: 18-1-7), 19-1-9 (two warnings lose); Thai 16.5 (penalty points), 39, 40.
"""

from harness import host_says, linked, point, power_up, run
from test_tournament import walls

from firmware.modes import TOURNAMENT
from firmware.rules.ending import CAUTION, POINTS, WARNING
from firmware.rules.position import BLACK
from firmware.rules.result import BOTH_LOSE
from host_tools.board.protocol import decode
from twins.storage import SimStorage


def _kinds(lines):
    return [line[0] for line in lines]


def _penalties(lines):
    return [line[1] for line in lines if line[0] == "PENALTY"]


def test_korean_cautions_make_a_warning_and_two_warnings_lose_every_one_streamed():
    hw, pipe, app = linked(mode=TOURNAMENT, rules="korean", time_spec="byoyomi 10m 3x30s")
    run(app, hw, 0, 100)
    hw.stones.place(point(app, 4, 4), BLACK)
    run(app, hw, 100, 500)
    pipe.take()
    lines = host_says(hw, pipe, app, "referee caution W", 500)
    assert _kinds(lines) == ["PENALTY", "OK"]
    assert _penalties(lines) == [["1", "W", "caution", "1", "referee"]]  # after move 1
    lines = host_says(hw, pipe, app, "referee caution W", 600)
    assert _penalties(lines) == [["1", "W", "caution", "2", "referee"], ["1", "W", "warning", "1", "cautions"]]
    assert app.game.result is None and app.game.penalty_points(2) == 2  # Art.18: 2 points
    lines = host_says(hw, pipe, app, "referee warning W", 700)
    assert _penalties(lines) == [["1", "W", "warning", "2", "referee"]]
    assert [line[1][:3] for line in lines if line[0] == "END"] == [["1", "re=B+F", "why=referee"]]  # Art.19-1-9: the second warning loses
    assert app.referee.state == 5 and app.clock.stopped  # OVER; the clock stops with play


def test_penalty_points_change_the_count():
    hw, app, t = walls("japanese")  # B+11.5 when nothing else happened
    assert app.command("referee", ["points", "B", "3"], t) is None
    assert app.command("referee", ["caution", "W"], t) is None  # costs nothing under Japanese rules
    assert app.control("ok", t + 100)
    assert app.game.result.sgf() == "B+8.5"
    assert [(p[1], p[2], p[3]) for p in app.game.penalties] == [(BLACK, POINTS, 3), (2, CAUTION, 1)]


def test_forfeit_and_bad_referee_commands():
    hw, pipe, app = linked(mode=TOURNAMENT, rules="thai")
    run(app, hw, 0, 100)
    for i, bad in enumerate(("referee points B", "referee caution X", "referee scold B", "referee warning B 2",
                             "referee points W x")):
        lines = host_says(hw, pipe, app, bad, 100 + 50 * i)
        assert lines[-1][0] == "ERR" and lines[-1][1][0] == "malformed", bad
    lines = host_says(hw, pipe, app, "referee forfeit B", 400)
    assert [line[1][:3] for line in lines if line[0] == "END"] == [["1", "re=W+F", "why=forfeit"]]
    lines = host_says(hw, pipe, app, "referee warning B", 500)  # nothing to penalise any more
    assert lines[-1][0] == "ERR" and lines[-1][1][0] == "state"
    assert len(app.game.penalties) == 1


def test_penalties_survive_a_power_cut_and_are_resent():
    hw, pipe, app = linked(SimStorage(), mode=TOURNAMENT, rules="korean")
    run(app, hw, 0, 100)
    hw.stones.place(point(app, 4, 4), BLACK)
    run(app, hw, 100, 500)
    host_says(hw, pipe, app, "referee caution B", 500)
    host_says(hw, pipe, app, "referee points W 5", 600)
    before = list(app.game.penalties)
    del app
    again = power_up(hw, now_ms=0)
    run(again, hw, 0, 200)
    assert again.game.penalties == before and again.game.cautions[BLACK] == 1
    assert again.game.penalty_points(2) == 5 and again.game.result is None
    told = [decode(raw) for raw in pipe.take().split(b"\n") if raw]  # the recovered game, told again
    expected = [["1", "B", "caution", "1", "referee"], ["1", "W", "points", "5", "referee"]]
    assert _penalties([m[1:] for m in told]) == expected
    lines = host_says(hw, pipe, again, "resend %d" % told[0][0], 200)
    lines += host_says(hw, pipe, again, "state", 240)
    assert _penalties(lines) == expected


def test_the_boards_own_warnings_are_logged_with_their_reason():
    hw, pipe, app = linked(mode=TOURNAMENT, rules="thai")
    game = app.game
    game.warn(BLACK, "captures_left")
    game.penalise(BLACK, WARNING)
    assert [(p[2], p[3], p[4]) for p in game.penalties] == [(WARNING, 1, "captures_left"), (WARNING, 2, "referee")]
    assert game.penalty_points(BLACK) == 2  # Thai 39: two warnings, 2 points to White


def test_both_lose_is_a_result_of_its_own_on_the_link_and_in_the_journal():
    """OP Art.9-3 (both without points) and Thai 40 (a referee may make both lose): not
    "Void" (no result) but "Both lose", kept across a power cut."""
    hw, pipe, app = linked(SimStorage(), rules="thai")
    run(app, hw, 0, 100)
    lines = host_says(hw, pipe, app, "end Both%20lose", 100)
    assert [line[1][:3] for line in lines if line[0] == "END"] == [["1", "re=Both%20lose", "why=host"]]
    from firmware.journal.recovery import recover
    from firmware.journal.store import Journal

    got = recover(Journal(hw.storage))  # what a power-up reads back
    assert not got.in_progress and got.game.result.winner == BOTH_LOSE and got.game.result.sgf() == "Both lose"
