"""Counting: seki, dame, every rule set on the same positions, OP, penalties, results."""

from diagrams import Lcg, at, game
from support import check

from firmware.rules.coords import PASS
from firmware.rules.game import COUNTING, OVER, Game, IllegalMove
from firmware.rules.position import BLACK, EMPTY, WHITE
from firmware.rules.result import BOTH_LOSE, DRAW, FOUL, RESIGN, SCORE, TIME, Result
from firmware.rules.result_sgf import parse_sgf
from firmware.rules.scoring import DAME, KIND, OWNER, SEKI, STONE, TERRITORY
from host_tools.board.rules import all_points, fixed_handicap

TERRITORY_RULES = ("korean", "japanese", "thai")
AREA_RULES = ("chinese", "aga", "nz", "tromp-taylor")


def ended(rows, rules, komi=None, dead=()):
    """A game on this diagram, stopped by two passes, dead stones marked."""
    g = game(rows, rules, BLACK, komi=komi)
    g.play(BLACK, PASS)
    g.play(WHITE, PASS)
    assert g.phase == COUNTING
    for v in dead:
        g.mark_dead(at(len(rows), v))
    return g


def points(score):
    return (score.points[BLACK], score.points[WHITE])


# An eyeless seki: the inner black chain and the white ring share the two
# liberties C5 and E5 and no one can fill them. The outer black wall is not in
# seki, so the bottom row is its territory: a seki inside territory.
EYELESS_SEKI = ["XXXXXXX",
                "XOOOOOX",
                "XO.X.OX",
                "XOXXXOX",
                "XOOOOOX",
                "XXXXXXX",
                "......."]

# Each side has one eye (A1 black, E1 white) and they share C1: the eyes
# count for nobody under territory rules, for their owner under area rules.
EYES_SEKI = ["..OX...",
             "..OX...",
             "..OX...",
             "..OX...",
             "OOOXXXX",
             "XXXOOOX",
             ".X.O.OX"]

# The eyeless seki inside a black wall, and an open dame column (H) between
# that wall and a white one: the dame are neutral, the seki still a seki.
DAME_BY_SEKI = ["XXXXXXX.O",
                "XOOOOOX.O",
                "XO.X.OX.O",
                "XOXXXOX.O",
                "XOOOOOX.O",
                "XXXXXXX.O",
                "......X.O",
                "......X.O",
                "......X.O"]

# Two walls with an unfilled gap (column D): ordinary dame, not seki.
GAP = ["..X.O..",
       "..X.O..",
       "..X.O..",
       "..X.O..",
       "..X.O..",
       "..X.O..",
       "..X.O.."]

# (name, diagram, rules, dead, (B points, W points), dame, seki points, RE)
TABLE = (
    ("eyeless seki, territory", EYELESS_SEKI, "japanese", (), (7, 0), 2, 0, "B+0.5"),
    ("eyeless seki, area", EYELESS_SEKI, "chinese", (), (33, 14), 2, 0, "B+11.5"),
    ("eyeless seki, board", EYELESS_SEKI, "tromp-taylor", (), (33, 14), 2, 0, "B+11.5"),
    ("eyeless seki, OP", EYELESS_SEKI, "op", (), (11, 0), 2, 0, "B+4"),
    ("eyes in seki, territory", EYES_SEKI, "korean", (), (12, 8), 1, 2, "W+2.5"),
    ("eyes in seki, area", EYES_SEKI, "chinese", (), (27, 21), 1, 0, "W+1.5"),
    ("an open dame is neutral, not seki", GAP, "korean", (), (14, 14), 7, 0, "W+6.5"),
    ("an open dame beside a seki", DAME_BY_SEKI, "japanese", (), (18, 0), 11, 0, "B+11.5"),
    ("unfilled dame, area", GAP, "chinese", (), (21, 21), 7, 0, "W+7.5"),
    ("unfilled dame, integer komi", GAP, "nz", (), (21, 21), 7, 0, "W+7"),
)


def test_count_table():
    failures = []
    for name, rows, rules, dead, expect, dame, seki, result in TABLE:
        g = ended(rows, rules, dead=dead)
        score = g.count()
        got = (points(score), score.dame, score.seki, g.finish().sgf())
        if got != (expect, dame, seki, result):
            failures.append("%s: got %s, expected %s" % (name, got, (expect, dame, seki, result)))
    check(failures)


