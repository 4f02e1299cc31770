"""A stuck table (issue 37, item 11): the board asking the players to fix it (stones to put back
or lift) for 30 s says so on its line, ``ALERT ... waiting=30 what=...``, again every 60 s while it
lasts, and ``waiting=0`` once fixed; looking costs the idle pass a time compared, no more."""

from harness import host_says, linked, point, run, said

from firmware.protocol import fields_dict, unquote
from firmware.rules.position import BLACK, WHITE


def _waiting(lines):
    """The ALERT lines' fields that say waiting=, as dicts (what= unquoted)."""
    out = []
    for kind, fields in lines:
        if kind == "ALERT":
            said = fields_dict(fields)
            if "waiting" in said:
                if "what" in said:
                    said["what"] = unquote(said["what"])
                out.append(said)
    return out


def _wait(app, hw, start, end):
    # Step every 100 ms (the loop catches up with what is due): a minute of waiting, quickly.
    for t in range(start, end, 100):
        hw.stones.set_time(t)
        app.step(t)


def _played(moves):
    hw, pipe, app = linked()
    run(app, hw, 0, 100)
    t = 100
    for colour, col, row in moves:
        hw.stones.place(point(app, col, row), colour)
        run(app, hw, t, t + 400)
        t += 400
    assert app.game.move_number == len(moves)
    pipe.take()
    return hw, pipe, app, t


def test_a_board_waiting_for_its_players_says_so_every_minute_and_when_fixed():
    hw, pipe, app, t = _played([(BLACK, 2, 2), (WHITE, 6, 2), (BLACK, 2, 6)])
    # Two stones knocked off (C7, G7) and one put on a point of no move (E5): the LEDs ask.
    hw.stones.lift(point(app, 2, 2))
    hw.stones.lift(point(app, 6, 2))
    hw.stones.place(point(app, 4, 4), BLACK)
    start = t
    _wait(app, hw, t, start + 29_000)
    assert app.referee.state == 2 and _waiting(said(pipe)) == []  # SYNC, not yet told
    _wait(app, hw, start + 29_000, start + 31_000)
    told = _waiting(said(pipe))
    assert told == [{"journal": "ok", "waiting": "30", "what": "lift E5; put back C7,G7"}], told
    _wait(app, hw, start + 31_000, start + 89_000)
    assert _waiting(said(pipe)) == []
    _wait(app, hw, start + 89_000, start + 91_000)
    assert [w["waiting"] for w in _waiting(said(pipe))] == ["90"]
    hw.stones.lift(point(app, 4, 4))  # fixed
    hw.stones.place(point(app, 2, 2), BLACK)
    hw.stones.place(point(app, 6, 2), WHITE)
    _wait(app, hw, start + 91_000, start + 93_000)
    assert _waiting(said(pipe)) == [{"journal": "ok", "waiting": "0"}]
    # A host that asks again gets the end (the requests before it are over: SKIP).
    resent = host_says(hw, pipe, app, "resend 0", start + 93_000)
    assert _waiting(resent) == [{"journal": "ok", "waiting": "0"}], resent


def test_a_refused_stone_left_on_the_board_is_told_too():
    # White's stones at A8 and B9: Black at A9 has no liberty (suicide), refused: lift it.
    hw, pipe, app, t = _played([(BLACK, 4, 4), (WHITE, 0, 1), (BLACK, 6, 6), (WHITE, 1, 0)])
    hw.stones.place(point(app, 0, 0), BLACK)
    _wait(app, hw, t, t + 31_000)
    assert app.referee.state == 3  # REJECT
    assert [(w["waiting"], w["what"]) for w in _waiting(said(pipe))] == [("30", "lift A9")]


def test_looking_for_a_stuck_board_is_once_a_second_not_every_pass():
    hw, pipe, app = linked()
    run(app, hw, 0, 100)
    looked = []
    asking = app._asking
    app._asking = lambda link, now_ms: looked.append(now_ms) or asking(link, now_ms)
    run(app, hw, 100, 10_100)  # 1,000 passes of 10 ms
    assert 9 <= len(looked) <= 11, looked
