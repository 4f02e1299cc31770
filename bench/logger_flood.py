"""One logger, one flooding port: what a move costs the logger, and what the other ports wait (make bench).

    .venv/bin/python bench/logger_flood.py [--game examples/pro/117_Toyota_04_E19.sgf] [--rounds 3]

A board's whole game (every line the firmware wrote, simulated: host_tools/sim) arrives on one
port of an in-process logger (host_tools.logger's own classes) at once, as a board that was
unplugged or a logger that was down leaves it; one MOVE line arrives on a second port at the
same moment. Measured: how long the logger takes to record the flooded game (SGF on disk),
how long the second port's line waits, and, the game fed a line at a time instead, what a move
costs the logger early in the game and late in it (a cost that grows with the game's length
grows without bound in a long one).
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware.settings import Settings  # noqa: E402
from host_tools import sgf  # noqa: E402
from host_tools.logger.cli import Logger  # noqa: E402
from host_tools.logger.connection import BoardConnection  # noqa: E402
from host_tools.sim.headless import Simulation  # noqa: E402
from host_tools.sim.physical import script_lines  # noqa: E402
from host_tools.sim.script import parse  # noqa: E402
from host_tools.venue.demo import legal_prefix  # noqa: E402

GAME = ROOT / "examples" / "pro" / "117_Toyota_04_E19.sgf"
READ_MAX = 4096  # what one read of a pty gives at most
STEADY_S = 0.005  # fed a line at a time: one a logger step (5 ms: host_tools/logger/cli.py's loop)


class Capture:
    """A board's serial link that keeps every line it writes."""

    def __init__(self):
        self.lines: list[bytes] = []
        self._partial = b""

    def read_into(self, _buf) -> int:
        return 0

    def write(self, data) -> int:
        *lines, self._partial = (self._partial + bytes(data)).split(b"\n")
        self.lines += [line + b"\n" for line in lines]
        return len(data)


def board_lines(path: pathlib.Path, board_id: str) -> list[bytes]:
    """Every line a board writes playing the game at ``path`` to its last move."""
    moves = legal_prefix(sgf.read(path.read_bytes()).moves)
    script, _expected = script_lines(19, moves, seed=7)
    events, _errors = parse(script, 19)
    capture = Capture()
    sim = Simulation(Settings(19, "japanese"), transport=capture, board_id=board_id, boot=1)
    for event in events:
        sim.advance(event.t_ms)
        sim.apply(event)
    sim.advance(sim.now + 2000)
    while not sim.app.link.idle():
        sim.app.sync_host(sim.now)
    return capture.lines


class Port:
    """A port as pyserial: what the board wrote waits in ``pending``; a read takes at most READ_MAX."""

    def __init__(self):
        self.pending = bytearray()

    @property
    def in_waiting(self) -> int:
        return len(self.pending)

    def read(self, n: int) -> bytes:
        n = min(n, READ_MAX, len(self.pending))
        data = bytes(self.pending[:n])
        del self.pending[:n]
        return data

    def write(self, data) -> int:
        return len(data)  # (the board is not listening: the lines are all there)


def logger_on(ports: dict[str, Port], out: str) -> tuple[Logger, dict[str, BoardConnection]]:
    logger = Logger([], out, quiet=True)
    conns = {}
    for name, port in ports.items():
        conn = BoardConnection(name, logger)
        logger.connections.append(conn)
        conn.attach(port, time.monotonic())
        conns[name] = conn
    return logger, conns


def flood(lines: list[bytes], other: list[bytes]) -> tuple[float, float, int]:
    """(s to record the flooded game, s the other port's MOVE waited, moves recorded)."""
    with tempfile.TemporaryDirectory() as out:
        ports = {"flood": Port(), "other": Port()}
        logger, conns = logger_on(ports, out)
        ports["other"].pending += b"".join(other[:-1])  # its HELLO and GAME first: then one MOVE waits
        while conns["other"].sync.expected < len(other) - 1:
            logger.step()
        ports["flood"].pending += b"".join(lines)
        ports["other"].pending += other[-1]
        t0 = time.perf_counter()
        waited = None
        while conns["flood"].sync.expected < len(lines) or waited is None:
            logger.step()
            if waited is None and conns["other"].sync.expected == len(other):
                waited = time.perf_counter() - t0
        logger.flush()
        took = time.perf_counter() - t0
        logger.audit_file.close()
        return took, waited, len(conns["flood"].games.current.moves)


def steady(lines: list[bytes]) -> list[float]:
    """The logger's time for each MOVE line, fed one line a step of STEADY_S (its own clock
    simulated: a board resending at full speed), its SGF writes counted in (ms, in move order)."""
    costs = []
    with tempfile.TemporaryDirectory() as out:
        port = Port()
        logger, conns = logger_on({"board": port}, out)
        now = 0.0
        for line in lines:
            port.pending += line
            now += STEADY_S
            t0 = time.perf_counter()
            conns["board"].step(now)
            if b" MOVE " in line:
                costs.append((time.perf_counter() - t0) * 1000)
        logger.flush()
        logger.audit_file.close()
    return costs


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="bench/logger_flood.py", description=__doc__.splitlines()[0])
    ap.add_argument("--game", default=str(GAME), help="the game the flooding board played (default: %(default)s)")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each measure; the best is shown")
    args = ap.parse_args(argv)
    lines = board_lines(pathlib.Path(args.game), "flood")
    other = board_lines(pathlib.Path(args.game), "other")
    other = other[:next(i for i, line in enumerate(other) if b" MOVE " in line) + 1]
    runs = [flood(lines, other) for _ in range(args.rounds)]
    took, waited, moves = min(runs)
    print("The logger with a flooding port (in process; %s: %d lines, %d moves, all at once; best of %d)"
          % (pathlib.Path(args.game).name, len(lines), moves, args.rounds))
    print("  flooded game recorded (SGF on disk):   %7.0f ms  (%.2f ms a move)" % (took * 1000, took * 1000 / moves))
    print("  the other port's MOVE line waited:     %7.0f ms" % (waited * 1000))
    costs = min((steady(lines) for _ in range(args.rounds)), key=sum)
    early, late = costs[:50], costs[-50:]
    print("  fed a line a step (%g ms): a move costs the logger, moves 1-50: %.2f ms (mean; median %.2f), moves "
          "%d-%d: %.2f ms (mean; median %.2f)" % (STEADY_S * 1000, statistics.mean(early), statistics.median(early),
                                                   len(costs) - 49, len(costs), statistics.mean(late),
                                                   statistics.median(late)))


if __name__ == "__main__":
    main()
