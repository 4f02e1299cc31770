"""The referee, driven by settled frames: moves, captures, mistakes, modes, handicap, counting."""


from support import let_go, not_loaded

from firmware.events import EV_ILLEGAL, EV_MOVE
from firmware.leds import marks as mk
from firmware.leds.marks import Marks
from firmware.modes import CASUAL, TOURNAMENT
from firmware.referee.machine import Referee
from firmware.referee.region import Region
from firmware.referee.states import COUNTING as COUNTING_STATE
from firmware.referee.states import OVER as OVER_STATE
from firmware.referee.states import PLAY, REJECT, SETUP, SYNC
from firmware.rules.coords import parse_vertex, vertex
from firmware.rules.game import Game
from firmware.rules.position import BLACK, WHITE
from host_tools.board.event_log import first, slot
from host_tools.board.messages import message

UNKNOWN = 3


class Table:
    """A physical board seen through settled frames (presence or polarity)."""

    def __init__(self, size=19, rules="japanese", polarity=False, mode=CASUAL, clock=False, handicap=0):
        self.game = Game(size, rules)
        self.marks = Marks()
        self.ref = Referee(self.game, self.marks, polarity=polarity, mode=mode, timed=clock, handicap=handicap)
        self.frame = bytearray(361)
        self.polarity = polarity
        self.now = 0

    def p(self, v):
        return self.ref.region.phys_of[parse_vertex(self.game.size, v)]

    def place(self, v, colour=BLACK):
        self.frame[self.p(v)] = colour if self.polarity else UNKNOWN
        return self.send()

    def lift(self, *vs):
        for v in vs:
            self.frame[self.p(v)] = 0
        return self.send()

    def send(self):
        self.now += 500
        return self.ref.update(self.frame, self.now)

    def press(self, colour):
        self.now += 100
        return self.ref.press(colour, self.now)

    def moves(self):
        hist = self.game.hist
        out = []
        for k in range(1, hist.length):
            r = hist.moves[k]
            where = "-lost-turn" if r & 0x1000 else vertex(self.game.size, r & 0x1FF)
            out.append("BW"[((r >> 9) & 3) - 1] + where)
        return " ".join(out)

    def marked(self, kind):
        return sorted(vertex(self.game.size, self.ref.region.game_of[p]) for p in range(361)
                      if self.marks.bits[p] & kind and self.ref.region.game_of[p] != 0xFFFF)


def test_moves_alternate_on_a_presence_board():
    t = Table()
    for v in ("Q16", "D4", "Q4", "D16"):
        assert t.place(v)
    assert t.moves() == "BQ16 WD4 BQ4 WD16"
    assert t.ref.state == PLAY
    assert t.marked(mk.LAST_MOVE) == ["D16"]
    assert t.marked(mk.LIBERTY) == ["C16", "D15", "D17", "E16"]


def test_captures_are_recorded_at_once_and_lifted_in_any_order():
    t = Table(size=9)
    for v in ("D5", "E5", "C4", "D4", "D3", "F4", "A9", "E3", "E4"):
        t.place(v)
    assert t.moves().endswith("BE4") and t.game.captures[BLACK] == 1
    assert t.marked(mk.LIFT) == ["D4"]  # the captured stone is still on the board
    assert message(t.ref) == "remove the captured stones at D4 (lit)"
    # White replies before the captured stone is lifted: still unambiguous
    t.place("A1")
    assert t.moves().endswith("WA1")
    t.lift("D4")
    assert t.marked(mk.LIFT) == [] and t.ref.state == PLAY
    # a two-stone capture lifted one stone at a time
    t = Table(size=9)
    for v in ("A2", "A3", "B2", "B3", "J9", "C2", "J8", "C1", "J7", "B1", "H9", "A1"):
        t.place(v)
    assert t.game.captures[WHITE] == 2 and t.moves().endswith("WA1")
    assert t.marked(mk.LIFT) == ["A2", "B2"]
    t.lift("B2")
    assert t.marked(mk.LIFT) == ["A2"]
    t.lift("A2")
    assert t.ref.state == PLAY


def test_a_lifted_or_knocked_stone_pauses_play_until_restored():
    t = Table(mode=TOURNAMENT)
    for v in ("Q16", "D4", "Q4"):
        t.place(v)
    t.lift("D4")  # not captured, and tournament mode has no takeback
    assert t.ref.state == SYNC and t.marked(mk.PUT_BACK) == ["D4"]
    assert not t.place("K10")  # no move while the board is out of sync
    t.lift("K10")
    t.place("D4")
    assert t.ref.state == PLAY
    # knocked from Q16 to R16
    t.lift("Q16")
    t.place("R16")
    assert t.marked(mk.PUT_BACK) == ["Q16"] and t.marked(mk.ERROR) + t.marked(mk.LIFT) == ["R16"]
    t.lift("R16")
    t.place("Q16")
    assert t.ref.state == PLAY and t.moves() == "BQ16 WD4 BQ4"
    t.place("C3")
    assert t.moves() == "BQ16 WD4 BQ4 WC3"


