"""Tournament clauses on the assembled board: the App on simulated hardware, hands and clock presses.

Korean rules and regulations Art.18-1-4, 19-1-2, 19-1-3; Thai rules 24, 27, 28,
29; Korean Art.7-2 and Thai 9.2 on dame at the count.
"""

from harness import Table, board, point, power_up, press, run

from firmware.leds.marks import DAME as DAME_MARK
from firmware.modes import CASUAL, TOURNAMENT
from firmware.referee.states import COUNTING, PLAY
from firmware.rules.history import DAME_FILL, move_colour
from firmware.rules.position import BLACK, WHITE
from host_tools.board.messages import message
from twins.storage import SimStorage


def capture_corner(table):
    """Black captures White's corner stone (A9, the top-left) with its third move."""
    table.move(BLACK, 1, 0)
    table.move(WHITE, 0, 0)
    table.move(BLACK, 4, 4)
    table.move(WHITE, 6, 6)
    table.place(BLACK, 0, 1)  # captures A9, which stays on the board for now
    assert table.game.captures[BLACK] == 1


def test_pressing_before_lifting_warns_the_capturer_once_not_the_opponent():
    for rules in ("korean", "thai"):
        table = Table(rules, mode=TOURNAMENT)
        capture_corner(table)
        table.press(BLACK)  # Korean 18-1-4, Thai 24: the captured stone is still there
        assert list(table.game.warnings[1:]) == [1, 0], rules
        table.move(WHITE, 6, 2)  # White plays on and presses: the stone is Black's to lift
        assert list(table.game.warnings[1:]) == [1, 0], rules
        table.lift(0, 0)
        table.move(BLACK, 2, 6)
        assert list(table.game.warnings[1:]) == [1, 0] and table.game.result is None, rules


def test_captures_left_at_the_capturers_next_move():
    table = Table("korean", mode=TOURNAMENT)
    capture_corner(table)
    table.press(BLACK)
    table.move(WHITE, 6, 2)
    table.place(BLACK, 2, 6)  # Korean 19-1-3: the captured stone was left on the board
    assert table.result() == "W+F"
    table = Table("thai", mode=TOURNAMENT)
    capture_corner(table)
    table.press(BLACK)  # Thai 24: a warning
    table.move(WHITE, 6, 2)
    table.move(BLACK, 2, 6)  # still there (27): the same incident, no second warning
    assert list(table.game.warnings[1:]) == [1, 0] and table.game.result is None
    table = Table("thai", mode=TOURNAMENT, sensors="polarity")
    capture_corner(table)
    table.move(WHITE, 6, 2)  # White replies before Black's press (colour sensors: the press is implied)
    assert list(table.game.warnings[1:]) == [0, 0]
    table.move(BLACK, 2, 6)  # Thai 27: the captured stone is still on the board
    assert list(table.game.warnings[1:]) == [1, 0] and table.game.move_number == 7


def test_op_no_stone_while_a_captured_chain_is_still_on_the_board():
    """OP Art.2-4: a placement while a chain without liberties is still on the board is a
    foul in tournament play (the placer loses), refused until it is off in casual play."""
    table = Table("op", mode=TOURNAMENT)
    capture_corner(table)
    table.press(BLACK)
    table.place(WHITE, 6, 2)
    assert table.result() == "B+F" and table.app.clock.snap.paused
    table = Table("op", mode=CASUAL)
    capture_corner(table)
    table.press(BLACK)
    table.place(WHITE, 6, 2)
    assert message(table.app.referee) == (
        "not accepted at G7: the chain without liberties must come off first (OP Art.2-4). Lift the stone")
    assert table.game.move_number == 5 and table.game.result is None
    table.lift(6, 2)
    table.lift(0, 0)
    table.move(WHITE, 6, 2)
    assert table.game.move_number == 6


def test_removing_a_stone_that_was_not_captured_is_charged_to_the_player_whose_turn_it_is():
    # During a player's turn the hands on the board are that player's: the mover's until its
    # press ends the move, then the opponent's.
    for sensors in ("presence", "polarity"):
        table = Table("korean", mode=TOURNAMENT, sensors=sensors)
        table.move(BLACK, 4, 4)
        table.move(WHITE, 2, 2)
        table.lift(2, 2)  # Black, to play, lifts White's live stone (19-1-2)
        assert table.result() == "W+F", sensors
        table = Table("korean", mode=TOURNAMENT, sensors=sensors)
        table.move(BLACK, 4, 4)
        table.place(WHITE, 2, 2)
        table.lift(4, 4)  # White, before its press, lifts Black's stone
        assert table.result() == "B+F", sensors
    table = Table("thai", mode=TOURNAMENT)
    table.move(BLACK, 4, 4)
    table.move(WHITE, 2, 2)
    table.lift(2, 2)  # Thai 27: a warning, and the stone goes back
    assert list(table.game.warnings[1:]) == [1, 0]
    table.wait(500)
    assert list(table.game.warnings[1:]) == [1, 0]  # once, however long it is off
    table.place(WHITE, 2, 2)
    assert table.app.referee.state == PLAY  # the board matches the game
    table.move(BLACK, 5, 5)
    assert table.game.move_number == 3 and table.game.result is None


