"""The classroom on the venue's stack: six simulated boards (students' hands following the LEDs), a
real logger's MQTT side on a real Mosquitto, the classroom service and the teacher's page in Chromium.
The teacher pushes the problem course to every board; five students work, one does nothing and is
shown stuck; one board is shown large for the class."""

import json
import random
import threading
import time

import pytest

from firmware import protocol as pr
from host_tools.logger.cli import Logger
from host_tools.logger.connection import BoardConnection
from host_tools.logger.mqtt import MqttOut
from host_tools.play.sim import SimTable
from host_tools.records import board_key
from host_tools.teach.classroom import Classroom, MqttPort, Seat, serve
from host_tools.teach.course import course_files
from host_tools.teach.problem import load_problems
from host_tools.teach.student import Student
from host_tools.venue.broker import Access, Broker, mosquitto_path, read_login
from twins.link import HostSerial

from .sim_page import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, HAVE_CHROMIUM, NO_CHROMIUM

pytestmark = pytest.mark.skipif(mosquitto_path() is None, reason="no mosquitto (make test installs it)")
KEY = bytes(range(32))  # the venue's
DESKS = ["desk%d" % i for i in range(1, 7)]
ABSENT = "desk4"  # its student does nothing


class Absent:
    """A student who never plays."""

    both_sides = False
    follows_hints = False

    def move(self, game, colour, tried):
        return None

    def dead(self, game):
        return ()


class Hall:
    """The class's boards and their logger, run in real time by a thread of its own."""

    def __init__(self, tmp_path, broker):
        problems = load_problems(course_files())
        self.tables = {}
        for k, desk in enumerate(DESKS):
            brain = Absent() if desk == ABSENT else Student(problems, random.Random(k), wrong=0.3)
            table = SimTable(k, brain, 0.1, board_id=desk)
            table.pipe.send(pr.encode_command("key " + board_key(KEY, desk).hex()))  # (at the desk)
            table.wait(0.2)
            self.tables[desk] = table
        mqtt = MqttOut(broker.address, login=read_login(broker.access.logger_file), name="class")
        self.logger = Logger([], str(tmp_path / "logger"), quiet=True, mqtt=mqtt)
        for desk, table in self.tables.items():
            conn = BoardConnection(desk, self.logger)
            self.logger.connections.append(conn)
            conn.attach(HostSerial(table.pipe), time.monotonic())
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        start = time.monotonic()
        done = 0.0
        while self.running:
            for table in self.tables.values():
                table.wait(0.02)
            self.logger.step()
            done += 0.02
            time.sleep(max(0.0, start + done - time.monotonic()))

    def stop(self):
        self.running = False
        self.thread.join(5)
        self.logger.audit_file.close()


@pytest.fixture
def hall(tmp_path):
    access = Access(str(tmp_path / "broker"), KEY, str(tmp_path))
    access.write(DESKS)
    broker = Broker(access, folder=str(tmp_path / "broker"))
    hall = Hall(tmp_path, broker)
    room = Classroom(broker.address, access.venue, stuck_s=4.0, progress_dir=tmp_path / "progress", key=KEY)
    server = serve(room, port=0)
    yield hall, room, "http://127.0.0.1:%d/" % server.server_address[1]
    server.shutdown()
    room.close()
    hall.stop()
    broker.stop()


def wait_for(pred, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not pred():
        time.sleep(0.1)
    return pred()


@pytest.mark.skipif(not HAVE_CHROMIUM, reason=NO_CHROMIUM)
def test_the_teachers_page_pushes_the_course_to_six_boards_and_shows_one_stuck(hall):
    from playwright.sync_api import expect, sync_playwright

    tables, room, url = hall[0].tables, hall[1], hall[2]
    assert wait_for(lambda: len(room.seats) == 6), sorted(room.seats)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(url)
        expect(page.locator(".tile")).to_have_count(6)
        expect(page.locator("#task option")).to_have_count(1 + 5)  # the course and the five lessons
        page.click("#push button")
        expect(page.locator("#said")).to_have_text("started on 6 boards")
        # Five students solve problems: a tile says right or wrong, and which problem it is on.
        expect(page.locator('.tile[data-state="right"]').first).to_be_visible(timeout=30000)
        expect(page.locator('.tile[data-board="desk1"] .task')).to_contain_text("problems — problem", timeout=30000)
        # The student who does nothing is shown stuck (4 s here), and only that one.
        expect(page.locator('.tile[data-board="%s"]' % ABSENT)).to_have_attribute("data-state", "stuck",
                                                                                  timeout=20000)
        assert page.locator('.tile[data-state="stuck"]').count() == 1
        page.screenshot(path=str(ARTIFACTS / "classroom-six-boards.png"), full_page=True)
        # One board large for the class: its position as the board told it.
        page.click('.tile[data-board="desk2"] button.show')
        expect(page.locator("#large")).to_be_visible()
        expect(page.locator("#large-title")).to_contain_text("desk2")
        expect(page.locator("#large-board circle.stone").first).to_be_attached(timeout=10000)
        page.screenshot(path=str(ARTIFACTS / "classroom-large-board.png"))
        browser.close()
    # What the page said is what the boards did: the problems were set up on the boards, and the
    # tries of the five who worked are in their progress files; the absent student's board has none.
    assert all(tables[desk].sim.app.game.setup_stones != ((), ()) for desk in DESKS)

    def tries(desk):
        path = room.progress_dir / ("progress-%s.json" % desk)
        return json.loads(path.read_text())["tries"] if path.exists() else {}
    assert wait_for(lambda: all(tries(desk) for desk in DESKS if desk != ABSENT))
    assert not tries(ABSENT)


def line(text):
    """A board's line as it says it (with its CRC)."""
    return text + " *" + pr.crc_hex(text.encode()).decode()


def test_a_board_asking_for_stones_to_be_lifted_is_shown_with_what_it_asks():
    seat = Seat("desk9", MqttPort("desk9", lambda board, text: None))
    seat.thread = threading.Thread(target=lambda: time.sleep(0.5))
    seat.thread.start()
    room = Classroom.__new__(Classroom)  # (its line handling only: no broker)
    room._note(seat, line("12 ALERT journal=ok waiting=30 what=lift%20E5"))
    assert seat.summary(time.monotonic(), 60.0)["state"] == "stuck"
    assert seat.summary(time.monotonic(), 60.0)["waiting"] == "lift E5 (30 s)"
    room._note(seat, line("13 ALERT journal=ok waiting=0"))
    assert seat.summary(time.monotonic(), 60.0)["state"] == "working"
    seat.thread.join()
