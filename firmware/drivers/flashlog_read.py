"""The flash log's power-up and reading (drivers/flashlog.py): loaded for them only, dropped after.

``mount(log)`` reads the valid sector headers, follows the chain of sectors
from the oldest, reads their items in order to find the current ``MAIN``
and an unfinished ``NEXT``, and erases again a sector whose region prefix a
cut erase spoiled (never one of the chain). ``Reader`` is a stream's
records in order (``readinto``), for the journal's power-up (recovery.py).
"""

from ..journal.store import MAX_PAYLOAD, crc16
from ..micro import const
from .flashlog import COMMIT, DATA, HEAD, PAGE, PREFIX, START, SWITCH

_RECORD = const(0)
_BAD = const(-1)


def mount(log):
    """Set ``log`` (a FlashLog being made) to what its flash holds (see the module doc)."""
    flash = log.flash
    n = log.n
    h = log._h
    head = 0
    for slot in range(n):
        flash.readinto(slot, PREFIX, h)
        seq = h[0] | h[1] << 8 | h[2] << 16 | h[3] << 24
        if _check(h) and seq % n == slot and seq:
            log.seqs[slot] = seq
            head = max(head, seq)
    oldest = head
    while oldest > 1 and oldest - 1 > head - n and log.seqs[(oldest - 1) % n] == oldest - 1:
        oldest -= 1
    if head:  # items in order: the streams, from the oldest sector of the chain
        log.seq = head
        c = _Cursor(log, oldest, first(log, oldest))
        starts = {}  # gen -> where its last START is (a stream may be committed after another's)
        while True:
            kind = c.step()
            if kind is None:
                break
            if kind == START:
                log.next_gen = log.last_gen = c.arg
                log.next_seq = c.at_seq
                log.next_off = c.at_off
                starts[c.arg] = (c.at_seq, c.at_off)
            elif kind == COMMIT and c.arg in starts:
                log.main_gen = c.arg
                log.main_seq, log.main_off = starts.pop(c.arg)
                if c.arg == log.next_gen:
                    log.next_gen = -1
    for slot in range(n):  # a prefix a cut erase spoiled: erased again, the prefix restored
        pre = flash.prefix(slot)
        if pre and not _same(flash, slot, pre) and not (log.seqs[slot] and log.seqs[slot] >= oldest):
            flash.erase(slot)  # (never a sector of the chain: only the one a cut erase left)
            log.erases += 1
            log.seqs[slot] = 0
            page = bytearray(b"\xff" * PAGE)
            page[:len(pre)] = pre
            flash.program(slot, 0, page)



def first(log, seq):
    """Where the first item starting in sector ``seq`` is."""
    h = log._f
    log.flash.readinto(seq % log.n, PREFIX, h)
    return h[4] | h[5] << 8


class _Cursor:
    """Walks the log's items from (seq, off): ``step()`` -> START/SWITCH/COMMIT (gen in
    ``arg``), _RECORD (length n + 7 in ``size``), or None at the end; ``at_seq``/``at_off``: where it was."""

    def __init__(self, log, seq, off):
        self.log = log
        self.seq = seq
        self.off = off
        self.at_seq = self.at_off = 0
        self.arg = self.size = 0

    def step(self):
        log = self.log
        h = log._h
        while True:
            if self.seq > log.seq:
                return None
            if self.off <= DATA - 4:
                log.flash.readinto(self.seq % log.n, HEAD + self.off, memoryview(h)[:4])
                kind = _kind(h)
                size = 4 if kind else (h[0] | h[1] << 8) + 7
                if kind != _BAD and self._fits(size):
                    self.at_seq = self.seq
                    self.at_off = self.off
                    self.arg = h[0]
                    self.size = size
                    self.off += size
                    if self.off >= DATA:
                        self.seq += 1
                        self.off = first(log, self.seq) if self.seq <= log.seq else 0
                    return kind
            self.seq += 1  # the sector's items end here: the next sector's first item
            if self.seq <= log.seq:
                self.off = first(log, self.seq)

    def _fits(self, size):
        end = self.off + size
        if end <= DATA:
            return True
        log = self.log
        nxt = self.seq + 1
        return nxt <= log.seq and log.seqs[nxt % log.n] == nxt and first(log, nxt) == end - DATA


class Reader:
    """One stream's records, read from flash in order (``readinto``), up to the log's end."""

    def __init__(self, log, gen, seq, off):
        log.flush()
        self.log = log
        self.gen = gen
        self.cur = _Cursor(log, seq, off)
        self.current = -1
        self.left = 0  # bytes of the record being read still to copy
        self.seq = self.off = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.left = -1

    def readinto(self, buf):
        mv = memoryview(buf)
        want = len(buf)
        got = 0
        log = self.log
        while got < want:
            if self.left <= 0:
                if self.left < 0 or not self._next():
                    break
            k = min(self.left, want - got, DATA - self.off)
            log.flash.readinto(self.seq % log.n, HEAD + self.off, mv[got:got + k])
            got += k
            self.left -= k
            self.off += k
            if self.off == DATA:
                self.seq += 1
                self.off = 0
        return got

    def _next(self):
        c = self.cur
        while True:
            kind = c.step()
            if kind is None:
                self.left = -1
                return False
            if kind == START or kind == SWITCH:
                self.current = c.arg
            elif kind == _RECORD and self.current == self.gen:
                self.left = c.size
                self.seq = c.at_seq
                self.off = c.at_off
                return True


def _kind(h):
    b1 = h[1]
    if b1 < 3:
        return _RECORD if (h[0] | b1 << 8) <= MAX_PAYLOAD else _BAD
    kind = b1 & 0x0F
    if b1 & 0xF0 == 0xF0 and 1 <= kind <= 3 and h[2] == h[0] ^ 0x5A and h[3] == b1 ^ 0xA5:
        return kind
    return _BAD


def _check(h):
    return crc16(h, 6) ^ 0x5347 == h[6] | h[7] << 8


def _same(flash, slot, pre):
    buf = bytearray(len(pre))
    flash.readinto(slot, 0, buf)
    return buf == pre
