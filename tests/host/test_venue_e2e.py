"""The venue as a tournament meets it: a simulated board on a pty, its real logger process,
a real Mosquitto, the venue service and its pages in Chromium. A move appears on the pages;
the broadcast delay hides it from the public and not from the referee; a referee's penalty
reaches the board and its SGF; a broker restart and a venue restart lose and double nothing."""

import json
import os
import threading
import time
import urllib.error
import urllib.request
import zlib

import paho.mqtt.client as mqtt
import pytest
import serial
from paho.mqtt.enums import CallbackAPIVersion

from firmware.rules.coords import PASS, col_row
from firmware.settings import Settings
from host_tools import sgf
from host_tools.records import verify_sgf
from host_tools.sim.headless import Simulation
from host_tools.sim.physical import script_lines
from host_tools.sim.pty_link import PtyLink
from host_tools.sim.script import parse
from host_tools.venue.archive import Archive
from host_tools.venue.broker import Access, Broker, board_password, mosquitto_path
from host_tools.venue.demo import GAMES, legal_prefix
from host_tools.venue.keys import load_key, register
from host_tools.venue.service import Venue
from host_tools.venue.web import Site, serve

from .sim_page import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS
from .test_logger_e2e import start_logger

pytestmark = pytest.mark.skipif(mosquitto_path() is None, reason="no mosquitto (make test installs it)")
RECORD = sorted(GAMES.glob("*.sgf"))[0]
MOVES = 60
KEY = bytes(range(32))  # the venue's: its broker lets table01's logger in as table01


class Table:
    """A board at a table: the simulated board, its logger process, what it played."""

    def __init__(self, tmp_path, broker, venue_key=KEY):
        record = sgf.read(RECORD.read_bytes())
        moves = legal_prefix(record.moves)[:MOVES]
        lines, self.expected = script_lines(19, moves, seed=zlib.crc32(RECORD.name.encode()), clock=True)
        self.events, _ = parse(lines, 19)
        self.next = 0
        self.link = PtyLink()
        self.sim = Simulation(Settings(19, "japanese", time_spec="byoyomi 20m 3x30s", players={"pb": "Ann", "pw": "Bo"}),
                              transport=self.link, board_id="table01", boot=1)
        self.register(venue_key)  # (at the desk: its logger may then speak for it on the venue's broker)
        out = tmp_path / "logger"
        out.mkdir()
        self.logger = start_logger(self.link.path, out, self.sim, ("--mqtt", broker.address, "--mqtt-login",
                                                                   broker.access.logger_file))

    def register(self, venue_key):
        """At the desk, before the round: the venue's registration over the board's cable."""
        done = []
        with serial.Serial(self.link.path, timeout=0.05) as port:
            worker = threading.Thread(target=lambda: done.append(register(port, venue_key)))
            worker.start()
            while worker.is_alive():
                self.serve(0.05)
        assert done == ["table01"]

    def play(self, moves):
        """Play on until ``moves`` moves are on the board."""
        sim = self.sim
        while self.next < len(self.events) and sim.game.move_number < moves:
            event = self.events[self.next]
            sim.advance(event.t_ms)
            sim.apply(event)
            sim.app.sync_host(sim.now)
            self.next += 1
            time.sleep(0.003)
        self.serve(0.3)

    def serve(self, seconds):
        """The board answers its logger for a while (resends, commands)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.sim.advance(self.sim.now + 20)
            self.sim.app.sync_host(self.sim.now)
            time.sleep(0.01)

    def stop(self):
        self.logger.terminate()
        self.logger.wait()
        self.link.close()


def vertex_of(move):
    colour, pt = move
    return None if pt == PASS else col_row(19, pt)


def moves_on_board(table):
    return table.sim.game.move_number


def start_venue(tmp_path, broker, name="venue", delay=0.0, client_id="venue", key=KEY, connect=True):
    """The venue service and its pages; ``connect=False``: not on the broker yet (``venue.start()``)."""
    venue = Venue(Archive("sqlite:///%s" % (tmp_path / (name + ".db"))), broker.address, delay=delay,
                  client_id=client_id, key=key, login=broker.access.venue)
    site = Site(venue, {"kim": "secret"}, {"name": "Club Cup", "place": "Hall", "date": "2026-11-23"})
    server = serve(site, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    if connect:
        venue.start()
    return venue, server, "http://127.0.0.1:%d" % server.server_port


def wait_for(predicate, table=None, seconds=15):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        if table is not None:
            table.serve(0.05)
        else:
            time.sleep(0.05)
    return predicate()


def live_moves(venue):
    board = venue.board("live", "table01")
    return board["moves"] if board and "moves" in board else -1


def progress(venue, table):
    """What a failed wait says: the venue's moves and the board's, the venue's counts, lines held."""
    with venue.lock:
        return "venue %d moves, board %d; %s; held %s; loggers %s" % (
            live_moves(venue), moves_on_board(table), dict(venue.counts), venue.held, venue.loggers)


