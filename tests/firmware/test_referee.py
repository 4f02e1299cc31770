"""The referee at the table: moves, captures, mistakes, modes, handicap, counting, as the stones
are put down and lifted on the assembled board (harness.Table: every pass checked)."""

from harness import Table
from support import let_go, not_loaded

from firmware.events import EV_ILLEGAL, EV_MOVE
from firmware.leds import marks as mk
from firmware.modes import TEACHING, TOURNAMENT
from firmware.referee.region import Region
from firmware.referee.states import COUNTING as COUNTING_STATE
from firmware.referee.states import OVER as OVER_STATE
from firmware.referee.states import PLAY, REJECT, SETUP, SYNC
from firmware.rules.coords import parse_vertex
from firmware.rules.position import BLACK, WHITE
from host_tools.board.event_log import first, slot
from host_tools.board.messages import message

CLOCK = "byoyomi 10m 3x30s"
KO = ("D5", "E5", "C4", "D4", "D3", "F4", "A9", "E3", "E4")  # Black E4 takes D4: a ko


def test_moves_alternate_on_a_presence_board():
    t = Table("japanese", "none", size=19)
    t.in_turn("Q16", "D4", "Q4", "D16")
    assert t.moves() == "BQ16 WD4 BQ4 WD16"
    assert t.app.referee.state == PLAY
    assert t.marked(mk.LAST_MOVE) == ["D16"]
    assert t.marked(mk.LIBERTY) == ["C16", "D15", "D17", "E16"]


def test_captures_are_recorded_at_once_and_lifted_in_any_order():
    t = Table("japanese", "none", size=9)
    t.in_turn(*KO)
    assert t.moves().endswith("BE4") and t.game.captures[BLACK] == 1
    assert t.marked(mk.LIFT) == ["D4"]  # the captured stone is still on the board
    assert message(t.app.referee) == "remove the captured stones at D4 (lit)"
    # White replies before the captured stone is lifted: still unambiguous
    t.place(WHITE, "A1")
    assert t.moves().endswith("WA1")
    t.lift("D4")
    assert t.marked(mk.LIFT) == [] and t.app.referee.state == PLAY
    # a two-stone capture lifted one stone at a time
    t = Table("japanese", "none", size=9)
    t.in_turn("A2", "A3", "B2", "B3", "J9", "C2", "J8", "C1", "J7", "B1", "H9", "A1")
    assert t.game.captures[WHITE] == 2 and t.moves().endswith("WA1")
    assert t.marked(mk.LIFT) == ["A2", "B2"]
    t.lift("B2")
    assert t.marked(mk.LIFT) == ["A2"]
    t.lift("A2")
    assert t.app.referee.state == PLAY


def test_a_lifted_or_knocked_stone_pauses_play_until_restored():
    t = Table("japanese", "none", size=19, mode=TOURNAMENT)
    t.in_turn("Q16", "D4", "Q4")
    t.lift("D4")  # not captured, and tournament mode has no takeback
    assert t.app.referee.state == SYNC and t.marked(mk.PUT_BACK) == ["D4"]
    t.place(WHITE, "K10")
    assert t.moves() == "BQ16 WD4 BQ4"  # no move while the board is out of sync
    t.lift("K10")
    t.place(WHITE, "D4")
    assert t.app.referee.state == PLAY
    # knocked from Q16 to R16
    t.lift("Q16")
    t.place(BLACK, "R16")
    assert t.marked(mk.PUT_BACK) == ["Q16"] and t.marked(mk.ERROR) + t.marked(mk.LIFT) == ["R16"]
    t.lift("R16")
    t.place(BLACK, "Q16")
    assert t.app.referee.state == PLAY and t.moves() == "BQ16 WD4 BQ4"
    t.place(WHITE, "C3")
    assert t.moves() == "BQ16 WD4 BQ4 WC3"


def test_two_new_stones_at_once():
    t = Table("japanese", "none", size=19)
    t.hw.stones.place(t.at("D4"), BLACK)
    t.place(BLACK, "Q16")  # (in the same pass)
    assert t.app.referee.state == SYNC and t.app.referee.reason == "two_stones" and t.moves() == ""
    assert t.marked(mk.ERROR) == ["D4", "Q16"]
    t.lift("D4")
    assert t.moves() == "BQ16"


