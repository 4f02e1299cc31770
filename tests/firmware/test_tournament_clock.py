"""The clock's tournament clauses and repetitions on the assembled board: the App on simulated
hardware, hands, clock presses, PAUSE and MENU, and the host's commands.

Korean rules Art.9 and regulations Art.14-2 and 21-4; Thai rules 11, 14, 24 and 31.
"""

from harness import Table, point
from support import data_path

from firmware.drivers.buttons import B_BLACK, B_MENU, B_PAUSE, B_WHITE
from firmware.events import EV_CALL_PAUSE
from firmware.modes import CASUAL, TOURNAMENT
from firmware.rules.coords import parse_vertex
from firmware.rules.position import BLACK, WHITE
from host_tools.board.messages import message

M = 60000


def capture_corner(table):
    """Black captures White's corner stone (A9) with its third move; not lifted yet."""
    table.move(BLACK, 1, 0)
    table.move(WHITE, 0, 0)
    table.move(BLACK, 4, 4)
    table.move(WHITE, 6, 6)
    table.place(BLACK, 0, 1)
    assert table.app.referee.seen.npending == 1


def test_korean_pause_only_to_remove_captured_stones():
    table = Table("korean", "absolute 30m", mode=TOURNAMENT)
    table.move(BLACK, 4, 4)
    table.place(WHITE, 2, 2)
    table.button(B_PAUSE)  # nothing to remove (Art.14-2): the clock runs on
    assert not table.app.clock.paused
    assert message(table.app.referee) == "no pause: only to remove captured stones (Korean Art.14-2)"
    table = Table("korean", "absolute 30m", mode=TOURNAMENT)
    capture_corner(table)
    table.button(B_PAUSE)
    assert table.app.clock.paused
    before = table.left(BLACK).main_ms
    table.wait(5000)
    assert table.left(BLACK).main_ms == before  # no time runs while the stone comes off
    table.lift(0, 0)
    table.button(B_BLACK)  # the press ends the move and the pause
    assert not table.app.clock.paused and table.app.clock.snap.running == WHITE
    assert table.app.game.result is None


def test_thai_pause_follows_articles_24_17_and_35():
    table = Table("thai", "byoyomi 0 3x30s", mode=TOURNAMENT)  # in byo-yomi from the start
    capture_corner(table)
    table.button(B_PAUSE)  # one stone: fewer than five (24); a stop to call the referee (17, 35)
    assert table.app.clock.paused and table.app.clock.pause_kind == EV_CALL_PAUSE
    assert message(table.app.referee, table.app.clock) == (
        "remove the captured stones at A9 (lit)")
    table.lift(0, 0)
    assert message(table.app.referee, table.app.clock) == (
        "clock stopped: the referee is called (Thai 17, 35); PAUSE restarts it; "
        "Black: press your clock to end the move (white next)")
    table.button(B_PAUSE)
    assert not table.app.clock.paused
    table = Table("thai", "absolute 5m", mode=TOURNAMENT)  # no byo-yomi: the last 10 minutes
    capture_corner(table)
    table.button(B_PAUSE)
    assert table.app.clock.paused
    table = Table("thai", "byoyomi 0 3x30s", mode=CASUAL)  # a club game: PAUSE as the players like
    table.move(BLACK, 4, 4)
    table.button(B_PAUSE)
    assert table.app.clock.paused
    table.button(B_PAUSE)
    assert not table.app.clock.paused


def test_only_the_referee_restarts_the_referees_stop():
    # Korean regulations 11-4: the referee stops the game for a dispute and restarts it.
    table = Table("korean", "absolute 30m", mode=TOURNAMENT)
    table.move(BLACK, 4, 4)
    assert table.host("clock", "pause") is None
    table.button(B_PAUSE)  # a player's PAUSE does not restart it
    assert table.app.clock.paused
    assert message(table.app.referee, table.app.clock) == (
        "clock stopped by the referee: the referee restarts it (Korean regulations 11-4)")
    table.move(WHITE, 2, 2)  # nor does a press
    assert table.app.clock.paused and table.app.clock.turn == BLACK
    assert table.host("clock", "resume") is None
    assert not table.app.clock.paused and table.app.clock.turn == BLACK


def test_thai_absence_once_in_byoyomi_with_the_referees_leave():
    table = Table("thai", "byoyomi 0 3x30s", mode=TOURNAMENT)
    table.move(BLACK, 4, 4)
    table.place(WHITE, 2, 2)
    assert table.host("clock", "away", "W") is not None  # White's own turn: refused (31)
    table.button(B_WHITE)
    assert table.host("clock", "away", "W") is None  # Black to play, White leaves
    table.move(BLACK, 5, 5)  # Black's press: White's clock waits for White
    white = table.left(WHITE).period_ms
    table.wait(40000)
    assert table.app.clock.paused and table.left(WHITE).period_ms == white
    table.button(B_PAUSE)  # White is back
    table.wait(2000)
    assert white - 2200 < table.left(WHITE).period_ms < white - 2000  # its clock runs again
    table.move(WHITE, 2, 6)
    assert table.host("clock", "away", "W") is not None  # once per game


