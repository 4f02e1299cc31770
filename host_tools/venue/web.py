"""The venue's web pages and feeds (standard library HTTP server, Server-Sent Events).

    GET  /                      every board of the round at a glance (the public view, delayed)
    GET  /board/<id>            one board in full: the board, the moves back and forth, the clocks
    GET  /referee               the referee console (after a login): live, boards needing attention first
    GET  /events?view=          Server-Sent Events: a board's summary whenever it changes
    GET  /api/boards?view=      every board's summary (JSON)
    GET  /api/board/<id>?view=  one board with its moves (JSON)
    GET  /games/<id>.sgf        the board's current game as SGF, growing as it is played (poll it)
    GET  /round.zip             every game of the round, one SGF each
    GET  /results.csv           the results table
    GET  /api/actions           the audit: who did what, when (referees)
    POST /login                 {"user", "password"}: a referee's session (cookie)
    POST /logout
    POST /api/referee           {"board", "action": caution|warning|forfeit|points|result|pause|resume|undo,
                                 "colour"?: "B"|"W", "value"?: points or SGF RE}   (referees; audited)
    POST /api/round             {"round", "action": "start"}   (referees: each board gets its game's settings)

``view``: ``public`` (the default; ``--delay`` seconds behind) or ``live``, which
only a logged-in referee gets. Everything public is the delayed view: the SGF
feed too.
"""

from __future__ import annotations

import hmac
import json
import secrets
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from host_tools.venue import exports

STATIC = Path(__file__).with_name("web")
FILES = {"/": "index.html", "/referee": "referee.html", "/app.js": "app.js", "/venue.css": "venue.css"}
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
KEEPALIVE_S = 10.0
MAX_BODY = 4096
ACTIONS = {"caution": "referee caution {colour}", "warning": "referee warning {colour}",
           "forfeit": "referee forfeit {colour}", "points": "referee points {colour} {value}",
           "result": "end {value}", "pause": "clock pause", "resume": "clock resume", "undo": "referee undo"}


class Site:
    """What the pages need besides the venue: the referees' logins and the event."""

    def __init__(self, venue, referees: dict[str, str], event: dict, round_action=None):
        self.venue = venue
        self.referees = referees  # name -> password
        self.sessions: dict[str, str] = {}  # token -> name
        self.event = event
        # (round, "start" | "lock" | "unlock", who) -> the boards told; None without pairings
        self.round_action = round_action

    def login(self, user: str, password: str) -> str | None:
        expected = self.referees.get(user)
        if expected is None or not hmac.compare_digest(expected.encode(), password.encode()):
            return None
        token = secrets.token_urlsafe(24)
        self.sessions[token] = user
        return token


def referee_command(body: dict) -> str:
    """The host command for a referee's action; ValueError for one that makes no sense."""
    action = body.get("action")
    if action not in ACTIONS:
        raise ValueError("no action %r (one of %s)" % (action, ", ".join(ACTIONS)))
    colour = body.get("colour", "")
    value = str(body.get("value", ""))
    if "{colour}" in ACTIONS[action] and colour not in ("B", "W"):
        raise ValueError("say which player: colour B or W")
    if action == "points" and not value.isdigit():
        raise ValueError("points: a whole number")
    if action == "result" and not (value in ("0", "Void", "?") or value[:2] in ("B+", "W+")):
        raise ValueError("result: an SGF RE value (B+R, W+3.5, B+T, 0, Void)")
    return ACTIONS[action].format(colour=colour, value=value.replace(" ", "%20"))


