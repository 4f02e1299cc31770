"""What the board tells the people at the table: handicap guidance, counting with a proposal and an
agreement, results and fouls in words, messages that name the points, teaching's warnings."""

from harness import Table, board, marked, press, run

from firmware.clock.verdict import result_lines
from firmware.leds import marks as mk
from firmware.modes import TEACHING, TOURNAMENT
from firmware.referee.states import COUNTING, OVER, PLAY, SETUP
from firmware.rules.coords import parse_vertex
from firmware.rules.position import BLACK, WHITE
from firmware.rules.result import FOUL, RESIGN, SCORE, TIME, Result
from host_tools.board.messages import message
from host_tools.board.words import result_words


def test_handicap_points_lit_stones_accepted_as_they_come_and_whites_clock_starts():
    hw, app = board(size=19, handicap=4, time_spec="byoyomi 10m 3x30s")
    phys = app.referee.region.phys_of
    run(app, hw, 0, 100)
    assert app.referee.state == SETUP and marked(app, mk.PLACE) == ["D16", "D4", "Q16", "Q4"]
    assert message(app.referee) == "place 4 handicap stones on the lit points: 0 of 4 down"
    hw.stones.place(phys[parse_vertex(19, "Q16")], BLACK)
    run(app, hw, 100, 400)
    assert marked(app, mk.ACCEPTED) == ["Q16"] and marked(app, mk.ERROR) == []  # right, not red
    assert marked(app, mk.PLACE) == ["D16", "D4", "Q4"]
    hw.stones.place(phys[parse_vertex(19, "K10")], BLACK)  # not a handicap point for 4
    run(app, hw, 400, 700)
    assert marked(app, mk.ERROR) == ["K10"] and marked(app, mk.ACCEPTED) == ["Q16"]
    assert message(app.referee) == "K10: not a handicap point, lift it (the handicap points are lit)"
    hw.stones.lift(phys[parse_vertex(19, "K10")])
    for v in ("D4", "D16", "Q4"):
        hw.stones.place(phys[parse_vertex(19, v)], BLACK)
    run(app, hw, 700, 1000)
    assert app.referee.state == PLAY and app.game.handicap == 4 and app.game.to_move == WHITE
    assert app.timekeeper.started and app.clock.snap.running == WHITE  # White's first move is timed
    assert message(app.referee, app.clock) == "white to play"
    app.control("resign_white", 1000)
    run(app, hw, 1000, 1200)
    assert hw.display.said() == "BLACK WINS / BY RESIGNATION"  # the clock display says the result
    assert app.command("new", ["size=9"], 1200) is None
    run(app, hw, 1200, 1400)
    assert hw.display.said() == "NEW GAME / NO CLOCK"


def test_a_one_stone_handicap_places_nothing_and_black_plays_first_without_komi():
    hw, app = board(size=19, handicap=1, rules="japanese")
    assert app.referee.state == PLAY and app.game.to_move == BLACK and app.game.komi == 0.5
    hw, app = board(size=9, handicap=1, rules="chinese")
    assert app.game.komi == 0.5 and app.referee.state == PLAY


def walls(rules="japanese"):
    """9x9: Black's wall on D, White's on F, a black stone at H5 inside White's area, two passes."""
    t = Table(rules, "none", size=9)
    for row in range(1, 10):
        t.place(BLACK, "D%d" % row)
        t.place(WHITE, "F%d" % row)
    t.place(BLACK, "H5")
    t.control("pass")
    t.control("pass")
    t.wait(200)  # (the board counts over a few loop passes)
    assert t.app.referee.state == COUNTING
    return t


