"""Game policy: legality per rule set, repetition, passes, handicap, undo, OP and Thai specifics."""


from diagrams import Lcg, at, game
from support import let_go, not_loaded

from firmware.rules.catalog import ALL
from firmware.rules.coords import PASS, point
from firmware.rules.game import COUNTING, OVER, PLAYING, Game, IllegalMove
from firmware.rules.position import BLACK, EMPTY, WHITE
from firmware.rules.rulesets import ILLEGAL_LOSS, ILLEGAL_WARN, by_name
from host_tools.board.rules import all_points, diagram, fixed_handicap


def snapshot(g):
    op = g.op
    return (tuple(diagram(g.pos)), g.pos.hash, g.to_move, g.ko, g.passes, g.last_pass,
            tuple(g.captures), g.move_number, g.phase, g.cycle, tuple(g.warnings),
            None if op is None else (tuple(op.supply), tuple(op.isolated), tuple(op.placed)))


def expect_illegal(g, colour, pt, reason):
    before = snapshot(g)
    try:
        g.play(colour, pt)
    except IllegalMove as e:
        assert e.reason == reason, (e.reason, reason)
        assert e.point == pt
    else:
        raise AssertionError("move was accepted, expected " + reason)
    assert snapshot(g) == before, "illegal move changed the game"
    assert not g.is_legal(colour, pt)
    assert snapshot(g) == before, "is_legal changed the game"


# Black E4 captures D4, then White may not retake at once.
KO = [".........", ".........", ".........", ".........", "...XO....",
      "..XO.O...", "...XO....", ".........", "........."]


def test_each_illegal_reason_leaves_the_game_untouched():
    g = Game(9, "japanese")
    g.play(BLACK, at(9, "E5"))
    expect_illegal(g, WHITE, at(9, "E5"), "occupied")
    expect_illegal(g, BLACK, at(9, "D4"), "out_of_turn")
    expect_illegal(g, WHITE, 1, "off_board")
    expect_illegal(g, WHITE, 10 ** 4, "off_board")
    expect_illegal(g, WHITE, -3, "off_board")
    # single-stone suicide: never legal, not even where multi-stone suicide is
    for rules in ("japanese", "nz", "tromp-taylor"):
        g = game([".O...", "O....", ".....", ".....", "....."], rules)
        expect_illegal(g, BLACK, at(5, "A5"), "suicide")
    # multi-stone suicide: illegal under Japanese, legal under NZ
    rows = ["XX.O.", "OOO..", ".....", ".....", "....."]
    expect_illegal(game(rows, "japanese"), BLACK, at(5, "C5"), "suicide")
    g = game(rows, "nz")
    assert g.play(BLACK, at(5, "C5")) == 3
    assert g.captures[WHITE] == 3 and diagram(g.pos)[0] == "...O."
    # simple ko: the immediate retake
    for rules in ("japanese", "korean", "chinese", "thai", "aga", "nz", "tromp-taylor"):
        g = game(KO, rules, BLACK)
        g.play(BLACK, at(9, "E4"))
        assert g.ko == at(9, "D4")
        expect_illegal(g, WHITE, at(9, "D4"), "ko")
    # OP: the same retake is a place-remove foul
    g = game(KO, "op", BLACK)
    g.play(BLACK, at(9, "E4"))
    expect_illegal(g, WHITE, at(9, "D4"), "place_remove")
    # the game is over after two passes
    g = Game(9, "korean")
    g.play(BLACK, PASS)
    g.play(WHITE, PASS)
    assert g.phase == COUNTING
    expect_illegal(g, BLACK, at(9, "E5"), "game_over")


def test_an_op_game_keeps_no_counting_code_until_it_counts():
    # OP's ledger (rules/op.py, loaded for OP games) reads the count's map only at the count.
    not_loaded("firmware.rules.op", "firmware.rules.scoring")
    g = Game(9, "op")
    g.play(BLACK, point(9, 2, 2))
    assert g.op is not None and let_go("firmware.rules.scoring")
    g.play(WHITE, PASS)
    g.play(BLACK, PASS)
    assert g.phase == COUNTING and g.count() is not None


