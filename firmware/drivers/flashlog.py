"""The journal's storage as a log of its own on raw NOR flash: one erase per sector filled, not per flush.

littlefs copies a synced file's partly filled last block on the next append,
so a journal file costs about one 4 KB erase per flush (docs/journal.md).
``FlashLog(flash)`` keeps both of the journal's streams (store.py: ``MAIN``,
and ``NEXT`` while a compaction is written) in one ring of flash sectors
and erases a sector only when the log moves into it.

``flash`` (twins/flash.py ``SimFlash``; drivers/rp2_region.py on a Pico) has
``sectors`` (their count), ``erase(i)``, ``program(i, off, page)`` (one
256-byte page at a 256-aligned offset: bits only go from 1 to 0; a byte
given as 0xFF is left as it is), ``readinto(i, off, buf)`` and
``prefix(i)`` (bytes that must be at the start of sector i, at most
``PREFIX``: the littlefs block pointers of a reserved file; b"" on bare flash).

Sector i of the ring: ``prefix`` | header ``seq:u32 first:u16 chk:u16`` at
``PREFIX`` | data (``DATA`` bytes). ``seq`` numbers the sectors in the order
the log entered them (slot ``seq % sectors``); ``first`` is where the first
item that starts in the sector begins (an item may run on from the sector
before); ``chk`` is the CRC-16 of the six bytes before it, xor 0x5347. The data
is a sequence of items, each whole in one ``write``: a journal record (its
first u16 is its payload length n <= 600, so it takes n + 7 bytes, and it
carries its own CRC) or a 4-byte marker ``gen, 0xF0|kind, gen^0x5A,
byte1^0xA5`` (kind START: stream ``gen`` begins, empty, and the records
after it are its own; SWITCH: the records after it are stream ``gen``'s;
COMMIT: stream ``gen``, the compaction, is now ``MAIN``: ``replace``). Only
stream changes cost a marker, so a game's log is its records and a few bytes.

Appends: the bytes go into a page image (0xFF elsewhere); a full page, a
``flush`` and a ``replace`` program it. A page is thus programmed again with
new bytes after the ones already there: the bytes already written are given
as 0xFF, so their cells get no program pulse at all (the W25Q16JV's Page
Program changes only the bits given as 0; a cut program can spoil only the
bytes it was writing, which no flush had yet reported durable). Erase: only
when the log moves into a sector, never one holding a live stream (OSError
28 then: the journal fails, and the recorder writes a fresh snapshot).

Power-up (``FlashLog(flash)``): the valid headers give the chain of
sectors, oldest to newest; their items are read in order (a sector's items
end at the first one that is not valid: erased, torn, or running on into a
sector whose ``first`` disagrees), which tells the current ``MAIN`` (the last
COMMIT's stream) and an unfinished ``NEXT`` (started after it). Appending then
starts in a fresh sector: whatever a power cut tore is never written after.
A sector whose prefix a cut erase spoiled is erased again and its prefix
restored. Reading a stream (``reader``) yields its records in order, up to
the first that is torn (the journal's own CRC and sequence numbers judge).
"""

from ..journal.store import MAIN, NEXT, crc16
from ..micro import const
from ..rules.const import call_briefly

SECTOR = const(4096)
PAGE = const(256)
PREFIX = const(24)  # room kept for the region's prefix (littlefs: 1 to 6 pointers)
HEAD = const(32)  # PREFIX + the 8-byte header: where data starts
DATA = const(4064)  # data bytes per sector
START = const(1)
SWITCH = const(2)
COMMIT = const(3)
_ENOSPC = const(28)
_AHEAD = const(1024)  # data bytes left in a sector when ``prepare`` erases the next


