"""Every position of a game, compactly: the moves, what they removed, the hashes.

Position 0 is the start (after setup stones); position k follows move k. For
each position the history keeps the encoded move that led to it, the Zobrist
hash of its board and where its removed stones sit in a shared log. A hash index (open addressing, linear probing) finds earlier
positions with the same board in O(1); a hash hit is then confirmed exactly
by replaying the logged changes (``board_equals``), so a hash collision can
never turn a legal move into a "superko".

Arrays are preallocated; they double when a game outgrows them (one
allocation at move 512 on 19x19, and so on), so recording a move allocates
nothing. The index has 1.5 slots a position (a third free at the fullest:
short probe runs, at three quarters of the bytes of a power of two).
"""

from .const import const, zeros
from .position import EMPTY

# Move encoding: point (9 bits, 0 = pass), colour (2 bits), flags.
_PT_MASK = const(0x1FF)
COLOUR_SHIFT = const(9)  # a record: the point, then the colour from this bit
SELF_CAPTURE = const(0x800)  # the move removed its own chain
LOST_TURN = const(0x1000)  # no move: the player lost the turn (Thai penalty)
DAME_FILL = const(0x2000)  # a stone filling a dame while counting: play stays stopped


def encode(pt, colour, flags=0):
    """Pack a move record."""
    return pt | (colour << COLOUR_SHIFT) | flags


def move_point(record):
    """Point of a move record (0 for a pass or a lost turn)."""
    return record & _PT_MASK


def is_pass(record):
    """True for a pass (not for a lost turn)."""
    return not record & (_PT_MASK | LOST_TURN)


def move_colour(record):
    """Colour that made the move (or passed, or lost the turn)."""
    return (record >> COLOUR_SHIFT) & 3


