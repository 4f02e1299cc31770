"""End to end over a pty: the simulated board plays a bundled professional game,
its link (firmware/host/link.py) streams it, ``python -m host_tools.logger`` (a real process)
records it. With faults on the line (corruption, dropped bytes, the logger
killed and restarted, the cable out for a while) the SGF must still be exact."""

import json
import os
import random
import subprocess
import sys
import time
import zlib

import pytest
from pro_games import load_games, replay
from sgfmill import sgf as sgfmill

from firmware.settings import Settings
from host_tools.records import board_key
from host_tools.sgf import to_sgfmill
from host_tools.sim.headless import Simulation
from host_tools.sim.physical import script_lines
from host_tools.sim.pty_link import PtyLink
from host_tools.sim.script import parse
from tests.firmware.harness import quiet_pass

from .conftest import DATA, ROOT

GAMES = load_games(str(DATA / "pro_games.txt"))


def start_logger(port, out, sim, extra=()):
    """A logger process; returns once it has said hello to the board."""
    connects = _count(out, "connect")
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.logger", port, "--out", str(out), "--quiet", *extra],
                            cwd=ROOT, stderr=open(out / "logger-stderr.txt", "ab"))  # noqa: SIM115
    deadline = time.monotonic() + 10
    while _count(out, "connect") == connects and time.monotonic() < deadline and proc.poll() is None:
        sim.app.sync_host(sim.now)
        time.sleep(0.01)
    return proc


def _count(out, event):
    path = out / "audit.jsonl"
    if not path.exists():
        return 0
    return sum(json.loads(x)["event"] == event for x in path.read_text().splitlines())


def play(tmp_path, record, faults=None):
    faults = faults or {}
    rng = random.Random(7)
    _game, illegal_at, _error = replay(record, "japanese")
    moves = record.moves[:illegal_at] if illegal_at is not None else record.moves
    handicap = record.black if record.black and not record.white else ()
    lines, expected = script_lines(record.size, moves, handicap, seed=zlib.crc32(record.name.encode()))
    events, errors = parse(lines, record.size)
    assert not errors
    line = PtyLink(rng, faults.get("corrupt", 0.0), faults.get("drop", 0.0))
    players = {"pb": "Black Player", "pw": "White Player", "ev": "Club Cup", "ro": "3"}
    sim = Simulation(Settings(record.size, "japanese", handicap=len(handicap), players=players), transport=line,
                     board_id="table7", boot=1)
    if faults.get("venue_key"):  # registered at the desk: it signs, and its logger may speak for it on a broker
        sim.app.command("key", [board_key(faults["venue_key"], "table7").hex()], sim.now)
    def host(now):  # the journal and the link, now (and a job's slice: the seal's catch-up after a resend)
        quiet_pass(sim.app, now)

    logger = start_logger(line.path, tmp_path, sim, faults.get("logger_args", ()))
    try:
        kill_at = faults.get("kill_at")
        unplug_at = faults.get("unplug_at")
        for i, event in enumerate(events):
            sim.advance(event.t_ms)
            sim.apply(event)
            host(sim.now)
            if i % 4 == 0:
                time.sleep(0.002)
            if kill_at is not None and i == int(len(events) * kill_at):
                logger.kill()
                logger.wait()
                for _ in range(30):  # the board plays on with nobody listening
                    host(sim.now)
                    time.sleep(0.005)
                logger = start_logger(line.path, tmp_path, sim, faults.get("logger_args", ()))
            if unplug_at is not None:
                line.unplugged = int(len(events) * unplug_at) <= i < int(len(events) * (unplug_at + 0.1))
        sim.advance(sim.now + 1000)
        line.unplugged = False
        sgf_path = tmp_path / "table7-1-g1.sgf"
        deadline = time.monotonic() + 20
        got = None
        while time.monotonic() < deadline:
            host(sim.now)
            time.sleep(0.005)
            if sgf_path.exists():
                try:
                    got = sgfmill.Sgf_game.from_bytes(sgf_path.read_bytes())
                except ValueError:
                    continue
                if len(got.get_main_sequence()) == len(expected) + 1:
                    break
        assert got is not None and len(got.get_main_sequence()) == len(expected) + 1, (
            logger.poll(), (tmp_path / "logger-stderr.txt").read_text()[-2000:])
    finally:
        if faults.get("after"):
            faults["after"]()
        logger.kill()
        logger.wait()
        line.close()
    audit = [json.loads(x) for x in (tmp_path / "audit.jsonl").read_text().splitlines()]
    return got, expected, audit, record, sim


def moves_of(game):
    return [(node.get_move()) for node in game.get_main_sequence()[1:]]


def expected_moves(record, expected):
    return [("b" if c == 1 else "w", to_sgfmill(record.size, p)) for c, p in expected]


RECORD = GAMES[0]


def sabaki(path):
    out = subprocess.run(["node", str(ROOT / "tests" / "tools" / "sabaki_moves.mjs"), str(path)], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_logger_records_a_pro_game(tmp_path):
    got, expected, audit, record, _sim = play(tmp_path, RECORD)
    assert moves_of(got) == expected_moves(record, expected)
    read = sabaki(tmp_path / "table7-1-g1.sgf")  # Sabaki's own parser reads the same game
    assert read["moves"] == [[c.upper(), got_node.get_raw(c.upper()).decode()]
                             for (c, _m), got_node in zip(moves_of(got), got.get_main_sequence()[1:], strict=True)]
    assert read["root"]["PB"] == ["Black Player"] and read["root"]["SZ"] == [str(record.size)]
    root = got.get_root()
    assert root.get("PB") == "Black Player" and root.get("EV") == "Club Cup" and root.get("RO") == "3"
    assert root.get("SZ") == record.size and root.get("RU") == "Japanese"
    assert any(a["event"] == "in" for a in audit)


def test_logger_survives_a_bad_line(tmp_path):
    faults = {"corrupt": 0.01, "drop": 0.003, "kill_at": 0.35, "unplug_at": 0.6}
    got, expected, audit, record, _sim = play(tmp_path, RECORD, faults)
    assert moves_of(got) == expected_moves(record, expected)
    events = {a["event"] for a in audit}
    assert {"resync", "corrupt", "connect"} <= events, events
    assert sum(a["event"] == "connect" for a in audit) >= 2  # the restarted logger


@pytest.mark.skipif(not os.path.exists("/dev/ptmx"), reason="no pseudo-terminals")
def test_logger_cli_help():
    out = subprocess.run([sys.executable, "-m", "host_tools.logger", "--help"], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert "PORT" in out.stdout.upper()