@pytest.fixture
def broker(tmp_path):
    access = Access(str(tmp_path / "broker"), KEY, str(tmp_path))
    access.write(["table01"])
    b = Broker(access, folder=str(tmp_path / "broker"))
    yield b
    b.stop()


def test_moves_reach_the_pages_and_the_delay_hides_them_from_the_public_only(tmp_path, broker):
    from playwright.sync_api import expect, sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.skip("no Chromium")
    venue, server, url = start_venue(tmp_path, broker)
    delayed, delayed_server, delayed_url = start_venue(tmp_path, broker, "delayed", delay=900, client_id="delayed")
    table = Table(tmp_path, broker)
    try:
        table.play(20)
        assert wait_for(lambda: live_moves(venue) == 20 and live_moves(delayed) == 20, table)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(url + "/")
            expect(page.locator("#b-table01 .foot")).to_have_text("playing · move 20")
            table.play(21)  # one more stone: the page hears of it by itself
            expect(page.locator("#b-table01 .foot")).to_have_text("playing · move 21")
            expect(page.locator("#b-table01 .head")).to_contain_text("Ann – Bo")
            page.screenshot(path=str(ARTIFACTS / "venue-overview-one-board.png"))
            page.goto(url + "/board/table01")
            expect(page.locator("#at")).to_have_text("move 21 of 21")
            expect(page.locator("#seal")).to_have_text("Record: every move agrees with the board's running hash.")
            page.click("#back")
            expect(page.locator("#at")).to_have_text("move 20 of 21")
            # The public page of the delayed venue: nothing of this game yet; its referees: all of it.
            page.goto(delayed_url + "/")
            expect(page.locator("#delay")).to_have_text("Broadcast delay: 15 minutes.")
            expect(page.locator("#b-table01 .foot")).to_have_text("waiting")  # on line, no move shown yet
            page.goto(delayed_url + "/referee")
            page.fill("input[name=user]", "kim")
            page.fill("input[name=password]", "secret")
            page.click("#login button")
            expect(page.locator('#all tr[data-board="table01"] td').nth(3)).to_have_text("21")
            browser.close()
        assert urllib.request.urlopen(url + "/games/table01.sgf").read().count(b";B[") == 11
        with pytest.raises(urllib.error.HTTPError):  # the delayed public feed has no game yet
            urllib.request.urlopen(delayed_url + "/games/table01.sgf")
    finally:
        table.stop()
        for v, s in ((venue, server), (delayed, delayed_server)):
            s.shutdown()
            v.stop()


