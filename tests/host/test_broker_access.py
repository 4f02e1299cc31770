"""The venue's broker as an attacker on the hall's network meets it (host_tools/venue/broker.py), and
the logger on it (host_tools/logger/mqtt.py): no anonymous client; each board's logger speaks as that
board and may publish its topics only; only the venue commands; a board with no password stays on
disk; and no message on a board's command or resync topic stops or deafens the logger."""

import json
import shutil
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware.app import App
from firmware.settings import Settings
from host_tools.logger.cli import Logger
from host_tools.logger.connection import BoardConnection
from host_tools.logger.mqtt import MqttOut
from host_tools.records import board_key
from host_tools.venue.broker import Access, Broker, Keeper, board_password, mosquitto_path, note_registered, registered
from twins.hardware import simulated
from twins.link import HostSerial, Pipe
from twins.storage import SimStorage

pytestmark = pytest.mark.skipif(mosquitto_path() is None, reason="no mosquitto (make test installs it)")
KEY = bytes(range(32))  # the venue's


@pytest.fixture
def make_broker(tmp_path):
    """The venue's broker for these boards (stopped at the end, whatever happens)."""
    made = []

    def make(boards, tls=False):
        access = Access(str(tmp_path / "broker"), KEY, str(tmp_path))
        access.write(boards)
        made.append(Broker(access, folder=str(tmp_path / "broker"), tls=tls))
        return made[-1]

    yield make
    for broker in made:
        broker.stop()


class Client:
    """A client of the broker under ``login`` (None: anonymous); what it hears, and the broker's answer."""

    def __init__(self, broker, login=None, subscribe=None):
        self.heard = []
        self.answer = threading.Event()
        self.reason = None
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        if login is not None:
            self.client.username_pw_set(*login)
        if broker.ca:
            self.client.tls_set(ca_certs=broker.ca)
        self.client.on_connect = self._connected
        self.client.on_message = lambda _c, _u, msg: self.heard.append((msg.topic, msg.payload.decode(errors="replace")))
        self.subscribe = subscribe
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert self.answer.wait(5)

    def _connected(self, client, _userdata, _flags, reason, _properties):
        self.reason = str(reason)
        if self.subscribe and not reason.is_failure:
            client.subscribe(self.subscribe, qos=1)
        self.answer.set()

    def publish(self, topic, payload):
        self.client.publish(topic, payload, qos=1).wait_for_publish(5)

    def close(self):
        self.client.disconnect()  # (first: a refused client then waits for no retry)
        self.client.loop_stop()