def test_counting_proposes_the_dead_stone_shows_the_score_and_ends_when_both_press():
    t = walls()
    assert t.marked(mk.LIFT) == ["H5"]  # proposed dead: lit to lift
    assert t.game.counter().dead[parse_vertex(9, "H5")] == 1
    assert message(t.app.referee) == (
        "counting: Black 27, White 28 + komi 6.5: White leads by 7.5. The lit stones look dead: lift them to agree, "
        "or lift and put back a chain to keep it alive. Both press your clock to agree (or MENU)")
    assert "E5" in t.marked(mk.DAME) and "A1" in t.marked(mk.TERRITORY)
    t.press(BLACK)
    said = message(t.app.referee)
    assert t.app.referee.state == COUNTING and said.endswith("Black agreed: White, press your clock to agree")
    t.lift("H5")  # the board changed: the agreement so far is void
    assert t.app.referee.votes == 0 and t.marked(mk.LIFT) == []
    t.press(WHITE)
    assert t.app.referee.state == COUNTING
    t.press(BLACK)
    assert t.app.referee.state == OVER and t.game.result.sgf() == "W+7.5"
    assert message(t.app.referee) == "Game over: White wins by 7.5 points"
    # the final count stays lit; the dead stone lifted is not asked back
    assert t.marked(mk.PUT_BACK) == [] and "A1" in t.marked(mk.TERRITORY) and "H5" in t.marked(mk.TERRITORY)
    t.lift("D5")  # the players clear the board: nothing asks for the stones back
    t.lift("F5")
    assert t.marked(mk.PUT_BACK) == [] and message(t.app.referee) == "Game over: White wins by 7.5 points"


def test_a_proposal_left_on_the_board_is_accepted_by_the_agreement():
    t = walls()
    t.press(WHITE)
    t.press(BLACK)
    assert t.game.result.sgf() == "W+7.5"
    t = walls("tromp-taylor")  # the board as it stands is counted: nothing is proposed
    assert t.marked(mk.LIFT) == [] and not any(t.game.counter().dead)


def test_a_foul_is_said_with_its_rule():
    t = Table("korean", "none", size=9, mode=TOURNAMENT)
    t.in_turn("D5", "E5", "C4", "D4", "D3", "F4", "A9", "E3", "E4")
    t.lift("D4")
    t.place(WHITE, "D4")  # White retakes the ko at once
    assert t.game.result.sgf() == "B+F"
    assert message(t.app.referee) == "Game over: White loses by a foul: immediate ko retake (Korean regulations 19-1-5)"
    assert result_lines(t.game.result) == ("WHITE FOUL", "KO RETAKE")


def test_results_in_words_and_in_two_display_lines():
    cases = ((Result(WHITE, SCORE, 7), "White wins by 3.5 points", ("WHITE WINS", "BY 3.5")),
             (Result(BLACK, SCORE, 2), "Black wins by 1 point", ("BLACK WINS", "BY 1")),
             (Result(BLACK, TIME), "Black wins on time", ("BLACK WINS", "ON TIME")),
             (Result(WHITE, RESIGN), "White wins by resignation", ("WHITE WINS", "BY RESIGNATION")),
             (Result(BLACK, FOUL, 0, "out_of_turn"), "White loses by a foul: two moves in a row (Thai rules 20)",
              ("WHITE FOUL", "2 MOVES IN ROW")))
    for result, words, lines in cases:
        assert result_words(result, "thai") == words
        assert result_lines(result) == lines and max(len(line) for line in lines) <= 16
    assert result_words(Result(BLACK, FOUL, 0, "ko"), "thai", warned=True) == (
        "White loses by a foul: a last warning, for immediate ko retake (Thai rules 39)")


def test_messages_say_who_presses_and_where_to_lift_or_put_back():
    t = Table("japanese", "byoyomi 10m 3x30s", size=9)
    t.place(BLACK, "E5")
    assert message(t.app.referee) == "Black: press your clock to end the move (white next)"
    t.place(WHITE, "C3")  # before Black pressed: a presence board waits for the press
    assert message(t.app.referee) == (
        "not accepted at C3: Black has not pressed the clock yet (lift it; Black presses, then White plays)")
    t = Table("japanese", "none", size=9, mode=TOURNAMENT)
    t.place(BLACK, "E5")
    assert not t.control("undo")
    assert message(t.app.referee) == "no takebacks in tournament mode: the referee decides"
    t = Table("japanese", "none", size=9)
    t.in_turn("D5", "E5", "C4", "D4", "D3", "F4", "A9", "E3", "E4")
    assert message(t.app.referee) == "remove the captured stones at D4 (lit)"
    t.lift("D4")
    assert t.control("undo")  # E4 taken back: its stone to lift, the capture to put back
    assert message(t.app.referee) == "taken back: lift the stone at E4; put back the stone at D4 (lit)"
    t.lift("E4")
    t.place(WHITE, "D4")
    assert message(t.app.referee) == "black to play"
    t.lift("A9")
    t.place(BLACK, "A8")
    assert message(t.app.referee) == "a stone moved from A9 to A8: put it back on A9"


