"""What a request to the venue brings, checked: its body and the fields in it.

Nothing a client sends may stop a handler or hold it: a body is read only with a sound
``Content-Length`` (no chunked bodies), at most ``MAX_BODY`` bytes, and within ``BODY_S`` in
all (a slow or truncated body is answered, not waited for); JSON only, as
``application/json``, an object, not nested deeper than ``MAX_DEPTH``, with finite numbers
only. Each refusal is a ``BadRequest`` carrying the HTTP status and the reason the answer gives.
"""

from __future__ import annotations

import json
import math
import time

MAX_BODY = 4096
BODY_S = 10.0
MAX_DEPTH = 20
MAX_TEXT = 200


class BadRequest(ValueError):
    def __init__(self, reason: str, status: int = 400):
        super().__init__(reason)
        self.status = status


def read_body(handler, max_bytes: int = MAX_BODY, seconds: float = BODY_S) -> bytes:
    """The request's body (``handler``: a BaseHTTPRequestHandler), whole, or BadRequest."""
    headers = handler.headers
    if headers.get("Transfer-Encoding"):
        raise BadRequest("send the body with a Content-Length (no Transfer-Encoding)", 411)
    values = headers.get_all("Content-Length") or ["0"]
    if len(set(values)) > 1:
        raise BadRequest("Content-Length given twice")
    text = values[0].strip()
    if not text.isdigit() or not text.isascii() or len(text) > 12:
        raise BadRequest("Content-Length: expected a whole number of bytes, not %r" % text[:20])
    length = int(text)
    if length > max_bytes:
        raise BadRequest("request body too large: at most %d bytes" % max_bytes, 413)
    chunks, got = [], 0
    deadline = time.monotonic() + seconds
    connection = handler.connection
    try:
        while got < length:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            connection.settimeout(left)
            chunk = handler.rfile.read1(length - got)
            if not chunk:
                raise BadRequest("request body ended after %d of %d bytes" % (got, length))
            chunks.append(chunk)
            got += len(chunk)
    except TimeoutError:
        raise BadRequest("request body: %d of %d bytes in %g s" % (got, length, seconds), 408) from None
    finally:
        connection.settimeout(handler.timeout)
    return b"".join(chunks)


def json_object(handler, data: bytes) -> dict:
    """The body as a JSON object, from a request that says it is JSON."""
    ctype = (handler.headers.get("Content-Type") or "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise BadRequest("Content-Type: application/json only, not %r" % ctype[:40], 415)
    if _depth(data) > MAX_DEPTH:
        raise BadRequest("JSON nested too deeply (at most %d levels)" % MAX_DEPTH)
    try:
        body = json.loads(data.decode("utf-8") or "{}", parse_constant=_no_constant, parse_float=_finite)
    except UnicodeDecodeError:
        raise BadRequest("not UTF-8") from None
    except ValueError as error:  # (JSONDecodeError, or a number too long to read)
        raise BadRequest("not JSON: %s" % str(error)[:100]) from None
    if not isinstance(body, dict):
        raise BadRequest("expected a JSON object")
    return body


def _depth(data: bytes) -> int:
    """How deep the brackets go (before parsing: the parser recurses)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _no_constant(name):
    raise BadRequest("%s is not a number" % name)


def _finite(text):
    value = float(text)
    if not math.isfinite(value):
        raise BadRequest("%s is not a finite number" % text[:20])
    return value


def text(body: dict, name: str, default: str | None = None, max_len: int = MAX_TEXT) -> str:
    """A string field (printable, at most ``max_len`` characters)."""
    value = body.get(name, default)
    if value is None:
        raise BadRequest("%s: missing" % name)
    if not isinstance(value, str):
        raise BadRequest("%s: expected text" % name)
    if len(value) > max_len:
        raise BadRequest("%s: at most %d characters" % (name, max_len))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise BadRequest("%s: not valid text" % name) from None
    return value


def whole(body: dict, name: str, low: int, high: int, default: int | None = None) -> int:
    """A whole-number field within [low, high] (a number or its digits as text)."""
    value = body.get(name, default)
    if isinstance(value, str) and value.strip().isdigit() and len(value) <= 12:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest("%s: expected a whole number" % name)
    if not low <= value <= high:
        raise BadRequest("%s: expected %d to %d" % (name, low, high))
    return value


def flag(body: dict, name: str) -> bool:
    value = body.get(name, False)
    if not isinstance(value, bool):
        raise BadRequest("%s: expected true or false" % name)
    return value


def strings(body: dict, name: str, most: int = 20) -> list[str]:
    """A list of texts (the attention items a referee saw)."""
    value = body.get(name, [])
    if not isinstance(value, list) or len(value) > most or not all(isinstance(v, str) and len(v) <= MAX_TEXT
                                                                   for v in value):
        raise BadRequest("%s: expected a list of at most %d texts" % (name, most))
    return value
