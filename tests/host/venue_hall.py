"""A hall in one process, for the venue's tests and benches: simulated boards (the firmware on
twins) on cables into the real logger (host_tools.logger's classes), whose MQTT side is wired
straight to a real venue service (no broker): each line the logger publishes reaches the venue's
own MQTT handler as JSON, each resync or command the venue publishes reaches the logger's inbox.
So honest traffic (resends, power cuts, logger and venue restarts, a wiped journal) and forged
messages meet the very code that meets them at a venue, in simulated time.
"""

from __future__ import annotations

import json
import queue
import random
import time
import types

from firmware import protocol as pr
from firmware.rules.game import Game, IllegalMove
from firmware.rules.handicap import fixed_points
from firmware.settings import Settings
from host_tools.board import protocol as ph
from host_tools.logger.cli import Logger
from host_tools.logger.connection import BoardConnection
from host_tools.logger.mqtt import ON_BROKER, MqttOut
from host_tools.records import board_key
from host_tools.sim.physical import script_lines
from host_tools.sim.script import parse
from host_tools.venue.archive import Archive
from host_tools.venue.service import Venue
from twins.link import HostSerial
from twins.storage import SimStorage

from .test_logger_boards import STEP_MS, Table

KEY = bytes(range(32))


class _Every(dict):
    """Every board's client: the same one, delivering."""

    def __init__(self, client):
        super().__init__()
        self.client = client

    def get(self, _board, _default=None):
        return self.client

    def __contains__(self, _board):
        return True


class Wire(MqttOut):
    """The logger's MQTT side with the broker taken out: publishing is delivering to the venue,
    every board is on it (the broker's logins are test_broker_access.py's)."""

    def __init__(self, hall):
        self.root = "goboard"
        self.name = "hall"
        self.inbox = queue.Queue()
        self.sent = {}
        self._status = {}
        self.where = {}
        self.dropped = 0
        self.hall = hall
        self.own = types.SimpleNamespace(publish=self._deliver)
        self.boards = _Every(self.own)

    def allow(self, board, password):
        self.where[board] = ON_BROKER

    def _deliver(self, topic, payload, qos=0, retain=False):
        if topic.endswith(("/line", "/status")):
            self.hall.deliver(topic, payload.encode() if isinstance(payload, str) else payload)
        return types.SimpleNamespace(wait_for_publish=lambda *_a: None)

    def close(self, boards=()):
        pass


class Hall:
    """Tables with boards, one logger on their ports, a venue on an archive, and the time."""

    def __init__(self, tmp_path, boards=("t1",), register=True, noise=0.0, seed=1, settings=None):
        self.tmp_path = tmp_path
        self.rng = random.Random(seed)
        self.url = "sqlite:///%s" % (tmp_path / "venue.db")
        self.venue = None
        self.start_venue()
        self.wire = Wire(self)
        self.tables = [Table("port%d" % i, name, random.Random(seed + i), noise=noise) for i, name in enumerate(boards)]
        for table in self.tables:
            table.board(settings or Settings(9, time_spec="byoyomi 10m 3x30s"))
            if register:
                self.register(table)
        self.now = 0
        self.logger = None
        self.start_logger()
        self.tapped = []  # every message delivered to the venue: (topic, payload)

    def register(self, table):
        """At the desk: the board given its secret (its reply left on the cable for the logger)."""
        noise = table.pipe.corrupt, table.pipe.drop
        table.pipe.corrupt = table.pipe.drop = 0.0
        table.pipe.send(pr.encode_command("key " + board_key(KEY, table.board_id).hex()))
        table.sim.advance(table.sim.now + 100)
        table.pipe.corrupt, table.pipe.drop = noise

    def start_venue(self):
        if self.venue is not None:
            self.venue.archive.close()
        self.venue = Venue(Archive(self.url), "127.0.0.1:1", key=KEY)
        self.venue.client.publish = self._from_venue

    def _from_venue(self, topic, payload, qos=0, retain=False):
        _root, board, what = topic.split("/")
        self.wire.inbox.put((board, what, json.loads(payload)))

    def deliver(self, topic, payload):
        self.tapped.append((topic, payload))
        self.venue._message(None, None, types.SimpleNamespace(topic=topic, payload=payload))

    def start_logger(self):
        """A logger (again: a restart reads its audit log and publishes from it when asked)."""
        if self.logger is not None:
            self.logger.audit_file.close()
        self.wire.sent = {}
        self.logger = Logger([], str(self.tmp_path / "logger"), quiet=True, mqtt=self.wire)
        for table in self.tables:
            conn = BoardConnection(table.port, self.logger)
            self.logger.connections.append(conn)
            conn.attach(HostSerial(table.pipe), self.now / 1000)

    def wipe(self, table, settings):
        """The board's journal lost: a new flash, its name kept (it numbers from 0 again)."""
        table.storage = SimStorage()
        table.board(settings)
        self.register(table)

    def run(self, until):
        while self.now < until:
            self.now += STEP_MS
            for table in self.tables:
                table.step(self.now)
            self.logger.step()
            self.venue.tick(time.time())

    def settle(self, extra_ms=3000):
        """Run until every board's lines reached the logger and the venue holds nothing back."""
        for _ in range(20000):
            caught_up = all(conn.sync.expected >= table.sim.app.link.next and not table.pipe.to_host
                            for conn, table in zip(self.logger.connections, self.tables, strict=True))
            if caught_up and not any(self.venue.held.values()) and not self.venue.jumps:
                break
            self.run(self.now + STEP_MS)
        else:
            raise AssertionError("the logger and the venue never caught up: %s" % [
                (conn.sync.expected, table.sim.app.link.next) for conn, table in
                zip(self.logger.connections, self.tables, strict=True)])
        self.run(self.now + extra_ms)

    def play(self, table, moves, settings=None):
        """Start a game on ``table`` now (a new one with ``settings`` if one was played), its moves
        made by hand with a clock press after each, then a resignation: when it ends (ms)."""
        sim = table.sim
        sim.advance(self.now)
        if settings is not None and (sim.game.result is not None or sim.game.move_number):
            sim.hw.stones.clear()
            sim.app.new_game(settings)
        size = sim.game.size
        stones = settings.handicap if settings is not None else sim.game.handicap
        handicap = fixed_points(size, stones) if stones else ()
        lines, _expected = script_lines(size, moves, handicap, seed=table.rng.randrange(1 << 30), clock=True)
        events, errors = parse(lines, size)
        assert not errors, errors
        for event in events:
            event.t_ms += self.now + 500
        end = events[-1].t_ms + 3000
        loser = "white" if len(moves) % 2 else "black"
        events.append(parse(["%d button resign_%s" % (end, loser)], size)[0][0])
        table.events = events
        return end + 1000