def test_two_new_stones_at_once():
    t = Table()
    t.frame[t.p("D4")] = UNKNOWN
    t.frame[t.p("Q16")] = UNKNOWN
    t.send()
    assert t.ref.state == SYNC and t.ref.reason == "two_stones" and t.moves() == ""
    assert t.marked(mk.ERROR) == ["D4", "Q16"]
    t.lift("D4")
    assert t.moves() == "BQ16"


def test_illegal_placements_by_mode():
    ko = ("D5", "E5", "C4", "D4", "D3", "F4", "A9", "E3", "E4")
    # casual: refused, shown, waits for the stone to be lifted (no penalty's code loaded)
    t = Table(size=9, rules="korean")
    for v in ko:
        t.place(v)
    t.lift("D4")
    not_loaded("firmware.referee.fouls")
    t.place("D4")
    assert t.ref.state == REJECT and t.ref.reason == "ko" and t.marked(mk.ERROR) == ["D4"]
    assert let_go("firmware.referee.fouls")
    ev = t.ref.events
    assert ev.kind[slot(ev, ev.count - 1)] == EV_ILLEGAL  # (told as every refusal is)
    assert t.game.phase == 0 and t.moves().endswith("BE4")
    t.lift("D4")
    assert t.ref.state == PLAY
    # Korean tournament: the illegal retake loses (Art.19-1-5)
    t = Table(size=9, rules="korean", mode=TOURNAMENT)
    for v in ko:
        t.place(v)
    t.lift("D4")
    t.place("D4")
    assert t.game.result.sgf() == "B+F" and t.ref.state == OVER_STATE
    # Thai tournament: warning, stone not accepted, turn lost (28)
    t = Table(size=9, rules="thai", mode=TOURNAMENT)
    for v in ko:
        t.place(v)
    t.lift("D4")
    t.place("D4")
    assert t.game.warnings[WHITE] == 1 and t.game.to_move == BLACK and t.game.phase == 0
    t.lift("D4")
    t.place("D4")  # now it is Black's stone that fills the ko
    assert t.moves().endswith("BE4 W-lost-turn BD4")
    assert t.game.pos.cells[parse_vertex(9, "D4")] == BLACK


def test_polarity_wrong_colour():
    t = Table(polarity=True)
    t.place("Q16", WHITE)  # Black to play
    assert t.ref.state == REJECT and t.ref.reason == "wrong_colour" and t.moves() == ""
    t.lift("Q16")
    t.place("Q16", BLACK)
    t.place("D4", WHITE)
    assert t.moves() == "BQ16 WD4"
    t = Table(polarity=True, rules="korean", mode=TOURNAMENT)
    t.place("Q16", BLACK)
    t.place("D4", BLACK)  # two black stones in a row (Art.19-1-1)
    assert t.game.result.sgf() == "W+F"


def test_takeback_in_casual_play():
    t = Table(size=9)
    for v in ("D5", "E5", "C4", "D4", "D3", "F4", "A9", "E3", "E4"):
        t.place(v)
    t.lift("D4")  # capture cleared
    t.lift("E4")  # the last stone lifted: takeback
    assert t.moves().endswith("BA9 WE3") and t.ref.state == SYNC
    assert t.marked(mk.PUT_BACK) == ["D4"]  # the captured stone comes back
    t.place("D4")
    assert t.ref.state == PLAY and t.game.to_move == BLACK


def test_clock_presses_pass_and_turns():
    t = Table(size=9, clock=True)
    t.place("E5")
    assert not t.press(WHITE)  # not White's press to make
    assert t.press(BLACK)
    assert t.press(WHITE)  # White presses without a stone: a pass (Art.14-4)
    assert t.moves() == "BE5 Wpass"
    t.place("C3")
    t.place("G7")  # before Black pressed: a presence board waits for the press
    assert t.ref.state == REJECT and t.ref.reason == "press_clock"
    t.lift("G7")
    t.press(BLACK)
    t.place("G7")
    assert t.moves() == "BE5 Wpass BC3 WG7"
    assert t.press(WHITE) and t.press(BLACK) and t.press(WHITE)
    assert t.game.phase == 1 and t.ref.state == COUNTING_STATE
    # polarity boards accept the opponent's reply before the press
    t = Table(size=9, clock=True, polarity=True)
    t.place("E5", BLACK)
    t.place("C3", WHITE)
    assert t.moves() == "BE5 WC3"


