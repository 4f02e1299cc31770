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
board whose round the venue locked takes only commands signed with the same
secret (``~<counter>:<tag>``, docs/venue.md; firmware/host/signing.py ``accepts``). The
host side (host_tools/records.py) computes the same chain from the lines or
from the SGF. The signing itself is in firmware/host/signing.py, loaded when
first used. CPython and MicroPython alike.
"""

import hashlib
from binascii import hexlify, unhexlify

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
    digest is kept, so the moves of a game or of a resync cost one fold each,
    and going back (an undo, a resend) starts again from d0. ``key``: the
    board's secret (bytes), or None."""

    key: "bytes | None"

    def __init__(self, board, fields_of, writer):
        self.board = board.encode() if isinstance(board, str) else board
        self.fields_of = fields_of
        self.writer = writer
        self.key = None
        self.counter = 0  # the last signed command's: one signed command is taken once
        self.d0 = b""
        self.k = 0
        self.digest = b""

    def start(self, gid, header):
        self.d0 = self.digest = head(self.board, gid, header)
        self.k = 0

    def rewind(self):
        """Moves were taken back: the next digest is computed from d0 again."""
        self.k = 0
        self.digest = self.d0

    def after(self, k, fields=None):
        """dk, the digest after move k; ``fields``: move k's text when the caller has it written
        already (the MOVE line being written: its own bytes are hashed, not a second copy; the
        digest after move k - 1 is then caught up with first, before the line began)."""
        if k < self.k:
            self.rewind()
        w = self.writer
        while self.k < k:
            self.k += 1
            if self.k == k and fields is not None:
                text = fields
            else:
                w.clear()
                self.fields_of(w, self.k)
                text = w.view()
            self.digest = fold(self.digest, text)
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