def test_a_referees_penalty_reaches_the_board_and_the_sgf(tmp_path, broker):
    from playwright.sync_api import expect, sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.skip("no Chromium")
    venue, server, url = start_venue(tmp_path, broker)
    table = Table(tmp_path, broker)
    try:
        table.play(10)
        assert wait_for(lambda: live_moves(venue) == 10, table)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(url + "/referee")
            page.fill("input[name=user]", "kim")
            page.fill("input[name=password]", "wrong")
            page.click("#login button")
            expect(page.locator("#login-error")).to_have_text("wrong name or password")
            page.fill("input[name=password]", "secret")
            page.click("#login button")
            page.locator('#all tr[data-board="table01"] button').click()
            page.select_option("select[name=action]", "warning")
            page.select_option("select[name=colour]", "W")
            page.click("#act-send")
            table.serve(1.0)  # the command goes venue -> broker -> logger -> board, the PENALTY line back
            expect(page.locator('#attention tr[data-board="table01"]')).to_contain_text("warning W (referee)")
            expect(page.locator("#audit")).to_contain_text("kim: referee on table01 (referee warning W)")
            page.screenshot(path=str(ARTIFACTS / "venue-referee-console.png"), full_page=True)
            browser.close()
        assert table.sim.game.warnings[2] == 1  # the board's own count: White has one warning
        data = urllib.request.urlopen(url + "/games/table01.sgf").read().decode()
        assert "warning" in data.lower() and "EV[Club Cup]" in data and "PC[Hall]" in data
        assert [a["what"] for a in venue.archive.actions()][:2] == ["referee", "login"]
    finally:
        table.stop()
        server.shutdown()
        venue.stop()


def test_a_broker_restart_and_a_venue_restart_lose_and_double_nothing(tmp_path, broker):
    """... and the game, registered and signed, checks out from its SGF alone."""
    key = KEY
    venue, server, _url = start_venue(tmp_path, broker, key=key)
    table = Table(tmp_path, broker, venue_key=key)
    try:
        table.play(15)
        assert wait_for(lambda: live_moves(venue) == 15, table), progress(venue, table)
        broker.stop()
        table.play(30)  # the logger records on; nothing reaches the venue
        broker.start()
        assert wait_for(lambda: live_moves(venue) == 30, table, seconds=30), progress(venue, table)
        server.shutdown()
        venue.stop()  # the venue goes down; the board plays on
        table.play(45)
        venue, server, _url = start_venue(tmp_path, broker, key=key, connect=False)  # the same archive
        assert live_moves(venue) == 30  # from its archive at once (before the lines queued for it arrive)
        venue.start()  # the same MQTT session: the broker kept what was published while it was down
        assert wait_for(lambda: live_moves(venue) == 45, table, seconds=30), progress(venue, table)
        table.play(MOVES)
        assert wait_for(lambda: live_moves(venue) == moves_on_board(table), table, seconds=30), progress(venue, table)
        rows = venue.archive.all_lines()
        assert len({(b, epoch, seq) for b, epoch, _boot, seq, _raw, _t in rows}) == len(rows)
        assert venue.counts["conflict"] == 0 and venue.archive.quarantined() == []
        board_moves = [m["at"] for m in venue.board("live", "table01")["moves_list"]]
        record = sgf.read(urllib.request.urlopen(_url + "/games/table01.sgf").read())
        assert len(record.moves) == len(board_moves) == moves_on_board(table)
        assert [vertex_of(m) for m in record.moves] == [tuple(m) if m else None for m in board_moves]
        venue.command("table01", "end B+R", "kim")  # the referee records the result
        assert wait_for(lambda: venue.board("live", "table01")["seal"] == "signed", table), progress(venue, table)
        ok, why = verify_sgf(urllib.request.urlopen(_url + "/games/table01.sgf").read(), key)
        assert ok and why == "signed by board table01 (%d moves, B+R)" % moves_on_board(table), why
    finally:
        table.stop()
        server.shutdown()
        venue.stop()


def board_result(url, board):
    return json.loads(urllib.request.urlopen(url + "/api/board/" + board).read()).get("result")


def board_said(tmp_path, board, text):
    """The demo's logger heard ``board`` send a line with ``text`` in it (its audit log)."""
    return any('"board": "%s", "event": "in"' % board in entry and text in entry
               for path in (tmp_path / "games" / "venue-demo").glob("*/audit.jsonl")
               for entry in path.read_text().splitlines())


