"""The serial protocol between the board and a host: what the board needs of it, which the host
uses too (host_tools/board/protocol.py is the host's alone: reading the board's lines).

Line based, ASCII, readable in a terminal. docs/protocol.md is the reference.

Board to host, every line::

    <seq> <KIND> <field> <field> ... *<crc>\\n

``seq`` is a decimal sequence number (0, 1, 2... per boot of the board);
``crc`` is 8 lowercase hex digits, ``binascii.crc32`` of every byte before
the `` *``. Fields are tokens without spaces; text values are
percent-escaped (``quote``/``unquote``).

Host to board, one command per line (``COMMANDS``; docs/protocol.md lists
them with their replies), an optional `` *<crc>`` the same way (checked
when present).

Contract: the board's lines are written through a ``Writer`` (a small
buffer, long lines in pieces); ``LineParser`` is fed bytes in any chunks and hands back whole
lines; its buffer never grows (oversized lines are dropped and counted, bytes
outside printable ASCII are skipped). Nothing here reads a clock or touches
hardware.
"""

import binascii

from .micro import const

PROTOCOL_VERSION = const(1)
MAX_LINE = const(4096)  # longest board-to-host line (a 19x19 snapshot fits)
MAX_COMMAND = const(240)  # longest host-to-board line

# Error codes (ERR replies).
E_UNKNOWN = "unknown"
E_MALFORMED = "malformed"
E_OVERSIZED = "oversized"
E_STATE = "state"
E_CRC = "crc"
E_TOO_OLD = "too_old"
E_MEMORY = "memory"  # the board had no memory for it and goes on as it was

COMMANDS = ("hello", "state", "resend", "mode", "new", "show", "play", "end", "time", "diag", "mem", "referee", "clock",
            "replay", "key", "lock", "mqtt")
NEW_KEYS = ("rules", "size", "komi", "handicap", "time", "pb", "pw", "ev", "ro", "dt", "pair", "remote",
            "setup", "captures")  # new's fields

_HEX = b"0123456789abcdef"
_SAFE_MIN = const(33)  # '!'
_SAFE_MAX = const(126)  # '~'


def crc_hex(data):
    """8 hex digits of the CRC-32 of ``data`` (bytes)."""
    return b"%08x" % (binascii.crc32(data) & 0xFFFFFFFF)


def quote(text):
    """Percent-escape a text value so it is one token (str -> str)."""
    out = bytearray()  # (not chr(): MicroPython interns every 1-char str for good)
    for ch in text.encode("utf-8") if isinstance(text, str) else text:
        if _SAFE_MIN <= ch <= _SAFE_MAX and ch != 37 and ch != 61 and ch != 42:  # % = *
            out.append(ch)
        else:
            out.extend(b"%%%02X" % ch)
    return out.decode()


def unquote(token):
    """Inverse of ``quote`` (str -> str). Raises ValueError on a bad escape."""
    if "%" not in token:
        return token
    raw = bytearray()
    data = token.encode("utf-8")
    i = 0
    n = len(data)
    while i < n:
        ch = data[i]
        if ch == 37:
            if i + 2 >= n:
                raise ValueError("bad escape")
            raw.append(int(data[i + 1:i + 3], 16))
            i += 3
        else:
            raw.append(ch)
            i += 1
    return raw.decode("utf-8")