def wait_for(predicate, step=lambda: time.sleep(0.01), seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        step()
    return predicate()


@pytest.mark.parametrize("tls", [False, True])
def test_no_anonymous_client_and_every_user_on_its_own_topics_only(make_broker, tls):
    if tls and shutil.which("openssl") is None:
        pytest.skip("no openssl (make test installs it)")
    broker = make_broker(["t7", "t8"], tls)
    clients = []
    try:
        venue = Client(broker, broker.access.venue, "goboard/#")
        t7 = Client(broker, ("t7", board_password(KEY, "t7")), "goboard/#")
        logger = Client(broker, broker.access.logger)
        clients += [venue, t7, logger]
        for login in (None, ("t8", board_password(KEY, "t7")), ("t9", board_password(KEY, "t9")),
                      ("venue", "guess")):  # anonymous, another board's password, a board not known, a guess
            refused = Client(broker, login)
            clients.append(refused)
            assert refused.reason == "Not authorized", login
        assert venue.reason == t7.reason == logger.reason == "Success"
        t7.publish("goboard/t8/line", "forged by t7")  # another board's line
        t7.publish("goboard/t7/command", "t7 commands itself")  # a command: the venue's only
        t7.publish("goboard/t7/resync", "t7 asks a resync")
        logger.publish("goboard/logger/line", "a logger's line")  # a logger speaks for no board
        t7.publish("goboard/t7/line", "t7's own")
        logger.publish("goboard/logger/hub/health", "{}")
        venue.publish("goboard/t8/command", "for t8")
        venue.publish("goboard/t7/command", "for t7")
        assert wait_for(lambda: ("goboard/t7/command", "for t7") in t7.heard)
        assert wait_for(lambda: ("goboard/t7/command", "for t7") in venue.heard)
        assert [m for m in venue.heard if "command" not in m[0]] == [
            ("goboard/t7/line", "t7's own"), ("goboard/logger/hub/health", "{}")]
        assert t7.heard == [("goboard/t7/command", "for t7")]  # (it asked for goboard/#: its own commands only)
    finally:
        for client in clients:
            client.close()
    if tls:
        assert broker.ca and "cafile" in broker.conf.read_text()


def test_a_board_registered_at_the_desk_is_let_in_without_a_restart(tmp_path, make_broker):
    broker = make_broker(["t7"])
    keeper = Keeper(broker.access, lambda: {"t7"} | registered(str(tmp_path)), broker)
    t9 = ("t9", board_password(KEY, "t9"))
    assert Client(broker, t9).reason == "Not authorized"
    note_registered(str(tmp_path), "t9")  # (python -m host_tools.venue.keys register does this)
    assert keeper.update()  # (its thread does it every 2 s)
    assert wait_for(lambda: Client(broker, t9).reason == "Success", seconds=5)
    assert not keeper.update()  # nothing new: the broker is left alone


class Hall:
    """Boards on twins, each on its cable into one in-process logger on the venue's broker."""

    def __init__(self, tmp_path, broker, boards):
        self.apps = {}
        self.hws = {}
        self.mqtt = MqttOut(broker.address, login=broker.access.logger, ca=broker.ca, name="hub")
        self.logger = Logger([], str(tmp_path / "out"), quiet=True, mqtt=self.mqtt)
        self.t = 0
        for name, keyed in boards:
            pipe = Pipe()
            hw = simulated("presence", pipe.board, SimStorage(), board_id=name)
            app = App(hw, Settings(size=9), boot=1)
            if keyed:
                app.command("key", [board_key(KEY, name).hex()], 0)
            self.apps[name], self.hws[name] = app, hw
            conn = BoardConnection(name, self.logger)
            self.logger.connections.append(conn)
            conn.attach(HostSerial(pipe), time.monotonic())

    def step(self):
        for name, app in self.apps.items():
            self.hws[name].stones.set_time(self.t)
            app.step(self.t)
        self.t += 10
        self.logger.step()
        time.sleep(0.002)

    def play(self, name, col, row, colour):
        app = self.apps[name]
        self.hws[name].stones.place(app.referee.region.phys_of[(row + 1) * (app.game.size + 2) + col + 1], colour)
        moves = app.game.move_number
        assert wait_for(lambda: app.game.move_number == moves + 1, self.step)

    def conn(self, name):
        return next(c for c in self.logger.connections if c.port == name)

    def audit(self):
        with open(self.logger.out_dir + "/audit.jsonl") as f:
            return [json.loads(x) for x in f.read().splitlines()]

    def close(self):
        self.mqtt.close(sorted(self.apps))
        self.logger.audit_file.close()


def test_a_registered_board_is_on_the_broker_as_itself_an_unregistered_one_on_disk_only(tmp_path, make_broker):
    broker = make_broker(["t7", "t8"])
    venue = Client(broker, broker.access.venue, "goboard/#")
    hall = Hall(tmp_path, broker, [("t7", True), ("t8", False)])
    try:
        assert wait_for(lambda: hall.mqtt.where.get("t7") == "on the broker", hall.step)
        hall.play("t7", 2, 2, 1)
        hall.play("t8", 6, 6, 1)
        assert wait_for(lambda: any(t == "goboard/t7/line" and " MOVE 1 B cc " in p for t, p in venue.heard),
                        hall.step)
        assert wait_for(lambda: (tmp_path / "out" / "t8-1-g1.sgf").exists(), hall.step)  # recorded as ever
        assert not any(t.startswith("goboard/t8/") for t, _p in venue.heard)  # and kept off the broker
        assert "NOT ON THE BROKER: not registered with a venue" in hall.conn("t8").line()
        assert "NOT ON THE BROKER" not in hall.conn("t7").line()
        assert wait_for(lambda: any(t == "goboard/logger/hub/health" and json.loads(p)["boards"] == {
            "t7": "on the broker", "t8": "not registered with a venue"} for t, p in venue.heard), hall.step)
        said = [a for a in hall.audit() if a["event"] == "password"]
        password = board_password(KEY, "t7")  # the board's own answer (firmware/host/signing.py), never kept
        assert len(said) == 1 and "OK mqtt (not kept)" in said[0]["line"]
        assert password not in open(hall.logger.out_dir + "/audit.jsonl").read()
        assert not any(password in p for _t, p in venue.heard)
    finally:
        hall.close()
        venue.close()


BAD = [
    ("command", '{"text": "\\ud800"}'),  # a lone surrogate: once the end of the logger
    ("command", "[" * 3000),  # nested: once a logger deaf for good
    ("command", "{" * 3000),
    ("resync", '{"from": ' + "[" * 3000 + "]" * 3000 + "}"),
    ("command", "not json"), ("command", b"\xff\xfe"), ("command", "[]"), ("command", "null"),
    ("command", '{"text": 7}'), ("command", '{"text": ""}'), ("command", '{"text": "mem", "by": "\\u0007"}'),
    ("command", '{"text": "end B+R\\nend W+R"}'), ("command", '{"text": "mem", "by": ["me"]}'),
    ("command", '{"text": "' + "m" * 300 + '"}'), ("command", "1e400"), ("command", "x" * 5000),
    ("resync", '{"from": "0"}'), ("resync", '{"from": -1}'), ("resync", '{"from": 1e400}'),
    ("resync", '{"from": true}'), ("resync", '{"from": 99999999999999999999}'), ("resync", "{}"),
]


def test_no_message_kills_or_deafens_the_logger(tmp_path, make_broker):
    broker = make_broker(["t7"])
    venue = Client(broker, broker.access.venue, "goboard/#")
    hall = Hall(tmp_path, broker, [("t7", True)])
    try:
        assert wait_for(lambda: hall.mqtt.where.get("t7") == "on the broker", hall.step)
        hall.play("t7", 2, 2, 1)
        for what, payload in BAD:
            venue.publish("goboard/t7/" + what, payload)
        assert wait_for(lambda: hall.mqtt.dropped == len(BAD), hall.step), hall.mqtt.dropped
        before = len(venue.heard)
        venue.publish("goboard/t7/resync", json.dumps({"from": 0}))  # it still hears, and answers
        venue.publish("goboard/t7/command", json.dumps({"text": "mem", "by": "kim"}))
        assert wait_for(lambda: any(t == "goboard/t7/line" and " MEM " in p for t, p in venue.heard[before:]),
                        hall.step)
        assert any(t == "goboard/t7/line" and json.loads(p)["seq"] == 0 for t, p in venue.heard[before:])
        dropped = [a for a in hall.audit() if a["event"] == "dropped"]
        assert len(dropped) == len(BAD) and all(a["board"] == "t7" for a in dropped)
        assert wait_for(lambda: any(t == "goboard/logger/hub/health" and json.loads(p)["dropped"] == len(BAD)
                                    for t, p in venue.heard), hall.step)
        hall.play("t7", 6, 6, 2)  # and it records on
        assert wait_for(lambda: any(" MOVE 2 W gg " in p for t, p in venue.heard), hall.step)
    finally:
        hall.close()
        venue.close()
