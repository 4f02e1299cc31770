"""HTTP fuzz of the venue's pages (part of ``make bench``): malformed requests of every kind, on
every path, many at once, then whether the venue still serves.

    .venv/bin/python bench/venue_http_fuzz.py [--requests 3000] [--seed 37] [--workers 16]

Each request is sent on its own connection, as raw bytes: request lines, headers,
``Content-Length`` values, bodies (JSON nested, numbers out of range or not finite, wrong
types for every field of every action, bytes that are not UTF-8, truncated or stalled bodies)
mutated at random from a seed, as a referee with a session and as anyone. Counted: the
requests tried, the answers by status, the answers that were not a valid HTTP status (none at
all, a handler that died, one that hung past its deadline, a 5xx), the handler threads still
alive once every connection closed, and whether the pages, the health report and a login
still work after. Exits 1 on any invalid answer or a venue no longer serving.
"""

from __future__ import annotations

import argparse
import collections
import json
import pathlib
import random
import socket
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from host_tools.board import protocol as ph  # noqa: E402
from host_tools.venue.archive import Archive  # noqa: E402
from host_tools.venue.service import Venue  # noqa: E402
from host_tools.venue.web import Site, serve  # noqa: E402

BODY_S = 0.5  # the venue's deadline for a whole body (a stalled one is answered 408 after it)
ANSWER_S = 5.0  # longer than this without an answer: the handler hangs
REFEREES = {"kim": "secret"}


class VenueUnderTest:
    """A venue with three boards playing, no broker (its commands counted, not sent), its pages on
    a free port."""

    def __init__(self, folder: pathlib.Path):
        self.venue = Venue(Archive("sqlite:///%s" % (folder / "venue.db")), "127.0.0.1:1", delay=0)
        self.commands = []
        self.venue.client.publish = lambda topic, payload, qos=0: self.commands.append(topic)
        self.site = Site(self.venue, dict(REFEREES), {"name": "Fuzz Cup"}, lambda r, a, w: 0,
                         locked=lambda r: False, body_s=BODY_S)
        self.server = serve(self.site, "127.0.0.1", 0, idle_s=2.0)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        for n, board in enumerate(("t1", "t2", "t3"), start=1):
            self.venue.pair(board, {"round": 1, "table_no": n, "black": "Ann", "white": "Bo"})
            self.venue.status(board, "online")
            lines = [("GAME", "1", "rules=japanese", "size=9", "komi=6.5", "handicap=0", "boot=1", "pb=Ann", "pw=Bo"),
                     ("MOVE", "1", "B", "ee", "60000", "0"), ("MOVE", "2", "W", "cc", "59000", "0")]
            for seq, (kind, *fields) in enumerate(lines):
                self.venue.line(board, 1, seq, ph.encode(seq, kind, fields).decode().rstrip("\n"), seq - 1)
        self.venue.loggers = "online"  # (as its logger would say: the health report is all ok)
        self.venue.tick(time.time())

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.venue.archive.close()


