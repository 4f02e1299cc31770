"""What the venue takes from MQTT, checked before anything else sees it.

Anyone on the broker can publish anything on a board's topics; one message the
venue cannot read must cost that message, never the venue's feed (an exception in
paho's callback ends its thread for good, and the broker delivers the same message
again to a restarted venue). Each function here returns what a message says or
raises ``ValueError`` saying why it is not a message the venue takes.
"""

from __future__ import annotations

import json

MAX_PAYLOAD = 16384  # a line is at most 4096 bytes (docs/protocol.md); its JSON a few more
MAX_NUMBER = (1 << 31) - 1
STATUSES = ("online", "offline")


def topic(name: str, root: str) -> tuple[str, str]:
    """``<root>/<board>/<what>`` -> (board, what)."""
    parts = name.split("/")
    if len(parts) != 3 or parts[0] != root:
        raise ValueError("not a topic of %s: %r" % (root, name[:80]))
    board, what = parts[1], parts[2]
    if not board or len(board) > 64 or not board.isascii() or not board.isprintable() or " " in board:
        raise ValueError("not a board name: %r" % board[:80])
    return board, what


def status(payload: bytes) -> str:
    """A logger's word on a board or on itself: online or offline."""
    try:
        text = payload.decode("ascii")
    except UnicodeError:
        raise ValueError("a status that is not ASCII") from None
    if text not in STATUSES:
        raise ValueError("a status that is neither online nor offline: %r" % text[:40])
    return text


def line(payload: bytes) -> tuple[int, int, str, int]:
    """A board's line as its logger publishes it: (boot, seq, raw, prev)."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("a line payload of %d bytes" % len(payload))
    try:
        data = json.loads(payload)
    except RecursionError:
        raise ValueError("JSON nested too deep") from None
    except UnicodeError as error:
        raise ValueError("not UTF-8: %s" % error) from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    boot, seq, prev, raw = (_number(data, "boot"), _number(data, "seq"), _number(data, "prev", -1),
                            data.get("raw"))
    if prev >= seq:
        raise ValueError("prev %d is not below seq %d" % (prev, seq))
    if not isinstance(raw, str) or not 0 < len(raw) <= 4096 or not raw.isascii() or not raw.isprintable():
        raise ValueError("raw is not a board's line (printable ASCII, at most 4096 bytes)")
    number = raw.split(" ", 1)[0]
    if not number.isdigit() or int(number) != seq:
        raise ValueError("raw is numbered %r, not %d" % (number[:12], seq))
    return boot, seq, raw, prev


def _number(data: dict, key: str, low: int = 0) -> int:
    value = data.get(key)
    if type(value) is not int or not low <= value <= MAX_NUMBER:  # (not a bool, a float, 1e400, a string)
        raise ValueError("%s is not a whole number from %d to 2^31: %r" % (key, low, str(value)[:20]))
    return value