def test_a_paused_clock_says_so():
    hw, app = board(size=9, time_spec="byoyomi 10m 3x30s")
    run(app, hw, 0, 50)
    press(app, hw, 0, 50)  # the table clock starts: Black's time runs
    press(app, hw, 2, 200)  # PAUSE
    assert app.clock.snap.paused
    assert message(app.referee, app.clock) == "clock paused: PAUSE restarts it; black to play"


def test_atari_and_error_differ_in_a_still_frame():
    from firmware.leds.tables import KINDS, PALETTE

    atari, error = PALETTE[KINDS.index(mk.ATARI)], PALETTE[KINDS.index(mk.ERROR)]
    assert atari[0] != error[0] and atari[1] != error[1]


def test_teaching_lights_atari_of_either_colour_and_a_one_stone_self_atari():
    t = Table("japanese", "none", size=9, mode=TEACHING)
    t.in_turn("E5", "D5", "A1", "E4", "D6", "F4", "C5")  # Black C5: White D5 in atari
    assert t.marked(mk.ATARI) == ["D5"] and t.marked(mk.LAST_MOVE) == ["C5"]
    t = Table("japanese", "none", size=9, mode=TEACHING)
    t.in_turn("B2", "E5", "C1", "E6", "J9", "B1")  # White B1: a one-stone self-atari
    assert t.marked(mk.ATARI) == ["B1"]
    t = Table("japanese", "none", size=9, mode=TEACHING)
    t.in_turn("E5", "D5", "A1", "E4", "D6", "F4", "C5", "J9")  # a move later, D5 still in atari
    assert t.marked(mk.ATARI) == ["D5"] and t.marked(mk.LAST_MOVE) == ["J9"]
    t.place(BLACK, "A9")  # and two moves later (Black A9, far away)
    assert t.marked(mk.ATARI) == ["D5"]
    t.place(WHITE, "D4")  # White escapes: dark again
    assert t.marked(mk.ATARI) == []
    t.lift("D4")  # taken back (casual teaching): in atari again
    assert t.game.move_number == 9 and t.marked(mk.ATARI) == ["D5"]
    t.lift("A9")
    t.lift("J9")  # two moves back: still
    assert t.marked(mk.ATARI) == ["D5"]
    t.lift("C5")  # the move that made it taken back: dark
    assert t.game.move_number == 6 and t.marked(mk.ATARI) == []
    t = Table("japanese", "none", size=9, mode=TEACHING)
    t.place(BLACK, "E5")
    t.app.referee.preview([t.at("C3")], 1, t.t)  # White's hand over C3: the liberties it would have
    assert {"B3", "C2", "C4", "D3"} <= set(t.marked(mk.LIBERTY)) and t.game.move_number == 1


def test_a_tournament_count_ends_only_when_both_players_press():
    hw, app = board(size=9, mode=TOURNAMENT)
    run(app, hw, 0, 50)
    press(app, hw, 0, 50)  # no clock: a press with no stone is a pass
    press(app, hw, 1, 200)
    assert app.referee.state == COUNTING and message(app.referee).endswith("Both press your clock to agree")
    press(app, hw, 3, 400)  # MENU alone does not finish a tournament's count
    assert app.referee.state == COUNTING
    press(app, hw, 1, 600)
    press(app, hw, 0, 800)
    assert app.referee.state == OVER and app.game.result.sgf() == "W+6.5"