def test_seki_map_for_the_leds():
    g = ended(EYES_SEKI, "japanese")
    g.count()
    m = g.counter().map
    assert m[at(7, "C1")] == DAME
    assert m[at(7, "A1")] & KIND == SEKI and not m[at(7, "A1")] & OWNER  # black's eye in seki
    assert m[at(7, "B1")] == BLACK | SEKI  # a black stone in seki
    assert m[at(7, "G7")] == BLACK | TERRITORY
    assert m[at(7, "A7")] == WHITE | TERRITORY
    assert m[at(7, "D7")] == BLACK | STONE  # alive, not in seki


def test_eyes_holding_only_a_dead_stone_count_for_nobody_beside_a_seki():
    # EYES_SEKI with each eye filled by an opponent stone marked dead (a set-up board: those
    # stones have no liberty): the seki's stones border those eyes through dead stones only.
    rows = EYES_SEKI[:6] + ["OX.OXOX"]
    g = ended(rows, "japanese", dead=("A1", "E1"))
    s = g.count()
    m = g.counter().map
    assert m[at(7, "A1")] == SEKI and m[at(7, "E1")] == SEKI and s.seki == 2
    assert m[at(7, "B1")] == BLACK | SEKI and m[at(7, "D1")] == WHITE | SEKI


def test_an_open_corner_is_an_unfilled_dame():
    # Two stones on an empty board: every other point is a dame either colour fills,
    # the corners with no stone beside them too.
    out = [0] * 25
    g = ended(["X....", ".....", ".....", ".....", "....O"], "korean")
    n = g.unfilled_dame(out)
    assert n == 23 and at(5, "E5") in out[:n] and at(5, "A1") in out[:n]


def test_unfilled_dame_are_reported_and_seki_liberties_are_not():
    out = [0] * 49
    g = ended(GAP, "korean")
    n = g.unfilled_dame(out)
    assert sorted(out[:n]) == sorted(at(7, "D%d" % r) for r in range(1, 8))
    g = ended(EYELESS_SEKI, "korean")
    assert g.unfilled_dame(out) == 0  # C5 and E5 are shared liberties of a seki
    g = ended(EYES_SEKI, "thai")
    assert g.unfilled_dame(out) == 0
    # Filling the gap (play resumes) makes both walls' territory count.
    g = ended(GAP, "korean")
    g.resume(WHITE)  # Black asked: ... the opponent of the requester plays first
    for r in range(1, 8):
        g.play(g.to_move, at(7, "D%d" % r))
    g.play(g.to_move, PASS)
    g.play(g.to_move, PASS)
    assert g.unfilled_dame(out) == 0
    assert points(g.count()) == (14, 14)


# D4 has two empty neighbours, but either colour playing there captures (C4 and E4 are in atari on it).
BOTH_IN_ATARI = [".......", ".......", "..O.X..", ".OX.OX.", "..O.X..", ".......", "......."]


def test_unfilled_dame_are_the_dame_either_colour_fills_safely():
    # Every dame point of random positions, asked the long way (a stone played
    # and taken back for each colour), against what the count reports.
    out = [0] * 361
    g = ended(BOTH_IN_ATARI, "korean")
    n = g.unfilled_dame(out)
    assert at(7, "D5") in out[:n] and at(7, "D4") not in out[:n]
    rng = Lcg(5)
    reported = 0
    for size, moves in ((9, 60), (13, 110), (19, 200)):
        for seed in range(3):
            g = Game(size, "korean")
            pts = all_points(g.pos)
            while g.move_number < moves:
                empties = [p for p in pts if g.pos.cells[p] == EMPTY]
                try:
                    g.play(g.to_move, empties[rng.below(len(empties))])
                except IllegalMove:
                    pass
            g.play(g.to_move, PASS)
            g.play(g.to_move, PASS)
            n = g.unfilled_dame(out)
            counter = g.counter()
            expected = [p for p in pts if counter.map[p] == DAME and g.pos.cells[p] == EMPTY
                        and (counter.fills_dame(p, BLACK) or counter.fills_dame(p, WHITE))]
            assert sorted(out[:n]) == expected, (size, seed)
            reported += n
    assert reported > 50


