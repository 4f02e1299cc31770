"""The venue at scale: 200 simulated boards, their loggers, Mosquitto and the venue service, at
tournament pace and at ten times that pace (docs/venue.md; part of ``make bench``).

    .venv/bin/python bench/venue_scale.py [--boards 200] [--seconds 90] [--fast-seconds 60] [--loggers 4]

Each board's serial output is made first, offline: the firmware on simulated hardware
(host_tools/sim) playing a professional game from examples/pro by simulated hands. Then
every board's lines are written on its own pty at the chosen pace, to real logger
processes publishing to a real Mosquitto, to which the real venue service subscribes. The
replay answers the loggers as the firmware's link does (a ``hello`` with a HELLO line at
its next number, ``resend N`` with its lines from N), so no board looks silent.

Measured: the time from a board writing a MOVE line to the live page's event stream
(``/events?view=live``, a referee's) showing that move; the messages per second through the
broker; each process's CPU; the archive's size per game. Exits 1 if more than 1% of the
moves written never reached the page.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import heapq
import http.client
import json
import math
import multiprocessing
import os
import pathlib
import selectors
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from typing import NamedTuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from firmware import protocol as pr  # noqa: E402
from firmware.settings import Settings  # noqa: E402
from host_tools import sgf  # noqa: E402
from host_tools.records import board_key  # noqa: E402
from host_tools.sim.headless import Simulation  # noqa: E402
from host_tools.sim.physical import script_lines  # noqa: E402
from host_tools.sim.pty_link import PtyLink  # noqa: E402
from host_tools.sim.script import parse  # noqa: E402
from host_tools.venue.broker import Access, Broker, board_password, free_port, listening, mosquitto_path  # noqa: E402
from host_tools.venue.demo import GAMES, TIME, legal_prefix  # noqa: E402

TOURNAMENT_MOVE_S = 30.0  # a board's average time per move at tournament pace
STAGGER_S = 30.0  # the boards start evenly over this long (at most half the first window)
DRAIN_S = 10.0  # after the last window, how long the page gets to show the last moves
TARGET_P99_S = 1.0  # stone to live page, 99th percentile, at tournament pace
MISSING_MAX = 0.01  # more moves than this never shown: the bench fails
REFEREE = ("bench", "bench")  # the live view is a referee's
VENUE_KEY = bytes(range(32))  # the boards are registered with it: their loggers speak for them on the broker


def board_name(index: int) -> str:
    return "table%03d" % (index + 1)


# -- the boards' streams, made offline ------------------------------------------------------

class Stream(NamedTuple):
    """A board's game as it wrote it: its lines with the simulated time of each, and for each MOVE
    line how long after the stone came to rest the board wrote it (the board's own part)."""

    index: int
    black: str
    white: str
    lines: list[tuple[int, bytes]]
    settle_ms: list[int]


class Capture:
    """A board's serial link that keeps every line written, with the simulated time it was written."""

    def __init__(self):
        self.sim: Simulation | None = None
        self.placed = 0  # when the last stone came to rest (sim ms)
        self.lines: list[tuple[int, bytes]] = []
        self.settle_ms: list[int] = []
        self._partial = b""

    def read_into(self, _buf) -> int:
        return 0  # nobody talks to this board

    def write(self, data) -> int:
        *lines, self._partial = (self._partial + bytes(data)).split(b"\n")
        for line in lines:
            self.lines.append((self.sim.now, line))
            if line.split(b" ", 2)[1] == b"MOVE":
                self.settle_ms.append(self.sim.now - self.placed)
        return len(data)


def board_stream(task: tuple[int, pathlib.Path]) -> Stream:
    """Board ``index`` plays the game at ``path`` to its end, as fast as it can."""
    index, path = task
    record = sgf.read(path.read_bytes())
    players = {"pb": record.root.get("PB", "Black"), "pw": record.root.get("PW", "White")}
    seed = zlib.crc32(path.name.encode()) + index  # boards playing the same game move at their own times
    script, _expected = script_lines(19, legal_prefix(record.moves), seed=seed, clock=True)
    events, _errors = parse(script, 19)
    capture = Capture()
    sim = Simulation(Settings(19, "japanese", time_spec=TIME, players=players), transport=capture,
                     board_id=board_name(index), boot=1)
    capture.sim = sim
    sim.app.command("key", [board_key(VENUE_KEY, board_name(index)).hex()], 0)  # registered at the desk
    for event in events:
        sim.advance(event.t_ms)
        sim.apply(event)
        if event.action == "place":
            capture.placed = event.t_ms
    sim.advance(sim.now + 2000)
    while not sim.app.link.idle():
        sim.app.sync_host(sim.now)
    return Stream(index, players["pb"], players["pw"], capture.lines, capture.settle_ms)


def make_streams(n: int) -> list[Stream]:
    """Every board's stream, simulated on every core; progress on stderr."""
    paths = sorted(GAMES.glob("*.sgf"))
    out: list = [None] * n
    t0 = time.monotonic()
    with multiprocessing.Pool(os.cpu_count()) as pool:
        tasks = [(i, paths[i % len(paths)]) for i in range(n)]
        for done, stream in enumerate(pool.imap_unordered(board_stream, tasks), start=1):
            out[stream.index] = stream
            sys.stderr.write("\r  simulating the boards' games: %d/%d (%.0f s)" % (done, n, time.monotonic() - t0))
    sys.stderr.write("\n")
    return out


def pairings_csv(streams: list[Stream]) -> str:
    rows = ["round,table,board,black,white"]
    rows += ['1,%d,%s,"%s","%s"' % (s.index + 1, board_name(s.index), s.black, s.white) for s in streams]
    return "\n".join(rows) + "\n"


# -- the boards, live on their ptys -----------------------------------------------------------

class ReplayBoard:
    """One board's stream written on its pty at a pace. Lines are numbered as written: the
    firmware's link answers a ``hello`` with a HELLO line at its next number (a board that
    stays silent is reported offline by its logger), and ``resend N`` with its lines from N."""

    def __init__(self, name: str, lines: list[tuple[int, bytes]]):
        self.name = name
        self.lines = lines
        self.link = PtyLink()
        self.moves = sum(1 for _ms, raw in lines if raw.split(b" ", 2)[1] == b"MOVE")
        self.tournament_rate = lines[-1][0] / max(1, self.moves) / TOURNAMENT_MOVE_S  # sim ms per wall second
        self.next = 0  # the stream's next line
        self.sent: list[bytes] = []  # every line written, by number
        self.heard = False  # its logger has the port open (it said something)
        self._commands = b""
        self._anchor = (0.0, 0.0)  # (wall s, sim ms) the pace counts from
        self._rate = 0.0  # sim ms per wall second; 0: paused

    def pace(self, now: float, speed: float, delay: float = 0.0) -> None:
        """From ``now + delay``, play at ``speed`` times tournament pace (0: pause)."""
        wall, sim = self._anchor
        self._anchor = (now + delay, sim + max(0.0, now - wall) * self._rate)
        self._rate = speed * self.tournament_rate

    def due(self) -> float | None:
        """When the stream's next line is due (wall s); None when paused or done."""
        if self._rate <= 0 or self.next >= len(self.lines):
            return None
        wall, sim = self._anchor
        return wall + max(0.0, self.lines[self.next][0] - sim) / self._rate

    def write_next(self) -> int | None:
        """Write the stream's next line; its move number if it is a MOVE."""
        raw = self.lines[self.next][1]
        self.next += 1
        self._send(raw)
        parts = raw.split(b" ", 3)
        return int(parts[2]) if parts[1] == b"MOVE" else None

    def answer(self, counts: collections.Counter) -> None:
        """Read what the logger wrote and answer it as the board would (once powered up)."""
        buf = bytearray(4096)
        n = self.link.read_into(buf)
        if not n:
            return
        self.heard = True
        *lines, self._commands = (self._commands + bytes(buf[:n])).split(b"\n")
        if not self.sent:
            return  # not powered up yet
        for line in lines:
            name, args = pr.parse_command(line)
            counts["commands"] += 1
            if name == "hello":
                self._send(self.lines[0][1])
            elif name == "mqtt":  # (its HELLO says sign=1: registered, it tells its broker password)
                self._reply(b"OK mqtt " + board_password(VENUE_KEY, self.name).encode())
            elif name == "resend":
                counts["resends"] += 1
                for old in self.sent[int(args[0]):]:
                    self.link.write(old)

    def _send(self, raw: bytes) -> None:
        """A stream line under the next number (its CRC made again)."""
        self._reply(raw[:-len(b" *00000000")].split(b" ", 1)[1])

    def _reply(self, text: bytes) -> None:
        """A line (kind and fields) under the next number."""
        body = b"%d %s" % (len(self.sent), text)
        line = body + b" *" + pr.crc_hex(body) + b"\n"
        self.sent.append(line)
        self.link.write(line)  # (what a full pty cannot take is lost: the logger asks again)


class Feeder(threading.Thread):
    """Writes every board's lines when due at the pace set, answers the loggers, and notes
    when each MOVE line was written."""

    def __init__(self, boards: list[ReplayBoard]):
        super().__init__(name="feeder", daemon=True)
        self.boards = boards
        self.lock = threading.Lock()
        self.counts: collections.Counter = collections.Counter()
        self.written: dict[tuple[str, int], tuple[float, str]] = {}  # (board, move) -> (wall s, window)
        self.window = ""
        self._heap: list[tuple[float, int]] = []
        self._quit = threading.Event()
        self._selector = selectors.DefaultSelector()
        for board in boards:
            self._selector.register(board.link.master, selectors.EVENT_READ, board)

    def pace(self, window: str, speed: float, stagger_s: float = 0.0) -> None:
        """Every board at ``speed`` times tournament pace from now, starting over ``stagger_s``."""
        with self.lock:
            now = time.monotonic()
            self.window = window
            for i, board in enumerate(self.boards):
                board.pace(now, speed, stagger_s * i / len(self.boards))
            self._heap = [(due, i) for i, board in enumerate(self.boards) if (due := board.due()) is not None]
            heapq.heapify(self._heap)

    def heard(self) -> int:
        return sum(board.heard for board in self.boards)

    def snapshot(self) -> collections.Counter:
        with self.lock:
            return collections.Counter(self.counts)

    def run(self) -> None:
        while not self._quit.is_set():
            with self.lock:
                self._write_due(time.monotonic())
                wait = self._heap[0][0] - time.monotonic() if self._heap else 0.05
            for key, _events in self._selector.select(min(max(wait, 0.0), 0.05)):
                with self.lock:
                    key.data.answer(self.counts)

    def _write_due(self, now: float) -> None:
        heap = self._heap
        while heap and heap[0][0] <= now:
            _due, i = heapq.heappop(heap)
            board = self.boards[i]
            move = board.write_next()
            self.counts["lines"] += 1
            if move is not None:
                self.counts["moves"] += 1
                self.written.setdefault((board.name, move), (time.monotonic(), self.window))
            due = board.due()
            if due is not None:
                heapq.heappush(heap, (due, i))

    def stop(self) -> None:
        self._quit.set()
        if self.is_alive():
            self.join(2)


# -- what the venue shows, what the broker carries --------------------------------------------

def login(port: int) -> str:
    """A referee's session cookie (the live view is theirs); checks the venue gives that view."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/login", json.dumps({"user": REFEREE[0], "password": REFEREE[1]}),
                 {"Content-Type": "application/json"})
    response = conn.getresponse()
    response.read()
    cookie = (response.getheader("Set-Cookie") or "").split(";")[0]
    conn.request("GET", "/api/boards?view=live", headers={"Cookie": cookie})
    view = json.loads(conn.getresponse().read()).get("view")
    conn.close()
    if view != "live":
        raise RuntimeError("the venue gave the %s view to the bench's referee, not the live one" % view)
    return cookie


class LivePage(threading.Thread):
    """The live page's event stream: when each board's move number first showed each move."""

    def __init__(self, port: int):
        super().__init__(name="live-page", daemon=True)
        self.arrived: dict[tuple[str, int], float] = {}  # (board, move) -> wall s
        self.shown: dict[str, int] = {}  # board -> moves shown
        conn = http.client.HTTPConnection("127.0.0.1", port)
        conn.request("GET", "/events?view=live", headers={"Cookie": login(port)})
        self.sock = conn.sock  # (the response takes it over from the connection)
        self.response = conn.getresponse()

    def run(self) -> None:
        with contextlib.suppress(OSError, ValueError, http.client.HTTPException):  # (closed at the end)
            for line in self.response:
                now = time.monotonic()
                if line.startswith(b"data: "):
                    self._summary(json.loads(line[6:]), now)

    def _summary(self, summary: dict, now: float) -> None:
        board, moves = summary["board"], summary.get("moves", 0)
        for move in range(self.shown.get(board, 0) + 1, moves + 1):
            self.arrived[(board, move)] = now
        self.shown[board] = max(moves, self.shown.get(board, 0))

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


class BrokerTap:
    """Every message on the loggers' and the venue's topics, counted by kind (line, move, state,
    status, resync...), and when each MOVE line passed the broker."""

    def __init__(self, address: str, login: tuple[str, str]):
        host, _, port = address.rpartition(":")
        self.counts: collections.Counter = collections.Counter()
        self.passed: dict[tuple[str, int], float] = {}  # (board, move) -> wall s
        self.lock = threading.Lock()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="venue-bench-tap")
        self.client.username_pw_set(*login)  # (the venue's: nobody else may hear every board)
        self.client.on_connect = lambda client, *_: client.subscribe("goboard/#", 0)
        self.client.on_message = self._message
        self.client.connect(host, int(port))
        self.client.loop_start()

    def _message(self, _client, _userdata, msg) -> None:
        now = time.monotonic()
        _root, board, what = msg.topic.split("/", 2)
        with self.lock:
            self.counts[what] += 1
        if what == "line":
            parts = json.loads(msg.payload)["raw"].split(" ", 3)
            if parts[1] == "MOVE":
                self.passed.setdefault((board, int(parts[2])), now)

    def snapshot(self) -> collections.Counter:
        with self.lock:
            return collections.Counter(self.counts)

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


# -- the real pieces, as subprocesses ---------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (/proc/<pid>/stat)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Processes:
    """Mosquitto, the venue service and the loggers, their files in ``folder``."""

    def __init__(self, folder: pathlib.Path, boards: list[str]):
        self.folder = folder
        (folder / "venue.key").write_text(VENUE_KEY.hex() + "\n")
        self.access = Access(str(folder / "broker"), VENUE_KEY, str(folder))  # (logins beside the key)
        self.access.write(boards)
        self.broker = Broker(self.access, folder=str(folder / "broker"))
        self.venue: subprocess.Popen | None = None
        self.loggers: list[subprocess.Popen] = []
        self.db = folder / "venue.db"
        self.port = free_port()

    def _spawn(self, name: str, *args: str) -> subprocess.Popen:
        """``python -m`` in the run's folder (whatever it makes by default lands there, not in the repository)."""
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        with open(self.folder / (name + ".log"), "wb") as log:
            return subprocess.Popen([sys.executable, "-m", *args], cwd=self.folder, env=env, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)  # (Ctrl-C: the bench stops them)

    def start_venue(self, pairings: str) -> None:
        (self.folder / "pairings.csv").write_text(pairings)
        self.venue = self._spawn("venue", "host_tools.venue", "--broker", self.broker.address,
                                 "--db", "sqlite:///%s" % self.db, "--port", str(self.port),
                                 "--referee", "%s:%s" % REFEREE, "--pairings", str(self.folder / "pairings.csv"),
                                 "--event", "Venue scale bench", "--key-file", str(self.folder / "venue.key"))
        deadline = time.monotonic() + 30
        while not listening(self.port):
            if self.venue.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the venue did not start:\n" + self.log_tail("venue"))
            time.sleep(0.1)

    def start_loggers(self, groups: list[list[str]]) -> None:
        for k, paths in enumerate(groups, start=1):
            self.loggers.append(self._spawn("logger%d" % k, "host_tools.logger", *paths, "--out",
                                            str(self.folder / ("logger%d" % k)), "--quiet",
                                            "--mqtt", self.broker.address, "--mqtt-login", self.access.logger_file,
                                            "--name", "logger%d" % k))

    def log_tail(self, name: str) -> str:
        return (self.folder / (name + ".log")).read_text(errors="replace")[-3000:]

    def pids(self) -> dict[str, int]:
        found = {"venue": self.venue.pid, "broker": self.broker.proc.pid, "bench": os.getpid()}
        found.update(("logger%d" % k, proc.pid) for k, proc in enumerate(self.loggers, start=1))
        return found

    def cpu(self) -> dict[str, float]:
        return {name: cpu_seconds(pid) for name, pid in self.pids().items()}

    def stop(self) -> None:
        """Loggers first (Ctrl-C: they say offline), then the venue (SIGTERM: it closes the archive), the broker."""
        for proc in self.loggers:
            proc.send_signal(signal.SIGINT)
        for proc in self.loggers:
            _wait(proc)
        if self.venue is not None:
            self.venue.terminate()
            _wait(self.venue)
        self.loggers, self.venue = [], None
        self.broker.stop()


def _wait(proc: subprocess.Popen) -> None:
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# -- the run ------------------------------------------------------------------------------------

def parse_args(argv=None):
    ap = argparse.ArgumentParser(prog="bench/venue_scale.py", description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=200, help="boards (default: %(default)s)")
    ap.add_argument("--seconds", type=float, default=90.0, help="time at tournament pace, a move every %g s a "
                    "board (default: %%(default)s)" % TOURNAMENT_MOVE_S)
    ap.add_argument("--fast-seconds", type=float, help="time at 10x pace (default: 2/3 of --seconds)")
    ap.add_argument("--loggers", type=int, default=4, help="logger processes, the boards shared out (default: "
                    "%(default)s)")
    ap.add_argument("--keep", action="store_true", help="keep the run's folder (logs, archive, loggers' files)")
    args = ap.parse_args(argv)
    if args.fast_seconds is None:
        args.fast_seconds = args.seconds * 2 / 3
    return args


def wait_with_progress(label: str, seconds: float, feeder: Feeder, page: LivePage) -> None:
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        sys.stderr.write("\r  %s: %3.0f s left, %d moves written, %d shown   " % (
            label, left, len(feeder.written), len(page.arrived)))
        time.sleep(min(1.0, left))
    sys.stderr.write("\n")


def wait_for_ports(feeder: Feeder, procs: Processes) -> None:
    """Until every logger has its ports open (what a pty is sent before its logger opens it is lost)."""
    deadline = time.monotonic() + 30
    while feeder.heard() < len(feeder.boards):
        if time.monotonic() > deadline:
            raise RuntimeError("the loggers opened %d of %d ports:\n%s" % (
                feeder.heard(), len(feeder.boards), procs.log_tail("logger1")))
        time.sleep(0.1)


def run(args, folder: pathlib.Path, stack: contextlib.ExitStack) -> dict:
    """Everything up, the windows played, everything down: the figures."""
    streams = make_streams(args.boards)
    boards = [ReplayBoard(board_name(stream.index), stream.lines) for stream in streams]
    for board in boards:
        stack.callback(board.link.close)
    procs = Processes(folder, [board.name for board in boards])
    stack.callback(procs.stop)
    procs.start_venue(pairings_csv(streams))
    tap = BrokerTap(procs.broker.address, procs.access.venue)
    stack.callback(tap.stop)
    page = LivePage(procs.port)
    stack.callback(page.close)
    page.start()
    feeder = Feeder(boards)
    stack.callback(feeder.stop)
    feeder.start()
    per = math.ceil(len(boards) / args.loggers)
    groups = [[board.link.path for board in boards[i:i + per]] for i in range(0, len(boards), per)]
    procs.start_loggers(groups)
    wait_for_ports(feeder, procs)

    def mark():
        return {"t": time.monotonic(), "cpu": procs.cpu(), "feeder": feeder.snapshot(), "mqtt": tap.snapshot()}

    windows = [("tournament pace", 1.0, args.seconds), ("10x pace", 10.0, args.fast_seconds)]
    marks = [mark()]
    for i, (name, speed, seconds) in enumerate(windows):
        feeder.pace(name, speed, min(STAGGER_S, seconds / 2) if i == 0 else 0.0)
        wait_with_progress(name, seconds, feeder, page)
        marks.append(mark())
    feeder.pace("drain", 0.0)
    deadline = time.monotonic() + DRAIN_S  # (the moves written last get their time to show)
    while time.monotonic() < deadline and not set(feeder.written) <= set(page.arrived):
        time.sleep(0.2)
    procs.stop()
    return {"windows": [(name, marks[i], marks[i + 1]) for i, (name, _speed, _seconds) in enumerate(windows)],
            "written": dict(feeder.written), "arrived": dict(page.arrived), "passed": dict(tap.passed),
            "db": archive_figures(procs.db), "boards": len(boards), "loggers": len(groups),
            "game_moves": sum(board.moves for board in boards) / len(boards),
            "settle_ms": [ms for stream in streams for ms in stream.settle_ms]}


def archive_figures(db: pathlib.Path) -> dict:
    """The archive's size (its file and WAL), games, moves and lines, the venue stopped; and the
    size of the same archive with no lines and no games (what a move costs is the difference)."""
    wal = pathlib.Path(str(db) + "-wal")
    with contextlib.closing(sqlite3.connect(db)) as conn:
        games, moves = conn.execute("SELECT count(*), coalesce(sum(moves), 0) FROM games").fetchone()
        lines = conn.execute("SELECT count(*) FROM lines").fetchone()[0]
    empty = db.with_name("empty.db")
    shutil.copy(db, empty)
    with contextlib.closing(sqlite3.connect(empty)) as conn:
        conn.execute("DELETE FROM lines")
        conn.execute("DELETE FROM games")
        conn.commit()
        conn.execute("VACUUM")
    return {"bytes": db.stat().st_size, "wal": wal.stat().st_size if wal.exists() else 0, "games": games,
            "moves": moves, "lines": lines, "empty": empty.stat().st_size}


# -- the figures --------------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    """Nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))] if ordered else math.nan


def stages(results: dict, window: str) -> dict:
    """A window's moves: written, missing (never shown), and the delays (s) board -> page,
    board -> broker (the logger's part), broker -> page (the venue's)."""
    written = {key: t for key, (t, w) in results["written"].items() if w == window}
    arrived, passed = results["arrived"], results["passed"]
    return {"written": written, "missing": sorted(key for key in written if key not in arrived),
            "page": [arrived[key] - t for key, t in written.items() if key in arrived],
            "logger": [passed[key] - t for key, t in written.items() if key in passed],
            "venue": [arrived[key] - passed[key] for key in written if key in arrived and key in passed]}


def column(results: dict, window: str, before: dict, after: dict) -> list[str]:
    """One window's figures, in the order of ROWS."""
    s = stages(results, window)
    span = after["t"] - before["t"]

    def rate(what, key):
        return "%.1f" % ((after[what][key] - before[what][key]) / span)

    def ms(values, q):
        return "%.0f ms" % (1000 * percentile(values, q))

    def cpu(names):
        used = sum(after["cpu"][n] - before["cpu"][n] for n in names)
        return "%.1f s (%.0f%%)" % (used, 100 * used / span)

    loggers = [n for n in after["cpu"] if n.startswith("logger")]
    total = sum(after["mqtt"].values()) - sum(before["mqtt"].values())
    return ["%.0f s" % span, "%d / %d" % (len(s["written"]), len(s["written"]) - len(s["missing"])),
            ms(s["page"], 0.5), ms(s["page"], 0.9), ms(s["page"], 0.99), ms(s["page"], 1.0),
            "%s / %s" % (ms(s["logger"], 0.5), ms(s["logger"], 0.99)),
            "%s / %s" % (ms(s["venue"], 0.5), ms(s["venue"], 0.99)),
            rate("feeder", "lines"), rate("feeder", "moves"), rate("mqtt", "line"), "%.1f" % (total / span),
            "%s (%d resends)" % (rate("feeder", "commands"), after["feeder"]["resends"] - before["feeder"]["resends"]), cpu(["venue"]), cpu(loggers), cpu(["broker"]), cpu(["bench"])]


ROWS = ["window", "moves written / shown on the live page", "stone -> live page: median", "  p90", "  p99",
        "  max", "  board -> broker (logger): median / p99", "  broker -> page (venue): median / p99",
        "lines written by the boards / s", "moves / s", "MQTT line messages / s (the venue's feed)",
        "MQTT messages / s (all goboard/#)", "loggers' commands to the boards / s", "CPU: venue service",
        "CPU: loggers (all)", "CPU: Mosquitto", "CPU: this bench (boards, page, tap)"]


def report(results: dict) -> bool:
    """Print the table; False if more than MISSING_MAX of a window's moves never reached the page."""
    names = [name for name, _before, _after in results["windows"]]
    columns = [column(results, *window) for window in results["windows"]]
    print("\nThe venue at scale: %d boards, %d loggers, Mosquitto, the venue service (SQLite); "
          "a move every %g s a board at tournament pace" % (results["boards"], results["loggers"], TOURNAMENT_MOVE_S))
    print("  %-44s" % "" + "".join("%-22s" % name for name in names))
    for n, label in enumerate(ROWS):
        print("  %-44s" % label + "".join("%-22s" % col[n] for col in columns))
    ok = True
    for name in names:
        s = stages(results, name)
        if s["missing"]:
            print("  %s: %d moves never shown: %s" % (name, len(s["missing"]), " ".join(
                "%s#%d" % key for key in s["missing"][:20]) + (" ..." if len(s["missing"]) > 20 else "")))
        ok = ok and len(s["missing"]) <= MISSING_MAX * len(s["written"])
    settle = results["settle_ms"]
    print("  before that, on the board: stone at rest -> its MOVE line written (firmware, simulated time): "
          "median %.0f ms, p99 %.0f ms" % (percentile(settle, 0.5), percentile(settle, 0.99)))
    p99 = percentile(stages(results, names[0])["page"], 0.99)
    print("  stone -> live page p99 at tournament pace: %.0f ms, target <= %.0f ms: %s" % (
        1000 * p99, 1000 * TARGET_P99_S, "met" if p99 <= TARGET_P99_S else "NOT MET"))
    db = results["db"]
    size = db["bytes"] + db["wal"]
    per_move = (size - db["empty"]) / max(1, db["moves"])
    print("  archive: %.0f KB (WAL %.0f KB; %.0f KB without its lines and games) for %d games, %d moves, %d lines:"
          % (size / 1024, db["wal"] / 1024, db["empty"] / 1024, db["games"], db["moves"], db["lines"]))
    print("    %.1f KB a game as far as played, %.0f B a move: a whole game (%.0f moves on average) ~ %.0f KB" % (
        size / 1024 / max(1, db["games"]), per_move, results["game_moves"], per_move * results["game_moves"] / 1024))
    return ok


def main(argv=None) -> int:
    args = parse_args(argv)
    if mosquitto_path() is None:
        print("venue scale bench skipped: no Mosquitto (Debian: apt-get install mosquitto; make venue installs it)")
        return 0
    folder = pathlib.Path(tempfile.mkdtemp(prefix="venue-bench-"))
    try:
        with contextlib.ExitStack() as stack:
            results = run(args, folder, stack)
        return 0 if report(results) else 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    finally:
        if args.keep:
            print("  the run's folder (logs, archive, loggers' files): %s" % folder)
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