def test_illegal_placements_by_mode():
    # casual: refused, shown, waits for the stone to be lifted (no penalty's code loaded)
    t = Table("korean", "none", size=9)
    t.in_turn(*KO)
    t.lift("D4")
    not_loaded("firmware.referee.fouls")
    t.place(WHITE, "D4")
    assert t.app.referee.state == REJECT and t.app.referee.reason == "ko" and t.marked(mk.ERROR) == ["D4"]
    assert let_go("firmware.referee.fouls")
    ev = t.app.events
    assert ev.kind[slot(ev, ev.count - 1)] == EV_ILLEGAL  # (told as every refusal is)
    assert t.game.phase == 0 and t.moves().endswith("BE4")
    t.lift("D4")
    assert t.app.referee.state == PLAY
    # Korean tournament: the illegal retake loses (Art.19-1-5)
    t = Table("korean", "none", size=9, mode=TOURNAMENT)
    t.in_turn(*KO)
    t.lift("D4")
    t.place(WHITE, "D4")
    assert t.game.result.sgf() == "B+F" and t.app.referee.state == OVER_STATE
    # Thai tournament: warning, stone not accepted, turn lost (28)
    t = Table("thai", "none", size=9, mode=TOURNAMENT)
    t.in_turn(*KO)
    t.lift("D4")
    t.place(WHITE, "D4")
    assert t.game.warnings[WHITE] == 1 and t.game.to_move == BLACK and t.game.phase == 0
    t.lift("D4")
    t.place(BLACK, "D4")  # now it is Black's stone that fills the ko
    assert t.moves().endswith("BE4 W-lost-turn BD4")
    assert t.game.pos.cells[parse_vertex(9, "D4")] == BLACK


def test_polarity_wrong_colour():
    t = Table("japanese", "none", size=19, sensors="polarity")
    t.place(WHITE, "Q16")  # Black to play
    assert t.app.referee.state == REJECT and t.app.referee.reason == "wrong_colour" and t.moves() == ""
    t.lift("Q16")
    t.place(BLACK, "Q16")
    t.place(WHITE, "D4")
    assert t.moves() == "BQ16 WD4"
    t = Table("korean", "none", size=19, sensors="polarity", mode=TOURNAMENT)
    t.place(BLACK, "Q16")
    t.place(BLACK, "D4")  # two black stones in a row (Art.19-1-1)
    assert t.game.result.sgf() == "W+F"


def test_takeback_in_casual_play():
    t = Table("japanese", "none", size=9)
    t.in_turn(*KO)
    t.lift("D4")  # capture cleared
    t.lift("E4")  # the last stone lifted: takeback
    assert t.moves().endswith("BA9 WE3") and t.app.referee.state == SYNC
    assert t.marked(mk.PUT_BACK) == ["D4"]  # the captured stone comes back
    t.place(WHITE, "D4")
    assert t.app.referee.state == PLAY and t.game.to_move == BLACK


def test_clock_presses_pass_and_turns():
    t = Table("japanese", CLOCK, size=9)
    t.place(BLACK, "E5")
    t.press(WHITE)  # not White's press to make
    assert t.app.referee.awaiting_press == BLACK and t.moves() == "BE5"
    t.press(BLACK)
    t.press(WHITE)  # White presses without a stone: a pass (Art.14-4)
    assert t.moves() == "BE5 Wpass"
    t.place(BLACK, "C3")
    t.place(WHITE, "G7")  # before Black pressed: a presence board waits for the press
    assert t.app.referee.state == REJECT and t.app.referee.reason == "press_clock"
    t.lift("G7")
    t.press(BLACK)
    t.place(WHITE, "G7")
    assert t.moves() == "BE5 Wpass BC3 WG7"
    t.press(WHITE)
    t.press(BLACK)
    t.press(WHITE)
    assert t.moves() == "BE5 Wpass BC3 WG7 Bpass Wpass"
    assert t.game.phase == 1 and t.app.referee.state == COUNTING_STATE
    # polarity boards accept the opponent's reply before the press
    t = Table("japanese", CLOCK, size=9, sensors="polarity")
    t.place(BLACK, "E5")
    t.place(WHITE, "C3")
    assert t.moves() == "BE5 WC3"


def test_handicap_setup():
    t = Table("japanese", "none", size=19, handicap=3)
    assert t.app.referee.state == SETUP
    for v in ("D4", "Q16", "Q4"):  # a customary 3-stone arrangement (mirror of D4 Q16 D16)
        t.place(BLACK, v)
    assert t.app.referee.state == PLAY and t.game.handicap == 3 and t.game.to_move == WHITE
    t.place(WHITE, "K10")
    assert t.moves() == "WK10"
    t = Table("japanese", "none", size=19, handicap=2)
    t.place(BLACK, "D4")
    t.place(BLACK, "K10")
    assert t.app.referee.state == SETUP  # not a handicap arrangement
    t.lift("K10")
    t.place(BLACK, "D16")
    t.lift("D4")
    t.place(BLACK, "Q4")
    assert t.app.referee.state == PLAY
    assert t.game.setup_stones[0] == tuple(sorted(parse_vertex(19, v) for v in ("D16", "Q4")))
    t = Table("chinese", "none", size=19, handicap=2)  # free placement
    t.place(BLACK, "C3")
    t.place(BLACK, "K10")
    assert t.app.referee.state == PLAY
    for rules, stones in (("op", 2), ("op", 1), ("japanese", 10)):
        try:
            Table(rules, "none", size=19, handicap=stones)
        except ValueError as e:
            assert "no handicap" in str(e)
        else:
            raise AssertionError((rules, stones))


