"""The simulator's web page: a small HTTP server on 127.0.0.1 (standard library only).

    GET  /                 the page (web/index.html, app.js, style.css)
    GET  /state            the board as JSON (live.py LiveBoard.state)
    GET  /events           Server-Sent Events: the state again whenever it changes
    GET  /options          rule sets, time-control presets, modes (for the forms)
    POST /api/point        {"p": physical point 0..360, "colour": 0|1|2}   place or lift
    POST /api/liberties    {"p": 0..360}   light the liberties of the chain on that point (show hint)
    POST /api/teach        {"what": "problems"|"lesson", "lesson"?: 1.., "void"?: true}  the course or a lesson
    POST /api/button       {"name": "black"|"white"|"pause"|"menu"}       a finger on a button
    POST /api/control      {"name": "pass"|"undo"|"resign_black"|...}     a referee control
    POST /api/mode         {"mode": "casual"|"teaching"|"tournament", "by"?: "agreed"|"referee"}  (during a game)
    POST /api/diag         {"on": true|false}   the sensor check (diagnostics mode)
    POST /api/power        {"on": true|false}   unplug the board, or plug it in again (it recovers its game)
    POST /api/new          {"rules", "size", "handicap", "time", "komi"?, "void"?: true (end a game in progress),
                            "captures"?: 1|3|5 (capture Go: the first to capture that many stones wins),
                            "opponent"?: "person"|"gnugo", "colour"?: "B"|"W" (the person's), "level"?: 0..10}

Answers to POSTs are {"ok": true} or {"ok": false, "error": "..."}: status
400 with the reason for a request that cannot be read or names a value no game
can have, 404 for no such action; every request is answered, whatever it holds.
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from firmware.modes import NAMES as MODE_NAMES
from firmware.rules.catalog import ALL
from host_tools.board.clock_spec import presets
from host_tools.teach.lessons import LESSONS

STATIC = Path(__file__).with_name("web")
FILES = {"/": ("index.html", "text/html; charset=utf-8"),
         "/app.js": ("app.js", "text/javascript; charset=utf-8"),
         "/style.css": ("style.css", "text/css; charset=utf-8")}
KEEPALIVE_S = 10.0
MAX_BODY = 4096
SIZES = (5, 7, 9, 13, 19)  # the new-game form's board sizes
CAPTURE_GOALS = (0, 1, 3, 5)  # capture Go: the first to capture this many stones wins (0: a game of Go)


class BadRequest(ValueError):
    pass


def _no_constant(name):
    raise BadRequest("%s is not a number a board takes" % name)


def _body(data):
    """The request's JSON object; BadRequest for anything else (NaN and Infinity too)."""
    try:
        body = json.loads(data or b"{}", parse_constant=_no_constant)
    except RecursionError:
        raise BadRequest("JSON nested too deeply") from None
    except UnicodeDecodeError:
        raise BadRequest("not UTF-8") from None
    except json.JSONDecodeError as e:
        raise BadRequest("not JSON: %s" % e) from None
    if not isinstance(body, dict):
        raise BadRequest("expected a JSON object")
    return body


def _field(body, name, kind, choices=None):
    value = body.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise BadRequest("%s: expected %s" % (name, kind.__name__))
    if choices is not None and value not in choices:
        raise BadRequest("%s: expected one of %s" % (name, ", ".join(map(str, choices))))
    return value