class History:
    """The positions of one game; see the module doc.

    ``length`` is the number of positions recorded (moves + 1). ``first`` is
    the colour to move at position 0.
    """

    def __init__(self, size, first):
        capacity = 64
        while capacity < size * size * 4 // 3:
            capacity *= 2
        self.first = first
        self.length = 0
        self.nremoved = 0
        self.hashes = zeros("I", capacity)
        self.moves = zeros("H", capacity)
        self.removed_end = zeros("H", capacity)
        self.removed = zeros("H", capacity)
        self.table = zeros("H", _slots(capacity))

    # -- recording ---------------------------------------------------------

    def start(self, board_hash):
        """Record position 0 (the board before the first move)."""
        if self.length:  # a spent game's history: its entries go (the table is empty when no position is)
            table = self.table
            for i in range(len(table)):
                table[i] = 0
        self.length = 0
        self.nremoved = 0
        self.push(board_hash, 0, None, 0, 0)

    def push(self, board_hash, record, removed, start, n):
        """Record the position after a move: its hash, the move record and
        the n points it removed, removed[start:start+n].

        Returns True if an earlier position has the same hash (then, and
        only then, is a repetition possible).
        """
        k = self.length
        if k == len(self.hashes):
            self._grow_positions()
        end = self.nremoved
        if n:
            if end + n > len(self.removed):
                self._grow_removed(end + n)
            log = self.removed
            for i in range(start, start + n):
                log[end] = removed[i]
                end += 1
            self.nremoved = end
        hashes = self.hashes
        hashes[k] = board_hash
        self.moves[k] = record
        self.removed_end[k] = end
        self.length = k + 1
        # Index it, noting on the way whether the hash is already there.
        table = self.table
        size = len(table)
        slot = board_hash % size
        seen = False
        entry = table[slot]
        while entry:
            if hashes[entry - 1] == board_hash:
                seen = True
            slot = (slot + 1) % size
            entry = table[slot]
        table[slot] = k + 1
        return seen

    def pop(self):
        """Forget the last position (undo). Returns its move record."""
        k = self.length - 1
        self._unindex(k)
        self.length = k
        self.nremoved = self.removed_end[k - 1] if k else 0
        return self.moves[k]

    def removed_start(self, k):
        """Offset in ``removed`` of the stones removed by move k."""
        return self.removed_end[k - 1] if k else 0

    def to_move(self, k):
        """Colour to move at position k."""
        if k == 0:
            return self.first
        return 3 - move_colour(self.moves[k])

    # -- the hash index ----------------------------------------------------

    def _index(self, k):
        table = self.table
        size = len(table)
        slot = self.hashes[k] % size
        while table[slot]:
            slot = (slot + 1) % size
        table[slot] = k + 1

    def _unindex(self, k):
        # Positions are removed in the reverse order of insertion, so the
        # entry's slot is the first one of its probe run holding k + 1 and
        # clearing it restores the table exactly.
        table = self.table
        size = len(table)
        slot = self.hashes[k] % size
        while table[slot] != k + 1:
            slot = (slot + 1) % size
        table[slot] = 0

    def next_match(self, board_hash, slot):
        """Scan the probe run of ``board_hash`` from ``slot`` for a position
        with that hash. Returns the slot (the position is table[slot] - 1),
        or -1 when the run ends. Start with ``slot = board_hash``."""
        table = self.table
        hashes = self.hashes
        size = len(table)
        slot %= size
        entry = table[slot]
        while entry:
            if hashes[entry - 1] == board_hash:
                return slot
            slot = (slot + 1) % size
            entry = table[slot]
        return -1

    def board_equals(self, k, cells, marks):
        """True if the board of position k is exactly ``cells`` (the board of
        the last recorded position). Reconstructs only the points that moves
        k+1.. touched: the first event on a point tells what it held at k.
        ``marks``: a byte a cell to work in (the position's, borrowed: the
        cells it uses are zeroed first and left zero)."""
        was = marks  # what each point touched held at k (+ 1; 0: not seen yet)
        moves = self.moves
        log = self.removed
        last = self.length - 1
        for m in range(k + 1, last + 1):
            was[moves[m] & _PT_MASK] = 0
            for i in range(self.removed_start(m), self.removed_end[m]):
                was[log[i]] = 0
        for m in range(k + 1, last + 1):
            record = moves[m]
            pt = record & _PT_MASK
            if pt and not was[pt]:
                was[pt] = EMPTY + 1
            colour = (record >> COLOUR_SHIFT) & 3
            gone = colour if record & SELF_CAPTURE else 3 - colour
            for i in range(self.removed_start(m), self.removed_end[m]):
                p = log[i]
                if not was[p]:
                    was[p] = gone + 1
        same = True
        for m in range(k + 1, last + 1):
            pt = moves[m] & _PT_MASK
            if pt and was[pt]:
                if was[pt] - 1 != cells[pt]:
                    same = False
                was[pt] = 0
            for i in range(self.removed_start(m), self.removed_end[m]):
                p = log[i]
                if was[p]:
                    if was[p] - 1 != cells[p]:
                        same = False
                    was[p] = 0
        return same

    # -- growth (rare: a game longer than the preallocated capacity) -------

    def _grow_positions(self):
        n = self.length
        capacity = 2 * len(self.hashes)
        self.hashes = _copy(self.hashes, "I", capacity, n)
        self.moves = _copy(self.moves, "H", capacity, n)
        self.removed_end = _copy(self.removed_end, "H", capacity, n)
        self.table = zeros("H", _slots(capacity))
        for k in range(n):
            self._index(k)

    def _grow_removed(self, needed):
        capacity = len(self.removed)
        while capacity < needed:
            capacity *= 2
        self.removed = _copy(self.removed, "H", capacity, self.nremoved)


def _slots(capacity):
    # The hash index's size for ``capacity`` positions.
    return capacity + capacity // 2


def _copy(old, typecode, capacity, n):
    new = zeros(typecode, capacity)
    for i in range(n):
        new[i] = old[i]
    return new
