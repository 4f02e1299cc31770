"""A venue on one machine for a demonstration: a broker, simulated boards and their logger.

``python -m host_tools.venue --demo-boards 24`` (``make venue ARGS="--demo-boards 24"``):
Mosquitto on a free port (unless ``--broker`` names one; host_tools/venue/broker.py), N
simulated boards (host_tools/sim: the firmware on simulated hardware, each on its own
pty, played by simulated hands from the professional games in examples/pro at the
script's pace times ``--demo-speed``), registered with the venue's key as at the desk,
one real logger process for all of them publishing to the broker (each board as itself,
with the password it tells its logger), and a pairing of round 1 from the games' players.
"""

from __future__ import annotations

import pathlib
import random
import subprocess
import sys
import threading
import time
import zlib

import serial

from firmware.rules.game import COUNTING, Game
from firmware.settings import Settings
from host_tools import sgf
from host_tools.sim.headless import Simulation
from host_tools.sim.physical import script_lines
from host_tools.sim.pty_link import PtyLink
from host_tools.sim.script import parse
from host_tools.venue.keys import register

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAMES = ROOT / "examples" / "pro"
TIME = "byoyomi 20m 3x30s"


def legal_prefix(moves: list) -> list:
    """The record's moves up to its first one the rules refuse (old records have some)."""
    game = Game(19, "japanese", strict_turns=False)
    for n, (colour, pt) in enumerate(moves):
        try:
            if game.phase == COUNTING:
                game.resume(3 - colour)
            game.play(colour, pt)
        except ValueError:
            return moves[:n]
    return moves


class DemoBoard:
    """One simulated board at a table, playing one professional game by hands."""

    def __init__(self, table: int, path: pathlib.Path, speed: float, start_s: float):
        record = sgf.read(path.read_bytes())
        self.table = table
        self.board_id = "table%02d" % table
        self.black, self.white = record.root.get("PB", "Black"), record.root.get("PW", "White")
        self.ranks = record.root.get("BR", ""), record.root.get("WR", "")
        moves = legal_prefix(record.moves)
        lines, _expected = script_lines(19, moves, seed=zlib.crc32(path.name.encode()), clock=True)
        self.events, _errors = parse(lines, 19)
        self.speed = speed
        self.start_s = start_s
        self.link = PtyLink(random.Random(table))
        players = {"pb": self.black, "pw": self.white}
        self.sim = Simulation(Settings(19, "japanese", time_spec=TIME, players=players), transport=self.link,
                              board_id=self.board_id, boot=1)
        self.next = 0

    def step(self, elapsed_s: float) -> None:
        """Play what is due after ``elapsed_s`` seconds of the demo."""
        now_ms = max(0, int((elapsed_s - self.start_s) * 1000 * self.speed))
        sim = self.sim
        while self.next < len(self.events) and self.events[self.next].t_ms <= now_ms:
            event = self.events[self.next]
            sim.advance(event.t_ms)
            sim.apply(event)
            self.next += 1
        if now_ms > sim.now:
            sim.advance(now_ms)
        sim.app.sync_host(sim.now)


class DemoBoards:
    """N boards playing in one thread; ``start_logger`` then starts one logger process for them all."""

    def __init__(self, n: int, speed: float = 1.0, venue_key: bytes | None = None):
        """``venue_key``: register each board with it first (over its cable, as a director
        would at the desk), so their results come signed and their loggers may speak for them."""
        paths = sorted(GAMES.glob("*.sgf"))
        self.boards = [DemoBoard(i + 1, paths[i % len(paths)], speed, start_s=i * 0.5) for i in range(n)]
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="demo-boards", daemon=True)
        self.t0 = time.monotonic()
        self.thread.start()
        if venue_key is not None:
            for board in self.boards:
                with serial.Serial(board.link.path, timeout=0.1) as port:
                    register(port, venue_key)
        self.logger: subprocess.Popen | None = None

    def start_logger(self, broker: str, out: pathlib.Path, login_file: str, ca: str | None = None) -> None:
        """The boards' logger, publishing to ``broker`` (its own login in ``login_file``; TLS
        checked against ``ca``), its files in ``out``."""
        out = out.resolve()  # (the logger runs in the project's folder)
        out.mkdir(parents=True, exist_ok=True)
        extra = ["--mqtt-ca", str(pathlib.Path(ca).resolve())] if ca else []
        self.logger = subprocess.Popen(
            [sys.executable, "-m", "host_tools.logger", *(b.link.path for b in self.boards), "--out", str(out),
             "--quiet", "--mqtt", broker, "--mqtt-login", str(pathlib.Path(login_file).resolve()), "--name", "demo",
             *extra], cwd=ROOT, stderr=open(out / "logger-stderr.txt", "ab"))  # noqa: SIM115

    def pairings_csv(self) -> str:
        rows = ["round,table,board,black,black_rank,white,white_rank,rules,komi,time"]
        for b in self.boards:
            rows.append('1,%d,%s,"%s",%s,"%s",%s,japanese,6.5,%s' % (b.table, b.board_id, b.black, b.ranks[0],
                                                                   b.white, b.ranks[1], TIME))
        return "\n".join(rows) + "\n"

    def _run(self):
        while not self._stop.is_set():
            elapsed = time.monotonic() - self.t0
            for board in self.boards:
                board.step(elapsed)
            time.sleep(0.02)

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(5)
        if self.logger is not None:
            self.logger.terminate()
            try:
                self.logger.wait(5)
            except subprocess.TimeoutExpired:
                self.logger.kill()
        for board in self.boards:
            board.link.close()