def test_handicap_setup():
    t = Table(handicap=3)
    assert t.ref.state == SETUP
    t.place("D4")
    t.place("Q16")
    t.place("Q4")  # a customary 3-stone arrangement (mirror of D4 Q16 D16)
    assert t.ref.state == PLAY and t.game.handicap == 3 and t.game.to_move == WHITE
    t.place("K10")
    assert t.moves() == "WK10"
    t = Table(handicap=2)
    t.place("D4")
    t.place("K10")
    assert t.ref.state == SETUP  # not a handicap arrangement
    t.lift("K10")
    t.place("D16")
    t.lift("D4")
    t.place("Q4")
    assert t.ref.state == PLAY and t.game.setup_stones[0] == tuple(sorted(parse_vertex(19, v) for v in ("D16", "Q4")))
    t = Table(rules="chinese", handicap=2)  # free placement
    t.place("C3")
    t.place("K10")
    assert t.ref.state == PLAY
    for rules, stones in (("op", 2), ("op", 1), ("japanese", 10)):
        try:
            Table(rules=rules, handicap=stones)
        except ValueError as e:
            assert "no handicap" in str(e)
        else:
            raise AssertionError((rules, stones))


def test_counting_lifted_stones_are_dead():
    t = Table(size=9, rules="japanese")
    for v in ("C5", "G5", "C4", "G4", "C6", "G6", "F5", "A1"):
        t.place(v)
    t.ref.button("pass", t.now)
    t.ref.button("pass", t.now)
    assert t.ref.state == COUNTING_STATE
    # the board proposes what looks dead in this open position: White's wall and A1, lit to lift
    assert t.marked(mk.LIFT) == ["A1", "G4", "G5", "G6"]
    t.lift("G5")  # lifted and put back: the players keep the wall alive
    assert t.game.counter().dead[parse_vertex(9, "G4")] == 1 and t.marked(mk.LIFT) == ["A1", "G4", "G6"]
    t.place("G5")
    assert t.game.counter().dead[parse_vertex(9, "G4")] == 0 and t.marked(mk.LIFT) == ["A1"]
    t.lift("F5")
    assert t.game.counter().dead[parse_vertex(9, "F5")] == 1
    t.place("F5")
    assert t.game.counter().dead[parse_vertex(9, "F5")] == 0
    t.lift("F5", "A1")
    assert t.ref.state == COUNTING_STATE and t.marked(mk.PUT_BACK) == []
    assert "E5" in t.marked(mk.DAME)
    t.ref.button("ok", t.now)
    assert t.ref.state == OVER_STATE and t.game.result is not None


def test_a_nine_by_nine_game_in_the_middle_of_the_board():
    t = Table(size=9)
    region = t.ref.region
    assert (region.top, region.left) == (5, 5)
    t.frame[0] = UNKNOWN  # a stone in the corner of the physical board, outside the game
    t.place("E5")
    assert t.moves() == "BE5"
    assert Region(13, 0, 6).phys_of[parse_vertex(13, "A13")] == 6
    try:
        Region(13, 10, 0)
    except ValueError:
        pass
    else:
        raise AssertionError("a region off the board")


def test_events():
    t = Table(size=9)
    t.place("E5")
    ev = t.ref.events
    kinds = [ev.kind[slot(ev, i)] for i in range(first(ev), ev.count)]
    assert kinds == [EV_MOVE]
    assert ev.point[slot(ev, ev.count - 1)] == parse_vertex(9, "E5")


def test_teaching_warns_before_the_stone_is_let_go():
    from firmware.modes import TEACHING

    t = Table(size=9, mode=TEACHING)
    for v in ("D5", "E5", "C4", "D4", "D3", "F4", "A9", "E3", "E4"):
        t.place(v)
    t.lift("D4")  # the captured stone is off the board
    # White's hand hovers over D4 (the ko retake: illegal) and over J1 (fine)
    hover = [t.p("D4"), t.p("J1")]
    assert t.ref.preview(hover, 2, t.now)
    assert t.marked(mk.ERROR) == ["D4"]
    assert t.moves().endswith("BE4") and t.game.to_move == WHITE  # nothing was played
    t = Table(size=9, mode=TEACHING)
    for v in ("A2", "E5", "B1", "E6"):
        t.place(v)
    t.place("J9")  # Black elsewhere; White to move
    t.ref.preview([t.p("A1")], 1, t.now)
    assert t.marked(mk.ERROR) == ["A1"]  # suicide
    t = Table(size=9, mode=TEACHING)
    for v in ("B2", "E5", "C1", "E6", "J9"):
        t.place(v)
    t.ref.preview([t.p("B1")], 1, t.now)  # White B1: one liberty (A1) left
    assert t.marked(mk.ATARI) == ["B1"]
    casual = Table(size=9)
    assert not casual.ref.preview([casual.p("E5")], 1, casual.now)


def test_takeback_keeps_earlier_captures_to_lift():
    t = Table(size=9)
    for v in ("D5", "E5", "C4", "D4", "D3", "F4", "A9", "E3", "E4"):
        t.place(v)  # Black E4 captures D4, still on the board
    t.place("J1")  # White elsewhere
    t.ref.button("undo", t.now)  # take back White's J1
    assert t.moves().endswith("BE4") and t.marked(mk.LIFT) == ["D4", "J1"]
    t.lift("J1")
    # D4 is still a capture waiting to be lifted, not a stray stone: play goes on
    assert t.ref.state == PLAY and t.marked(mk.LIFT) == ["D4"] and t.ref.seen.npending == 1