def exchange(port: int, data: bytes, stall: bool = False) -> tuple[int | None, str]:
    """Send ``data`` raw (then close our side, unless ``stall``); the answer's status, or None
    and why there was none."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=ANSWER_S) as conn:
            conn.sendall(data)
            if not stall:
                conn.shutdown(socket.SHUT_WR)
            got = b""
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                got += chunk
                head, sep, body = got.partition(b"\r\n\r\n")
                if sep and len(body) >= _length(head):
                    break
    except TimeoutError:
        return None, "hung"
    except ConnectionResetError:
        return None, "reset"
    if not got.startswith(b"HTTP/1.") or len(got.split(b" ", 2)) < 3 or not got.split(b" ", 2)[1].isdigit():
        return None, "died" if not got else "not HTTP"
    return int(got.split(b" ", 2)[1]), ""


def _length(head: bytes) -> int:
    for row in head.split(b"\r\n"):
        name, _, value = row.partition(b":")
        if name.strip().lower() == b"content-length" and value.strip().isdigit():
            return int(value.strip())
    return 0


# -- the requests -------------------------------------------------------------------------

NUMBERS = ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", "1" + "0" * 4000, "-1", "0", "2.5", "1e-400",
           "9007199254740993", "true", "null", '"1"', '"x"', "[]", "{}", '"\\ud800"', '"\\u0000"']
TEXTS = ['"kim"', '""', '"%s"' % ("x" * 300), '"\\ud800"', '"\\udfff\\ud800"', '"B\\u0000"', '"\\n\\r"', "1", "1e400",
         "null", "[]", '{"a": 1}', "true", '"' + "é" * 70 + '"']
FIELDS = {
    "/login": ["user", "password"],
    "/logout": [],
    "/api/referee": ["board", "action", "colour", "value", "confirm"],
    "/api/round": ["round", "action", "confirm"],
    "/api/ack": ["board", "items"],
}
GOOD = {"user": '"kim"', "password": '"secret"', "board": '"t1"', "action": '"caution"', "colour": '"B"',
        "value": '"1"', "confirm": "false", "round": "1", "items": '["disconnected"]'}
PATHS = ["/", "/referee", "/board/t1", "/board/%ff%00", "/api/boards?view=live", "/api/boards?view=%00",
         "/api/board/t1", "/api/board/../../etc/passwd", "/games/t1.sgf", "/games/%2e%2e.sgf", "/round.zip",
         "/results.csv", "/health", "/api/actions", "/app.js", "/venue.css", "/nothing", "//", "/?" + "a=" * 500,
         "/api/board/" + "%e9" * 50, "/events?view=public"]


def body_for(rng: random.Random, path: str) -> bytes:
    """A JSON body for ``path`` with one field or more made wrong, or bytes that are no JSON."""
    roll = rng.random()
    if roll < 0.08:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    if roll < 0.16:
        depth = rng.choice([21, 50, 500, 2000])
        return (b"[" * depth + b"]" * depth) if rng.random() < 0.5 else (b'{"a":' * depth + b"1" + b"}" * depth)
    if roll < 0.22:
        return rng.choice([b"[1, 2]", b'"login"', b"1", b"null", b"", b"{", b'{"user": "kim",}', b"\xef\xbb\xbf{}"])
    fields = dict(GOOD)
    names = FIELDS.get(path) or list(GOOD)
    for name in rng.sample(names, k=min(len(names), rng.randint(1, 2))) if names else []:
        fields[name] = rng.choice(NUMBERS + TEXTS)
    return ("{" + ", ".join('"%s": %s' % (k, v) for k, v in fields.items() if k in names or rng.random() < 0.1)
            + "}").encode()


def post(path: str, body: bytes, headers: list[str], length: str | None = None) -> bytes:
    head = ["POST %s HTTP/1.1" % path, "Host: 127.0.0.1"] + headers
    if length is not None:
        head.append("Content-Length: " + length)
    return ("\r\n".join(head) + "\r\n\r\n").encode("utf-8") + body


def requests(rng: random.Random, count: int, session: list[str]) -> list[tuple[str, bytes, bool]]:
    """(kind, bytes, stall) for ``count`` requests."""
    out = []
    while len(out) < count:
        roll = rng.random()
        path = rng.choice(list(FIELDS) + ["/api/nothing", "/"])
        with_session = path != "/logout" and rng.random() < 0.7  # (a logout would end the fuzz's session)
        headers = ["Content-Type: application/json"] + (session if with_session else [])
        if roll < 0.45:  # a body with wrong fields, the length right
            body = body_for(rng, path)
            out.append(("body", post(path, body, headers, str(len(body))), False))
        elif roll < 0.60:  # a length that is not the body's
            body = body_for(rng, path)
            length = rng.choice(["abc", "-5", "", " ", "1.5", "0x10", "99999999999999999999", "5000", "٣",
                                 str(len(body) + rng.randint(1, 50)), "4097", "1e3", str(len(body)) + ", 3"])
            stall = length.isdigit() and 0 < len(body) < int(length) <= 4096 and rng.random() < 0.15
            out.append(("length", post(path, body, headers, length), stall))
        elif roll < 0.70:  # headers of every kind of wrong
            body = body_for(rng, path)
            extra = rng.choice([["Transfer-Encoding: chunked"], ["Content-Length: 1"], ["Content-Type: text/plain"],
                                ["Content-Type: application/json; charset=latin-1"], ["Origin: http://evil.example"],
                                ["Origin: null"], ["Referer: http://evil.example/x"], ["X-CSRF-Token: " + "x" * 5000],
                                ["Cookie: venue_session=" + "\xe9" * 100], ["X-A: b"] * 150, ["Host: " + "h" * 70000],
                                ["Bad header without colon"], [" continued: line"]])
            out.append(("header", post(path, body, [h for h in headers if not h.startswith("Content-Type")
                                                    or not extra[0].startswith("Content-Type")] + extra,
                                       str(len(body))), False))
        elif roll < 0.80:  # request lines
            line = rng.choice([b"GET", b"GET /", b"GET / HTTP/9.9", b"GET / HTTP/1.1 extra", b"BREW / HTTP/1.1",
                               b"DELETE /api/actions HTTP/1.1", b"PUT /login HTTP/1.1", b"\x00\xff / HTTP/1.1",
                               b"GET /" + b"a" * rng.choice([100, 65600]) + b" HTTP/1.1", b"", b"\r\n\r\n",
                               b"GET /\xff\xfe HTTP/1.1", b"HEAD / HTTP/1.1", b"OPTIONS * HTTP/1.1"])
            out.append(("request line", line + b"\r\nHost: x\r\n\r\n", False))
        else:  # GETs of every page with odd paths and views
            target = rng.choice(PATHS)
            extra = session if rng.random() < 0.5 else []
            data = ("GET %s HTTP/1.1\r\nHost: x\r\n%s\r\n" % (target, "".join(h + "\r\n" for h in extra))).encode(
                "latin-1", "replace")
            out.append(("get", data, False))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--workers", type=int, default=16)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        venue = VenueUnderTest(pathlib.Path(folder))
        try:
            return run(venue, args)
        finally:
            venue.stop()


def run(venue: VenueUnderTest, args) -> int:
    import logging

    logging.getLogger("host_tools.venue.web").setLevel(logging.ERROR)  # (thousands of refusals: failures only)
    cookie, csrf = login(venue.port)
    session = ["Cookie: " + cookie, "X-CSRF-Token: " + csrf]
    rng = random.Random(args.seed)
    batch = requests(rng, args.requests, session)
    before = threading.active_count()
    t0 = time.monotonic()
    statuses = collections.Counter()
    invalid = collections.Counter()
    slowest = 0.0

    def one(item):
        kind, data, stall = item
        started = time.monotonic()
        status, why = exchange(venue.port, data, stall)
        if status == 503 and data.split(b"\r\n", 1)[0].split(b" ")[1:2] == [b"/health"]:
            status = HEALTH_DOWN  # (this venue runs without a broker, and its health says so: an answer)
        return kind, status, why, time.monotonic() - started

    with ThreadPoolExecutor(args.workers) as pool:
        for kind, status, why, took in pool.map(one, batch):
            slowest = max(slowest, took)
            if status is None or status >= 500:
                invalid[(kind, why or str(status))] += 1
            else:
                statuses[status] += 1
    elapsed = time.monotonic() - t0
    deadline = time.monotonic() + 15  # (an event stream's handler notices its reader gone at its next keepalive)
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.05)  # (each handler thread ends with its connection)
    lingering = threading.active_count() - before
    after = serving(venue.port)
    tried = sum(statuses.values()) + sum(invalid.values())
    print("  HTTP fuzz: %d requests tried (seed %d, %d at once) in %.1f s, slowest answer %.2f s" % (
        tried, args.seed, args.workers, elapsed, slowest))
    print("    answers: " + ", ".join("%s x%d" % ("503 from /health" if s == HEALTH_DOWN else s, n)
                                      for s, n in sorted(statuses.items())))
    print("    not a valid answer (none, a dead or hung handler, a 5xx): %d%s" % (
        sum(invalid.values()), "".join(" [%s %s x%d]" % (k, w, n) for (k, w), n in invalid.items())))
    print("    handler threads alive after: %d (server thread %s); commands sent to boards: %d" % (
        max(lingering, 0), "alive" if venue.thread.is_alive() else "DEAD", len(venue.commands)))
    print("    after: %s" % ", ".join("%s %s" % item for item in after.items()))
    health = json.loads(http_get(venue.port, "/health")[1])["services"]["web"]
    print("    the venue's own count: %(answered)d answered, %(refused)d refused (4xx), %(failed)d failed (5xx)" % health)
    ok = (not invalid and lingering <= 0 and venue.thread.is_alive()
          and all(v == 200 or (path == "/health" and v == 503) for path, v in after.items()))
    return 0 if ok else 1


def http_get(port: int, path: str, headers: str = "") -> tuple[int | None, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=ANSWER_S) as conn:
        conn.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n%s\r\n" % (path, headers)).encode())
        got = b""
        while chunk := conn.recv(65536):
            got += chunk
    head, _, body = got.partition(b"\r\n\r\n")
    return (int(head.split()[1]) if head.startswith(b"HTTP/1.") else None), body


def login(port: int, waited: list | None = None) -> tuple[str, str]:
    """A referee's (cookie, CSRF token); a wait the login throttle asks for is waited out (and
    added to ``waited``)."""
    import http.client

    while True:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER_S)
        conn.request("POST", "/login", json.dumps({"user": "kim", "password": REFEREES["kim"]}),
                     {"Content-Type": "application/json"})
        answer = conn.getresponse()
        said = json.loads(answer.read())
        conn.close()
        if answer.status != 429:
            return answer.getheader("Set-Cookie").split(";")[0], said["csrf"]
        wait = float(answer.getheader("Retry-After"))
        if waited is not None:
            waited.append(wait)
        time.sleep(wait)


HEALTH_DOWN = 299  # counted apart: /health's 503, which says a service (here the broker) is down


def serving(port: int) -> dict[str, int | None]:
    """The pages after the fuzz: each page's status, and a referee's login."""
    out = {path: http_get(port, path)[0] for path in ("/", "/referee", "/board/t1", "/api/boards", "/health",
                                                      "/games/t1.sgf")}
    waited = []
    try:
        cookie, _csrf = login(port, waited)
        out["login"] = http_get(port, "/api/actions", "Cookie: %s\r\n" % cookie)[0]
    except (OSError, ValueError, KeyError, AttributeError):
        out["login"] = None
    if waited:
        out["login (after the throttle's wait of %d s)" % sum(waited)] = out.pop("login")
    return out


if __name__ == "__main__":
    sys.exit(main())
