"""A classroom on the venue's stack: the teacher's page for a class of boards.

    python -m host_tools.teach classroom --mqtt HOST:PORT --mqtt-login venue/mqtt-venue.login \
        --key venue/venue.key [--port 8090]

The boards are a tournament's: each on a logger (``python -m host_tools.logger
PORT... --mqtt``), which publishes every line the board says
(``<root>/<board>/line``) and carries the commands published for it
(``<root>/<board>/command``) to the board. The classroom hears the lines with
the venue's login, and for each board it is a ``Board`` (host_tools/play/board.py)
over ``MqttPort``, a pyserial-like port whose bytes are the board's lines and
whose writes are commands (signed with the venue's key, as the venue signs its
referees': boards registered at its desk take no other): the problem sessions (solving.py) and the lessons
(lessons.py) run on the class's boards as they do on one at a cable.

The page (``Site``): the boards that are online, and for each the task pushed
to it (a problem set or a lesson), the step it is on, right or wrong, done,
and stuck: no stone moved for ``stuck_s`` seconds, or the board asking for
stones to be lifted or put back (its ALERT ``waiting=``: captured stones left
on the board are the common case). A push sends one task to every board at
once; one board can be shown large for the class (its position as the board
told it).
"""

from __future__ import annotations

import json
import queue
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware import protocol as pr
from host_tools.board.protocol import decode
from host_tools.play.board import Board, BoardError
from host_tools.play.connect import RealTime
from host_tools.records import board_key
from host_tools.venue.keys import clock_counter, signed_command

from .lessons import LESSONS, Teaching
from .problem import load_problems
from .solving import Progress, Solving

STUCK_S = 60.0  # no stone moved this long while a task runs: stuck
HERE = Path(__file__).resolve().parent


class MqttPort:
    """One board's lines and commands on the broker as a pyserial-like port (``in_waiting``,
    ``read``, ``write``): what ``Board`` reads is the lines the board's logger published, in
    the board's order (``PublishedLines``)."""

    def __init__(self, board_id: str, publish):
        self.board_id = board_id
        self._publish = publish
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._buffer = b""

    def hear(self, raw: str) -> None:
        """(The MQTT thread.) A line the board said."""
        self._lines.put(raw.encode("ascii", "replace") + b"\n")

    @property
    def in_waiting(self) -> int:
        while not self._lines.empty():
            self._buffer += self._lines.get_nowait()
        return len(self._buffer)

    def read(self, n: int) -> bytes:
        data, self._buffer = self._buffer[:n], self._buffer[n:]
        return data

    def write(self, data: bytes) -> int:
        body, ok = pr.check_crc(data.rstrip(b"\n"))
        self._publish(self.board_id, body.decode("ascii") if ok else data.decode("ascii").strip())
        return len(data)


class PublishedLines:
    """``Board``'s sync for a board on MQTT: its logger took the lines in order (asking the board for
    any it lost), so each line is the game's as it comes."""

    synced = True

    def __init__(self, owner):
        self.owner = owner
        self.board_id = owner.port.board_id
        self._rest = b""

    def connect(self, now: float) -> None:
        pass

    def step(self, now: float) -> None:
        pass

    def feed(self, data: bytes, now: float) -> None:
        *lines, self._rest = (self._rest + data).split(b"\n")
        for raw in lines:
            line = decode(raw)
            if line is not None:
                self.owner.accept(*line)


class Seat:
    """A board of the class, as the page shows it."""

    def __init__(self, board_id: str, port: MqttPort):
        self.board_id = board_id
        self.port = port
        self.board: Board | None = None
        self.task = ""  # what was pushed to it
        self.step = ""  # where its student is
        self.verdict = ""  # the last right or wrong
        self.said = ""  # the last words of its session
        self.waiting = ""  # what the board asks the players to fix (its ALERT), for how long
        self.moved_at = time.monotonic()  # when a stone last moved (a MOVE or UNDO line)
        self.done = False
        self.error = ""
        self.thread: threading.Thread | None = None

    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def summary(self, now: float, stuck_s: float) -> dict:
        stuck = self.running() and (bool(self.waiting) or now - self.moved_at > stuck_s)
        state = ("error" if self.error else "done" if self.done else "stuck" if stuck else
                 self.verdict if self.verdict else "working" if self.running() else "idle")
        game = self.board.game if self.board is not None else None
        return {"board": self.board_id, "task": self.task, "step": self.step, "state": state,
                "said": self.error or self.said, "waiting": self.waiting,
                "idle_s": round(now - self.moved_at), "position": _position(game)}


def _position(game) -> dict | None:
    """The board's position as it told it: size and rows of . X O (None before its first game)."""
    if game is None:
        return None
    try:
        replay = game.replayed()  # (kept between the page's polls, played on move by move)
    except (ValueError, IndexError):
        return None
    size, cells = replay.size, replay.pos.cells
    rows = ["".join(".XO"[cells[(r + 1) * (size + 2) + c + 1]] for c in range(size)) for r in range(size)]
    return {"size": size, "rows": rows}