class Writer:
    """Writes one board-to-host line: ``begin``, then ``raw``/``num``/``hex`` fields,
    then ``finish`` (the CRC and the newline). With a ``sink`` (anything with
    ``write(data)``: the link's transport) the line goes out through the buffer
    a piece at a time, its CRC-32 carried on, so a line may be longer than the
    buffer (a 19x19 STATE line is 2-4 KB, the link's buffer a MOVE line's
    size): ``room`` writes out what is there when the next bytes do not fit.
    Without one the line must fit the buffer; ``view()`` is its text so far
    (no copy). A line past MAX_LINE, or a field too big for a sinkless
    buffer, is cut there (its writer checks first: snapshot.py)."""

    def __init__(self, capacity=MAX_LINE, sink=None):
        self.buf = bytearray(capacity)
        self.mv = memoryview(self.buf)
        self.sink = sink
        self.n = 0  # bytes in the buffer
        self.sent = 0  # bytes of the line written out before them
        self.crc = 0  # the CRC-32 of those

    def begin(self, seq, kind):
        self.clear()
        self.num(seq)
        self.raw(kind)

    def clear(self):
        """Nothing written: a line begins, or fields are written for their bytes alone (the seal's)."""
        self.n = self.sent = self.crc = 0

    def room(self, m):
        """Whether ``m`` more bytes fit at ``buf[n]``, contiguous (what the buffer holds is
        written out first when they do not). The line's CRC and newline always fit after."""
        if self.sent + self.n + m + 11 > MAX_LINE:
            return False
        if self.n + m + 11 > len(self.buf):
            sink = self.sink
            if sink is None or m + 11 > len(self.buf):
                return False
            self._out(sink)
        return True

    def _out(self, sink):
        # What the buffer holds goes out to ``sink``; the CRC goes on from it.
        part = self.mv[:self.n]
        self.crc = binascii.crc32(part, self.crc)
        sink.write(part)
        self.sent += self.n
        self.n = 0

    def _field(self, m):
        # Room for a field of ``m`` bytes, its separating space written.
        first = not (self.n or self.sent)
        if not self.room(m if first else m + 1):
            return False
        if not first:
            self.buf[self.n] = 32
            self.n += 1
        return True

    def raw(self, data):
        """A field given as bytes/str, written as is (caller keeps it a token)."""
        if isinstance(data, str):  # encoded whole: indexing a str in MicroPython interns each char for good
            data = data.encode()
        m = len(data)
        sink = self.sink
        if m + 12 > len(self.buf) and sink is not None:  # longer than the buffer: straight out
            if self.sent + self.n + m + 12 > MAX_LINE:
                return
            self._field(0)
            self._out(sink)
            self.crc = binascii.crc32(data, self.crc)
            sink.write(data)
            self.sent += m
            return
        if self._field(m):
            n = self.n
            self.buf[n:n + m] = data
            self.n = n + m

    def num(self, value):
        """A decimal integer field (no allocation for small ints)."""
        if not self._field(21):
            return
        buf = self.buf
        n = self.n
        if value < 0:
            buf[n] = 45
            n += 1
            value = -value
        start = n
        while True:
            buf[n] = 48 + value % 10
            n += 1
            value //= 10
            if not value:
                break
        i = start
        j = n - 1
        while i < j:
            buf[i], buf[j] = buf[j], buf[i]
            i += 1
            j -= 1
        self.n = n

    def hex(self, prefix, data, count):
        """A field: ``prefix`` (bytes), then the first ``count`` bytes of ``data`` in lowercase hex
        (written in place: no allocation)."""
        if not self._field(len(prefix) + 2 * count):
            return
        buf = self.buf
        n = self.n + len(prefix)
        buf[self.n:n] = prefix
        for i in range(count):
            b = data[i]
            buf[n] = _HEX[b >> 4]
            buf[n + 1] = _HEX[b & 15]
            n += 2
        self.n = n

    def finish(self):
        """The CRC and the newline; with a sink the line's last piece goes out."""
        buf = self.buf
        n = self.n
        crc = binascii.crc32(self.mv[:n], self.crc)
        buf[n] = 32
        buf[n + 1] = 42
        n += 2
        half = crc >> 16  # small ints from here on (a 32-bit CRC is a big int on MicroPython)
        for shift in (12, 8, 4, 0):
            buf[n] = _HEX[(half >> shift) & 15]
            n += 1
        half = crc & 0xFFFF
        for shift in (12, 8, 4, 0):
            buf[n] = _HEX[(half >> shift) & 15]
            n += 1
        buf[n] = 10
        if self.sink is None:
            self.n = n + 1
        else:
            self.sink.write(self.mv[:n + 1])
            self.n = 0

    def view(self):
        return self.mv[:self.n]


def encode_command(text):
    """One host-to-board command line as bytes, with its CRC (the host's: here for the
    bench's device harness, which imports it from this module)."""
    body = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    return body + b" *" + crc_hex(body) + b"\n"


def check_crc(line):
    """Split a line (bytes, no newline) into (body, ok). ``ok`` is None when
    the line has no CRC suffix, True/False when it has one."""
    n = len(line)
    if n >= 10 and line[n - 10] == 32 and line[n - 9] == 42:
        body = line[:n - 10]
        return body, crc_hex(body) == bytes(line[n - 8:])
    return line, None


def fields_dict(fields):
    """``key=value`` fields as a dict of unquoted str (others ignored)."""
    out = {}
    for f in fields:
        i = f.find("=")
        if i > 0:
            try:
                out[f[:i]] = unquote(f[i + 1:])
            except ValueError:
                pass
    return out


