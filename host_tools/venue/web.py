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
    GET  /health                each service's state (JSON; 503 when one is down: host_tools/venue/health.py)
    GET  /api/actions           the audit: who did what, when (referees)
    POST /login                 {"user", "password"}: a referee's session (cookie) and its CSRF token
    POST /logout                the session forgotten
    POST /api/referee           {"board", "action": caution|warning|forfeit|points|result|pause|resume|undo,
                                 "colour"?: "B"|"W", "value"?: points or SGF RE, "confirm"?: true}
    POST /api/round             {"round", "action": start|lock|unlock, "confirm"?: true}
    POST /api/ack               {"board", "items": [the attention items seen]}: cleared (host_tools/venue/console.py)

``view``: ``public`` (the default; ``--delay`` seconds behind) or ``live``, which
only a logged-in referee gets (an event stream asked for live without a session is
refused, never silently delayed). Everything public is the delayed view: the SGF feed too.

Every POST but ``/login`` needs a referee's session, and every POST: JSON
(``Content-Type: application/json``), an ``Origin`` (or ``Referer``) of this site when the
browser sends one, and with a session its CSRF token in ``X-CSRF-Token``
(host_tools/venue/logins.py). An action that cannot be undone (``IRREVERSIBLE``) is carried
out only with ``"confirm": true``; without, the answer (409) says what it would do, for the
console to ask. A malformed request is answered 4xx with the reason (http_input.py), a
failure 500, and the server goes on; each is logged.
"""

from __future__ import annotations

import hmac
import json
import logging
import re
import select
import socket
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from host_tools.venue import exports
from host_tools.venue.console import Console
from host_tools.venue.health import Health
from host_tools.venue.http_input import BODY_S, BadRequest, flag, json_object, read_body, strings, text, whole
from host_tools.venue.logins import MAX_S, Logins, Refused

STATIC = Path(__file__).with_name("web")
FILES = {"/": "index.html", "/referee": "referee.html", "/app.js": "app.js", "/venue.css": "venue.css"}
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
KEEPALIVE_S = 10.0
IDLE_S = 30.0  # a connection silent this long (between requests, inside headers) is closed
COOKIE = "venue_session"
ACTIONS = {"caution": "referee caution {colour}", "warning": "referee warning {colour}",
           "forfeit": "referee forfeit {colour}", "points": "referee points {colour} {value}",
           "result": "end {value}", "pause": "clock pause", "resume": "clock resume", "undo": "referee undo"}
RESULT = re.compile(r"0|Void|\?|[BW]\+([RTF]|\d{1,3}(\.\d)?)?")  # SGF RE
PLAYER = {"B": "Black", "W": "White"}
IRREVERSIBLE = {  # what the console asks a referee to confirm, and how it says it
    "forfeit": "Forfeit: {player} loses the game on board {board}. It ends the game and cannot be undone.",
    "result": "End the game on board {board} with the result {value}. It cannot be undone.",
    "undo": "Take back the last move on board {board}.",
    "unlock": "Unlock round {round}: its boards then take commands from anyone on the venue's network.",
}
log = logging.getLogger("host_tools.venue.web")


class _Confirm(BadRequest):
    """An irreversible action asked for without ``confirm``: 409, with what to confirm."""

    def __init__(self, said: str):
        super().__init__("confirm: " + said, 409)
        self.said = said


class Site:
    """What the pages need besides the venue: the referees' logins, the console, the health, the event."""

    def __init__(self, venue, referees: dict[str, str], event: dict, round_action=None, locked=None,
                 clock=time.monotonic, body_s: float = BODY_S):
        """``round_action(round, "start" | "lock" | "unlock", who)``: the boards told (None: no
        pairings); ``locked(round)``: whether the venue locked it."""
        self.venue = venue
        self.event = event
        self.round_action = round_action
        self.logins = Logins(referees, lambda who, what, detail: venue.archive.act(who, what, "", detail), clock)
        self.console = Console(venue, locked)
        self.health = Health(venue)
        self.body_s = body_s


def referee_command(body: dict) -> str:
    """The host command for a referee's action; ValueError for one that makes no sense."""
    action = body.get("action")
    if not isinstance(action, str) or action not in ACTIONS:
        raise BadRequest("no action %r (one of %s)" % (str(action)[:20], ", ".join(ACTIONS)))
    colour = body.get("colour", "")
    value = body.get("value", "")
    if "{colour}" in ACTIONS[action] and colour not in ("B", "W"):
        raise BadRequest("say which player: colour B or W")
    if action == "points":
        value = str(whole(body, "value", 1, 999))
    elif "{value}" in ACTIONS[action]:
        value = text(body, "value", "", 32)
    if action == "result" and not RESULT.fullmatch(value):
        raise BadRequest("result: an SGF RE value (B+R, W+3.5, B+T, B+F, 0, Void)")
    return ACTIONS[action].format(colour=colour, value=str(value).replace(" ", "%20"))