def test_lifting_ones_own_stone_in_ones_own_turn_costs_nothing():
    for rules in ("korean", "thai"):
        for sensors in ("presence", "polarity"):
            table = Table(rules, mode=TOURNAMENT, sensors=sensors)
            table.move(BLACK, 4, 4)
            table.move(WHITE, 2, 2)
            table.lift(4, 4)  # Black, to play, lifts its own stone: put it back
            assert table.game.result is None and list(table.game.warnings[1:]) == [0, 0], (rules, sensors)
            table.place(BLACK, 4, 4)
            assert table.app.referee.state == PLAY  # the board matches the game


def test_taking_back_the_stone_just_placed_is_a_warning():
    # Korean regulations 18-1-2, Thai 21: the mover lifts its stone before its press; it goes back.
    for rules in ("korean", "thai"):
        table = Table(rules, mode=TOURNAMENT)
        table.move(BLACK, 4, 4)
        table.place(WHITE, 2, 2)
        table.lift(2, 2)
        assert list(table.game.warnings[1:]) == [0, 1] and table.game.result is None, rules
        table.wait(500)
        assert list(table.game.warnings[1:]) == [0, 1], rules  # once
        table.place(WHITE, 2, 2)
        table.press(WHITE)
        assert table.app.referee.state == PLAY and table.app.clock.turn == BLACK, rules


def test_pressing_with_a_pushed_stone_is_a_korean_warning():
    table = Table("korean", mode=TOURNAMENT)
    table.move(BLACK, 4, 4)
    table.place(WHITE, 2, 2)
    table.lift(2, 2, 0)  # pushed to the next point while being placed
    table.place(WHITE, 3, 2)
    table.press(WHITE)  # Korean regulations 18-1-3
    assert list(table.game.warnings[1:]) == [0, 1] and table.game.penalties[-1][4] == "pushed_stone"


def test_placing_and_pressing_together_is_a_thai_warning():
    table = Table("thai", mode=TOURNAMENT)
    table.move(BLACK, 4, 4)
    table.place(WHITE, 2, 2, 40)  # the press 40 ms after the stone (Thai 23)
    table.press(WHITE)
    assert list(table.game.warnings[1:]) == [0, 1] and table.game.penalties[-1][4] == "pressed_together"
    table.wait(500)
    table.move(BLACK, 6, 6)  # a press after the stone is down costs nothing
    assert list(table.game.warnings[1:]) == [0, 1] and table.game.move_number == 3


def test_thai_lost_turn_hands_the_clock_over():
    table = Table("thai", mode=TOURNAMENT)
    table.move(BLACK, 4, 4)
    table.move(WHITE, 1, 0)
    table.move(BLACK, 5, 5)
    table.move(WHITE, 0, 1)
    table.place(BLACK, 0, 0)  # suicide (Thai 29): not placed, a warning, the turn is lost
    assert table.game.warnings[BLACK] == 1 and table.game.to_move == WHITE
    table.press(BLACK)  # Black's press ends its lost turn: White's time runs
    assert table.app.clock.snap.running == WHITE
    table.lift(0, 0)
    table.move(WHITE, 6, 6)
    assert table.game.move_number == 6 and table.app.clock.snap.running == BLACK


def walls(rules, sensors="presence", storage=None):
    """A 9x9 game on a board: Black's wall on column E, White's on G, column F left
    open (dame), then both pass (the clock buttons, no stone placed)."""
    hw, app = board(storage, size=9, rules=rules, sensors=sensors)
    t = 0
    for row in range(9):
        for colour, col in ((BLACK, 4), (WHITE, 6)):
            hw.stones.place(point(app, col, row), colour)
            run(app, hw, t, t + 300)
            t += 300
    press(app, hw, 0, t)
    press(app, hw, 1, t + 200)
    assert app.game.move_number == 20 and app.referee.state == COUNTING
    return hw, app, t + 400


def test_an_open_dame_is_counted_neutral_and_ok_waits_for_it_where_the_rules_say():
    hw, app, t = walls("japanese")
    assert app.control("ok", t)
    assert app.game.result.sgf() == "B+11.5"  # 36 - 18 - 6.5: the open column is nobody's, not seki
    for rules in ("korean", "thai"):
        hw, app, t = walls(rules)
        assert not app.control("ok", t)  # Korean Art.7-2, Thai 9.2: fill the dame first
        assert message(app.referee) == "dame still open (lit): fill them, then both press your clocks"
        assert app.game.result is None
        lit = [p for p in range(len(app.marks.bits)) if app.marks.bits[p] & DAME_MARK]
        assert sorted(lit) == sorted(point(app, 5, row) for row in range(9))  # the column to fill
        for row in range(9):  # filled in turn (presence: the turn order gives the colour); play stays stopped
            hw.stones.place(point(app, 5, row), app.game.to_move)
            run(app, hw, t, t + 300)
            t += 300
            assert app.referee.state == COUNTING and app.game.phase == 1, row
        assert app.game.move_number == 29 and app.control("ok", t + 400)
        assert app.game.result.sgf() == "B+11.5", rules


