"""An MQTT fuzz of the logger: thousands of malformed messages on a board's command and resync topics,
then the logger must still be alive, record, answer a resync and carry a command (make bench).

    .venv/bin/python bench/logger_fuzz.py [--messages 10000] [--seed 1]

The pieces are real: Mosquitto with the venue's users (host_tools/venue/broker.py), a logger
process (``python -m host_tools.logger --mqtt``) and a simulated board (the firmware on simulated
hardware, host_tools/sim) on a pty, registered, so its logger speaks for it on the broker. The
messages are published as the venue (only the venue may publish there): random bytes, JSON of
every wrong type and shape (deep nesting, huge numbers, lone surrogates, control characters,
texts too long, fields missing), truncated JSON, and a few well-formed commands among them.
Exits 1 if the logger died, or no longer answers.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from firmware.settings import Settings  # noqa: E402
from host_tools.logger.mqtt import checked  # noqa: E402
from host_tools.records import board_key  # noqa: E402
from host_tools.sim.headless import Simulation  # noqa: E402
from host_tools.sim.pty_link import PtyLink  # noqa: E402
from host_tools.venue.broker import Access, Broker, mosquitto_path  # noqa: E402

KEY = bytes(range(32))
BOARD = "fuzz1"


class Board(threading.Thread):
    """The simulated board on its pty, its link serviced in real time."""

    def __init__(self):
        super().__init__(name="board", daemon=True)
        self.link = PtyLink()
        self.sim = Simulation(Settings(9), transport=self.link, board_id=BOARD, boot=1)
        self.sim.app.command("key", [board_key(KEY, BOARD).hex()], 0)  # registered at the desk
        self.lock = threading.Lock()
        self.stopped = threading.Event()

    def run(self):
        t0 = time.monotonic()
        while not self.stopped.wait(0.01):
            with self.lock:
                self.sim.advance(int((time.monotonic() - t0) * 1000))
                self.sim.app.sync_host(self.sim.now)

    def place(self, col, row, colour):
        with self.lock:
            app = self.sim.app
            self.sim.hw.stones.place(app.referee.region.phys_of[(row + 1) * (app.game.size + 2) + col + 1], colour)
            self.sim._dirty = True


def nested(rng: random.Random) -> str:
    depth = rng.choice((50, 999, 1001, 2000, 4000))
    return rng.choice(("[", "{\"a\":")) * depth


def value(rng: random.Random, depth: int = 0):
    """Any JSON value, mostly wrong for a command."""
    kind = rng.randrange(10)
    if kind == 0:
        return rng.choice((None, True, False))
    if kind == 1:
        return rng.choice((0, -1, 1 << 31, 1 << 70, -(1 << 63), 7))
    if kind == 2:
        return rng.choice((0.5, 1e308, -1e-300, 3.0))
    if kind == 3 and depth < 4:
        return [value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 4 and depth < 4:
        return {text(rng): value(rng, depth + 1) for _ in range(rng.randrange(4))}
    return text(rng)


def text(rng: random.Random) -> str:
    """A string: printable, control characters, far unicode, or very long."""
    kind = rng.randrange(6)
    if kind == 0:
        return "".join(chr(rng.randrange(0, 32)) for _ in range(rng.randrange(1, 8)))
    if kind == 1:
        return "".join(chr(rng.randrange(0x80, 0x2FFFF)) for _ in range(rng.randrange(1, 8)))
    if kind == 2:
        return "x" * rng.choice((239, 240, 241, 5000))
    if kind == 3:
        return rng.choice(("mem", "hello", "end B+R\nend W+R", "mode casual", " ", ""))
    return "".join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(1, 30)))


def message(rng: random.Random, what: str) -> bytes:
    """One fuzz payload for the ``command`` or ``resync`` topic."""
    kind = rng.randrange(8)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
    if kind == 1:
        return nested(rng).encode()
    if kind == 2:  # a lone surrogate, escaped: json.loads gives a str that cannot be encoded
        return ('{"text": "mem\\ud%03x", "by": "x"}' % rng.randrange(0x800, 0xfff)).encode()
    body = {"text": value(rng), "by": value(rng)} if what == "command" else {"from": value(rng)}
    if kind == 3:
        body.pop(rng.choice(list(body)))
    data = json.dumps(body, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
    if kind == 4:
        data = data[:rng.randrange(len(data) + 1)]  # truncated
    if kind == 5:
        data = json.dumps(value(rng)).encode("utf-8", "surrogatepass")  # any JSON at all
    return data


class Venue:
    """The venue's login on the broker: it publishes, and hears the board's lines."""

    def __init__(self, broker: Broker):
        self.lines: list[dict] = []
        self.health: list[dict] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.username_pw_set(*broker.access.venue)
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", broker.port)
        self.client.subscribe([("goboard/%s/line" % BOARD, 1), ("goboard/logger/+/health", 1)])
        self.client.loop_start()

    def _message(self, _client, _userdata, msg):
        data = json.loads(msg.payload)
        (self.lines if msg.topic.endswith("/line") else self.health).append(data)

    def publish(self, topic: str, payload: bytes):
        return self.client.publish(topic, payload, qos=1)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def wait_for(predicate, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def run(messages: int, seed: int, folder: pathlib.Path) -> dict:
    rng = random.Random(seed)
    access = Access(str(folder / "broker"), KEY, str(folder))
    access.write([BOARD])
    broker = Broker(access, folder=str(folder / "broker"))
    board = Board()
    board.start()
    out = folder / "logger"
    out.mkdir()
    logger = subprocess.Popen([sys.executable, "-m", "host_tools.logger", board.link.path, "--out", str(out), "--quiet",
                               "--mqtt", broker.address, "--mqtt-login", access.logger_file, "--name", "fuzz"],
                              cwd=ROOT, stderr=open(out / "stderr.txt", "wb"))  # noqa: SIM115
    venue = Venue(broker)
    figures: dict = {"messages tried": 0}
    try:
        if not wait_for(lambda: any(h["boards"].get(BOARD) == "on the broker" for h in venue.health)):
            raise RuntimeError("the logger never put the board on the broker:\n" + (out / "stderr.txt").read_text())
        board.place(2, 2, 1)
        t0 = time.monotonic()
        sent = []
        well_formed = {"command": 0, "resync": 0}
        for i in range(messages):
            what = "command" if i % 4 else "resync"
            payload = message(rng, what)
            try:
                checked(what, payload)
                well_formed[what] += 1
            except Exception:  # noqa: BLE001 - (what the logger refuses: whatever json or the checks raise)
                pass
            sent.append(venue.publish("goboard/%s/%s" % (BOARD, what), payload))
        for info in sent:
            info.wait_for_publish(10)
        figures["messages tried"] = messages
        figures["publish s"] = time.monotonic() - t0
        refused = messages - sum(well_formed.values())

        def audited():
            events = [json.loads(x)["event"] for x in (out / "audit.jsonl").read_text().splitlines()]
            return events.count("dropped"), events.count("venue")

        wait_for(lambda: audited() == (refused, well_formed["command"]), seconds=60)
        figures["refused by the checks"] = refused
        figures["dropped (audited)"], figures["carried to the board (well-formed)"] = audited()
        figures["well-formed resyncs"] = well_formed["resync"]
        figures["alive"] = logger.poll() is None
        before = len(venue.lines)
        venue.publish("goboard/%s/resync" % BOARD, json.dumps({"from": 0}).encode())
        venue.publish("goboard/%s/command" % BOARD, json.dumps({"text": "mem", "by": "bench"}).encode())
        figures["answers a resync"] = wait_for(lambda: any(x["seq"] == 0 for x in venue.lines[before:]))
        figures["carries a command"] = wait_for(lambda: any(" MEM " in x["raw"] for x in venue.lines[before:]))
        board.place(6, 6, 2)
        figures["records a move"] = wait_for(lambda: any(" MOVE 2 W gg " in x["raw"] for x in venue.lines[before:]))
        figures["health: dropped"] = venue.health[-1]["dropped"] if venue.health else None
    finally:
        logger.terminate()
        logger.wait(10)
        venue.close()
        board.stopped.set()
        board.join(5)
        board.link.close()
        broker.stop()
    return figures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench/logger_fuzz.py", description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if mosquitto_path() is None:
        print("logger fuzz skipped: no Mosquitto (Debian: apt-get install mosquitto; make bench installs it)")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        figures = run(args.messages, args.seed, pathlib.Path(folder))
    print("An MQTT fuzz of the logger (a real logger process, Mosquitto, a simulated board on a pty)")
    print("  messages tried: %d on the board's command and resync topics (%.1f s to publish)" % (
        figures["messages tried"], figures["publish s"]))
    print("  malformed: %d, dropped with an audit line each: %d; well-formed: %d commands carried to the board (%d "
          "audited), %d resyncs answered" % (figures["refused by the checks"], figures["dropped (audited)"],
                                             figures["messages tried"] - figures["refused by the checks"]
                                             - figures["well-formed resyncs"], figures["carried to the board (well-formed)"],
                                             figures["well-formed resyncs"]))
    print("  after: logger alive: %s; answers a resync: %s; carries a command: %s; records a move: %s; "
          "its health says %s dropped" % (figures["alive"], figures["answers a resync"], figures["carries a command"],
                                          figures["records a move"], figures["health: dropped"]))
    ok = (figures["alive"] and figures["answers a resync"] and figures["carries a command"] and figures["records a move"]
          and figures["dropped (audited)"] == figures["refused by the checks"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