class FlashLog:
    """See the module doc."""

    def __init__(self, flash):
        self.flash = flash
        self.n = flash.sectors
        self.page = bytearray(b"\xff" * PAGE)  # the current page's new bytes (0xFF elsewhere)
        self._h = bytearray(8)  # an item's or a header's bytes
        self._f = bytearray(8)  # a header's, for ``_first``
        self._at_seq = self._at_off = 0  # where the last item written began
        self.seqs = [0] * self.n  # each slot's valid seq (0: none)
        self.erases = 0  # counted here too (wear figures)
        self.main_gen = -1  # the streams: gen, and where their START is (seq, off)
        self.main_seq = self.main_off = 0
        self.next_gen = -1
        self.next_seq = self.next_off = 0
        self.last_gen = 0xFF  # the last gen started (the next is one more)
        self.current = -1  # the stream of the last item written
        self.seq = 0  # the sector being written, and the data offset of its next byte
        self.off = DATA  # (full: the first write enters a fresh sector)
        self.ready = 0  # the sector ``prepare`` erased ahead (its seq)
        self.lo = PAGE  # the page image's new bytes: [lo, hi) of physical page ``pg``
        self.hi = 0
        self.pg = 0
        call_briefly("firmware.drivers.flashlog_read", "mount", self)  # (code for the power-up only)

    # -- the storage interface (firmware/journal/store.py) -----------------------------

    def write(self, name, data, n=-1):
        """Append a whole journal record data[:n] (all of data if n < 0) to stream ``name``."""
        if n < 0:
            n = len(data)
        if n < 7 or (data[0] | data[1] << 8) + 7 != n:
            raise ValueError("not one journal record")
        if name == MAIN:
            if self.main_gen < 0:  # a first journal: an empty stream, committed
                self._empty_main()
            gen = self.main_gen
        else:
            if self.next_gen < 0:
                self._start()
            gen = self.next_gen
        if gen != self.current:
            self._marker(SWITCH, gen)
        self._item(data, n)

    def flush(self, name=MAIN):
        if self.hi:
            self.flash.program(self.seq % self.n, self.pg * PAGE, self.page)
            page = self.page
            for i in range(self.lo, self.hi):
                page[i] = 0xFF
            self.lo = PAGE
            self.hi = 0

    def replace(self, src, dst):
        """NEXT, made durable, becomes MAIN: one COMMIT marker, programmed."""
        if src != NEXT or dst != MAIN or self.next_gen < 0:
            raise OSError(2)
        self._marker(COMMIT, self.next_gen)
        self.flush()
        self._commit()

    def remove(self, name):
        if name == MAIN:
            self._empty_main()
            self.flush()
        else:
            self.next_gen = -1  # (its sectors are free for the ring; nothing written)

    def reader(self, name):
        """The stream's records from its start (``readinto``; ``with``), or None."""
        self.flush()
        if name == MAIN:
            at = (self.main_gen, self.main_seq, self.main_off)
        else:
            at = (self.next_gen, self.next_seq, self.next_off)
        return None if at[0] < 0 else call_briefly("firmware.drivers.flashlog_read", "Reader", self, *at)

    def read(self, name):
        stream = self.reader(name)
        if stream is None:
            return None
        out = bytearray()
        buf = bytearray(PAGE)
        while True:
            k = stream.readinto(buf)
            out.extend(buf[:k])
            if k < PAGE:
                return bytes(out)

    def close(self):
        self.flush()

    def prepare(self):
        """Erase the next sector now if the log will soon move into it (the recorder calls
        this in a loop pass that wrote nothing: the 45 ms erase, up to 400 ms on a
        W25Q16JV, then never lands in a pass that records a move). Cheap when not due."""
        if self.ready != self.seq + 1 and DATA - self.off < _AHEAD and self.seq:
            try:
                self._free()
            except OSError:
                return
            self.flush()
            slot = (self.seq + 1) % self.n
            self.seqs[slot] = 0
            self.flash.erase(slot)
            self.erases += 1
            self.ready = self.seq + 1

    # -- writing -------------------------------------------------------------------------

    def _empty_main(self):
        # An empty stream, committed, becomes MAIN (a compaction under way goes on).
        at = (self.next_gen, self.next_seq, self.next_off)
        self._start()
        self._marker(COMMIT, self.next_gen)
        self._commit()
        self.next_gen, self.next_seq, self.next_off = at

    def _start(self):
        g = (self.last_gen + 1) & 0xFF
        if g == self.main_gen:
            g = (g + 1) & 0xFF
        self.last_gen = g
        self._marker(START, g)
        self.next_gen = g
        self.next_seq = self._at_seq
        self.next_off = self._at_off
        self.current = g

    def _commit(self):
        self.main_gen = self.next_gen
        self.main_seq = self.next_seq
        self.main_off = self.next_off
        self.next_gen = -1

    def _marker(self, kind, gen):
        h = self._h
        h[0] = gen
        h[1] = 0xF0 | kind
        h[2] = gen ^ 0x5A
        h[3] = h[1] ^ 0xA5
        self._item(h, 4)
        if kind == SWITCH:
            self.current = gen

    def _item(self, data, n):
        # An item at the write position (after entering a fresh sector if its first 4
        # bytes would not fit, or if it runs on and the next sector is still live).
        if DATA - self.off < 4:
            self._enter(0)
        elif self.off + n > DATA:
            self._free()
        self._at_seq = self.seq
        self._at_off = self.off
        page = self.page
        off = self.off
        i = 0
        while i < n:
            if off == DATA:
                self.off = off
                self._enter(n - i)
                off = 0
            phys = HEAD + off
            pg = phys // PAGE
            if pg != self.pg:
                self.flush()
                self.pg = pg
            k = phys - pg * PAGE
            if k < self.lo:
                self.lo = k
            m = min(n - i, PAGE - k, DATA - off)
            for j in range(m):
                page[k + j] = data[i + j]
            i += m
            off += m
            if k + m > self.hi:
                self.hi = k + m
            if k + m == PAGE:
                self.flush()
        self.off = off

    def _free(self):
        # The sector after the current one may be erased (it holds no live stream's data).
        seq = self.seq + 1
        live = self.seq + 1
        if self.main_gen >= 0:
            live = min(live, self.main_seq)
        if self.next_gen >= 0:
            live = min(live, self.next_seq)
        if seq - self.n >= live:
            raise OSError(_ENOSPC)

    def _enter(self, first):
        # Program what is pending, erase the next sector, write its prefix and header.
        self._free()
        self.flush()
        seq = self.seq + 1
        slot = seq % self.n
        flash = self.flash
        if self.ready != seq:  # (not erased ahead by ``prepare``)
            self.seqs[slot] = 0
            flash.erase(slot)
            self.erases += 1
        page = self.page
        pre = flash.prefix(slot)
        for i in range(len(pre)):
            page[i] = pre[i]
        h = self._f
        _header(h, seq, first)
        for i in range(8):
            page[PREFIX + i] = h[i]
        self.seq = seq
        self.off = 0
        self.pg = 0
        self.lo = 0
        self.hi = HEAD
        self.flush()
        self.seqs[slot] = seq

def _header(h, seq, first):
    h[0] = seq & 0xFF
    h[1] = (seq >> 8) & 0xFF
    h[2] = (seq >> 16) & 0xFF
    h[3] = (seq >> 24) & 0xFF
    h[4] = first & 0xFF
    h[5] = first >> 8
    c = crc16(h, 6) ^ 0x5347
    h[6] = c & 0xFF
    h[7] = c >> 8
