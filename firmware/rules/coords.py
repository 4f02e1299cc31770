"""Point indexes and their names.

A board of size N is stored row by row with a one-point border, so its stride
is N + 2 and the point in column ``col`` (0 = left) and row ``row`` (0 = top)
has index ``(row + 1) * (N + 2) + col + 1``. Index 0 is border, never a point,
and stands for "pass" wherever a point is expected.

Vertices are GTP names: a letter for the column (A-T without I) and the row
number counted from the bottom, so "A1" is the bottom-left corner.
"""

from .const import const

PASS = const(0)
MIN_SIZE = const(5)
MAX_SIZE = const(19)

COLUMNS = "ABCDEFGHJKLMNOPQRST"


def check_size(size):
    """Raise ValueError unless ``size`` is a board size the rules core plays."""
    if size < MIN_SIZE or size > MAX_SIZE:
        raise ValueError("board size must be 5..19, not " + str(size))


def point(size, col, row):
    """Return the index of (col, row), row 0 being the top row."""
    return (row + 1) * (size + 2) + col + 1


def col_row(size, pt):
    """Return (col, row) of point index pt, row 0 being the top row."""
    stride = size + 2
    return pt % stride - 1, pt // stride - 1


def parse_vertex(size, text):
    """Return the point index of a GTP vertex ("D4", "pass").

    Returns PASS for "pass". Raises ValueError naming the text if it is not a
    vertex of a board of this size.
    """
    t = text.strip().upper()
    if t == "PASS":
        return PASS
    if len(t) < 2 or len(t) > 3:
        raise ValueError("bad vertex " + repr(text))
    col = COLUMNS.find(t[:1])  # (a slice: indexing a str interns the letter in MicroPython, for good)
    digits = t[1:]
    if col < 0 or not digits.isdigit():
        raise ValueError("bad vertex " + repr(text))
    number = int(digits)
    if col >= size or number < 1 or number > size:
        raise ValueError("vertex off the board " + repr(text))
    return point(size, col, size - number)


def vertex(size, pt):
    """Return the GTP name of point index pt ("pass" for PASS)."""
    if pt == PASS:
        return "pass"
    col, row = col_row(size, pt)
    return COLUMNS[col:col + 1] + str(size - row)
