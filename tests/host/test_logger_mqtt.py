"""``--mqtt``: the logger publishes moves, retained state and status to a real Mosquitto."""

import json
import time

import pytest
from sgfmill import sgf as sgfmill

from host_tools.venue.broker import Access, Broker, mosquitto_path

from .test_logger_e2e import RECORD, moves_of, play

pytestmark = pytest.mark.skipif(
    mosquitto_path() is None, reason="no mosquitto broker (/usr/sbin/mosquitto): `make test` installs it "
    "with scripts/ensure-system.sh mosquitto (Debian package mosquitto)")
KEY = bytes(range(32))  # the venue's


@pytest.fixture
def broker(tmp_path):
    """The venue's broker for board table7 (host_tools/venue/broker.py): logins, no anonymous client."""
    access = Access(str(tmp_path / "broker"), KEY, str(tmp_path))
    access.write(["table7"])
    b = Broker(access, folder=str(tmp_path / "broker"))
    yield b
    b.stop()


def subscriber(broker, got):
    """A client that hears everything (the venue's login: nobody else may)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.username_pw_set(*broker.access.venue)
    client.on_message = lambda _c, _u, msg: got.append((msg.topic, msg.payload.decode(), msg.retain))
    client.connect("127.0.0.1", broker.port)
    client.subscribe("goboard/#", qos=1)
    client.loop_start()
    return client


def wait_for(pred, seconds=5):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not pred():
        time.sleep(0.05)
    return pred()


def heard(messages):
    """What a subscriber heard, in short: each topic, how often, retained or not."""
    counts = {}
    for topic, _payload, retained in messages:
        counts[topic, retained] = counts.get((topic, retained), 0) + 1
    return sorted(counts.items()) or "nothing"


def test_logger_publishes_to_mosquitto(tmp_path, broker):
    live = []
    watcher = subscriber(broker, live)
    time.sleep(0.2)
    late = []
    checks = {}

    def after():  # while the logger still runs: a display that subscribes late
        late_client = subscriber(broker, late)
        checks["state"] = wait_for(lambda: any(t == "goboard/table7/state" and r for t, _p, r in late), seconds=15)

        # The game is on file; its last state may still be on its way (paho sends in the background).
        on_file = sgfmill.Sgf_game.from_bytes(next((tmp_path / "out").glob("*.sgf")).read_bytes())
        played = len(on_file.get_main_sequence()) - 1

        def caught_up():
            states = [json.loads(p) for t, p, _r in late if t == "goboard/table7/state"]
            return bool(states) and states[-1]["moves"] == played

        wait_for(caught_up, seconds=15)
        late_client.loop_stop()
        late_client.disconnect()

    (tmp_path / "out").mkdir()
    got, expected, _audit, _record, _sim = play(tmp_path / "out", RECORD, {
        "logger_args": ("--mqtt", broker.address, "--mqtt-login", broker.access.logger_file, "--name", "hub1"),
        "after": after, "venue_key": KEY})
    assert len(moves_of(got)) == len(expected)
    assert checks["state"], "late subscriber heard %s; the watcher %s" % (heard(late), heard(live))
    state = json.loads([p for t, p, r in late if t == "goboard/table7/state"][-1])
    assert state["moves"] == len(expected) and state["game"] == 1
    moves = [json.loads(p) for t, p, _r in live if t == "goboard/table7/move"]
    assert [m["n"] for m in moves][-1] == len(expected)
    assert ("goboard/table7/status", "online", False) in live
    lines = [json.loads(p)["raw"] for t, p, _r in live if t == "goboard/table7/line"]
    assert any(" MOVE " in raw for raw in lines) and not any(" OK mqtt " in raw for raw in lines)  # (its password)
    health = [json.loads(p) for t, p, _r in live if t == "goboard/logger/hub1/health"]
    assert health[-1]["boards"] == {"table7": "on the broker"} and health[-1]["dropped"] == 0
    # The logger was killed: the broker publishes its last will.
    assert wait_for(lambda: ("goboard/logger/status", "offline", False) in live)
    watcher.loop_stop()
    watcher.disconnect()
