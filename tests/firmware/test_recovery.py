"""A power cut mid-game on simulated hardware: the board comes back to the same game.

The App is dropped (the power is cut) and a new one starts on the same
flash, cable and stones, as at power-up.
"""


from harness import board, linked, point, power_up, press, run, said
from support import let_go, not_loaded

from firmware.journal.recorder import CHECKPOINT_MS
from firmware.leds.marks import PUT_BACK
from firmware.modes import TOURNAMENT
from firmware.protocol import encode_command
from firmware.referee.states import PLAY, SYNC
from host_tools.board.rules import diagram
from twins.storage import SimStorage


def _game_in_progress():
    """Black, White, Black on a 9x9 Korean game with byo-yomi; White's time runs."""
    hw, app = board(SimStorage(), mode=TOURNAMENT, size=9, rules="korean", komi=6.5, time_spec="byoyomi 1m 3x10s")
    run(app, hw, 0, 100)
    t = 100
    for i, (col, row) in enumerate(((4, 4), (3, 4), (4, 3))):
        hw.stones.place(point(app, col, row), 1 + i % 2)
        run(app, hw, t, t + 300)
        press(app, hw, i % 2, t + 300)
        t += 420 + 1000 * i
    run(app, hw, t, t + 2000)  # White thinks (less than a clock checkpoint)
    return hw, app, t + 2000


def _times(clock, now):
    snap = clock.snapshot(now)
    return snap.black.main_ms, snap.white.main_ms, snap.black.periods, snap.white.periods


def test_a_power_cut_mid_game_comes_back_paused_then_time_runs_again():
    hw, app, t = _game_in_progress()
    rows = diagram(app.game.pos)
    saved = app.clock.save(t)
    before = _times(app.clock, t)
    assert app.clock.snap.running == 2 and app.game.move_number == 3
    del app  # the power is cut
    not_loaded("firmware.journal.recovery")
    again = power_up(hw, size=19, now_ms=5)  # power-up: the journal's settings win
    game = again.game
    assert let_go("firmware.journal.recovery")  # its code is let go once it has run
    assert diagram(game.pos) == rows and game.move_number == 3 and game.size == 9
    assert game.rules.name == "korean" and game.komi == 6.5 and again.referee.mode == TOURNAMENT
    clock = again.clock
    assert clock.paused and again.timekeeper.held and again.timekeeper.started and clock.turn == 2
    assert clock.save(5)[7:17] == saved[7:17]  # main times, periods... as recorded
    after = _times(clock, 5)
    assert after[0] == before[0] and after[2:] == before[2:]
    assert before[1] <= after[1] <= before[1] + CHECKPOINT_MS  # White's turn: at most a checkpoint back
    run(again, hw, 10, 400)  # the stones settle and match
    assert again.referee.state == PLAY and not again.timekeeper.held and not clock.paused
    assert _times(clock, 400)[1] < after[1]  # White's time runs again
    hw.stones.place(point(again, 2, 2), 2)
    run(again, hw, 400, 700)
    press(again, hw, 1, 700)
    assert game.move_number == 4 and clock.snapshot(900).running == 1  # play goes on


def test_power_up_sees_the_stones_at_once():
    hw, app, _t = _game_in_progress()
    del app
    again = power_up(hw, now_ms=0)  # nothing has been scanned yet
    assert again.referee.state == PLAY  # in sync from the start: no "put back" flash on the LEDs
    assert not any(again.marks.bits[p] & PUT_BACK for p in range(361))
    again.step(0)
    assert not again.timekeeper.held and not again.clock.paused  # the stones match: time runs at once


def test_a_long_think_is_checkpointed():
    hw, app, t = _game_in_progress()
    run(app, hw, t, t + 25000)  # White thinks 25 s: clock checkpoints on the way
    before = _times(app.clock, t + 25000)
    del app
    after = _times(power_up(hw, now_ms=0).clock, 0)
    assert before[1] <= after[1] <= before[1] + CHECKPOINT_MS and after[0] == before[0]


def test_a_stone_knocked_off_during_the_cut_is_shown_and_play_waits_for_it():
    hw, app, t = _game_in_progress()
    knocked = point(app, 4, 3)  # Black's last stone
    del app
    hw.stones.lift(knocked)  # while the board is off
    again = power_up(hw, now_ms=0)
    run(again, hw, 0, 400)
    assert again.referee.state == SYNC and again.marks.bits[knocked] & PUT_BACK
    assert again.timekeeper.held and again.clock.paused  # no time runs while the app is wrong
    hw.stones.place(knocked, 1)
    run(again, hw, 400, 800)
    assert again.referee.state == PLAY and not again.marks.bits[knocked] & PUT_BACK
    assert not again.timekeeper.held and not again.clock.paused


