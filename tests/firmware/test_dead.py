"""The board's dead-stone proposal (firmware/rules/dead.py) against a plain reading of its rule.

The rule: a chain is proposed dead when it touches empty regions (dead stones count
as empty) and none of them is its own, bordered by more of its stones' sides than
the opponent's. The proposal reads that in two floods over one table of marks;
the plain reading here numbers the regions and asks every chain about each.
"""

from diagrams import Lcg, at, game

from firmware.rules.coords import PASS
from firmware.rules.dead import propose
from firmware.rules.game import Game, IllegalMove
from firmware.rules.position import BLACK, EMPTY, WHITE
from host_tools.board.rules import all_points


def plain_proposal(g):
    """The stones the rule proposes dead, on top of the marks already there (a set)."""
    pos = g.pos
    cells = pos.cells
    dead = g.counter().dead
    w = pos.stride
    region = {}  # point -> region number
    sides = []  # per region: [0, black sides, white sides]
    for p in all_points(pos):
        if p in region or not (cells[p] == EMPTY or dead[p]):
            continue
        region[p] = len(sides)
        counts = [0, 0, 0]
        sides.append(counts)
        todo = [p]
        while todo:
            q = todo.pop()
            for s in (q - w, q - 1, q + 1, q + w):
                if cells[s] == EMPTY or dead[s]:
                    if s not in region:
                        region[s] = region[p]
                        todo.append(s)
                elif cells[s] == BLACK or cells[s] == WHITE:
                    counts[cells[s]] += 1
    proposed = set()
    looked = set()
    buf = [0] * (g.size * g.size)
    for p in all_points(pos):
        colour = cells[p]
        if (colour != BLACK and colour != WHITE) or dead[p] or p in looked:
            continue
        chain = [buf[i] for i in range(pos.chain(p, buf))]
        looked.update(chain)
        touched = set(region[s] for q in chain for s in (q - w, q - 1, q + 1, q + w) if s in region)
        if touched and not any(sides[r][colour] > sides[r][3 - colour] for r in touched):
            proposed.update(chain)
    return proposed


def proposed_now(g):
    """propose() on the game; returns (its count, the points marked dead after it)."""
    n = propose(g)
    dead = g.counter().dead
    return n, set(p for p in all_points(g.pos) if dead[p])


def test_a_region_bordered_by_as_many_sides_of_each_colour_is_nobodys():
    # One region, two sides of each colour: neither stone has a region of its own.
    g = game(["X....", ".....", ".....", ".....", "....O"])
    assert proposed_now(g) == (2, {at(5, "A5"), at(5, "E1")})
    # A third black side makes the region Black's: only the white stone is proposed.
    g = game(["XX...", ".....", ".....", ".....", "....O"])
    assert proposed_now(g) == (1, {at(5, "E1")})


def test_stones_already_marked_dead_count_as_empty():
    # The black stones marked dead join the region, which is then bordered by White only.
    g = game(["X....", ".....", ".....", ".....", "....O"])
    g.counter().set_dead(at(5, "A5"))
    assert proposed_now(g) == (0, {at(5, "A5")})


def test_chains_touching_no_region_are_not_proposed_and_dead_chains_make_one():
    full = ["XXXXX", "OOOOO", "XXXXX", "OOOOO", "OOOOO"]  # set up full: no chain touches a region
    g = game(full)
    assert proposed_now(g) == (0, set())
    # The middle rows marked dead are a region of their own, five sides of each colour
    # around it: nobody's, so the rows above and below it are proposed too.
    g = game(full)
    g.counter().set_dead(at(5, "A4"))
    g.counter().set_dead(at(5, "A3"))
    assert proposed_now(g) == (15, set(all_points(g.pos)))  # every stone


def test_an_eye_keeps_a_chain_alive_in_the_opponents_area():
    # Black's wall and its eye at A1; White's three stones own the rest of the board.
    rows = ["..O..", ".....", ".O.O.", "XX...", ".X..."]
    g = game(rows)
    assert proposed_now(g) == (0, set())
    # Without the eye (A1 filled), the wall borders White's area only.
    g = game(["..O..", ".....", ".O.O.", "XX...", "XX..."])
    assert proposed_now(g) == (4, set(at(5, v) for v in ("A2", "B2", "A1", "B1")))


def test_the_proposal_is_the_plain_reading_of_its_rule_on_random_boards():
    rng = Lcg(11)
    checked = 0
    for size, moves in ((5, 18), (7, 40), (9, 70), (13, 120), (19, 220)):
        for _ in range(3):
            g = Game(size, "japanese", strict_turns=False)
            pts = all_points(g.pos)
            while g.move_number < moves:
                empties = [p for p in pts if g.pos.cells[p] == EMPTY]
                try:
                    g.play(BLACK + rng.below(2), empties[rng.below(len(empties))])
                except IllegalMove:
                    pass
            g.play(g.to_move, PASS)
            g.play(g.to_move, PASS)
            counter = g.counter()
            for marks in range(2):  # none marked, then a few chains marked dead first
                g.clear_dead()
                if marks:
                    for p in pts:
                        if g.pos.cells[p] != EMPTY and rng.below(12) == 0:
                            counter.set_dead(p)
                before = set(p for p in pts if counter.dead[p])
                expected = plain_proposal(g)
                n, after = proposed_now(g)
                assert (n, after) == (len(expected), before | expected), (size, marks)
                checked += n
    assert checked > 100