def test_dead_stones_go_to_the_captor():
    rows = ["..XO...", "..XO...", "..XO...", ".OXO...", "..XO...", "..XO...", "..XO..."]
    g = ended(rows, "korean", dead=("B4",))
    s = g.count()
    assert (s.territory[BLACK], s.prisoners[BLACK], points(s)) == (14, 1, (15, 21))
    assert g.counter().map[at(7, "B4")] & OWNER == BLACK
    # unmarking restores the stone; marking a whole chain from any of its stones
    g.mark_dead(at(7, "B4"), False)
    assert g.count().prisoners[BLACK] == 0
    assert g.mark_dead(at(7, "C3")) == 7
    assert g.count().prisoners[WHITE] == 7
    # Tromp-Taylor counts the board as it stands: dead marks change nothing
    g = ended(rows, "tromp-taylor", dead=("B4",))
    assert points(g.count()) == (7, 29)
    try:
        Game(9).mark_dead(at(9, "E5"))
    except ValueError:
        pass
    else:
        raise AssertionError("marking dead during play")


def test_a_count_in_slices_is_the_whole_count():
    # The referee counts over loop passes (rules/scoring.py begin, then more a slice of the
    # seki search a pass): slices of any size give the whole count's map and score.
    failures = []
    games = [(name, ended(rows, rules, dead=dead)) for name, rows, rules, dead, _, _, _, _ in TABLE]
    games += [("playout %d" % seed, playout(9, seed, "korean")) for seed in (3, 8)]
    for name, g in games:
        score = g.count()
        whole = (bytes(g.count_map()), points(score), score.dame, score.seki, score.komi2)
        counter = g.counter()
        for points_a_slice in (1, 7, 40):
            counter.begin()
            slices = 1
            while not counter.more(points_a_slice):
                slices += 1
            score = counter.score
            got = (bytes(g.count_map()), points(score), score.dame, score.seki, score.komi2)
            if got != whole:
                failures.append("%s, %d points a slice: %r" % (name, points_a_slice, got[1:]))
            if g.rules.name in TERRITORY_RULES and slices < len(counter.map) // points_a_slice:
                failures.append("%s: %d slices of %d points" % (name, slices, points_a_slice))
    check(failures)


def playout(size, seed, rules="japanese"):
    """Random play to the end: legal moves that do not fill one's own
    single-point eyes, until both players pass."""
    rng = Lcg(seed)
    g = Game(size, rules)
    pos = g.pos
    pts = all_points(pos)
    w = pos.stride
    while g.phase == 0 and g.move_number < 4 * size * size:
        colour = g.to_move
        cells = pos.cells
        candidates = [p for p in pts if cells[p] == EMPTY and not all(
            cells[q] in (colour, 3) for q in (p - w, p - 1, p + 1, p + w))]
        played = False
        while candidates and not played:
            p = candidates.pop(rng.below(len(candidates)))
            try:
                g.play(colour, p)
                played = True
            except IllegalMove:
                pass
        if not played:
            g.play(colour, PASS)
    return g


def replay_as(g, rules):
    """The same moves under other rules (the game must be legal under both)."""
    from firmware.rules.history import move_colour, move_point
    other = Game(g.size, rules)
    for k in range(1, g.hist.length):
        record = g.hist.moves[k]
        other.play(move_colour(record), move_point(record))
    return other


def test_same_position_under_every_rule_set_obeys_the_counting_identity():
    """territory margin = area margin - (black stones placed - white stones placed)"""
    checked = 0
    for seed in range(1, 13):
        g = playout(9, seed)
        if g.phase != COUNTING:
            continue  # a cycle ended it
        placed = [0, 0, 0]
        for k in range(1, g.hist.length):
            record = g.hist.moves[k]
            if record & 0x1FF:
                placed[(record >> 9) & 3] += 1
        margins = {}
        for rules in TERRITORY_RULES + AREA_RULES:
            other = replay_as(g, rules)
            if other.phase == 0 and rules == "aga":
                other.play(WHITE, PASS)  # AGA: White passes last
            assert other.phase == COUNTING, rules
            s = other.count()
            if s.seki:
                break
            margins[rules] = s.points[BLACK] - s.points[WHITE]
        else:
            checked += 1
            area = margins["chinese"]
            for rules in AREA_RULES:
                assert margins[rules] == area, (seed, rules)
            for rules in TERRITORY_RULES:
                assert margins[rules] == area - (placed[BLACK] - placed[WHITE]), (seed, rules, margins)
    assert checked >= 8


