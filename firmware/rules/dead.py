"""The board's proposal of dead stones when counting begins (the players accept it or change it).

A cheap reading of a finished position, not a life-and-death solver: a chain
is proposed dead when no empty region it touches is its own — bordered by
its colour only (an eye), or by more of its stones than the opponent's —
so it sits in the opponent's area. On the 74 bundled professional games
that ended by counting, the count with the proposal gives the recorded
winner in 59 (without it: 30); tests/host/test_dead_proposal.py holds
that line. Runs once when counting begins; it allocates its tables then.
"""

from array import array

from .position import EMPTY


def propose(game):
    """Mark the chains that look dead in the game's counter; returns how many stones."""
    counter = game.counter()
    pos = game.pos
    cells = pos.cells
    dead = counter.dead
    n = len(cells)
    w = pos.stride
    dirs = (-w, -1, 1, w)
    region = array("H", bytes(2 * n))  # region number + 1 of each empty (or dead) point
    seen = array("H", bytes(2 * n))  # a stamp per region: already looked at for this chain
    buf = array("H", bytes(2 * pos.size * pos.size))
    border = _regions(pos, dead, region, buf, dirs)  # per region: [black, white] border counts
    marked = 0
    done = bytearray(n)  # stones of chains already looked at
    for p in range(n):
        c = cells[p]
        if (c != 1 and c != 2) or dead[p] or done[p]:
            continue
        k = pos.chain(p, buf)
        for i in range(k):
            done[buf[i]] = 1
        if _looks_dead(c, buf, k, region, border, seen, p + 1, dirs):
            for i in range(k):
                dead[buf[i]] = 1
            counter.ndead += k
            marked += k
    return marked


def _regions(pos, dead, region, buf, dirs):
    # Number the empty regions (dead stones count as empty); count, per region, the
    # border's stone sides of each colour. Returns a list of [black, white] counts.
    cells = pos.cells
    for p in range(len(region)):
        region[p] = 0
    border = []
    size = pos.size
    w = pos.stride
    for row in range(size):
        start = (row + 1) * w + 1
        for p in range(start, start + size):
            if region[p] or not (cells[p] == EMPTY or dead[p]):
                continue
            counts = [0, 0]
            border.append(counts)
            r = len(border)
            region[p] = r
            buf[0] = p
            n = 1
            i = 0
            while i < n:
                q = buf[i]
                i += 1
                for d in dirs:
                    s = q + d
                    v = cells[s]
                    if v == EMPTY or dead[s]:
                        if not region[s]:
                            region[s] = r
                            buf[n] = s
                            n += 1
                    elif v == 1 or v == 2:
                        counts[v - 1] += 1
    return border


def _looks_dead(colour, chain, k, region, border, seen, stamp, dirs):
    own = colour - 1
    other = 1 - own
    touched = False
    for i in range(k):
        q = chain[i]
        for d in dirs:
            r = region[q + d]
            if not r or seen[r] == stamp:
                continue
            seen[r] = stamp
            touched = True
            counts = border[r - 1]
            if counts[other] < counts[own]:
                return False  # an eye, or a region more its own than the opponent's
    return touched