def _ctrl_c_as_at_a_terminal():
    """SIGINT not ignored: a shell without job control starts its background jobs (pytest run
    with ``&``, in a script) with SIGINT ignored, and so would the venue be, deaf to Ctrl-C."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_the_demo_venue_with_24_boards_runs_and_stops_on_ctrl_c(tmp_path):
    """``python -m host_tools.venue --demo-boards 24`` (what ``make venue`` runs): a broker of its
    own on a free port, 24 simulated boards and their logger; the overview shows every table; a
    locked round refuses commands from anyone but the venue; Ctrl-C stops it all."""
    import signal
    import subprocess
    import sys

    from playwright.sync_api import expect, sync_playwright

    from .conftest import ROOT

    if not os.path.exists(CHROMIUM):
        pytest.skip("no Chromium")
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.venue", "--demo-boards", "24", "--demo-speed", "6",
                             "--port", "0", "--db", "sqlite:///%s" % (tmp_path / "demo.db")],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), preexec_fn=_ctrl_c_as_at_a_terminal)
    try:
        first = proc.stdout.readline()
        assert first.startswith("Venue: live boards http://"), first
        url = first.split()[3].rstrip("/")
        second = proc.stdout.readline()  # "archive ..., broker HOST:PORT, ...": the demo's own, on a free port
        broker_host, _, broker_port = second.split("broker ")[1].split(",")[0].rpartition(":")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url + "/")
            expect(page.locator(".tile")).to_have_count(24, timeout=20000)
            expect(page.locator('.tile[data-state="playing"]')).to_have_count(24, timeout=60000)
            page.wait_for_timeout(3000)
            page.screenshot(path=str(ARTIFACTS / "venue-overview-24-boards.png"), full_page=True)
            # The round locked: the demo boards were registered at start, so each takes the venue's
            # signed commands only. Nobody else may publish a command on the broker: an anonymous
            # client is refused, and one with a board's own login (taken from its cable) is not let
            # publish there; the referee's, through the venue, is carried out.
            page.goto(url + "/referee")
            page.fill("input[name=user]", "referee")
            page.fill("input[name=password]", "demo")
            page.click("#login button")
            page.click("#round button[value=lock]")
            expect(page.locator("#round-said")).to_have_text("locked: 24 boards")  # (told, not yet taken:
            # MQTT keeps no order between two clients, so the rogue waits for the board's OK to the lock)
            assert wait_for(lambda: board_said(tmp_path, "table02", " OK lock "), seconds=20)
            refused = []
            anonymous = mqtt.Client(CallbackAPIVersion.VERSION2)
            anonymous.on_connect = lambda _c, _u, _f, reason, _p: refused.append(str(reason))
            anonymous.connect(broker_host, int(broker_port))
            anonymous.loop_start()
            assert wait_for(lambda: refused == ["Not authorized"])
            anonymous.loop_stop()
            rogue = mqtt.Client(CallbackAPIVersion.VERSION2)
            rogue.username_pw_set("table02", board_password(load_key(str(tmp_path / "venue" / "venue.key")), "table02"))
            rogue.connect(broker_host, int(broker_port))
            rogue.loop_start()
            rogue.publish("goboard/table02/command", json.dumps({"text": "end B+R", "by": "rogue"}), qos=1).wait_for_publish()
            rogue.loop_stop()
            page.locator('#all tr[data-board="table03"] button').click()
            page.select_option("select[name=action]", "result")
            page.fill("input[name=value]", "W+R")
            page.click("#act-send")
            page.click("#confirm-yes")  # (a result ends the game: the console asks first)
            expect(page.locator("#audit")).to_contain_text("lock round")
            # (the venue took the result before the browser goes: closing it would abort a request in flight)
            expect(page.locator("#audit")).to_contain_text("W+R", timeout=20000)
            browser.close()
        assert wait_for(lambda: board_result(url, "table03") == "W+R", seconds=20)
        assert board_result(url, "table02") is None  # (the rogue's command was refused by the board)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.terminate()  # (its SIGTERM stops it, broker and logger too: none is left running)
            proc.communicate(timeout=30)
            raise
    assert proc.returncode == 0, out
    assert "Stopping" in out
    assert list((tmp_path / "games" / "venue-demo").glob("*/audit.jsonl"))  # the logger wrote its audit there
