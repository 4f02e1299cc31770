"""The host's half of the serial protocol (docs/protocol.md): reading the board's lines, and
writing them as the board does (for tests and benches). firmware/protocol.py is what both
sides share.
"""

from firmware.protocol import MAX_LINE, Writer, check_crc


def encode(seq, kind, fields=()):
    """One board-to-host line as bytes: ``encode(3, "MOVE", (1, "B", "Q16"))``."""
    w = Writer(MAX_LINE)
    w.begin(seq, kind)
    for f in fields:
        if isinstance(f, int):
            w.num(f)
        else:
            w.raw(f)
    w.finish()
    return bytes(w.view())


def decode(line):
    """Parse a board-to-host line (bytes, no newline) into
    ``(seq, kind, fields)`` with fields as str; None when the CRC is missing
    or wrong or the line is not a message."""
    body, ok = check_crc(line)
    if not ok:
        return None
    try:
        parts = bytes(body).decode("ascii").split(" ")
        seq = int(parts[0])
    except (ValueError, UnicodeError, IndexError):
        return None
    if len(parts) < 2 or seq < 0:
        return None
    return seq, parts[1], parts[2:]