def test_positional_and_situational_superko():
    # Black self-captures two stones (E6 F6), White passes, Black F6 would
    # recreate the starting board: forbidden by positional superko; under
    # situational superko it is legal (the start had Black to move, now White).
    rows = [".OXO.X", "OXXOOO", "XX....", "......", "......", "......"]
    g = game(rows, "tromp-taylor")
    assert g.play(BLACK, at(6, "E6")) == 2
    g.play(WHITE, PASS)
    expect_illegal(g, BLACK, at(6, "F6"), "superko")
    g = game(rows, "nz")
    g.play(BLACK, at(6, "E6"))
    g.play(WHITE, PASS)
    g.play(BLACK, at(6, "F6"))
    assert diagram(g.pos) == rows


def test_hash_collision_never_makes_a_legal_move_illegal():
    g = Game(9, "tromp-taylor")
    for v in ("E5", "C3", "G7", "C7"):
        g.play(g.to_move, at(9, v))
    hist = g.hist
    # Forge a collision: position 2 gets the hash of the next position.
    g.play(BLACK, at(9, "G3"))
    forged = hist.hashes[hist.length - 1]
    g.undo()
    hist.hashes[2] = forged
    for i in range(len(hist.table)):
        hist.table[i] = 0
    for k in range(hist.length):
        hist._index(k)
    g.play(BLACK, at(9, "G3"))  # same hash as position 2, different board: legal
    assert g.move_number == 5


def test_passes_end_play():
    g = Game(9, "japanese")
    g.play(BLACK, PASS)
    assert g.phase == PLAYING and g.passes == 1
    g.play(WHITE, at(9, "E5"))
    assert g.passes == 0
    g.play(BLACK, PASS)
    g.play(WHITE, PASS)
    assert g.phase == COUNTING
    # AGA: two passes end play only when White passed last
    g = Game(9, "aga")
    g.play(BLACK, at(9, "E5"))
    g.play(WHITE, PASS)
    g.play(BLACK, PASS)
    assert g.phase == PLAYING
    g.play(WHITE, PASS)
    assert g.phase == COUNTING


def test_resume_after_passes():
    g = Game(9, "japanese")
    g.play(BLACK, at(9, "E5"))
    g.play(WHITE, PASS)
    g.play(BLACK, PASS)
    g.resume(BLACK)  # Black asks: White plays first
    assert g.phase == PLAYING and g.to_move == WHITE
    g = Game(9, "thai")
    g.play(BLACK, at(9, "E5"))
    g.play(WHITE, PASS)
    g.play(BLACK, PASS)
    g.resume(BLACK)  # Thai 12.3: the first passer (White) plays
    assert g.to_move == WHITE
    g = Game(9, "thai")
    g.play(BLACK, PASS)
    g.play(WHITE, PASS)
    g.resume(WHITE)
    assert g.to_move == BLACK


def test_fixed_handicap_points_and_white_first():
    cases = ((19, 2, "D4 Q16"), (19, 3, "D4 Q16 D16"), (19, 4, "D4 Q16 D16 Q4"),
             (19, 5, "D4 Q16 D16 Q4 K10"), (19, 6, "D4 Q16 D16 Q4 D10 Q10"),
             (19, 8, "D4 Q16 D16 Q4 D10 Q10 K4 K16"), (19, 9, "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"),
             (13, 5, "D4 K10 D10 K4 G7"), (9, 4, "C3 G7 C7 G3"), (9, 9, "C3 G7 C7 G3 C5 G5 E3 E7 E5"),
             (7, 4, "C3 E5 C5 E3"), (10, 4, "C3 H8 C8 H3"))
    from firmware.rules.coords import vertex
    for size, n, names in cases:
        g = Game(size, "japanese")
        points = fixed_handicap(g, n)
        assert " ".join(vertex(size, p) for p in points) == names, (size, n)
        assert g.to_move == WHITE and g.handicap == n and g.move_number == 0
        expect_illegal(g, BLACK, at(size, "A1"), "out_of_turn")
    for size, n in ((19, 10), (19, 1), (13, 10), (10, 5), (7, 5), (6, 2), (5, 2)):
        try:
            fixed_handicap(Game(size, "japanese"), n)
        except ValueError:
            pass
        else:
            raise AssertionError((size, n))
    try:
        fixed_handicap(Game(19, "op"), 2)
    except ValueError as e:
        assert "no handicap" in str(e)
    else:
        raise AssertionError("OP has no handicap")


