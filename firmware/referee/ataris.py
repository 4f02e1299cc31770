"""Teaching's chains in atari, of either colour, kept move by move (paint.py lights them).

A chain stays lit for as long as it has one liberty, not only in the move
that put it there. Looking at every chain after every move is tens of ms on
a Pico (19x19), so the flags follow the game: after one move played or taken
back only the chains beside its point and beside the stones it took can
have changed; any other change (a game recovered, several moves at once) is
a whole scan.
"""

from ..rules.history import move_point


class Ataris:
    """``flags[g]``: the stone at game point g is in a chain in atari (``count`` of them)."""

    def __init__(self, pos):
        self.flags = bytearray(len(pos.cells))
        self.count = 0
        self.length = -1  # the game's history length the flags are of
        self._seen = bytearray(len(pos.cells))  # the whole scan's stamps (_seen[0], a border point: this scan's)

    def update(self, game):
        """Bring the flags to the game's position now."""
        hist = game.hist
        n = hist.length
        if n == self.length:
            return
        pos = game.pos
        if self.length > 0 and (n == self.length + 1 or n == self.length - 1):
            k = (n if n > self.length else self.length) - 1  # the move played or taken back
            self._around(pos, move_point(hist.moves[k]))
            log = hist.removed
            for i in range(hist.removed_start(k), hist.removed_end[k]):
                self._around(pos, log[i])
        else:
            self._scan(pos)
        self.length = n

    def _around(self, pos, p):
        # The point p changed: its chain, if any, and the chains beside it.
        if not p:
            return  # a pass, a lost turn
        w = pos.stride
        self._chain(pos, p)
        self._chain(pos, p - w)
        self._chain(pos, p - 1)
        self._chain(pos, p + 1)
        self._chain(pos, p + w)

    def _chain(self, pos, g):
        c = pos.cells[g]
        if c != 1 and c != 2:
            self._flag(g, 0)
            return
        atari = 1 if pos.liberties(g, 2) == 1 else 0
        chain = pos.stack  # (borrowed: no flood runs while it is read)
        for i in range(pos.chain(g, chain)):
            self._flag(chain[i], atari)

    def _flag(self, g, atari):
        flags = self.flags
        if flags[g] != atari:
            flags[g] = atari
            self.count += 1 if atari else -1

    def _scan(self, pos):
        # Every chain: a stone with two empty neighbours is in a chain with two liberties; any
        # other asks its chain once (its stones are then seen).
        flags = self.flags
        for i in range(len(flags)):
            flags[i] = 0
        self.count = 0
        seen = self._seen
        stamp = seen[0] % 255 + 1
        if stamp == 1:
            for i in range(len(seen)):
                seen[i] = 0
        seen[0] = stamp
        cells = pos.cells
        w = pos.stride
        chain = pos.stack  # (borrowed: no flood runs while it is read)
        for g in range(w + 1, len(cells) - w - 1):
            c = cells[g]
            if (c != 1 and c != 2) or seen[g] == stamp:
                continue
            if (cells[g - w] == 0) + (cells[g - 1] == 0) + (cells[g + 1] == 0) + (cells[g + w] == 0) >= 2:
                continue
            atari = pos.liberties(g, 2) == 1
            for i in range(pos.chain(g, chain)):
                q = chain[i]
                seen[q] = stamp
                if atari:
                    flags[q] = 1
                    self.count += 1