def test_dame_are_filled_in_turn_on_a_polarity_board():
    """Korean Art.7-2 and how-to-play 10, Thai 9.2: the players fill the dame in turn; a
    fill out of turn is refused (no foul: play stays stopped), and once the last is filled
    the board says so no more (Korean Art.8: the count is the same)."""
    for rules in ("korean", "thai"):
        hw, app, t = walls(rules, sensors="polarity")
        assert not app.control("ok", t)
        assert message(app.referee) == "dame still open (lit): fill them, then both press your clocks"
        order = (BLACK, WHITE, BLACK, BLACK, WHITE, BLACK, WHITE, BLACK, WHITE, BLACK)  # the 4th out of turn
        row = 0
        for colour in order:
            hw.stones.place(point(app, 5, row), colour)
            run(app, hw, t, t + 300)
            t += 300
            assert app.referee.state == COUNTING and app.game.result is None, (rules, row)
            if app.referee.rejected != 0xFFFF:
                assert message(app.referee) == (
                    "not accepted at F6: the dame are filled in turn, White's next. Lift the stone"), rules
                hw.stones.lift(point(app, 5, row))
                run(app, hw, t, t + 300)
                t += 300
                continue
            row += 1
        hist = app.game.hist
        fills = [move_colour(hist.moves[k]) for k in range(21, hist.length) if hist.moves[k] & DAME_FILL]
        assert fills == [BLACK, WHITE] * 4 + [BLACK], rules
        assert message(app.referee).startswith("counting: "), rules
        assert app.control("ok", t) and app.game.result.sgf() == "B+11.5", rules


def test_filled_dame_survive_a_power_cut():
    hw, app, t = walls("thai", storage=SimStorage())
    for row in range(3):
        hw.stones.place(point(app, 5, row), app.game.to_move)
        run(app, hw, t, t + 300)
        t += 300
    moves = list(app.game.hist.moves[:app.game.hist.length])
    del app
    again = power_up(hw, now_ms=0)
    run(again, hw, 0, 300)
    assert list(again.game.hist.moves[:again.game.hist.length]) == moves
    assert again.referee.state == COUNTING and not again.control("ok", 300)  # six dame still open (Thai 9.2)


def test_a_dame_fill_lifted_again_is_taken_back_not_marked_dead():
    hw, app, t = walls("korean", sensors="polarity")
    for row, colour in ((0, BLACK), (1, WHITE)):  # in turn (Korean Art.7-2)
        hw.stones.place(point(app, 5, row), colour)
        run(app, hw, t, t + 300)
        t += 300
    assert app.game.move_number == 22
    hw.stones.lift(point(app, 5, 0))  # an earlier fill: the last one comes off first
    run(app, hw, t, t + 300)
    t += 300
    assert app.game.move_number == 22 and not any(app.game.counter().dead)
    assert message(app.referee) == "put the stone back: the last dame filled comes off first"
    hw.stones.place(point(app, 5, 0), BLACK)
    hw.stones.lift(point(app, 5, 1))  # the last fill: taken back, its wall still alive
    run(app, hw, t, t + 300)
    t += 300
    assert app.game.move_number == 21 and not any(app.game.counter().dead)
    assert app.referee.state == COUNTING and message(app.referee) == (
        "counting: Black 36, White 18 + komi 6.5: Black leads by 11.5. Lift dead stones (put one back: alive again). "
        "Both press your clock to agree (or MENU)")
    hw.stones.place(point(app, 5, 1), WHITE)  # filled again, White's turn to fill again
    run(app, hw, t, t + 300)
    assert app.game.move_number == 22 and app.game.pos.cells[app.referee.region.game_of[point(app, 5, 1)]] == WHITE


def test_the_referee_takes_a_move_back_in_tournament_play():
    # Korean regulations 21-2-2 (a stone dropped is not a move), Thai 22: the referee decides.
    table = Table("korean", mode=TOURNAMENT)
    table.move(BLACK, 4, 4)
    table.move(WHITE, 2, 2)
    assert not table.control("undo")  # the players cannot
    assert message(table.app.referee) == "no takebacks in tournament mode: the referee decides"
    assert table.host("referee", "undo") is None
    assert table.game.move_number == 1 and table.app.clock.turn == WHITE
    assert message(table.app.referee) == "taken back: lift the stone at C7 (lit)"
    table.lift(2, 2)
    table.move(WHITE, 6, 6)
    assert table.game.move_number == 2 and table.game.result is None and table.app.clock.turn == BLACK
    assert table.host("referee", "undo") is None and table.host("referee", "undo") is None
    assert table.host("referee", "undo") is not None  # nothing left to take back
