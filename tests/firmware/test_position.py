"""Position mechanics: placing, capturing, liberties, hashes, taking back."""

from diagrams import Lcg, at, position

from firmware.rules.position import BLACK, EMPTY, WHITE, Position, stone_key
from host_tools.board.rules import all_points, diagram


def recomputed_hash(pos):
    h = 0
    for p in range(len(pos.cells)):
        v = pos.cells[p]
        if v == BLACK or v == WHITE:
            h ^= stone_key(p, v)
    return h


def test_sizes():
    for size in (5, 6, 9, 13, 18, 19):
        pos = Position(size)
        assert len(diagram(pos)) == size
        assert diagram(pos)[0] == "." * size
        assert len(all_points(pos)) == size * size
    for bad in (4, 20, 0):
        try:
            Position(bad)
        except ValueError as e:
            assert "5..19" in str(e)
        else:
            raise AssertionError(bad)


# (diagram, move, colour, stones captured, diagram after)
CAPTURES = (
    ([".....", "..X..", ".XOX.", ".....", "....."], "C2", BLACK, 1,
     [".....", "..X..", ".X.X.", "..X..", "....."]),
    (["OX...", ".....", ".....", ".....", "....."], "A4", BLACK, 1,
     [".X...", "X....", ".....", ".....", "....."]),
    (["O....", ".....", ".....", ".....", "....."], "A4", BLACK, 0,
     ["O....", "X....", ".....", ".....", "....."]),
    (["XOX..", "XOX..", "XOX..", "X.X..", "XXX.."], "B2", BLACK, 3,
     ["X.X..", "X.X..", "X.X..", "XXX..", "XXX.."]),
    ([".X.X.", "XO.OX", ".X.X.", ".....", "....."], "C4", BLACK, 2,
     [".X.X.", "X.X.X", ".X.X.", ".....", "....."]),
    # a stone with no liberty of its own that captures is not a self-capture
    ([".XO..", "XO...", ".....", ".....", "....."], "A5", WHITE, 1,
     ["O.O..", "XO...", ".....", ".....", "....."]),
)


def test_capture_table():
    for before, where, colour, captured, after in CAPTURES:
        pos = position(before)
        n = pos.play(at(5, where), colour)
        assert n == captured, (before, where, n)
        assert diagram(pos) == after, (before, where, diagram(pos))
        assert pos.hash == recomputed_hash(pos)
        assert pos.count[3 - colour] == sum(row.count("XO"[2 - colour]) for row in after)


def test_removed_stones_and_floods_share_one_array():
    # The floods run from the array's end while the removed stones fill its start: two
    # chains of 10 taken on a 5x5 board (20 of its 25 entries), the second flooded after
    # the first was written, and every removed point right.
    rows = ["OOXOO"] * 4 + ["OO.OO"]
    pos = position(rows)
    assert pos.removed is pos.stack
    assert pos.play(at(5, "C1"), BLACK) == 20
    assert diagram(pos) == ["..X.."] * 5
    assert sorted(pos.removed[:pos.nremoved]) == sorted(p for p in all_points(pos) if p % 7 != 3)
    assert pos.nchains == 2 and pos.chain_end[0] == 10 and pos.chain_end[1] == 20
    assert pos.hash == recomputed_hash(pos) and pos.count[WHITE] == 0


def test_self_capture_is_reported_not_done():
    pos = position([".O...", "O....", ".....", ".....", "....."])
    before = pos.hash
    assert pos.play(at(5, "A5"), BLACK) == -1
    assert pos.cells[at(5, "A5")] == BLACK  # left for the caller to decide
    pos.lift(at(5, "A5"))
    assert pos.hash == before
    assert pos.count[BLACK] == 0


