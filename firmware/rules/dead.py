"""The board's proposal of dead stones when counting begins (the players accept it or change it).

A cheap reading of a finished position, not a life-and-death solver: a chain
is proposed dead when no empty region it touches is its own — bordered by
its colour only (an eye), or by more of its stones than the opponent's —
so it sits in the opponent's area. On the 74 bundled professional games
that ended by counting, the count with the proposal gives the recorded
winner in 59 (without it: 30); tests/host/test_dead_proposal.py holds
that line. Runs once when counting begins (referee/phases.py); it makes no table of its own: it borrows the position's marks (a byte a point).

Two floods, each point visited once: the empty regions write on their
points whose region they are, then each chain gathers the marks beside it.
"""

from .const import const
from .position import EMPTY

# A point's marks (one byte a point): the colour bits (1 black, 2 white) of a region
# that is that colour's, _REGION on every point of a region, _DONE on a chain's stones.
_REGION = const(4)
_DONE = const(8)


def propose(game):
    """Mark the chains that look dead in the game's dead-stone marks; returns how many stones."""
    pos = game.pos
    cells = pos.cells
    dead = game.dead_marks()
    w = pos.stride
    dirs = (-w, -1, 1, w)
    marks = pos.marks  # the position's, borrowed (its floods are not called here): zeroed, left zero
    _zero(marks)
    buf = pos.stack  # the position's scratch too
    _regions(pos, dead, marks, buf, dirs)
    marked = 0
    for p in range(len(cells)):
        colour = cells[p]
        if (colour != 1 and colour != 2) or marks[p]:
            continue  # no stone, a dead one (a region's point) or a chain already looked at
        marks[p] = _DONE
        buf[0] = p
        k = 1
        i = 0
        beside = 0  # the marks beside the chain
        while i < k:
            q = buf[i]
            i += 1
            for d in dirs:
                s = q + d
                v = marks[s]
                beside |= v
                if not v and cells[s] == colour:
                    marks[s] = _DONE
                    buf[k] = s
                    k += 1
        if beside & _REGION and not beside & colour:  # touches regions, none of them its own
            for i in range(k):
                dead[buf[i]] = 1
            marked += k
    _zero(marks)
    return marked


def _zero(marks):
    for p in range(len(marks)):
        marks[p] = 0


def _regions(pos, dead, marks, buf, dirs):
    # Flood the empty regions (dead stones count as empty), counting each region's
    # border stone sides of each colour; mark its points _REGION, with the bit of the
    # colour that has more of them.
    cells = pos.cells
    size = pos.size
    w = pos.stride
    for row in range(size):
        start = (row + 1) * w + 1
        for p in range(start, start + size):
            if marks[p] or not (cells[p] == EMPTY or dead[p]):
                continue
            marks[p] = _REGION
            buf[0] = p
            n = 1
            i = 0
            black = white = 0
            while i < n:
                q = buf[i]
                i += 1
                for d in dirs:
                    s = q + d
                    v = cells[s]
                    if v == EMPTY or dead[s]:
                        if not marks[s]:
                            marks[s] = _REGION
                            buf[n] = s
                            n += 1
                    elif v == 1:
                        black += 1
                    elif v == 2:
                        white += 1
            if black != white:
                own = _REGION | (1 if white < black else 2)
                for i in range(n):
                    marks[buf[i]] = own
