"""The game at the table as players meet it: hands, fingers and the board's words, every loop pass checked.

harness.Table checks each pass: no stage error, the referee's message whole, the clock running
for the player the board waits for. Each test here is a case that once broke at a real table.
"""

from harness import Table

from firmware.drivers.buttons import B_MENU
from firmware.modes import TOURNAMENT
from firmware.rules.position import BLACK, WHITE
from host_tools.board.messages import message

TIME = "byoyomi 10m 3x30s"


def test_both_presses_agree_the_count_and_the_result_is_said_at_once():
    for size, handicap in ((9, 0), (9, 2), (13, 0)):
        table = Table("japanese", TIME, size=size, handicap=handicap)
        if handicap:
            table.place(BLACK, 2, size - 3)
            table.place(BLACK, size - 3, 2)
            table.move(WHITE, 4, 4)
        else:
            table.move(BLACK, 4, 4)
        table.press(WHITE if not handicap else BLACK)  # a pass
        table.press(BLACK if not handicap else WHITE)  # a pass: counting
        assert table.app.referee.state == 4, (size, handicap)  # COUNTING
        table.press(BLACK)
        assert "Black agreed: White, press your clock to agree" in message(table.app.referee), (size, handicap)
        table.press(WHITE)  # (every pass checked: the words never fail)
        said = message(table.app.referee, table.app.clock)
        assert table.game.result is not None and said.startswith("Game over: "), (size, handicap, said)


def test_a_takeback_gives_the_clock_to_the_side_to_move():
    # The page's Undo and the board's MENU (casual), after the mover has pressed.
    for how in ("undo", "menu"):
        table = Table("japanese", TIME)
        table.move(BLACK, 4, 4)
        table.move(WHITE, 2, 2)
        assert table.app.clock.turn == BLACK
        if how == "undo":
            assert table.control("undo")
        else:
            table.button(B_MENU)
        assert table.game.to_move == WHITE and table.app.clock.turn == WHITE, how
        table.lift(2, 2)
        table.move(WHITE, 6, 6)  # White plays again and its press hands the clock over
        assert table.app.clock.turn == BLACK and table.game.move_number == 2, how
        table.move(BLACK, 2, 6)
        assert table.app.clock.turn == WHITE, how


def test_the_first_move_pressed_at_once_is_the_first_move():
    # A press 0-120 ms after the first stone, while its reading settles, before the clock started.
    for ms in (0, 40, 100, 120):
        table = Table("japanese", TIME)
        table.place(BLACK, 4, 4, ms)
        table.press(BLACK)
        table.wait(1000)
        assert table.app.clock.turn == WHITE and table.game.move_number == 1, ms
        table.move(WHITE, 2, 2)
        assert table.game.move_number == 2 and table.app.clock.turn == BLACK, (ms, message(table.app.referee))


def test_a_reply_placed_before_the_press_is_taken_once_the_press_comes():
    table = Table("japanese", TIME)
    table.move(BLACK, 4, 4)
    table.place(WHITE, 2, 2)
    table.place(BLACK, 6, 6)  # Black's next stone, before White pressed: it waits
    assert message(table.app.referee) == (
        "not accepted at G3: White has not pressed the clock yet (lift it; White presses, then Black plays)")
    table.press(WHITE)  # the stone that waited is Black's reply
    assert table.game.move_number == 3 and table.app.clock.turn == BLACK
    assert message(table.app.referee) == "Black: press your clock to end the move (white next)"
    table.press(BLACK)
    assert table.app.clock.turn == WHITE


def test_play_resumed_after_two_passes_starts_with_the_first_passer_and_costs_nothing():
    # Thai 12.3: play resumes with the player who passed first; Thai 20 excepts a stone after the
    # opponent's pass, so the other player's stone is only refused.
    for rules in ("thai", "korean"):
        table = Table(rules, TIME, mode=TOURNAMENT, sensors="polarity")
        table.move(BLACK, 4, 4)
        table.move(WHITE, 2, 2)
        table.press(BLACK)  # Black passes first
        table.press(WHITE)  # White passes: counting
        assert table.game.phase == 1, rules
        table.place(WHITE, 6, 6)  # White, who passed second, places a stone
        assert table.game.result is None and list(table.game.warnings[1:]) == [0, 0], rules
        assert message(table.app.referee) == (
            "not accepted at G3: it is Black's turn: play resumed after the passes with Black, who passed first."
            " Lift the stone"), rules
        table.lift(6, 6)
        table.move(BLACK, 6, 6)
        assert table.game.move_number == 5 and table.game.result is None, rules
    # Presence sensors cannot tell who placed it: the stone is the first passer's, and the players
    # are told so (the LEDs' corners in Black's colour, the words), until the move after it.
    table = Table("thai", TIME, mode=TOURNAMENT)
    table.move(BLACK, 4, 4)
    table.move(WHITE, 2, 2)
    table.press(BLACK)
    table.press(WHITE)
    table.place(WHITE, 6, 6)
    assert message(table.app.referee) == (
        "Play resumed after the passes: Black plays first. Black: press your clock to end the move (white next)")
    table.press(BLACK)
    table.move(WHITE, 6, 2)
    assert message(table.app.referee) == "black to play"