def test_remove_own_chain_and_unplay():
    rows = ["XX.O.", "OOO..", ".....", ".....", "....."]
    pos = position(rows)
    p = at(5, "C5")
    assert pos.play(p, BLACK) == -1
    assert pos.remove_own_chain(p) == 3
    assert diagram(pos)[0] == "...O."
    assert pos.count[BLACK] == 0
    pos.unplay(p, BLACK, BLACK, pos.removed, 0, 3)
    assert diagram(pos) == rows
    assert pos.hash == recomputed_hash(pos)


def test_liberties_and_chain():
    pos = position([".....", ".XX..", ".XO..", ".....", "....."])
    assert pos.liberties(at(5, "B4")) == 6
    assert pos.liberties(at(5, "C3")) == 2
    assert pos.liberties(at(5, "B4"), limit=2) == 2
    out = pos.removed
    assert pos.chain(at(5, "C4"), out) == 3


def test_random_play_keeps_hash_and_unplay_restores():
    rng = Lcg(7)
    for size in (5, 9, 19):
        pos = Position(size)
        pts = all_points(pos)
        for step in range(600):
            empties = [p for p in pts if pos.cells[p] == EMPTY]
            p = empties[rng.below(len(empties))]
            colour = BLACK if step % 2 == 0 else WHITE
            snapshot = (bytes(pos.cells), pos.hash, pos.count[1], pos.count[2])
            n = pos.play(p, colour)
            back = 3 - colour
            if n < 0:
                n = pos.remove_own_chain(p)
                back = colour
            removed = pos.removed[:n]
            assert pos.hash == recomputed_hash(pos)
            assert pos.count[BLACK] == sum(1 for q in pts if pos.cells[q] == BLACK)
            if step % 3 == 0:
                pos.unplay(p, colour, back, removed, 0, n)
                assert (bytes(pos.cells), pos.hash, pos.count[1], pos.count[2]) == snapshot


def chain_and_liberties(pos, pt):
    """The chain through pt and its liberties, by a plain flood (the reference)."""
    colour = pos.cells[pt]
    w = pos.stride
    chain, libs, todo = {pt}, set(), [pt]
    while todo:
        p = todo.pop()
        for q in (p - w, p - 1, p + 1, p + w):
            if pos.cells[q] == EMPTY:
                libs.add(q)
            elif pos.cells[q] == colour and q not in chain:
                chain.add(q)
                todo.append(q)
    return chain, libs


def test_liberties_up_to_a_limit_and_atari_on_agree_with_a_plain_flood():
    rng = Lcg(11)
    ataris = 0
    for size in (5, 9, 19):
        pos = Position(size)
        pts = all_points(pos)
        w = pos.stride
        for step in range(400):
            empties = [p for p in pts if pos.cells[p] == EMPTY]
            p = empties[rng.below(len(empties))]
            if pos.play(p, BLACK if step % 2 == 0 else WHITE) < 0:
                pos.remove_own_chain(p)
            if step % 20:
                continue
            cells = bytes(pos.cells)
            for q in pts:
                if pos.cells[q] == EMPTY:
                    for colour in (BLACK, WHITE):
                        expected = any(pos.cells[r] == colour and chain_and_liberties(pos, r)[1] == {q}
                                       for r in (q - w, q - 1, q + 1, q + w))
                        assert pos.atari_on(q, colour) == expected, (size, step, q, colour)
                        ataris += expected
                    assert bytes(pos.cells) == cells  # the point is empty again
                else:
                    n = len(chain_and_liberties(pos, q)[1])
                    assert pos.liberties(q) == n
                    for limit in (1, 2, 3):
                        assert pos.liberties(q, limit) == min(n, limit)
    assert ataris > 20  # the random games did put chains in atari


def test_stone_keys_differ_by_colour():
    # A white stone's key is its point's key rotated: never the black one's, never 0.
    keys = set()
    for p in range(441):
        black, white = stone_key(p, BLACK), stone_key(p, WHITE)
        assert black != white and black and white and black < 1 << 30 and white < 1 << 30
        keys.update((black, white))
    assert len(keys) == 2 * 441