class Classroom:
    """The class's boards on the broker and the tasks running on them; see the module doc."""

    def __init__(self, hostport: str, login: tuple[str, str] | None, root: str = "goboard",
                 stuck_s: float = STUCK_S, progress_dir: Path | None = None, key: bytes | None = None):
        self.root = root
        self.key = key  # the venue's: boards registered to it take its signed commands only
        self.stuck_s = stuck_s
        self.progress_dir = progress_dir
        self.seats: dict[str, Seat] = {}
        self.lock = threading.Lock()
        host, _, port = hostport.rpartition(":")
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        if login is not None:
            self.client.username_pw_set(*login)
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        try:
            self.client.connect(host or "127.0.0.1", int(port or 1883), keepalive=10)
        except OSError as error:
            raise ValueError(f"no broker at {hostport}: {error.strerror or error}") from None
        self.client.loop_start()

    def _connected(self, client, _userdata, _flags, reason, _properties):
        if not reason.is_failure:
            client.subscribe([(f"{self.root}/+/line", 1), (f"{self.root}/+/status", 1)])

    def _message(self, _client, _userdata, msg):
        # (paho's thread) a board's line, or its status: online boards have a seat.
        try:
            _root, board, what = msg.topic.split("/")
            if board == "logger":
                return
            seat = self._seat(board)
            if what == "line":
                raw = json.loads(msg.payload)["raw"]
                if seat.running():  # (a board with no task: its lines are not kept, only looked at)
                    seat.port.hear(raw)
                self._note(seat, raw)
        except (ValueError, KeyError, TypeError):
            return  # (not a board's line: nothing of the class's)

    def _seat(self, board: str) -> Seat:
        with self.lock:
            seat = self.seats.get(board)
            if seat is None:
                seat = self.seats[board] = Seat(board, MqttPort(board, self._command))
            return seat

    def _note(self, seat: Seat, raw: str) -> None:
        line = decode(raw.encode("ascii", "replace"))
        if line is None:
            return
        _seq, kind, fields = line
        if kind in ("MOVE", "UNDO", "GAME"):
            seat.moved_at = time.monotonic()
        elif kind == "ALERT":
            told = pr.fields_dict(fields)
            waiting = int(told.get("waiting", "0") or 0)
            seat.waiting = f"{pr.unquote(told.get('what', ''))} ({waiting} s)" if waiting else ""

    def _command(self, board: str, text: str) -> None:
        if self.key is not None:  # (as the venue signs its referees' commands: service.py)
            text = signed_command(board_key(self.key, board), text, clock_counter())
        self.client.publish(f"{self.root}/{board}/command", json.dumps({"text": text, "by": "classroom"}), qos=1)

    def push(self, kind: str, value: str) -> int:
        """Start ``kind`` (``problems``: a folder or "course"; ``lesson``: its number) on every board
        not running a task; the number of boards it started on."""
        if kind == "lesson" and not (value.isdigit() and 1 <= int(value) <= len(LESSONS)):
            raise ValueError(f"no lesson {value}")
        problems = load_problems([] if value in ("", "course") else [Path(value)]) if kind == "problems" else None
        if kind not in ("problems", "lesson"):
            raise ValueError("a push is problems or a lesson")
        started = 0
        with self.lock:
            seats = list(self.seats.values())
        for seat in seats:
            if seat.running():
                continue
            seat.task = f"lesson {value}: {LESSONS[int(value) - 1].title}" if kind == "lesson" else "problems"
            seat.done, seat.error, seat.verdict, seat.step = False, "", "", ""
            seat.moved_at = time.monotonic()
            seat.thread = threading.Thread(target=self._run, args=(seat, kind, value, problems), daemon=True)
            seat.thread.start()
            started += 1
        return started

    def _run(self, seat: Seat, kind: str, value: str, problems) -> None:
        def say(words: str) -> None:
            seat.said = words
            if words.startswith(("right", "wrong")):
                seat.verdict = words.split(":")[0]
            elif words.startswith(("problem ", "step ")):
                seat.verdict = ""
                seat.step = words.split(":")[0]
        try:
            if seat.board is None:
                seat.board = Board(seat.port, RealTime(), PublishedLines)
            if kind == "lesson":
                Teaching(seat.board, say).run(int(value))
            else:
                folder = self.progress_dir
                progress = Progress(None if folder is None else folder / f"progress-{seat.board_id}.json")
                Solving(seat.board, problems, progress, say).run()
            seat.done = True
        except (BoardError, ValueError, OSError) as error:
            seat.error = str(error)

    def state(self) -> dict:
        now = time.monotonic()
        with self.lock:
            seats = sorted(self.seats.values(), key=lambda s: s.board_id)
        return {"boards": [seat.summary(now, self.stuck_s) for seat in seats],
                "lessons": [lesson.title for lesson in LESSONS]}

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def serve(classroom: Classroom, host: str = "127.0.0.1", port: int = 8090) -> ThreadingHTTPServer:
    """The teacher's page on ``host:port``, served in a thread of its own (``shutdown()`` stops it)."""
    page = (HERE / "classroom.html").read_bytes()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args):
            pass

        def _send(self, code, data, ctype="application/json"):
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):  # noqa: N802
            if self.path == "/":
                self._send(200, page, "text/html; charset=utf-8")
            elif self.path == "/state":
                self._send(200, json.dumps(classroom.state()).encode())
            else:
                self._send(404, b'{"error": "no such page"}')

        def do_POST(self):  # noqa: N802
            if self.path != "/push":
                self._send(404, b'{"error": "no such action"}')
                return
            try:
                body = json.loads(self.rfile.read(min(int(self.headers.get("Content-Length", 0)), 4096)))
                started = classroom.push(str(body.get("kind", "")), str(body.get("value", "")))
            except (ValueError, AttributeError) as error:
                self._send(400, json.dumps({"error": str(error)}).encode())
                return
            self._send(200, json.dumps({"started": started}).encode())

    server = ThreadingHTTPServer((host, port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
