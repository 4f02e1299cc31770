"""Point indexes and GTP vertex names."""

from firmware.rules.coords import PASS, col_row, parse_vertex, point, vertex
from firmware.rules.position import EDGE, EMPTY, Position


def test_corners_and_centre_19():
    assert vertex(19, point(19, 0, 18)) == "A1"
    assert vertex(19, point(19, 18, 0)) == "T19"
    assert vertex(19, point(19, 9, 9)) == "K10"
    assert parse_vertex(19, "a1") == point(19, 0, 18)
    assert parse_vertex(19, " Q16 ") == point(19, 15, 3)


def test_round_trip_every_size():
    for size in range(5, 20):
        cells = Position(size).cells
        seen = set()
        for r in range(size):
            for c in range(size):
                p = point(size, c, r)
                assert cells[p] == EMPTY  # a point of the board, not its border
                assert col_row(size, p) == (c, r)
                name = vertex(size, p)
                assert "I" not in name
                assert parse_vertex(size, name) == p
                seen.add(p)
        assert len(seen) == size * size
        assert cells[PASS] == EDGE and cells[point(size, size, 0)] == EDGE


def test_pass_and_bad_vertices():
    assert parse_vertex(9, "PASS") == PASS
    assert vertex(9, PASS) == "pass"
    for bad in ("", "I5", "J10", "Z1", "A0", "A", "11", "A1x", "K-1"):
        try:
            parse_vertex(9, bad)
        except ValueError as e:
            assert "vertex" in str(e)
        else:
            raise AssertionError("accepted " + repr(bad))