def serve(site: Site, host: str = "127.0.0.1", port: int = 8080) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_args):
            pass

        def _user(self):
            for part in self.headers.get("Cookie", "").split(";"):
                key, _, value = part.strip().partition("=")
                if key == "venue_session" and value in site.sessions:
                    return site.sessions[value]
            return None

        def _view(self, query):
            want = query.get("view", ["public"])[0]
            return "live" if want == "live" and self._user() else "public"

        def _send(self, code, data, ctype="application/json", headers=()):
            if isinstance(data, (dict, list)):
                data = json.dumps(data)
            if isinstance(data, str):
                data = data.encode()
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            for key, value in headers:
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):  # noqa: N802
            url = urlparse(self.path)
            query = parse_qs(url.query)
            path = url.path
            venue = site.venue
            if path in FILES or path.startswith("/board/"):
                name = FILES.get(path, "board.html")
                file = STATIC / name
                return self._send(200, file.read_bytes(), TYPES[file.suffix])
            if path == "/events":
                return self._events(self._view(query))
            if path == "/api/boards":
                view = self._view(query)
                return self._send(200, {"view": view, "delay": venue.delay, "event": site.event,
                                        "referee": self._user(), "boards": venue.summaries(view)})
            if path.startswith("/api/board/"):
                board = venue.board(self._view(query), path[len("/api/board/"):])
                return self._send(200, board) if board else self._send(404, {"error": "no such board"})
            if path.startswith("/games/") and path.endswith(".sgf"):
                with venue.lock:
                    views = venue.live if self._view(query) == "live" else venue.public
                    view = views.get(path[len("/games/"):-4])
                    data = exports.game_sgf(view, site.event) if view else None
                if data is None:
                    return self._send(404, {"error": "no game on that board (yet)"})
                return self._send(200, data, "application/x-go-sgf")
            if path == "/round.zip":
                with venue.lock:
                    views = venue.live if self._view(query) == "live" else venue.public
                    data = exports.round_zip([views[b] for b in sorted(views)], site.event)
                return self._send(200, data, "application/zip",
                                  [("Content-Disposition", 'attachment; filename="round.zip"')])
            if path == "/results.csv":
                return self._send(200, exports.results_csv(venue.summaries(self._view(query))), "text/csv")
            if path == "/api/actions":
                if not self._user():
                    return self._send(403, {"error": "referees only: log in"})
                return self._send(200, venue.archive.actions())
            return self._send(404, {"error": "no such page"})

        def do_POST(self):  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                return self._send(413, {"ok": False, "error": "request too large"})
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
                if not isinstance(body, dict):
                    raise ValueError("expected a JSON object")
            except ValueError as error:
                return self._send(400, {"ok": False, "error": "not JSON: %s" % error})
            path = urlparse(self.path).path
            if path == "/login":
                token = site.login(str(body.get("user", "")), str(body.get("password", "")))
                if token is None:
                    return self._send(403, {"ok": False, "error": "wrong name or password"})
                site.venue.archive.act(str(body["user"]), "login")
                return self._send(200, {"ok": True}, headers=[
                    ("Set-Cookie", "venue_session=%s; HttpOnly; SameSite=Strict; Path=/" % token)])
            who = self._user()
            if path == "/logout":
                return self._send(200, {"ok": True}, headers=[("Set-Cookie", "venue_session=; Max-Age=0; Path=/")])
            if who is None:
                return self._send(403, {"ok": False, "error": "referees only: log in"})
            try:
                if path == "/api/referee":
                    board = str(body.get("board", ""))
                    if board not in site.venue.live:
                        raise ValueError("no board %r" % board)
                    site.venue.command(board, referee_command(body), who)
                    return self._send(200, {"ok": True})
                if path == "/api/round" and site.round_action is not None:
                    told = site.round_action(int(body.get("round", 0)), str(body.get("action", "start")), who)
                    return self._send(200, {"ok": True, "boards": told})
            except ValueError as error:
                return self._send(400, {"ok": False, "error": str(error)})
            return self._send(404, {"ok": False, "error": "no such action"})

        def _events(self, view):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            listener = site.venue.hub.listen(view)
            _view, queue, ready = listener
            try:
                for summary in site.venue.summaries(view):
                    self.wfile.write(b"data: " + json.dumps(summary).encode() + b"\n\n")
                self.wfile.flush()
                while True:
                    ready.wait(KEEPALIVE_S)
                    ready.clear()
                    chunk = []
                    while queue:
                        chunk.append(b"data: " + queue.popleft().encode() + b"\n\n")
                    self.wfile.write(b"".join(chunk) or b": keepalive\n\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError, OSError):
                pass
            finally:
                site.venue.hub.leave(listener)

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    return server


