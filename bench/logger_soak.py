"""Ten boards on one logger through unplugs and power cuts: nothing lost, no result changed (make bench).

    .venv/bin/python bench/logger_soak.py [--boards 10] [--games 50] [--seed 1]

Each board is the firmware on simulated hardware with a journal (host_tools/sim, twins: the
flash keeps what a power cut leaves), played by simulated hands through a run of random 9x9
games, each resigned at its end, on its own cable (twins/link.py) into one logger
(host_tools.logger's own classes, in process, simulated time). Cables are pulled out for a
while; the power goes at random, and on some boards just after a game ends (the lines on
their way go with it: the case that once lost the end of a game). At the end every game each
board finished (its moves and result, as the board itself recorded them) is compared with the
logger's SGF files. Exits 1 unless no MOVE or END line is lost and no result changed.
"""

from __future__ import annotations

import argparse
import pathlib
import random
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
from host_tools.sim.physical import random_moves, resigned  # noqa: E402
from host_tools.sim.played import moves_of  # noqa: E402
from host_tools.sim.script import parse  # noqa: E402
from twins.link import HostSerial, Pipe  # noqa: E402
from twins.storage import SimStorage  # noqa: E402

STEP_MS = 50  # how often the logger reads its ports (simulated)
HOST_MS = 10  # the board's host stage (its journal, then its link) runs this often
UNPLUG_EVERY_S = 40.0  # a board's cable is pulled out once in this long on average ...
UNPLUG_S = (0.3, 3.0)  # ... for this long
CUT_EVERY_S = 60.0  # a board's power goes once in this long on average
CUT_AT_END = 0.3  # the share of games whose board loses power just after the game ends ...
CUT_AT_END_MS = (50, 300)  # ... at once (its last lines unread), or this long after


class Table:
    """One board on its cable, its games and its faults."""

    def __init__(self, index: int, rng: random.Random, games: int):
        self.board_id = "soak%02d" % index
        self.rng = rng
        self.pipe = Pipe()
        self.sim = Simulation(Settings(9), transport=self.pipe.board, storage=SimStorage(), board_id=self.board_id)
        self.games_left = games
        self.events: list = []
        self.next_game = rng.uniform(0.2, 2.0) * 1000
        self.asked_new = -1e9  # when the venue last asked for the next game (through the logger)
        self.played: list[tuple] = []  # (boot, gid, moves, result) of each game the board finished
        self.unplug_at = self._after(UNPLUG_EVERY_S)
        self.plug_at = None
        self.cut_at = self._after(CUT_EVERY_S)
        self.end_cut = False  # the next power cut is one just after a game's end
        self.counts = {"unplugs": 0, "power cuts": 0, "power cuts just after a game's end": 0}

    def _after(self, mean_s: float) -> float:
        return self.rng.expovariate(1 / mean_s) * 1000

    def step(self, now: float, conn: BoardConnection) -> None:
        sim = self.sim
        if self.plug_at is not None and now >= self.plug_at:
            self.pipe.unplugged, self.plug_at = False, None
        elif self.plug_at is None and now >= self.unplug_at:
            self.pipe.unplugged, self.plug_at = True, now + self.rng.uniform(*UNPLUG_S) * 1000
            self.unplug_at = self.plug_at + self._after(UNPLUG_EVERY_S)
            self.counts["unplugs"] += 1
        if now >= self.cut_at:
            self.power_cut(now, at_end=self.end_cut)
        if not self.events and self.games_left and now >= self.next_game:
            self.start_game(now, conn)
        for event in sim.play_due(self.events, now):
            if event.action == "button":
                self.finished(now)
        if not self.events and sim.game.result is None and sim.game.move_number:
            # (a power cut took the resignation before the board recorded it: the player resigns again)
            self.events = parse(["%d button resign_black" % (now + 500)], 9)[0]

    def power_cut(self, now: float, at_end: bool = False) -> None:
        self.end_cut = False
        self.sim.advance(now)
        self.pipe.to_host.clear()  # (what was on its way goes with the power)
        self.pipe.to_board.clear()
        self.sim.power_cut()
        self.cut_at = now + self._after(CUT_EVERY_S)
        self.counts["power cuts"] += 1
        self.counts["power cuts just after a game's end"] += at_end

    def start_game(self, now: float, conn: BoardConnection) -> None:
        """The next game: the venue's ``new`` through the logger (asked again if the cable lost it),
        or the one the board began by itself after a power-up; hands play it once it is on."""
        sim = self.sim
        sim.advance(now)
        if sim.game.result is not None or sim.game.move_number:
            if now - self.asked_new >= 3000:
                conn.command("new size=9", now / 1000)
                self.asked_new = now
            return
        moves = random_moves(9, self.rng.randint(10, 40), self.rng)
        self.events = resigned(9, moves, int(now), self.rng.randrange(1 << 30), first_ms=300, resign_ms=1500)
        self.games_left -= 1

    def finished(self, now: float) -> None:
        """The game resigned: what the board recorded (on its flash and its cable, one host
        stage later), and maybe the power gone then, before the logger read it."""
        app = self.sim.app
        if app.game.result is None:
            return  # (the board did not take it: the players resign again, Table.step)
        while app.follower.result is None:  # (its host stage may wait a pass or two after a decision)
            self.sim.play_due([], self.sim.now + HOST_MS)
        at = self.sim.now
        self.played.append((app.follower.game_boot, app.follower.gid, moves_of(app.game), app.game.result.sgf()))
        self.sim.hw.stones.clear()  # (the players clear the board)
        self.next_game = now + self.rng.uniform(0.5, 3.0) * 1000
        if self.rng.random() < CUT_AT_END:  # the power goes before the logger read the end, or soon after
            if self.rng.random() < 0.5:
                self.power_cut(at, at_end=True)
            else:
                self.cut_at, self.end_cut = now + self.rng.uniform(*CUT_AT_END_MS), True


