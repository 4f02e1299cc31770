"""A game's running hash and its signature: records a venue can trust (docs/records.md).

The chain starts from the game's GAME line and folds in each move as its MOVE
line tells it, then the result::

    d0 = SHA-256(b"GB1 " + board + b" " + gid + b" " + the GAME line's fields after the id)
    dk = SHA-256(d(k-1) + the MOVE line's fields: b"<k> <B|W> <point>[ <ms_left> <periods>]")
    dE = SHA-256(dn + b"END " + the END line's re= value: the SGF RE, quoted as on the line)

Every MOVE line carries the first 8 bytes of its dk (``h=``, 16 hex digits);
the END line carries dE whole (``hash=``) and, on a board given a secret at
registration (the host's ``key`` command), ``sig=`` HMAC-SHA256(secret, dE).
Moves taken back leave the chain: it is always the game as it stands. A
registered board takes only commands signed with the same secret
(``~<counter>:<tag>``, docs/venue.md; firmware/host/signing.py ``authorise``). The
host side (host_tools/records.py) computes the same chain from the lines or
from the SGF. The signing itself is in firmware/host/signing.py, loaded when
first used. CPython and MicroPython alike.
"""

import hashlib
from binascii import hexlify, unhexlify

from ..micro import const

TYPE_CHECKING = False  # (the type checker reads the block below; nothing in it runs)
if TYPE_CHECKING:
    from ..drivers.storage import FileStorage

_KEPT = const(4)  # the digests after the last moves folded, kept: an undo or a short resend steps back to one

KEY_FILE = ".key"  # beside the journal (drivers/storage.py names are suffixes)
LOCK_FILE = ".lock"


def head(board, gid, header):
    """d0: the chain's start from the board's name, the game id and the GAME fields (bytes)."""
    return hashlib.sha256(b"GB1 " + board + b" " + str(gid).encode() + b" " + header).digest()


def fold(digest, fields):
    """The next link: ``fields`` (a MOVE line's fields, or END and the result) after ``digest``."""
    h = hashlib.sha256(digest)
    h.update(fields)
    return h.digest()


class Seal:
    """The current game's chain on the board. ``fields_of(w, k)`` writes move k's
    MOVE fields into the Writer ``w``, the link's own (so the hash is of the very
    text the line carries; the seal writes in it between lines only); the last
    digest is kept, so the moves of a game or of a resync cost one fold each;
    going back (an undo, a resend) steps back to one of the last few digests
    kept, or starts again from d0 (``reaches``: a slice of the folds a loop
    pass). ``key``: the board's secret (bytes), or None; ``storage``: the flash
    that keeps it (the app's), and the last signed command's counter."""

    key: "bytes | None"
    storage: "FileStorage | None"

    def __init__(self, board, fields_of, writer):
        self.board = board.encode() if isinstance(board, str) else board
        self.fields_of = fields_of
        self.writer = writer
        self.key = None
        self.storage = None
        self.counter = -1  # the last signed command's (one is taken once): -1 until read from flash
        self.d0 = b""
        self.k = 0
        self.digest = b""
        self.kept = bytearray(32 * _KEPT)  # the digest after move m at m % _KEPT, for moves low..k
        self.low = 1

    def start(self, gid, header):
        self.d0 = self.digest = head(self.board, gid, header)
        self.k = 0
        self.low = 1

    def rewind(self, k):
        """Back to the digest after move k (moves after it were taken back, or are resent): a
        digest kept, else d0 (the moves folded again)."""
        if k >= self.k:
            return  # (the chain so far is not changed)
        if k >= self.low:
            i = 32 * (k % _KEPT)
            self.digest = bytes(self.kept[i:i + 32])
            self.k = k
        else:
            self.k = 0
            self.digest = self.d0
            self.low = 1

    def reaches(self, k, most):
        """Whether the digest after move k is at most ``most`` folds away; if not, ``most``
        folds toward it are made (a chain started again after a long undo or resend is caught
        up over several loop passes, each a slice)."""
        self.rewind(k)
        if k - self.k <= most:
            return True
        self.after(self.k + most)
        return False

    def after(self, k, fields=None):
        """dk, the digest after move k; ``fields``: move k's text when the caller has it written
        already (the MOVE line being written: its own bytes are hashed, not a second copy; the
        digest after move k - 1 is then caught up with first, before the line began)."""
        self.rewind(k)
        w = self.writer
        kept = self.kept
        while self.k < k:
            m = self.k = self.k + 1
            if m == k and fields is not None:
                text = fields
            else:
                w.clear()
                self.fields_of(w, m)
                text = w.view()
            self.digest = fold(self.digest, text)
            i = 32 * (m % _KEPT)
            kept[i:i + 32] = self.digest
            if m - self.low >= _KEPT:
                self.low = m - _KEPT + 1
        return self.digest

    def end(self, moves, result):
        """The END line's ``hash=`` and ``sig=`` fields (str) after ``moves`` moves;
        ``result``: the line's re= value (str)."""
        final = fold(self.after(moves), b"END " + result.encode())
        text = "hash=" + hexlify(final).decode()
        if self.key:
            from .signing import hmac_sha256  # (loaded when used: code costs a Pico's heap)

            text += " sig=" + hexlify(hmac_sha256(self.key, final)).decode()
        return text


def load_key(storage):
    """The secret kept on the board's flash, or None (not registered, or no storage)."""
    if storage is None:
        return None
    data = storage.read(KEY_FILE)
    try:
        return unhexlify(data.strip()) if data else None
    except ValueError:
        return None  # a damaged key file: the board signs nothing until registered again


def load_lock(storage):
    """Whether the board was locked to its venue's signed commands when the power went."""
    return storage is not None and storage.read(LOCK_FILE) == b"1"
