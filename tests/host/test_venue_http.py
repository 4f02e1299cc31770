"""Malformed HTTP requests to the venue: each answered 4xx with the reason, none stopping or holding
its handler, the pages served on after; a slow or truncated body answered, not waited for
(host_tools/venue/http_input.py, host_tools/venue/web.py)."""

import json
import socket
import threading
import time

import pytest

from .venue_site import VenueSite


@pytest.fixture
def venue_site(tmp_path):
    site = VenueSite(tmp_path, body_s=0.5, idle_s=2.0)
    yield site
    site.close()


def raw(site, data: bytes, timeout=5.0, shut=True):
    """Send bytes as they are; (status, reason text) of the answer, or (None, why) for none."""
    with socket.create_connection(("127.0.0.1", site.port), timeout=timeout) as conn:
        conn.sendall(data)
        if shut:
            conn.shutdown(socket.SHUT_WR)
        got = b""
        try:
            while b"\r\n\r\n" not in got or len(got) < _length(got):
                chunk = conn.recv(65536)
                if not chunk:
                    break
                got += chunk
        except TimeoutError:
            return None, "no answer in %g s (the handler hangs)" % timeout
    if not got.startswith(b"HTTP/1."):
        return None, "no answer (the handler died): %r" % got[:60]
    head, _, body = got.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode(errors="replace")


def _length(got):
    head = got.partition(b"\r\n\r\n")[0].decode(errors="replace").lower()
    for row in head.split("\r\n"):
        if row.startswith("content-length:"):
            return len(head) + 4 + int(row.split(":")[1])
    return 0


def post(path, body: bytes, *headers: str, length=None) -> bytes:
    extra = "".join(h + "\r\n" for h in headers)
    size = len(body) if length is None else length
    return (("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n%sContent-Length: %s\r\n\r\n"
             % (path, extra, size)).encode() + body)


ROUND = b'{"round": %s, "action": "start"}'
# (request bytes, status, words the reason must have)
MALFORMED = [
    (post("/login", b"{}", length="abc"), 400, "Content-Length"),
    (post("/login", b"{}", length="-5"), 400, "Content-Length"),
    (post("/login", b"{}", length="99999999999999999999"), 400, "Content-Length"),
    (post("/login", b"{}", length="5000"), 413, "too large"),
    (post("/login", b"{}", "Content-Length: 3"), 400, "twice"),
    (post("/login", b"[" * 2000 + b"]" * 2000), 400, "nested"),
    (post("/login", b"[" * 3000 + b"]" * 3000), 413, "too large"),
    (post("/login", b'{"user": ' * 50 + b"1" + b"}" * 50), 400, "nested"),
    (post("/login", b"\xff\xfe{}"), 400, "UTF-8"),
    (post("/login", b"not json"), 400, "JSON"),
    (post("/login", b"[1, 2]"), 400, "object"),
    (post("/login", b'{"user": ["kim"], "password": "x"}'), 400, "user"),
    (post("/login", b'{"user": "kim", "password": 12}'), 400, "password"),
    (post("/login", b'{"user": "kim", "password": "\\ud800"}'), 400, "password"),
    (post("/login", b'{"user": "kim", "password": "' + b"x" * 300 + b'"}'), 400, "password"),
    (post("/login", b'{"user": "kim", "password": NaN}'), 400, "NaN"),
    (post("/login", b'{"user": "kim", "password": 1e400}'), 400, "finite"),
    (post("/login", b"{}", "Transfer-Encoding: chunked"), 411, "Content-Length"),
    (post("/api/nothing", b"{}"), 404, "no such action"),
    (b"BREW / HTTP/1.1\r\nHost: x\r\n\r\n", 405, "not allowed"),
    (b"GET\r\n\r\n", 400, "request"),
    (b"GET /\r\n\r\n", 400, "HTTP/1.0 or 1.1"),
    (b"GET / HTTP/9.9\r\n\r\n", 400, "version"),
    (b"GET /" + b"a" * 65600 + b" HTTP/1.1\r\n\r\n", 414, "URI"),
    (b"GET / HTTP/1.1\r\n" + b"X-A: b\r\n" * 200 + b"\r\n", 431, "headers"),
]
# With a referee's session: the fields of each action, wrong.
AS_REFEREE = [
    ("/api/round", ROUND % b"1e400", 400, "finite"),
    ("/api/round", ROUND % b"NaN", 400, "NaN"),
    ("/api/round", ROUND % b"-Infinity", 400, "Infinity"),
    ("/api/round", ROUND % b'"abc"', 400, "whole number"),
    ("/api/round", ROUND % b"[1]", 400, "whole number"),
    ("/api/round", ROUND % b"true", 400, "whole number"),
    ("/api/round", ROUND % b"2.5", 400, "whole number"),
    ("/api/round", ROUND % b"0", 400, "1 to 999"),
    ("/api/round", ROUND % (b"1" + b"0" * 4000), 400, "1 to 999"),
    ("/api/round", b'{"round": 1, "action": "explode"}', 400, "start, lock or unlock"),
    ("/api/referee", b'{"board": "t1", "action": "points", "colour": "B", "value": 1e400}', 400, "finite"),
    ("/api/referee", b'{"board": "t1", "action": "points", "colour": "B", "value": 10000}', 400, "1 to 999"),
    ("/api/referee", b'{"board": "t1", "action": "points", "colour": "B", "value": -1}', 400, "1 to 999"),
    ("/api/referee", b'{"board": "t1", "action": "warning", "colour": ["B"]}', 400, "colour"),
    ("/api/referee", b'{"board": {"a": 1}, "action": "warning", "colour": "B"}', 400, "board"),
    ("/api/referee", b'{"board": "nope", "action": "warning", "colour": "B"}', 400, "no board"),
    ("/api/referee", b'{"board": "t1", "action": ["warning"], "colour": "B"}', 400, "no action"),
    ("/api/referee", b'{"board": "t1", "action": "result", "value": "B+R\\u0000x"}', 400, ""),
    ("/api/ack", b'{"board": "t1", "items": "all"}', 400, "items"),
    ("/api/ack", b'{"board": "t1", "items": [1, 2]}', 400, "items"),
    ("/api/ack", b'{"board": "nope", "items": []}', 400, "no board"),
    ("/api/ack", b'{"items": []}', 400, "no board"),
]


