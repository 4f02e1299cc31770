"""Nothing malformed is fatal to the venue: messages no logger sends, on a real Mosquitto, are
dropped with an audit line while the venue's MQTT thread goes on archiving; ``health()`` says
how the feed and the archive are doing."""

import json
import time

import paho.mqtt.client as mqtt
import pytest
import sqlalchemy as sa
from paho.mqtt.enums import CallbackAPIVersion

from host_tools.board import protocol as ph
from host_tools.venue import feed
from host_tools.venue.archive import Archive
from host_tools.venue.broker import Access, Broker, mosquitto_path
from host_tools.venue.service import Venue

from .venue_hall import bad_messages


def raw(seq, kind, *fields):
    return ph.encode(seq, kind, fields).decode().rstrip("\n")


def test_every_bad_payload_is_refused_by_the_feed_with_a_reason():
    for topic, payload in bad_messages():
        with pytest.raises(ValueError):
            board, what = feed.topic(topic, "goboard")
            (feed.line if what == "line" else feed.status)(payload)
    good = json.dumps({"boot": 1, "seq": 0, "raw": raw(0, "SKIP"), "prev": -1}).encode()
    assert feed.line(good) == (1, 0, raw(0, "SKIP"), -1)


@pytest.mark.skipif(mosquitto_path() is None, reason="no mosquitto (make test installs it)")
def test_bad_messages_on_the_broker_are_dropped_and_the_venue_goes_on(tmp_path):
    # (sent with the venue's own login: the broker's rules keep everyone else off these topics,
    # so this is a venue or logger gone wrong)
    access = Access(str(tmp_path / "broker"), bytes(32), str(tmp_path))
    broker = Broker(access, folder=str(tmp_path))
    venue = Venue(Archive("sqlite:///%s" % (tmp_path / "venue.db")), broker.address, login=access.venue)
    venue.start()
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.username_pw_set(*access.venue)
    try:
        client.connect("127.0.0.1", broker.port)
        client.loop_start()
        assert wait(lambda: venue.health()["mqtt"]["connected"])
        bad = bad_messages()
        for topic, payload in bad:
            client.publish(topic, payload, qos=1).wait_for_publish(5)
        good = {"boot": 1, "seq": 0, "raw": raw(0, "GAME", "1", "rules=japanese", "size=9", "komi=6.5",
                                                 "handicap=0", "boot=1"), "prev": -1}
        client.publish("goboard/t1/line", json.dumps(good), qos=1).wait_for_publish(5)
        assert wait(lambda: venue.archive.all_lines())  # archived: the venue's thread lives on
        assert venue.client._thread.is_alive()
        # (QoS 1 keeps no order across topics: a bad message may come after the good line)
        assert wait(lambda: venue.health()["mqtt"]["dropped"] == len(bad)), venue.health()
        health = venue.health()
        assert health["ok"] and health["mqtt"]["dropped"] == len(bad), health
        assert health["archive"]["writable"] and health["lines"]["new"] == 1
        assert health["mqtt"]["last_message"] > 0 and "not a board name" in health["mqtt"]["last_dropped"]["why"]
        audit = [a for a in venue.archive.actions() if a["what"] == "dropped"]
        assert audit and "dropped since the last note" in audit[0]["detail"]
    finally:
        client.loop_stop()
        venue.stop()
        broker.stop()
    assert not venue.health()["mqtt"]["connected"]


def test_health_says_when_the_archive_cannot_be_written(tmp_path, monkeypatch):
    venue = Venue(Archive("sqlite:///%s" % (tmp_path / "venue.db")), "127.0.0.1:1")

    def refuse():
        raise sa.exc.OperationalError("UPDATE boards", {}, Exception("attempt to write a readonly database"))

    monkeypatch.setattr(venue.archive, "probe", refuse)
    monkeypatch.setattr(venue.archive, "add_line", lambda *a, **k: refuse())
    venue._message(None, None, type("M", (), {"topic": "goboard/t1/line", "payload": json.dumps(
        {"boot": 1, "seq": 0, "raw": raw(0, "SKIP"), "prev": -1}).encode()})())
    health = venue.health()
    assert not health["ok"] and not health["archive"]["writable"] and "readonly" in health["archive"]["error"]


def wait(predicate, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()