def bad_messages(board="t1"):
    """Messages no logger sends, on the topics the venue reads: (topic, payload). Before the venue
    checked them, 7 of these ended its MQTT thread for good (1e400, a surrogate, deep nesting...)."""
    good = {"boot": 1, "seq": 5, "raw": "5 SKIP *%08x" % 0, "prev": 4}
    line = "goboard/%s/line" % board

    def js(**changes):
        return json.dumps(dict(good, **changes)).encode()

    def first(seq=0, boot=1, raw=None):  # (a board's first line: the old venue applied it at once)
        text = raw if raw is not None else ph.encode(seq, "SKIP").decode().rstrip("\n")
        return json.dumps({"boot": boot, "seq": seq, "raw": text, "prev": -1}).encode()

    return [
        (line, first(seq=1 << 70)),
        (line, first(boot=1 << 70)),
        (line, first(raw="0 SKIP \ud800 *00000000")),
        (line, first(raw="0 HELLO board=\u00e9 *00000000")),
        (line, first(boot=-5)),
        (line, b'{"boot":1e400,"seq":1,"raw":"1 SKIP *00000000","prev":0}'),
        (line, b'{"boot":1,"seq":1e400,"raw":"x","prev":0}'),
        (line, b'{"boot":NaN,"seq":1,"raw":"x","prev":0}'),
        (line, js(raw="\ud800")),
        (line, js(raw=123)),
        (line, js(raw=None)),
        (line, js(seq="5")),
        (line, js(seq=True)),
        (line, js(seq=-3)),
        (line, js(seq=1 << 40)),
        (line, js(prev=5)),
        (line, js(raw="6 SKIP *00000000")),
        (line, js(raw="x" * 5000)),
        (line, b"[" * 100000 + b"]" * 100000),
        (line, b"\xff\xfe\x00garbage"),
        (line, b""),
        (line, b"null"),
        (line, b"[1, 2, 3]"),
        (line, b'{"boot": 1}'),
        (line, b"{" + b" " * 20000 + b"}"),
        ("goboard/%s/status" % board, b"\xff\xff"),
        ("goboard/%s/status" % board, b"online" * 1000),
        ("goboard/logger/status", b"\x00"),
        ("goboard/%s/line" % ("x" * 300), js()),
    ]


def random_game(size, count, rng, handicap=0):
    """A random legal game of up to ``count`` moves (colour, point) after ``handicap`` fixed
    stones: shorter when a player finds no legal point in a few hundred tries (or the game
    is over: the rules core ends it on some illegal plays)."""
    game = Game(size)
    if handicap:
        game.place_handicap(fixed_points(size, handicap))
    moves = []
    while len(moves) < count:
        colour = game.to_move
        for _ in range(300):
            pt = rng.randrange(len(game.pos.cells))
            try:
                game.play(colour, pt)
                break
            except (IllegalMove, ValueError, IndexError):
                continue
        else:
            return moves
        moves.append((colour, pt))
    return moves