def test_words_that_say_what_happened():
    from firmware.rules.result_sgf import parse_sgf
    from host_tools.board.words import result_words

    # OP: a count with no points for either side, and White moving first.
    table = Table("op", "none", mode=TOURNAMENT, sensors="polarity")
    table.place(WHITE, 4, 4)  # OP Art.2: Black moves first
    assert message(table.app.referee) == "Game over: White loses by a foul: White moving first (OP rules Art.2)"
    table = Table("op", "none")
    table.place(BLACK, 4, 4)
    table.place(WHITE, 3, 4)
    table.press(BLACK)
    table.press(WHITE)
    assert message(table.app.referee).startswith(
        "counting: Black 0, White 0: if it ends so, both players lose: neither has points (OP rules Art.9-3). "
        "The board counts as it stands: nothing is lifted at the end. ")
    # A Thai referee's both-lose (Thai 40), a Korean repetition, as the record's reader gets them.
    table = Table("thai", TIME, mode=TOURNAMENT)
    table.move(BLACK, 4, 4)
    assert table.host("end", "Both%20lose") is None
    assert message(table.app.referee) == "Game over: both players lose: the referee's decision (Thai rules 40)"
    assert result_words(parse_sgf("0", "repetition"), "korean") == "a draw: the position repeated (Korean rules Art.9)"
    assert result_words(parse_sgf("0", "agreed"), "thai") == (
        "a draw agreed after the position repeated (Thai rules 11.1)")
    assert result_words(parse_sgf("Both lose", "host"), "thai") == (
        "both players lose: the referee's decision (Thai rules 40)")
    assert result_words(parse_sgf("0", "jigo"), "japanese") == "a draw (jigo): the count is even"


def test_the_players_are_told_of_a_pass_and_a_warning():
    from firmware.leds.marks import NOTICE

    table = Table("korean", TIME, mode=TOURNAMENT)
    table.move(BLACK, 4, 4)
    table.press(WHITE)  # a bare press: a pass
    assert message(table.app.referee, table.app.clock) == (
        "White passed: a pass by Black too ends play. black to play")
    corners = [table.at(c, r) for c, r in ((0, 0), (8, 0), (0, 8), (8, 8))]
    assert all(table.app.marks.bits[p] & NOTICE and table.app.marks.stone[p] == WHITE for p in corners)
    hw = table.hw
    assert "WHITE PASSES / PASS AGAIN: END" in hw.display.shown and hw.display.said()  # for 3 s
    table.wait(3000)
    assert not hw.display.said()  # then the times again
    assert [f for _t, f, _ms in hw.buzzer.beeps] == [1500, 1500]  # and a chirp
    table.move(BLACK, 2, 2)  # the next move: told no more
    assert message(table.app.referee, table.app.clock) == "white to play"
    assert not any(table.app.marks.bits[p] & NOTICE for p in corners)
    # Korean regulations 18-1-4: Black presses before lifting the stone it captured.
    table = Table("korean", TIME, mode=TOURNAMENT)
    table.move(BLACK, 1, 0)
    table.move(WHITE, 0, 0)
    table.move(BLACK, 4, 4)
    table.move(WHITE, 6, 6)
    table.move(BLACK, 0, 1)  # captures A9 and presses at once
    assert message(table.app.referee, table.app.clock) == (
        "Black is warned (warning 1; 2 lose): pressing the clock before lifting the captured stones "
        "(Korean regulations 18-1-4). remove the captured stones at A9 (lit)")
    assert all(table.app.marks.bits[p] & NOTICE and table.app.marks.stone[p] == BLACK for p in corners[1:])
    assert table.hw.display.said() == "BLACK WARNED / WARNING 1 OF 2"
