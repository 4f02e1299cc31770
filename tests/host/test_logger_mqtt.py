"""``--mqtt``: the logger publishes moves, retained state and status to a real Mosquitto."""

import json
import os
import shutil
import socket
import subprocess
import time

import pytest
from sgfmill import sgf as sgfmill

from .test_logger_e2e import RECORD, moves_of, play

MOSQUITTO = "/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else shutil.which("mosquitto")
pytestmark = pytest.mark.skipif(
    MOSQUITTO is None, reason="no mosquitto broker (/usr/sbin/mosquitto): `make test` installs it "
    "with scripts/ensure-system.sh mosquitto (Debian package mosquitto)")


@pytest.fixture
def broker(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf = tmp_path / "mosquitto.conf"
    conf.write_text("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n" % port)
    proc = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    yield port
    proc.terminate()
    proc.wait()


def subscriber(port, got):
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_message = lambda _c, _u, msg: got.append((msg.topic, msg.payload.decode(), msg.retain))
    client.connect("127.0.0.1", port)
    client.subscribe("goboard/#", qos=1)
    client.loop_start()
    return client


def wait_for(pred, seconds=5):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not pred():
        time.sleep(0.05)
    return pred()


def test_logger_publishes_to_mosquitto(tmp_path, broker):
    live = []
    watcher = subscriber(broker, live)
    time.sleep(0.2)
    late = []
    checks = {}

    def after():  # while the logger still runs: a display that subscribes late
        late_client = subscriber(broker, late)
        checks["state"] = wait_for(lambda: any(t == "goboard/table7/state" and r for t, _p, r in late))

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
        "logger_args": ("--mqtt", "127.0.0.1:%d" % broker), "after": after})
    assert len(moves_of(got)) == len(expected)
    assert checks["state"]
    state = json.loads([p for t, p, r in late if t == "goboard/table7/state"][-1])
    assert state["moves"] == len(expected) and state["game"] == 1
    moves = [json.loads(p) for t, p, _r in live if t == "goboard/table7/move"]
    assert [m["n"] for m in moves][-1] == len(expected)
    assert ("goboard/table7/status", "online", False) in live
    # The logger was killed: the broker publishes its last will.
    assert wait_for(lambda: ("goboard/logger/status", "offline", False) in live)
    watcher.loop_stop()
    watcher.disconnect()