def test_counting_lifted_stones_are_dead():
    t = Table("japanese", "none", size=9)
    t.in_turn("C5", "G5", "C4", "G4", "C6", "G6", "F5", "A1")
    t.control("pass")
    t.control("pass")
    t.wait(200)  # (the board counts over a few loop passes)
    assert t.app.referee.state == COUNTING_STATE
    # the board proposes what looks dead in this open position: White's wall and A1, lit to lift
    assert t.marked(mk.LIFT) == ["A1", "G4", "G5", "G6"]
    t.lift("G5")  # lifted and put back: the players keep the wall alive
    assert t.game.counter().dead[parse_vertex(9, "G4")] == 1 and t.marked(mk.LIFT) == ["A1", "G4", "G6"]
    t.place(WHITE, "G5")
    assert t.game.counter().dead[parse_vertex(9, "G4")] == 0 and t.marked(mk.LIFT) == ["A1"]
    t.lift("F5")
    assert t.game.counter().dead[parse_vertex(9, "F5")] == 1
    t.place(BLACK, "F5")
    assert t.game.counter().dead[parse_vertex(9, "F5")] == 0
    t.lift("F5")
    t.lift("A1")
    assert t.app.referee.state == COUNTING_STATE and t.marked(mk.PUT_BACK) == []
    assert "E5" in t.marked(mk.DAME)
    t.control("ok")
    assert t.app.referee.state == OVER_STATE and t.game.result is not None


def test_a_nine_by_nine_game_in_the_middle_of_the_board():
    t = Table("japanese", "none", size=9)
    region = t.app.referee.region
    assert (region.top, region.left) == (5, 5)
    t.hw.stones.place(0, BLACK)  # a stone in the corner of the physical board, outside the game
    t.place(BLACK, "E5")
    assert t.moves() == "BE5"
    assert Region(13, 0, 6).phys_of[parse_vertex(13, "A13")] == 6
    try:
        Region(13, 10, 0)
    except ValueError:
        pass
    else:
        raise AssertionError("a region off the board")


def test_events():
    t = Table("japanese", "none", size=9)
    t.place(BLACK, "E5")
    ev = t.app.events
    kinds = [ev.kind[slot(ev, i)] for i in range(first(ev), ev.count)]
    assert kinds == [EV_MOVE]
    assert ev.point[slot(ev, ev.count - 1)] == parse_vertex(9, "E5")


def test_teaching_warns_before_the_stone_is_let_go():
    t = Table("japanese", "none", size=9, mode=TEACHING)
    t.in_turn(*KO)
    t.lift("D4")  # the captured stone is off the board
    # White's hand hovers over D4 (the ko retake: illegal) and over J1 (fine)
    hover = [t.at("D4"), t.at("J1")]
    assert t.app.referee.preview(hover, 2, t.t)
    assert t.marked(mk.ERROR) == ["D4"]
    assert t.moves().endswith("BE4") and t.game.to_move == WHITE  # nothing was played
    t = Table("japanese", "none", size=9, mode=TEACHING)
    t.in_turn("A2", "E5", "B1", "E6")
    t.place(BLACK, "J9")  # Black elsewhere; White to move
    t.app.referee.preview([t.at("A1")], 1, t.t)
    assert t.marked(mk.ERROR) == ["A1"]  # suicide
    t = Table("japanese", "none", size=9, mode=TEACHING)
    t.in_turn("B2", "E5", "C1", "E6", "J9")
    t.app.referee.preview([t.at("B1")], 1, t.t)  # White B1: one liberty (A1) left
    assert t.marked(mk.ATARI) == ["B1"]
    casual = Table("japanese", "none", size=9)
    assert not casual.app.referee.preview([casual.at("E5")], 1, casual.t)


def test_takeback_keeps_earlier_captures_to_lift():
    t = Table("japanese", "none", size=9)
    t.in_turn(*KO)  # Black E4 captures D4, still on the board
    t.place(WHITE, "J1")  # White elsewhere
    t.control("undo")  # take back White's J1
    assert t.moves().endswith("BE4") and t.marked(mk.LIFT) == ["D4", "J1"]
    t.lift("J1")
    # D4 is still a capture waiting to be lifted, not a stray stone: play goes on
    assert t.app.referee.state == PLAY and t.marked(mk.LIFT) == ["D4"] and t.app.referee.seen.npending == 1