def serve(site: Site, host: str = "127.0.0.1", port: int = 8080, idle_s: float = IDLE_S) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = idle_s

        def log_message(self, *_args):
            pass

        # -- answers ------------------------------------------------------------------

        def send_response(self, code, message=None):
            site.health.count(code)
            super().send_response(code, message)

        def parse_request(self):
            if not self.raw_requestline.strip():  # (the base closes on a blank line without a word)
                self.command, self.path, self.requestline, self.request_version = None, "", "", "HTTP/1.0"
                self.send_error(400, "empty request line")
                return False
            if not super().parse_request():
                return False
            if self.request_version == "HTTP/0.9":
                self.send_error(400, "HTTP/1.0 or 1.1 only")
                return False
            return True

        def send_error(self, code, message=None, explain=None):
            """The server's own refusals (a bad request line, an unknown method...) as JSON."""
            if self.request_version == "HTTP/0.9":
                self.request_version = "HTTP/1.0"  # (an answer with its status line all the same)
            if code == 501:  # (an unsupported method)
                code, message = 405, "method %s not allowed: GET or POST" % (self.command or "")[:20]
            elif code == 505:  # (a client's fault like any other)
                code, message = 400, "%s: HTTP/1.0 or 1.1 only" % (message or "HTTP version")
            message = message or self.responses.get(code, ("bad request",))[0]
            log.warning("refused %d from %s: %s", code, self.client_address[0], message)
            self.close_connection = True
            self._send(code, {"ok": False, "error": message[:200]},
                       headers=[("Connection", "close")])

        def _send(self, code, data, ctype="application/json", headers=()):
            if isinstance(data, (dict, list)):
                data = json.dumps(data)
            if isinstance(data, str):
                data = data.encode()
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("X-Frame-Options", "DENY")
            for key, value in headers:
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def _refuse(self, error: BadRequest | Refused, status: int, **extra):
            log.warning("refused %d from %s: %s %s: %s", status, self.client_address[0], self.command,
                        self.path[:80], error)
            headers = [("Retry-After", "%d" % (error.retry_after + 0.999))] if isinstance(error, Refused) else []
            if status >= 400 and self.command == "POST":
                self.close_connection = True  # (what is left of the request is not read)
                headers.append(("Connection", "close"))
            return self._send(status, {"ok": False, "error": str(error)[:200], **extra}, headers=headers)

        def _guarded(self, handle):
            try:
                handle()
            except _Confirm as error:
                self._refuse(error, 409, confirm=error.said)
            except BadRequest as error:
                self._refuse(error, error.status)
            except Refused as error:
                self._refuse(error, error.status)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True
            except Exception as error:  # noqa: BLE001 - a request must never go unanswered, nor stop the server
                log.exception("failed: %s %s", self.command, self.path[:80])
                self.close_connection = True
                try:
                    self._send(500, {"ok": False, "error": "internal error: %s" % str(error)[:160]},
                               headers=[("Connection", "close")])
                except OSError:
                    pass

        # -- who asks ----------------------------------------------------------------

        def _token(self) -> str:
            for part in self.headers.get("Cookie", "").split(";"):
                key, _, value = part.strip().partition("=")
                if key == COOKIE and value:
                    return value
            return ""

        def _session(self):
            token = self._token()
            return token, (site.logins.session(token) if token else None)

        def _user(self):
            session = self._session()[1]
            return session.user if session else None

        def _view(self, query):
            want = query.get("view", ["public"])[0]
            return "live" if want == "live" and self._user() else "public"

        def _same_origin(self) -> None:
            """A browser's request from another site is refused (its Origin, else its Referer, says)."""
            host = self.headers.get("Host", "")
            origin = self.headers.get("Origin")
            said = origin if origin is not None else self.headers.get("Referer")
            if said is None:
                return  # (not a browser: a script; a session still needs its CSRF token)
            url = urlparse(said)
            if url.scheme not in ("http", "https") or not host or url.netloc != host:
                raise BadRequest("cross-site request refused (from %s)" % said[:60], 403)

        # -- GET -----------------------------------------------------------------------

        def do_GET(self):  # noqa: N802
            self._guarded(self._get)

        def _get(self):
            url = urlparse(self.path)
            query = parse_qs(url.query)
            path = url.path
            venue = site.venue
            if path in FILES or path.startswith("/board/"):
                name = FILES.get(path, "board.html")
                file = STATIC / name
                return self._send(200, file.read_bytes(), TYPES[file.suffix])
            if path == "/health":
                report = site.health.report()
                return self._send(200 if report["ok"] else 503, report)
            if path == "/events":
                return self._events(query.get("view", ["public"])[0])
            if path == "/api/boards":
                view = self._view(query)
                token, session = self._session()
                boards = venue.summaries(view)
                if view == "live":
                    boards = [site.console.view(s) for s in boards]
                return self._send(200, {"view": view, "delay": venue.delay, "event": site.event,
                                        "referee": session.user if session else None,
                                        "csrf": session.csrf if session else None, "boards": boards})
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

        # -- POST ----------------------------------------------------------------------

        def do_POST(self):  # noqa: N802
            self._guarded(self._post)

        def _post(self):
            path = urlparse(self.path).path
            if path not in ("/login", "/logout", "/api/referee", "/api/round", "/api/ack"):
                raise BadRequest("no such action: %s" % path[:60], 404)
            self._same_origin()
            body = json_object(self, read_body(self, seconds=site.body_s))
            if path == "/login":
                token, session = site.logins.login(text(body, "user", max_len=64), text(body, "password"),
                                                   self.client_address[0])
                return self._send(200, {"ok": True, "user": session.user, "csrf": session.csrf}, headers=[
                    ("Set-Cookie", "%s=%s; HttpOnly; SameSite=Strict; Path=/; Max-Age=%d" % (COOKIE, token, MAX_S))])
            token, session = self._session()
            if session is None:
                raise BadRequest("referees only: log in", 403)
            if not _same_token(self.headers.get("X-CSRF-Token", ""), session.csrf):
                raise BadRequest("CSRF token missing or wrong: reload the console", 403)
            who = session.user
            if path == "/logout":
                site.logins.logout(token)
                return self._send(200, {"ok": True}, headers=[
                    ("Set-Cookie", "%s=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0" % COOKIE)])
            board = text(body, "board", "", max_len=64)
            if path in ("/api/ack", "/api/referee") and board not in site.venue.live:
                raise BadRequest("no board %r" % board)
            if path == "/api/ack":
                return self._send(200, {"ok": True, "cleared": site.console.acknowledge(board, strings(body, "items"),
                                                                                       who)})
            if path == "/api/referee":
                command = referee_command(body)
                self._confirmed(body, body.get("action"), board=board, player=PLAYER.get(body.get("colour"), ""),
                                value=command.split()[-1])
                try:
                    site.venue.command(board, command, who)
                except ValueError as error:
                    raise BadRequest(str(error)) from None
                return self._send(200, {"ok": True})
            if site.round_action is None:
                raise BadRequest("no pairings: no rounds to act on", 404)
            round_no = whole(body, "round", 1, 999)
            action = text(body, "action", "start", 16)
            if action not in ("start", "lock", "unlock"):
                raise BadRequest("round: start, lock or unlock, not %r" % action)
            self._confirmed(body, action, round=round_no)
            try:
                told = site.round_action(round_no, action, who)
            except ValueError as error:
                raise BadRequest(str(error)) from None
            if action != "start":
                site.console.round_changed(round_no, action == "lock")
            return self._send(200, {"ok": True, "boards": told})

        def _confirmed(self, body, action, **words):
            """An action that cannot be undone goes ahead with ``"confirm": true`` only."""
            if action in IRREVERSIBLE and not flag(body, "confirm"):
                said = IRREVERSIBLE[action].format(**words)
                raise _Confirm(said)

        # -- the feed ------------------------------------------------------------------

        def _events(self, want):
            token, session = self._session()
            if want == "live" and session is None:
                raise BadRequest("the live view is the referees': log in", 403)
            view = "live" if want == "live" else "public"
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            listener = site.venue.hub.listen(view)
            _view, queue, ready = listener

            def encode(summary: dict) -> bytes:
                return b"data: " + json.dumps(site.console.view(summary) if view == "live" else summary).encode()

            try:
                for summary in site.venue.summaries(view):
                    self.wfile.write(encode(summary) + b"\n\n")
                self.wfile.flush()
                while view == "public" or site.logins.alive(token):  # (a referee's ends with the session)
                    ready.wait(KEEPALIVE_S)
                    ready.clear()
                    if _gone(self.connection):
                        break
                    chunk = []
                    while queue:
                        data = queue.popleft()
                        chunk.append((encode(json.loads(data)) if view == "live" else b"data: " + data.encode())
                                     + b"\n\n")
                    self.wfile.write(b"".join(chunk) or b": keepalive\n\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError, OSError):
                pass
            finally:
                self.close_connection = True
                site.venue.hub.leave(listener)

    server = Server((host, port), Handler)
    site.console.watch()
    return server


class Server(ThreadingHTTPServer):
    daemon_threads = True  # open event streams never hold up a stop
    request_queue_size = 128  # a burst of connections waits, it is not reset


def _gone(connection) -> bool:
    """Whether the reader of an event stream closed its side (it sends nothing once it asked)."""
    try:
        readable, _w, _x = select.select([connection], [], [], 0)
        return bool(readable) and not connection.recv(1, socket.MSG_PEEK)
    except OSError:
        return True


def _same_token(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode(), expected.encode())