def on_file(path: pathlib.Path) -> tuple[list, str | None]:
    record = sgf.read(path.read_bytes())
    return record.moves, record.root.get("RE")


def compare(out: pathlib.Path, tables: list[Table]) -> dict:
    """Every game a board finished against the logger's files: MOVE and END lines lost, results changed."""
    files = {path.name: on_file(path) for path in out.glob("*.sgf")}
    lost_moves = lost_ends = changed = 0
    matched = set()
    for table in tables:
        for boot, gid, moves, result in table.played:
            prefix = "%s-%d-g%d" % (table.board_id, boot, gid)
            best = (-1, None, None)
            for name, (held, re) in files.items():
                if name[:-4] == prefix or name.startswith(prefix + "-"):
                    common = next((i for i, (a, b) in enumerate(zip(held, moves, strict=False)) if a != b),
                                  min(len(held), len(moves)))
                    if common > best[0]:
                        best = (common, name, re)
            common, name, re = best
            lost_moves += len(moves) - max(common, 0)
            lost_ends += re is None
            changed += re != result
            matched.add(name)
    return {"moves lost": lost_moves, "ends lost": lost_ends, "results changed": changed,
            "files of no game": len(set(files) - matched)}


def run(boards: int, games: int, seed: int) -> tuple[dict, dict]:
    rng = random.Random(seed)
    tables = [Table(i + 1, random.Random(rng.randrange(1 << 30)), games) for i in range(boards)]
    with tempfile.TemporaryDirectory() as folder:
        out = pathlib.Path(folder)
        logger = Logger([], str(out), quiet=True)
        conns = []
        for table in tables:
            conn = BoardConnection(table.board_id, logger)
            logger.connections.append(conn)
            conn.attach(HostSerial(table.pipe), 0.0)
            conns.append(conn)
        now = 0
        while any(t.games_left or t.events for t in tables):
            now += STEP_MS
            for table, conn in zip(tables, conns, strict=True):
                table.step(now, conn)
            for conn in conns:
                conn.step(now / 1000)
        for table in tables:  # the faults stop; every board is plugged in, and heard out
            table.pipe.unplugged = False
            table.unplug_at = table.cut_at = float("inf")
            table.plug_at = None
        for i in range(int(120_000 / STEP_MS)):
            if i * STEP_MS >= 2000 and all(conn.sync.expected >= table.sim.app.link.next and not table.pipe.to_host
                                           and not conn.unsaved for conn, table in zip(conns, tables, strict=True)):
                break
            now += STEP_MS
            for table, conn in zip(tables, conns, strict=True):
                table.step(now, conn)
            for conn in conns:
                conn.step(now / 1000)
        logger.flush()
        logger.audit_file.close()
        figures = compare(out, tables)
    counts: dict = {"games": sum(len(t.played) for t in tables),
                    "moves": sum(len(m) for t in tables for _b, _g, m, _r in t.played),
                    "lines the boards wrote": sum(t.sim.app.link.next for t in tables),
                    "simulated minutes": now / 60000}
    for table in tables:
        for key, value in table.counts.items():
            counts[key] = counts.get(key, 0) + value
    return counts, figures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench/logger_soak.py", description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=10)
    ap.add_argument("--games", type=int, default=50, help="games a board (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    counts, figures = run(args.boards, args.games, args.seed)
    print("A logger soak: %d boards, %d games of 9x9 (%d moves), %.0f simulated minutes, %.0f s to run" % (
        args.boards, counts["games"], counts["moves"], counts["simulated minutes"], time.monotonic() - t0))
    print("  faults: %d unplugs, %d power cuts (%d just after a game's end, the lines on their way lost)" % (
        counts["unplugs"], counts["power cuts"], counts["power cuts just after a game's end"]))
    print("  lines the boards wrote: %d" % counts["lines the boards wrote"])
    print("  lines lost: %d MOVE (moves missing from the SGF files), %d END (results missing)" % (
        figures["moves lost"], figures["ends lost"]))
    print("  results changed: %d; files that are no game played: %d" % (figures["results changed"],
                                                                       figures["files of no game"]))
    bad = figures["moves lost"] + figures["ends lost"] + figures["results changed"] + figures["files of no game"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
