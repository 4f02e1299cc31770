"""Many boards, one logger, and what goes wrong between them: every game in exactly one SGF file.

Simulated boards (the firmware's App on twins, played by simulated hands from the
bundled professional games and random 9x9 games) on cables into one logger
(host_tools.logger's own classes, in process). Cables corrupt and drop bytes both
ways, the logger is killed and started again at random moments, boards lose power
mid-game, two boards are given the same name, a board's journal is lost so it numbers
its games from 1 again, another board is plugged into a port. At the end the folder must
hold one file per game played, each with the moves, setup stones and result the board
recorded, and no other file.
"""

from __future__ import annotations

import json
import random
import zlib

from pro_games import load_games

from firmware.rules.handicap import fixed_points
from firmware.settings import Settings
from host_tools import sgf
from host_tools.logger.cli import Logger
from host_tools.logger.connection import BoardConnection
from host_tools.sim.headless import Simulation
from host_tools.sim.physical import random_moves, resigned
from host_tools.sim.played import moves_of
from twins.link import HostSerial, Pipe
from twins.storage import SimStorage

from .conftest import DATA

GAMES = [g for g in load_games(str(DATA / "pro_games.txt")) if g.size == 19 and not g.black and not g.white]
STEP_MS = 50  # how often the logger reads its ports


class Table:
    """One board at the venue on its own cable into a logger port named after the table."""

    def __init__(self, port, board_id, rng, noise=0.0):
        self.port = port
        self.board_id = board_id
        self.rng = rng
        self.pipe = Pipe(rng, corrupt=noise, drop=noise / 2, both_ways=True)
        self.storage = SimStorage()
        self.sim = None
        self.events = []
        self.played = []  # (board id, boot, gid, size, black setup, moves, result) of each finished game

    def board(self, settings):
        """A board (new, or with a new flash) powered up on this cable."""
        self.sim = Simulation(settings, transport=self.pipe.board, storage=self.storage, board_id=self.board_id)

    def game(self, settings, moves, at):
        """Start a game at ``at`` ms and script its moves by hand, then a resignation."""
        sim = self.sim
        sim.advance(at)
        if sim.game.result is not None or sim.game.move_number:
            sim.hw.stones.clear()
            sim.app.new_game(settings)
        handicap = fixed_points(settings.size, settings.handicap) if settings.handicap else ()
        self.events = resigned(settings.size, moves, at, self.rng.randrange(1 << 30), handicap)
        return self.events[-1].t_ms + 1000

    def step(self, now):
        for event in self.sim.play_due(self.events, now):
            if event.action == "button":
                self.played.append(self.finished())

    def finished(self):
        app = self.sim.app
        game = app.game
        return (self.board_id, app.follower.game_boot, app.follower.gid, game.size,
                sorted(game.setup_stones[0]), moves_of(game), game.result.sgf())


class Venue:
    """Tables, one logger on their ports, and the time."""

    def __init__(self, out, tables):
        self.out = out
        self.tables = tables
        self.now = 0
        self.logger = None
        self.restarts = 0
        self.start_logger()

    def start_logger(self):
        if self.logger is not None:
            self.logger.audit_file.close()
            self.restarts += 1
        self.logger = Logger([], str(self.out), quiet=True)
        for table in self.tables:
            conn = BoardConnection(table.port, self.logger)
            self.logger.connections.append(conn)
            conn.attach(HostSerial(table.pipe), self.now / 1000)

    def run(self, until, restarts=()):
        while self.now < until:
            self.now += STEP_MS
            for table in self.tables:
                table.step(self.now)
            for conn in self.logger.connections:
                conn.step(self.now / 1000)
            if any(self.now - STEP_MS < r <= self.now for r in restarts):
                self.start_logger()

    def settle(self):
        """Run until every logger port has every line its board sent, and its games on file."""
        for _ in range(2000):
            if all(conn.sync.expected >= table.sim.app.link.next and not table.pipe.to_host and not conn.unsaved
                   for conn, table in zip(self.logger.connections, self.tables, strict=True)):
                return
            self.run(self.now + STEP_MS)
        raise AssertionError("the logger never caught up")

    def audit(self):
        self.logger.audit_file.flush()
        return [json.loads(line) for line in (self.out / "audit.jsonl").read_text().splitlines()]


def on_file(path):
    """(size, black setup, moves, result) of an SGF file, in the board's terms."""
    record = sgf.read(path.read_bytes())
    return record.size, sorted(record.black), record.moves, record.root.get("RE")


