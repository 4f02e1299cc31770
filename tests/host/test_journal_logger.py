"""The host logger and the journal agree: the cable out for a few moves, then a power cut;
the recovered board numbers its lines on, the logger's resync fills the gap, and its SGF
holds the whole game once (host_tools.logger's own classes, in process)."""

import json
import re

from harness import board, point, power_up

from host_tools.logger.cli import Logger
from host_tools.logger.connection import BoardConnection
from twins.link import HostSerial, Pipe
from twins.storage import SimStorage

POINTS = [(2, 2), (6, 6), (2, 6), (6, 2), (4, 4), (4, 2), (2, 4), (6, 4), (4, 6), (3, 3), (5, 5), (3, 5)]


def test_the_end_of_a_game_the_logger_had_not_read_before_a_power_cut_is_not_lost(tmp_path):
    """The game ends (a last move, a resignation), the power goes before the logger read those
    lines (they were in flight), the board powers up: the logger's SGF has every move and the
    result, and the board then goes on to its next game, as a finished game always did."""
    pipe = Pipe()
    logger = Logger([], str(tmp_path), quiet=True)
    host = BoardConnection("sim", logger)
    host.attach(HostSerial(pipe), 0.0)
    hw, app = board(SimStorage(), pipe.board, boot=3, size=9)
    t = 0

    def run(ms, read=True):
        nonlocal t
        for _ in range(ms // 10):
            hw.stones.set_time(t)
            app.step(t)
            if read:
                host.step(t / 1000)
            t += 10

    for i in range(11):
        col, row = POINTS[i]
        hw.stones.place(point(app, col, row), 1 + i % 2)
        run(400, read=i < 10)  # the last move's line is not read
    app.referee.button("resign_white", t)
    run(20, read=False)
    assert app.game.move_number == 11 and app.game.result.sgf() == "B+R"
    pipe.to_host[:] = b""  # the lines in flight go with the power
    del app
    app = power_up(hw, boot=4, now_ms=t)
    run(8000)
    game = host.games.games[1]
    assert (len(game.moves), game.result) == (11, "B+R")
    record = (tmp_path / "board-3-g1.sgf").read_text()
    assert len(re.findall(r";\s*[BW]\[", record)) == 11 and "RE[B+R]" in record
    assert app.follower.gid == 2 and app.game.move_number == 0  # and then the next game
    assert host.games.current.gid == 2


def test_a_venues_next_game_waits_until_the_logger_has_the_last_one_whole(tmp_path):
    """The cable is out for the last moves and the resignation; it is back, and at once the venue
    sends the next round's ``new``: the logger first takes every line the board wrote (a ``new``
    sent before would leave the last moves to be resent as SKIP), then sends it."""
    pipe = Pipe()
    logger = Logger([], str(tmp_path), quiet=True)
    host = BoardConnection("sim", logger)
    host.attach(HostSerial(pipe), 0.0)
    hw, app = board(SimStorage(), pipe.board, boot=3, size=9)
    t = 0

    def run(ms):
        nonlocal t
        for _ in range(ms // 10):
            hw.stones.set_time(t)
            app.step(t)
            host.step(t / 1000)
            t += 10

    for i in range(11):
        pipe.unplugged = i >= 8  # the last three moves and the result are not heard
        col, row = POINTS[i]
        hw.stones.place(point(app, col, row), 1 + i % 2)
        run(400)
    app.referee.button("resign_white", t)
    run(100)
    pipe.unplugged = False
    host.command("new size=9", t / 1000)  # (the venue's, through the logger: cli.py)
    run(3000)
    assert app.follower.gid == 2  # the new game is on
    game = host.games.games[1]
    assert (len(game.moves), game.result) == (11, "B+R")
    record = (tmp_path / "board-3-g1.sgf").read_text()
    assert len(re.findall(r";\s*[BW]\[", record)) == 11 and "RE[B+R]" in record


def test_a_power_cut_leaves_the_logger_with_the_whole_game_once(tmp_path):
    pipe = Pipe()
    logger = Logger([], str(tmp_path), quiet=True)
    host = BoardConnection("sim", logger)
    host.attach(HostSerial(pipe), 0.0)
    hw, app = board(SimStorage(), pipe.board, boot=3, size=9)
    t = 0

    def run(ms):
        nonlocal t
        for _ in range(ms // 10):
            hw.stones.set_time(t)
            app.step(t)
            host.step(t / 1000)
            t += 10

    def play(i):
        col, row = POINTS[i]
        hw.stones.place(point(app, col, row), 1 + i % 2)
        run(400)

    run(100)
    for i in range(6):
        play(i)
    pipe.unplugged = True  # the host misses the next moves
    for i in range(6, 9):
        play(i)
    moves_before = app.game.move_number
    del app  # and the power is cut
    pipe.unplugged = False
    app = power_up(hw, boot=4, now_ms=t)
    assert app.game.move_number == moves_before == 9
    for i in range(9, 12):
        play(i)
    app.referee.button("resign_white", t)
    run(3000)
    assert host.games.current is not None and host.games.current.gid == 1 and host.games.current.result == "B+R"
    hist = app.game.hist
    board_moves = [(hist.moves[k] >> 9 & 3, hist.moves[k] & 0x1FF) for k in range(1, hist.length)]
    assert [(c, p) for c, p, _ms, _periods, _lost in host.games.current.moves] == board_moves
    files = sorted(p.name for p in tmp_path.glob("*.sgf"))
    assert files == ["board-3-g1.sgf"]  # one game, one file: no reboot seen, no duplicate
    sgf = (tmp_path / files[0]).read_text()
    assert len(re.findall(r";\s*[BW]\[", sgf)) == 12 and "RE[B+R]" in sgf
    events = [json.loads(line)["event"] for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert "reboot" not in events and "resync" in events
