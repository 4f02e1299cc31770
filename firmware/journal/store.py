"""The game journal: an append-only file of small binary records, so a power cut loses nothing.

One record (integers little-endian)::

    n:u16  seq:u16  kind:u8  payload[n]  crc:u16

``crc`` is the CRC-16/CCITT of every byte before it; ``seq`` counts records
(mod 65536) and must follow on from the previous record. Reading
(recovery.py, at power-up) stops at the first record that is torn (the file
ends inside it), fails its CRC, claims an impossible length or breaks the
sequence: everything before it is kept, nothing after it is trusted.
(CRC-16 and not ``binascii.crc32``: a 32-bit CRC is a big int on
MicroPython and would allocate on every append.)

``Journal`` writes records from one preallocated buffer (``begin``, then
``u8``/``u16``/``i32``/``text``, then ``end``, which appends it; ``flush``
makes what was appended durable, once per step: on littlefs every flush
costs a block, docs/journal.md): nothing is allocated per record (the
storage is handed the buffer and the record's length, not a slice of it). What the records mean is records.py's business, except
``COMMIT``. A storage error (flash full...) never escapes: it sets
``failed`` (the recorder then writes a fresh snapshot), and a compaction
that failed leaves the journal as it was.

Compaction: ``begin_snapshot()`` starts a second file (storage name
``NEXT``) with its own sequence numbers and size; records go to it while
``target`` is ``NEXT`` and to the journal while it is ``MAIN``, so the
recorder writes a snapshot a slice at a time while the game goes on being
journalled. ``end_snapshot()`` appends ``COMMIT`` to it and renames it over
the journal, which goes on from it. At power-up (recovery.py ``load``, code
a board needs only then): a ``NEXT`` file holding a COMMIT is a finished
snapshot (the rename is completed), one without is a cut compaction
(deleted); then the journal is read, and goes on after its last valid
record (``size``, ``seq``). The journal alone holds the game until the
rename, so a cut at any moment leaves one complete, readable history.

Storage (firmware/drivers/storage.py; twins/storage.py): ``reader(name)``
-> the file open for reading from its start (``readinto``; closed by ``with``)
or None (recovery.py reads with it), ``write(name, data, n=-1)`` (append ``data[:n]``, all of it
if n < 0), ``flush(name)``,
``replace(src, dst)`` (src made durable, then renamed over dst atomically),
``remove(name)``; names are ``MAIN`` and ``NEXT``.
"""

from ..micro import const
from ..rules.const import zeros

MAIN = ""  # the journal file
NEXT = ".new"  # a compaction being written

COMMIT = const(255)  # record kind: the snapshot before it is complete

HEADER = const(5)  # a record's bytes before its payload
MAX_PAYLOAD = const(600)


def _crc_table():
    table = zeros("H", 256)
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else c << 1
        table[i] = c & 0xFFFF
    return table


_TABLE = _crc_table()


def crc16(buf, n):
    """CRC-16/CCITT-FALSE of buf[:n] (small ints only: no allocation)."""
    table = _TABLE
    c = 0xFFFF
    for i in range(n):
        c = ((c << 8) & 0xFF00) ^ table[(c >> 8) ^ buf[i]]
    return c


class Journal:
    """Records to a storage; see the module doc."""

    def __init__(self, storage):
        self.storage = storage
        self.buf = bytearray(HEADER + MAX_PAYLOAD + 2)
        self.n = 0
        self.seq = 0  # the journal's next sequence number and bytes
        self.size = 0
        self.next_seq = 0  # the same for the snapshot being written (NEXT)
        self.next_size = 0
        self.target = MAIN  # where end() appends
        self.written = 0  # bytes and records appended since start-up (wear figures)
        self.records = 0
        self.dirty = False  # appended since the last flush
        self.failed = False  # a storage operation failed since the recorder last looked

    # -- writing -------------------------------------------------------------

    def begin(self, kind):
        self.buf[4] = kind
        self.n = HEADER

    def u8(self, v):
        self.buf[self.n] = v & 0xFF
        self.n += 1

    def u16(self, v):
        buf = self.buf
        n = self.n
        buf[n] = v & 0xFF
        buf[n + 1] = (v >> 8) & 0xFF
        self.n = n + 2

    def i32(self, v):
        buf = self.buf
        n = self.n
        buf[n] = v & 0xFF
        buf[n + 1] = (v >> 8) & 0xFF
        buf[n + 2] = (v >> 16) & 0xFF
        buf[n + 3] = (v >> 24) & 0xFF
        self.n = n + 4

    def text(self, data):
        """Bytes (or ASCII str) to the end of the payload, cut to what fits."""
        if isinstance(data, str):
            data = data.encode()
        n = self.n
        m = min(len(data), HEADER + MAX_PAYLOAD - n)
        self.buf[n:n + m] = data[:m]
        self.n = n + m

    def end(self):
        """Seal the record (length, sequence number, CRC) and append it."""
        buf = self.buf
        n = self.n
        length = n - HEADER
        buf[0] = length & 0xFF
        buf[1] = length >> 8
        main = self.target == MAIN
        seq = self.seq if main else self.next_seq
        buf[2] = seq & 0xFF
        buf[3] = (seq >> 8) & 0xFF
        c = crc16(buf, n)
        buf[n] = c & 0xFF
        buf[n + 1] = c >> 8
        n += 2
        try:
            self.storage.write(self.target, buf, n)
        except OSError:
            self.failed = True
        if main:
            self.seq = (seq + 1) & 0xFFFF
            self.size += n
            self.dirty = True
        else:
            self.next_seq = (seq + 1) & 0xFFFF
            self.next_size += n
        self.written += n
        self.records += 1

    def flush(self):
        """Make every record appended to the journal so far durable (a snapshot is made
        durable once, by ``end_snapshot``)."""
        if self.dirty:
            self.dirty = False
            try:
                self.storage.flush(MAIN)
            except OSError:
                self.failed = True

    # -- compaction and boot -------------------------------------------------

    def begin_snapshot(self):
        """A new, empty snapshot file (see the module doc); ``target`` is left as it is."""
        try:
            self.storage.remove(NEXT)
        except OSError:
            self.failed = True
        self.next_seq = 0
        self.next_size = 0

    def end_snapshot(self):
        """Mark the snapshot complete and switch to it (not if a storage operation failed
        since the recorder last looked: the journal goes on as it was)."""
        self.target = NEXT
        self.begin(COMMIT)
        self.end()
        self.target = MAIN
        if not self.failed:
            try:
                self.storage.replace(NEXT, MAIN)  # (NEXT made durable first)
                self.seq = self.next_seq
                self.size = self.next_size
                self.dirty = False  # (what the old file had appended is superseded)
            except OSError:
                self.failed = True