def assert_one_file_per_game(out, tables):
    """Each game played is in exactly one file, named after the board, the power-up the game
    began in and its number (``-2``... when that name was taken), and there is no other file."""
    files = sorted(out.glob("*.sgf"))
    games = [game for table in tables for game in table.played]
    contents = {f.name: on_file(f) for f in files}
    for board_id, boot, gid, size, setup, moves, result in games:
        matching = [name for name, held in contents.items()
                    if name.startswith("%s-%d-g%d" % (board_id, boot, gid)) and held == (size, setup, moves, result)]
        assert len(matching) == 1, (board_id, boot, gid, len(moves), result, sorted(contents))
    assert len(files) == len(games), sorted(contents)


def test_boards_on_one_logger_through_noise_restarts_power_cuts_and_a_shared_name(tmp_path):
    rng = random.Random(17)
    ids = ["sgb-%016x" % rng.getrandbits(64) for _ in range(18)] + ["club-t9", "club-t9"]  # two given one name
    tables = [Table("port%d" % i, board_id, random.Random(zlib.crc32(b"t%d" % i)), noise=0.002)
              for i, board_id in enumerate(ids)]
    venue = Venue(tmp_path, tables)
    end = 0
    for i, table in enumerate(tables):
        record = GAMES[i % len(GAMES)]
        first = Settings(19, handicap=2 if i % 3 == 0 else 0)
        table.board(first)
        moves = record.moves[:30] if not first.handicap else random_moves(19, 30, table.rng, first.handicap)
        end = max(end, table.game(first, moves, 0))
    restarts = sorted(rng.randrange(5_000, end) for _ in range(4))
    venue.run(end // 2, restarts)
    for table in tables[1::3]:  # mid-game: the game goes on, named after the power-up it began in
        table.sim.power_cut()
    venue.run(end, restarts)
    second = 0
    for table in tables:
        second = max(second, table.game(Settings(9), random_moves(9, 25, table.rng), venue.now))
    venue.run(second, [rng.randrange(venue.now, second)])
    venue.settle()
    assert all(len(table.played) == 2 for table in tables)
    assert venue.restarts == 5
    assert_one_file_per_game(tmp_path, tables)
    events = {entry["event"] for entry in venue.audit()}
    assert {"power_up", "renamed", "corrupt", "resync"} <= events, events


def two_boards_in_turn(tmp_path, first_id, second_id):
    """A board plays a 9x9 game; then a board with a new flash (``second_id``: its name)
    powers up on the same cable and plays another. Returns the table and the venue."""
    table = Table("port0", first_id, random.Random(3))
    venue = Venue(tmp_path, [table])
    for moves in (20, 14):
        table.board(Settings(9))
        venue.run(table.game(Settings(9), random_moves(9, moves, table.rng), venue.now))
        venue.settle()
        table.board_id, table.storage = second_id, SimStorage()  # power-up 1, game 1, lines from 0 again
    assert_one_file_per_game(tmp_path, [table])
    return table, venue


def test_a_board_whose_journal_was_lost_numbers_its_games_again_without_overwriting(tmp_path):
    table, venue = two_boards_in_turn(tmp_path, "sgb-00000000000000aa", "sgb-00000000000000aa")
    assert [(boot, gid) for _b, boot, gid, *_rest in table.played] == [(1, 1), (1, 1)]
    assert sorted(f.name for f in tmp_path.glob("*.sgf")) == ["sgb-00000000000000aa-1-g1-2.sgf",
                                                              "sgb-00000000000000aa-1-g1.sgf"]
    events = [entry["event"] for entry in venue.audit()]
    assert "reboot" in events and "renamed" in events


def test_another_board_plugged_into_the_port_is_a_new_board(tmp_path):
    two_boards_in_turn(tmp_path, "sgb-00000000000000b1", "sgb-00000000000000b2")
    assert sorted(f.name for f in tmp_path.glob("*.sgf")) == ["sgb-00000000000000b1-1-g1.sgf",
                                                              "sgb-00000000000000b2-1-g1.sgf"]


def test_a_quiet_board_leaves_the_audit_log_quiet(tmp_path):
    """Heartbeats keep finding lost last lines, but a quiet evening writes no audit entry."""
    table = Table("port0", "sgb-00000000000000c1", random.Random(5))
    venue = Venue(tmp_path, [table])
    table.board(Settings(9))
    venue.run(table.game(Settings(9), random_moves(9, 6, table.rng), 0))
    venue.settle()
    before = len(venue.audit())
    hellos = table.sim.app.link.next
    venue.run(venue.now + 60_000)  # a minute of nothing
    assert table.sim.app.link.next - hellos >= 30  # the heartbeats went on (a HELLO each)
    assert len(venue.audit()) == before