def test_the_link_numbers_on_after_a_recovery():
    hw, pipe, app = linked(SimStorage(), boot=7)
    run(app, hw, 0, 100)
    hw.stones.place(point(app, 4, 4), 1)
    run(app, hw, 100, 500)
    seen = said(pipe, numbered=True)
    assert [m[1] for m in seen] == ["HELLO", "GAME", "MOVE"]
    del app
    again = power_up(hw, boot=1, now_ms=0)  # the journal's count wins: power-up 8, numbering on
    run(again, hw, 0, 300)
    lines = said(pipe, numbered=True)
    assert lines[0][1] == "HELLO" and "boot=8" in lines[0][2] and lines[0][0] > seen[-1][0]
    assert [m[1] for m in lines[1:]] == ["GAME", "MOVE"] and lines[1][2][0] == "1"  # the same game, again
    assert "boot=7" in lines[1][2] and "boot=7" in seen[1][2]  # named by the power-up it began in
    assert [m[0] for m in lines] == list(range(lines[0][0], lines[0][0] + 3))


def _finished_then_power_up(boot):
    """A game resigned, the power cut, the board powered up (13x13 settings of its own)."""
    hw, pipe, app = linked(SimStorage(), boot=boot)
    run(app, hw, 0, 100)
    hw.stones.place(point(app, 4, 4), 1)
    run(app, hw, 100, 500)
    app.referee.button("resign_white", 500)
    run(app, hw, 500, 600)
    last = said(pipe, numbered=True)[-1]
    assert last[1] == "END"
    del app
    hw.stones.clear()
    return hw, pipe, power_up(hw, size=13, now_ms=0), last


def test_a_finished_game_is_told_again_then_the_next_one_is_numbered_after_it():
    hw, pipe, again, last = _finished_then_power_up(5)
    run(again, hw, 0, 100)  # the finished game first: its host may not have read its end before the cut
    lines = said(pipe, numbered=True)
    assert [m[1] for m in lines] == ["HELLO", "GAME", "MOVE", "END"] and lines[0][0] > last[0]
    assert "boot=6" in lines[0][2] and lines[1][2][0] == "1" and lines[3][2][1] == "re=B+R"
    t = 100
    for _ in range(2):  # its host's hellos, every line written: it has them all
        pipe.send(encode_command("hello"))
        run(again, hw, t, t + 100)
        t += 100
    assert again.game.size == 13 and again.game.move_number == 0 and again.game.result is None
    run(again, hw, t, t + 100)
    lines = said(pipe, numbered=True)
    assert [m[1] for m in lines] == ["HELLO", "HELLO", "GAME"] and "boot=6" in lines[-1][2]
    assert lines[-1][2][0] == "2"  # game 2: the host keeps game 1 as it was


def test_a_finished_game_gives_way_soon_when_no_host_is_there():
    hw, pipe, again, _last = _finished_then_power_up(5)
    run(again, hw, 0, 4900)
    assert again.game.result is not None  # still the finished game
    run(again, hw, 4900, 5100)
    assert again.game.size == 13 and again.follower.gid == 2 and again.game.result is None


def test_a_finished_game_waits_for_a_host_that_asks_for_lines():
    hw, pipe, again, _last = _finished_then_power_up(5)
    run(again, hw, 0, 100)
    pipe.take()
    t = 100
    for command in ("hello", "resend 0", "hello", "hello"):
        pipe.send(encode_command(command))
        assert again.follower.gid == 1  # (until two hellos after the resend)
        run(again, hw, t, t + 2000)  # (beyond the 5 s a board with no host waits)
        t += 2000
    assert again.follower.gid == 2


def test_a_full_flash_does_not_stop_the_game_or_the_link():
    hw, pipe, app = linked(SimStorage(capacity=200))  # room for the first snapshot and a few records
    run(app, hw, 0, 100)
    for i, (col, row) in enumerate(((2, 2), (6, 6), (2, 6), (6, 2), (4, 4), (3, 3), (5, 5), (4, 6))):
        hw.stones.place(point(app, col, row), 1 + i % 2)
        run(app, hw, 100 + 300 * i, 400 + 300 * i)
    assert app.game.move_number == 8 and app.recorder.errors > 0
    assert [m[1] for m in said(pipe, numbered=True)].count("MOVE") == 8