def test_komi_defaults():
    assert Game(19, "korean").komi == 6.5
    assert Game(19, "chinese").komi == 7.5
    assert Game(19, "nz").komi == 7
    assert Game(19, "op").komi == 7
    assert Game(19, "japanese", komi=0.5).komi == 0.5
    assert by_name("aga").default_komi(2) == 0.5
    assert by_name("korean").illegal == ILLEGAL_LOSS and by_name("thai").illegal == ILLEGAL_WARN
    try:
        by_name("ing")
    except ValueError as e:
        assert "korean" in str(e)
    else:
        raise AssertionError("unknown rule set accepted")


def test_cycle_outcomes_by_rule_set():
    setup_b = ("B6", "A5", "C5", "E5", "G5", "A4", "B4", "C4", "D4", "E4", "F4", "G4")
    setup_w = ("A7", "B7", "C7", "D7", "E7", "F7", "G7", "A6", "C6", "E6", "G6", "D5", "F5",
               "A3", "B3", "C3", "D3", "E3", "F3", "G3")
    seq = ("D6", "B5", "F6", "D5", "B6", "F5") * 3
    outcomes = {}
    for rules in ("korean", "japanese", "chinese", "thai"):
        g = Game(7, rules)
        g.setup([at(7, v) for v in setup_b], [at(7, v) for v in setup_w])
        for v in seq:
            if g.phase != PLAYING or g.cycle:
                break
            g.play(g.to_move, at(7, v))
        outcomes[rules] = (g.move_number, g.result.sgf() if g.result else None, g.cycle)
    assert outcomes["korean"] == (12, "0", False), outcomes
    assert outcomes["japanese"] == (12, "Void", False), outcomes
    assert outcomes["chinese"] == (12, "Void", False), outcomes
    assert outcomes["thai"] == (12, None, True), outcomes  # draw only if both agree
    # a pass clears the cycle history: the same moves with a pass exchange do not end it
    g = Game(7, "korean")
    g.setup([at(7, v) for v in setup_b], [at(7, v) for v in setup_w])
    for i, v in enumerate(seq[:11]):
        if i == 6:
            g.play(BLACK, PASS)
            g.play(WHITE, PASS)
            g.resume(WHITE)
        g.play(g.to_move, at(7, v))
    assert g.phase == PLAYING


def test_thai_illegal_placement_costs_a_warning_and_the_turn():
    g = game(KO, "thai", BLACK)
    g.play(BLACK, at(9, "E4"))
    try:
        g.play(WHITE, at(9, "D4"))
    except IllegalMove as e:
        assert g.apply_illegal(WHITE, e.reason) == ILLEGAL_WARN
    assert g.warnings[WHITE] == 1 and g.to_move == BLACK and g.phase == PLAYING
    # the lost turn is not a pass: pass, lost turn, pass does not end play
    g = Game(9, "thai")
    g.play(BLACK, PASS)
    g.lose_turn(WHITE)
    g.play(BLACK, PASS)
    assert g.phase == PLAYING
    g.play(WHITE, PASS)
    assert g.phase == COUNTING
    # Korean: any illegal placement loses
    g = game(KO, "korean", BLACK)
    g.play(BLACK, at(9, "E4"))
    try:
        g.play(WHITE, at(9, "D4"))
    except IllegalMove as e:
        assert g.apply_illegal(WHITE, e.reason) == ILLEGAL_LOSS
    assert g.phase == OVER and g.result.sgf() == "B+F" and g.result.detail == "ko"