def test_aga_pass_stones_make_territory_equal_area():
    for seed in range(20, 26):
        g = playout(9, seed, "aga")
        assert g.phase == COUNTING and g.hist.moves[g.hist.length - 1] >> 9 & 3 == WHITE
        s = g.count()
        territory = (s.territory[BLACK] + s.prisoners[BLACK] + s.pass_stones[WHITE]) - \
            (s.territory[WHITE] + s.prisoners[WHITE] + s.pass_stones[BLACK])
        assert territory == s.points[BLACK] - s.points[WHITE], seed


def test_handicap_compensation():
    for rules, handicap, compensation in (("chinese", 4, 4), ("aga", 4, 3), ("aga", 2, 1), ("nz", 4, 0),
                                          ("japanese", 4, 0), ("chinese", 0, 0)):
        g = Game(9, rules)
        if handicap:
            fixed_handicap(g, handicap)
        g.play(g.to_move, PASS)
        g.play(g.to_move, PASS)
        if g.phase != COUNTING:
            g.play(g.to_move, PASS)
        assert g.count().compensation == compensation, (rules, handicap)


def test_op_results():
    # every stone touches the other colour and both gaps reach both: nobody scores
    g = ended(["XO.XO.X"] * 7, "op")
    assert points(g.count()) == (0, 0)
    assert g.finish().sgf() == "Both lose" and g.result.detail == "both lose: no points"  # Art.9-3
    read = parse_sgf("Both lose")
    assert g.result.winner == read.winner == BOTH_LOSE and read.reason == g.result.reason
    # B - W == 7 is a draw at komi 7 (Art.9-1)
    g = ended(["...XO.."] * 7, "op")
    assert points(g.count()) == (21, 14)
    assert g.finish().sgf() == "0"
    # B - W == 21: Black wins by 14
    rows = [".......", ".......", ".......", ".......", "XXXXXXX", "OOOOOOO", "......."]
    g = ended(rows, "op")
    assert points(g.count()) == (28, 7)
    assert g.finish().sgf() == "B+14"
    # a side with no points cannot win even when the count favours it (Art.9-3)
    g = ended(["X....O."] + [".....O."] * 6, "op", komi=-100)
    assert points(g.count()) == (0, 7)
    assert g.count().margin2() > 0
    assert g.finish().sgf() == "W+"
    assert g.result.reason == "no_points"


def test_korean_and_thai_warnings():
    g = ended(GAP, "korean")
    g.warn(WHITE)
    s = g.count()
    assert s.penalty[BLACK] == 2 and s.margin2() == 2 * 2 - 13
    g.warn(WHITE)
    assert g.phase == OVER and g.result.sgf() == "B+F"
    g = ended(GAP, "thai")
    g.warn(BLACK)
    assert g.count().penalty[WHITE] == 0
    g.warn(BLACK)
    assert g.count().penalty[WHITE] == 2 and g.phase == COUNTING
    g.warn(BLACK)
    assert g.phase == OVER and g.result.sgf() == "W+F"
    g = ended(GAP, "japanese")
    for _ in range(5):
        g.warn(BLACK)
    assert g.phase == COUNTING and g.count().penalty[WHITE] == 0


def test_result_strings():
    assert Result(BLACK, SCORE, 7).sgf() == "B+3.5"
    assert Result(WHITE, SCORE, 1).sgf() == "W+0.5"
    assert Result(WHITE, SCORE, 12).sgf() == "W+6"
    assert Result(WHITE, RESIGN).sgf() == "W+R"
    assert Result(BLACK, TIME).sgf() == "B+T"
    assert Result(WHITE, FOUL).sgf() == "W+F"
    assert Result(DRAW, SCORE).sgf() == "0"
    assert Result(None, "cycle").sgf() == "Void"
    r = Result(BLACK, SCORE, 7)
    assert (r.winner, r.margin, r.reason) == (BLACK, 3.5, SCORE)
    g = Game(9, "korean")
    g.resign(BLACK)
    assert g.phase == OVER and g.result.sgf() == "W+R"
    g.undo() if g.move_number else None
    g = Game(9, "korean")
    g.play(BLACK, at(9, "E5"))
    g.flag(WHITE)
    assert g.result.sgf() == "B+T"
    try:
        g.play(WHITE, at(9, "A1"))
    except IllegalMove as e:
        assert e.reason == "game_over"
    else:
        raise AssertionError("a move after the flag")


def test_jigo_with_integer_komi():
    g = ended(GAP, "chinese", komi=0)
    assert g.finish().sgf() == "0"
    assert g.result.winner == DRAW