def test_every_malformed_request_is_answered_with_its_reason_and_the_venue_serves_on(venue_site):
    site = venue_site
    failures = []
    for data, status, words in MALFORMED:
        got, reason = raw(site, data)
        if got != status or words.lower() not in reason.lower():
            failures.append((data[:50], status, got, reason[:120]))
    cookie, csrf = site.login()
    for path, body, status, words in AS_REFEREE:
        got, reason = raw(site, post(path, body, "Cookie: " + cookie, "X-CSRF-Token: " + csrf))
        if got != status or words.lower() not in reason.lower() or '"ok": false' not in reason:
            failures.append((body[:50], status, got, reason[:120]))
    assert not failures, "\n".join(map(str, failures))
    assert site.commands == [] and site.rounds == []
    assert site.request("GET", "/")[0] == 200 and site.request("GET", "/api/boards")[0] == 200
    health = site.request("GET", "/health")[2]
    assert health["services"]["web"]["refused"] >= len(MALFORMED) + len(AS_REFEREE)
    assert health["services"]["web"]["failed"] == 0


def test_a_slow_body_times_out_and_a_truncated_one_is_answered_at_once(venue_site):
    site = venue_site
    head = post("/login", b"", length=100)
    # Truncated: 10 bytes of 100, then the client closes its side.
    t0 = time.monotonic()
    status, reason = raw(site, head + b'{"user": "')
    assert status == 400 and "ended after 10 of 100" in reason and time.monotonic() - t0 < 0.5
    # Stalled: 10 bytes of 100, and the client waits.
    t0 = time.monotonic()
    status, reason = raw(site, head + b'{"user": "', shut=False)
    assert status == 408 and "10 of 100" in reason and 0.4 < time.monotonic() - t0 < 3
    # Trickled: a byte every 0.1 s (each within any per-read timeout): the whole body has 0.5 s.
    with socket.create_connection(("127.0.0.1", site.port), timeout=5) as conn:
        conn.sendall(head)
        t0 = time.monotonic()
        answer = b""
        conn.settimeout(0.1)
        while not answer and time.monotonic() - t0 < 5:
            try:
                conn.sendall(b" ")
                answer = conn.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                break
        assert answer.startswith(b"HTTP/1.1 408") and time.monotonic() - t0 < 2
    # A connection that never finishes its headers is closed after the idle time (2 s here).
    with socket.create_connection(("127.0.0.1", site.port), timeout=5) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        t0 = time.monotonic()
        assert conn.recv(100) == b"" and time.monotonic() - t0 < 4
    assert site.request("GET", "/health")[0] in (200, 503)


def test_many_bad_requests_at_once_leave_no_handler_behind(venue_site):
    site = venue_site
    before = threading.active_count()
    bodies = [data for data, _status, _words in MALFORMED] * 4
    answers = []
    threads = [threading.Thread(target=lambda d=d: answers.append(raw(site, d)[0])) for d in bodies]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(answers) == len(bodies) and None not in answers
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.05)  # (handler threads end when their connection does)
    assert threading.active_count() <= before
    status, _h, said = site.request("GET", "/api/boards")
    assert status == 200 and [b["board"] for b in said["boards"]] == ["t1"]
    assert json.loads(json.dumps(said))  # (still JSON)