def make_handler(live, extra_state=None, engine=None, teach=None):
    """A request handler class serving ``live`` (a LiveBoard). ``extra_state()``
    adds fields to the state (the simulator's SGF path, the logger's status);
    ``engine(fields, colour, level, void)`` starts a game against GNU Go (None: none here);
    ``teach(what, lesson, void)`` starts the course's problems or a lesson on the board (None: none here)."""

    def state():
        data = live.state()
        if extra_state is not None:
            data.update(extra_state())
        return data

    def act(path, body):
        if path == "/api/point":
            p = _field(body, "p", int)
            if not 0 <= p < 361:
                raise BadRequest("p: expected 0..360")
            live.toggle(p, _field(body, "colour", int, (0, 1, 2)) if "colour" in body else 0)
            return None
        if path == "/api/teach":
            if teach is None:
                raise BadRequest("teach: no teaching here")
            what = _field(body, "what", str, ("problems", "lesson"))
            lesson = _field(body, "lesson", int, tuple(range(1, len(LESSONS) + 1))) if what == "lesson" else 0
            return teach(what, lesson, _field(body, "void", bool) if "void" in body else False)
        if path == "/api/liberties":  # (teaching: the chain on the point, its liberties lit)
            p = _field(body, "p", int)
            if not 0 <= p < 361:
                raise BadRequest("p: expected 0..360")
            live.liberties(p)
            return None
        if path == "/api/button":
            live.press(_field(body, "name", str, ("black", "white", "pause", "menu")))
            return None
        if path == "/api/control":
            name = _field(body, "name", str, ("pass", "undo", "resign_black", "resign_white", "ok", "resume"))
            return live.control(name)
        if path == "/api/mode":
            by = _field(body, "by", str, ("", "agreed", "referee")) if "by" in body else ""
            return live.set_mode(_field(body, "mode", str, MODE_NAMES), by)
        if path == "/api/diag":
            return live.command("diag", ["on" if _field(body, "on", bool) else "off"])
        if path == "/api/power":
            live.power(_field(body, "on", bool))
            return None
        if path == "/api/new":
            komi = body.get("komi")
            if komi is not None and (not isinstance(komi, (int, float)) or isinstance(komi, bool)
                                     or not -1000 <= komi <= 1000):
                raise BadRequest("komi: expected a number from -1000 to 1000")
            fields = {"rules": _field(body, "rules", str, [r.name for r in ALL]),
                      "size": _field(body, "size", int, SIZES), "handicap": _field(body, "handicap", int),
                      "time": _field(body, "time", str) or "none", "komi": komi}
            void = _field(body, "void", bool) if "void" in body else False
            captures = _field(body, "captures", int, CAPTURE_GOALS) if "captures" in body else 0
            if body.get("opponent", "person") != "person":
                _field(body, "opponent", str, ("gnugo",) if engine is not None else ())
                if captures:
                    raise BadRequest("captures: GNU Go does not play capture Go (a person does)")
                live.checked(fields["rules"], fields["size"], fields["handicap"], fields["time"], komi)
                return engine(fields, _field(body, "colour", str, ("B", "W")),
                              _field(body, "level", int, tuple(range(11))), void)
            return live.new_game(fields["rules"], fields["size"], fields["handicap"], fields["time"], komi, void,
                                 captures)
        raise LookupError(path)

    class Handler(BaseHTTPRequestHandler):
        server_version = "SmartGoBoardSim"

        def log_message(self, format, *args):  # noqa: A002 - the base class's name
            pass  # the terminal shows the board's log, not every request

        def _send(self, status, body, content_type):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, data, status=200):
            self._send(status, json.dumps(data).encode(), "application/json")

        def do_GET(self):  # noqa: N802 - http.server's naming
            path = self.path.split("?", 1)[0]
            if path in FILES:
                name, content_type = FILES[path]
                self._send(200, (STATIC / name).read_bytes(), content_type)
            elif path == "/state":
                self._json(state())
            elif path == "/options":
                self._json({"rules": [r.name for r in ALL], "presets": presets(), "modes": list(MODE_NAMES),
                            "sizes": list(SIZES), "captures": list(CAPTURE_GOALS), "engine": engine is not None,
                            "lessons": [lesson.title for lesson in LESSONS] if teach is not None else []})
            elif path == "/events":
                self._events()
            else:
                self._send(404, b"not found\n", "text/plain")

        def _events(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            version = None
            try:
                while not self.server.stopping:
                    if version != live.version:
                        data = state()
                        version = data["version"]
                        self.wfile.write(b"data: " + json.dumps(data).encode() + b"\n\n")
                    else:
                        self.wfile.write(b": keepalive\n\n")
                    self.wfile.flush()
                    live.wait_change(version, KEEPALIVE_S)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the page was closed

        def do_POST(self):  # noqa: N802
            path = self.path.split("?", 1)[0]
            try:
                try:
                    length = int(self.headers.get("Content-Length") or 0)
                except ValueError:
                    raise BadRequest("Content-Length: expected a number") from None
                if not 0 <= length <= MAX_BODY:
                    raise BadRequest("request body: expected 0 to %d bytes" % MAX_BODY)
                error = act(path, _body(self.rfile.read(length)))
            except LookupError:
                self._json({"ok": False, "error": "no such action: " + path[:80]}, 404)
            except (BadRequest, ValueError, OverflowError) as e:
                self._json({"ok": False, "error": str(e)[:200]}, 400)
            except Exception as e:  # noqa: BLE001 - a request must never go unanswered
                self._json({"ok": False, "error": "internal error: %s" % str(e)[:160]}, 500)
                raise
            else:
                self._json({"ok": error is None, "error": error})

    return Handler


class Server(ThreadingHTTPServer):
    daemon_threads = True  # open event streams never hold up Ctrl-C
    request_queue_size = 128  # a burst of connections (pages opening, a script) waits, not reset
    stopping = False


def serve(live, host="127.0.0.1", port=8019, extra_state=None, tries=10, engine=None, teach=None):
    """A started-up server (call serve_forever). Port 0 picks a free port; a busy
    port moves on to the next ``tries - 1`` ones. ``engine``, ``teach``: make_handler's."""
    handler = make_handler(live, extra_state, engine, teach)
    tries = tries if port else 1
    for n in range(tries):
        try:
            return Server((host, port + n if port else 0), handler)
        except OSError as error:
            last = error
    ports = "%d" % port if tries == 1 else "%d-%d" % (port, port + tries - 1)
    raise OSError("cannot listen on %s:%s: %s" % (host, ports, last.strerror or last))