def test_thai_lateness_comes_off_main_time_and_beyond_15_minutes_loses():
    table = Table("thai", "byoyomi 60m 3x30s", mode=TOURNAMENT)
    assert table.host("clock", "late", "B", "600") is None
    table.move(BLACK, 4, 4)
    assert 50 * M - 500 < table.left(BLACK).main_ms < 50 * M
    assert table.host("clock", "late", "W", "60") is not None  # the clock has started
    table = Table("thai", "byoyomi 60m 3x30s", mode=TOURNAMENT)
    assert table.host("clock", "late", "W", "901") is None
    result = table.app.game.result
    assert result.sgf() == "B+F" and result.detail == "late"
    assert table.app.game.penalties[-1][1:] == (WHITE, 3, 0, "late")


def test_a_korean_draw_is_replayed_with_the_times_left_and_colours_kept():
    table = Table("korean", "byoyomi 10m 3x30s", mode=TOURNAMENT, players={"pb": "Kim", "pw": "Lee"})
    table.move(BLACK, 4, 4)
    table.wait(60000)
    table.move(WHITE, 2, 2)  # White took a minute
    black, white = table.left(BLACK).main_ms, table.left(WHITE).main_ms
    assert table.host("replay") is not None  # not a draw (yet)
    assert table.host("end", "0") is None  # the referee rules a draw
    assert message(table.app.referee).startswith("Game over: a draw; MENU replays it")
    gid = table.app.follower.gid
    for col, row in ((4, 4), (2, 2)):
        table.lift(col, row)
    table.button(B_MENU)
    app = table.app
    assert app.follower.gid == gid + 1 and app.game.move_number == 0 and app.game.result is None
    assert app.follower.settings.players == {"pb": "Kim", "pw": "Lee"}
    table.place(BLACK, 4, 4)  # Black's stone starts Black's clock
    assert black - 500 < table.left(BLACK).main_ms < black and table.left(WHITE).main_ms == white


def repetition(table):
    """The triple ko of tests/data/rules_cases.jsonl, set on a 7x7 board and played by hands:
    every capture lifted, every move pressed."""
    from rules_cases import load_cases

    case = next(c for c in load_cases(data_path("rules_cases.jsonl")) if c["id"] == "triple-ko-korean-draw")
    app = table.app
    setup = case["setup"]
    black = [parse_vertex(7, v) for v in setup["B"]]
    white = [parse_vertex(7, v) for v in setup["W"]]
    app.game.setup(black, white)
    phys = app.referee.region.phys_of
    for colour, points in ((BLACK, black), (WHITE, white)):
        for g in points:
            table.hw.stones.place(phys[g], colour)
    table.wait(300)
    table.button(B_WHITE)  # White starts Black's clock
    for colour, v in case["moves"]:
        g = parse_vertex(7, v)
        table.hw.stones.place(phys[g], BLACK if colour == "B" else WHITE)
        table.wait(300)
        for q in range(len(app.game.pos.cells)):
            if app.game.pos.cells[q] == 0 and phys[q] and table.hw.stones.sensed(phys[q]):
                table.hw.stones.lift(phys[q])
        table.wait(300)
        table.button(B_BLACK if colour == "B" else B_WHITE)
        if app.game.phase != 0 or app.game.cycle:
            break


def test_a_thai_repetition_is_a_draw_only_if_both_agree():
    table = Table("thai", "byoyomi 10m 3x30s", mode=TOURNAMENT, size=7)
    repetition(table)
    app = table.app
    assert app.game.cycle and app.game.result is None and app.game.move_number == 12
    assert message(app.referee).startswith("position repeated (Thai 11.1): a draw if both agree")
    table.button(B_MENU)
    table.button(B_MENU)  # MENU twice is one player's act: no draw
    assert app.game.result is None
    assert message(app.referee) == "a draw offered (Thai 11.1): both press your clocks to agree, or play on"
    table.button(B_WHITE)
    assert app.game.result is None and message(app.referee) == (
        "a draw offered (Thai 11.1): White agreed; Black, press your clock to agree, or play on")
    table.button(B_BLACK)  # each player by its own act
    assert app.game.result.sgf() == "0" and app.game.result.detail == "agreed" and app.clock.stopped


def test_a_korean_repetition_is_a_draw_at_once():
    table = Table("korean", "byoyomi 10m 3x30s", mode=TOURNAMENT, size=7)
    repetition(table)
    assert table.app.game.result.sgf() == "0" and table.app.clock.stopped
    assert message(table.app.referee).startswith("Game over: a draw; MENU replays it")


def test_a_press_within_the_settle_time_ends_the_move_just_placed():
    """In byo-yomi players press the instant the stone is down, before the sensors have settled
    (~150 ms): the press waits for the stone, which is White's move, not a pass."""
    for sensors in ("presence", "polarity"):
        table = Table("korean", "byoyomi 10m 3x30s", mode=TOURNAMENT, sensors=sensors)
        table.move(BLACK, 4, 4)
        table.hw.stones.place(point(table.app, 2, 2), WHITE)
        table.wait(40)  # 40 ms later White presses
        table.button(B_WHITE)
        table.wait(400)
        hist = table.app.game.hist
        assert [hist.moves[k] & 0x1FF for k in range(1, hist.length)] == [
            table.app.referee.region.game_of[point(table.app, c, r)] for c, r in ((4, 4), (2, 2))], sensors
        assert table.app.clock.snap.running == BLACK and table.app.referee.state == 1, sensors