def test_op_supply_isolation_and_annihilation():
    g = Game(9, "op")
    assert g.op.supply[BLACK] == 180
    g.play(BLACK, PASS)  # Black passing on the first move loses
    assert g.phase == OVER and g.result.sgf() == "W+F"
    g.undo()
    assert g.phase == PLAYING and g.result is None
    # a self-removed chain is isolated, not returned
    g = game(["XX.O.", "OOO..", ".....", ".....", "....."], "op")
    supply = g.op.supply[BLACK]
    g.play(BLACK, at(5, "C5"))
    assert g.op.isolated[BLACK] == 3 and g.op.supply[BLACK] == supply - 1
    assert g.captures[WHITE] == 3
    g.undo()
    assert g.op.isolated[BLACK] == 0 and g.op.supply[BLACK] == supply
    assert diagram(g.pos)[0] == "XX.O."
    # annihilation: White captures Black's only stone
    g = Game(9, "op")
    g.play(BLACK, at(9, "A1"))
    g.play(WHITE, at(9, "B1"))
    g.play(BLACK, PASS)
    g.play(WHITE, at(9, "A2"))
    assert g.result.sgf() == "W+F" and g.result.detail == "annihilation"


def test_op_runs_out_of_stones():
    g = Game(19, "op")
    placed = 0
    for r in range(19):
        for c in range(19):
            if placed == 180:
                break
            if r % 2 == 0 or c == 0:
                g.play(BLACK, point(19, c, r))
                g.play(WHITE, PASS)
                placed += 1
    assert g.op.supply[BLACK] == 0
    assert g.phase == COUNTING  # Art.6-2: no stone left to play ends play normally
    g.resume(WHITE)
    expect_illegal(g, BLACK, point(19, 18, 17), "no_stones")


def random_game(rules, size, seed, moves, spent=None):
    """Play random legal moves; return the game and a snapshot after each."""
    rng = Lcg(seed)
    g = Game(size, rules, spent=spent)
    snaps = [snapshot(g)]
    pts = all_points(g.pos)
    while g.move_number < moves and g.phase == PLAYING:
        empties = [p for p in pts if g.pos.cells[p] == EMPTY]
        if rng.below(20) == 0 or not empties:
            g.play(g.to_move, PASS)
        else:
            p = empties[rng.below(len(empties))]
            try:
                g.play(g.to_move, p)
            except IllegalMove as e:
                assert e.reason in ("suicide", "ko", "superko", "place_remove"), e.reason
                continue
        snaps.append(snapshot(g))
    return g, snaps


def test_undo_restores_every_earlier_state():
    for rules in ALL:
        for size in (5, 9):
            g, snaps = random_game(rules.name, size, 11 + size, 160)
            assert len(snaps) > 20, rules.name
            while len(snaps) > 1:
                snaps.pop()
                g.undo()
                assert snapshot(g) == snaps[-1], (rules.name, size, g.move_number)
            try:
                g.undo()
            except ValueError:
                pass
            else:
                raise AssertionError("undo past the start")


def test_history_grows_beyond_its_preallocation():
    g, snaps = random_game("tromp-taylor", 5, 3, 300)
    assert g.move_number > len(snaps) // 2 and len(g.hist.hashes) > 64
    assert g.hist.length == len(snaps)
    for _ in range(40):
        snaps.pop()
        g.undo()
    assert snapshot(g) == snaps[-1]


def test_a_game_on_a_spent_games_board_and_history_plays_as_a_new_one():
    for rules in ALL:
        spent, _ = random_game("tromp-taylor", 5, 3, 300)  # its history grew past its preallocation
        fresh, snaps = random_game(rules.name, 5, 17, 160)
        again, snaps_again = random_game(rules.name, 5, 17, 160, spent=spent)
        assert again.pos is spent.pos and again.hist is spent.hist
        assert snaps_again == snaps, rules.name
        while again.move_number:
            again.undo()
        assert snapshot(again) == snaps[0], rules.name
    try:
        Game(9, "japanese", spent=Game(5, "japanese"))
    except ValueError:
        pass
    else:
        raise AssertionError("a spent game of another size was taken")


def test_out_of_turn_allowed_for_gtp_style_games():
    g = Game(9, "japanese", strict_turns=False)
    g.play(BLACK, at(9, "E5"))
    g.play(BLACK, at(9, "E6"))
    assert g.to_move == WHITE
    try:
        g.play(3, at(9, "A1"))
    except IllegalMove as e:
        assert e.reason == "out_of_turn"
    else:
        raise AssertionError("colour 3 accepted")