class LineParser:
    """Incremental line splitter with a bounded buffer.

    ``feed(data)`` takes any bytes; ``line()`` returns the next complete line
    (a memoryview valid until the next ``feed``/``line`` call, without the
    newline) or None. A line longer than ``capacity`` is dropped whole and
    counted in ``oversized`` (``line()`` then returns the empty marker
    ``OVERSIZED`` once so the caller can answer). Bytes other than printable
    ASCII, tab and newline are skipped (counted in ``garbage``); CR is ignored.
    """

    def __init__(self, capacity=MAX_COMMAND):
        self.buf = bytearray(capacity)
        self.mv = memoryview(self.buf)
        self.n = 0
        self.skipping = False
        self.oversized = 0
        self.garbage = 0
        self._pending = bytearray(512)  # bytes fed but not yet split
        self._p0 = 0
        self._p1 = 0

    def feed(self, data):
        """Queue bytes; returns how many were taken (the rest must be fed
        again later: the queue is bounded too)."""
        p = self._pending
        if self._p0 == self._p1:
            self._p0 = self._p1 = 0
        elif self._p1 + len(data) > len(p) and self._p0:
            m = self._p1 - self._p0
            p[:m] = p[self._p0:self._p1]
            self._p0 = 0
            self._p1 = m
        room = len(p) - self._p1
        take = len(data) if len(data) < room else room
        p[self._p1:self._p1 + take] = data[:take]
        self._p1 += take
        return take

    def pending(self):
        """Bytes fed and not yet split into lines."""
        return self._p1 - self._p0

    def line(self):
        """The next complete line (memoryview) or None; ``OVERSIZED`` after
        an oversized line was dropped."""
        p = self._pending
        buf = self.buf
        cap = len(buf)
        while self._p0 < self._p1:
            ch = p[self._p0]
            self._p0 += 1
            if ch == 10:
                if self.skipping:
                    self.skipping = False
                    self.n = 0
                    return OVERSIZED
                n = self.n
                self.n = 0  # (the next line is split into the buffer after this one is used)
                return self.mv[:n]
            if ch == 13:
                continue
            if ch < 32 or ch > 126:
                if ch != 9:
                    self.garbage += 1
                    continue
            if self.skipping:
                continue
            if self.n >= cap:
                self.skipping = True
                self.oversized += 1
                continue
            buf[self.n] = ch
            self.n += 1
        return None


OVERSIZED = memoryview(b"")


def parse_command(line):
    """Parse a host command line (bytes or memoryview, no newline).

    Returns ``(name, args)`` with args a list of str, or ``(None, (code,
    detail))`` naming the problem: a line too long, a bad CRC, an unknown
    command, arguments to ``hello``, ``state``, ``mem`` or ``mqtt``, a bad ``resend``
    and ``new``'s fields (no code is loaded for it: the next game needs the
    heap). The other commands' arguments are parsed by the app
    (firmware/host/commands.py ``parse``), loaded only when one comes. A signed
    command's ``~<counter>:<tag>`` comes last in args. Bounded: the line is at
    most MAX_COMMAND bytes, so is everything allocated here."""
    if line is OVERSIZED or len(line) > MAX_COMMAND:
        return None, (E_OVERSIZED, "line longer than %d bytes" % MAX_COMMAND)
    body, ok = check_crc(line)
    if ok is False:
        return None, (E_CRC, "checksum mismatch")
    try:
        text = bytes(body).decode("ascii")
    except UnicodeError:
        return None, (E_MALFORMED, "not ascii")
    parts = text.split()
    if not parts:
        return None, (E_MALFORMED, "empty line")
    name = parts[0].lower()
    args = parts[1:]
    signed = args.pop() if args and args[-1][:1] == "~" else None  # the venue's signature (firmware/host/seal.py)
    if name not in COMMANDS:
        return None, (E_UNKNOWN, "unknown command " + quote(parts[0][:24]))
    if name in ("hello", "state", "mem", "mqtt"):
        if args:
            return None, (E_MALFORMED, name + " takes no arguments")
    elif name == "resend":
        if len(args) != 1 or not is_uint(args[0]):
            return None, (E_MALFORMED, "resend needs one sequence number")
    elif name == "new":
        for a in args:
            i = a.find("=")
            if i <= 0 or a[:i] not in NEW_KEYS:
                return None, (E_MALFORMED, "new: bad field " + quote(a[:24]))
            try:
                unquote(a[i + 1:])
            except (ValueError, UnicodeError):
                return None, (E_MALFORMED, "new: bad escape in " + a[:i])
    if signed:
        args.append(signed)  # (last: the link checks and removes it)
    return name, args


def is_uint(text):
    """Whether ``text`` is a decimal number of at most 9 digits (str)."""
    if not text or len(text) > 9:
        return False
    for ch in text:
        if ch < "0" or ch > "9":
            return False
    return True
