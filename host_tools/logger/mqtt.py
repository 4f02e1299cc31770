"""The logger's MQTT side (``--mqtt HOST:PORT``), paho-mqtt 2.x.

Topics, per board (``<root>/<board id>/...``, root ``goboard``):

- ``line``: every line the logger took from the board, in order (JSON: boot, seq, raw:
  the line as the board wrote it, CRC included, prev: the number of the line
  published before it for this board, -1 for the first), QoS 1, not retained: the
  venue service's feed (host_tools/venue);
- ``move``: every move as it is recorded (JSON: n, colour, point, ms), not retained;
- ``state``: the game so far (JSON: game, moves, result, boot, seq: the last line's
  number), retained, so a display that subscribes late sees it at once;
- ``status``: ``online`` / ``offline``, retained: ``offline`` when the board's
  port is lost or the board stays silent.

And to the logger: ``<root>/<board>/resync`` (JSON: from) publishes that board's
lines again from that number, from the logger's records (its audit log, so a
restarted logger has them too); ``<root>/<board>/command`` (JSON: text, by) is a
host command for that board (docs/protocol.md), sent on its serial link.

The logger's own ``<root>/logger/status`` is ``online`` while it runs and its
last will ``offline`` (the broker publishes it if the logger dies).
"""

from __future__ import annotations

import json
import queue
import threading

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion


class MqttOut:
    def __init__(self, hostport: str, root: str = "goboard", client_id: str = ""):
        host, _, port = hostport.rpartition(":")
        self.root = root
        self.inbox: queue.Queue[tuple[str, str, dict]] = queue.Queue()  # (board, resync|command, payload)
        self.sent: dict[str, list[tuple[int, int, str]]] = {}  # board -> (boot, seq, raw) published, in order
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        self.client.will_set(root + "/logger/status", "offline", qos=1, retain=True)
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self._status: dict[str, str] = {}
        self._up = threading.Event()
        self.client.connect(host or "127.0.0.1", int(port or 1883), keepalive=10)
        self.client.loop_start()
        self._up.wait(5)  # (publishing before the broker's answer can stall paho's in-flight window)

    def _connected(self, client, _userdata, _flags, _reason, _properties):
        """(Again after a broker restart: paho reconnects by itself.)"""
        client.subscribe([(self.root + "/+/resync", 1), (self.root + "/+/command", 1)])
        client.publish(self.root + "/logger/status", "online", qos=1, retain=True)
        for name, value in self._status.items():
            client.publish("%s/%s/status" % (self.root, name), value, qos=1, retain=True)
        self._up.set()

    def _message(self, _client, _userdata, msg):
        _root, board, what = msg.topic.rsplit("/", 2)
        try:
            payload = json.loads(msg.payload)
        except ValueError:
            return
        if isinstance(payload, dict):
            self.inbox.put((board, what, payload))

    def publish(self, board_id, what, payload, retain=False):
        name = board_id or "board"
        if what in ("move", "state"):
            self.status(board_id, "online")
        self.client.publish("%s/%s/%s" % (self.root, name, what), json.dumps(payload), qos=1, retain=retain)

    def line(self, board_id: str, boot: int, seq: int, raw: str):
        """Publish one line just taken from a board."""
        self.remember(board_id, boot, seq, raw)
        sent = self.sent[board_id]
        self._line(board_id, boot, seq, raw, sent[-2][1] if len(sent) > 1 else -1)

    def remember(self, board_id: str, boot: int, seq: int, raw: str):
        """A line published (or, at start-up, one the audit log says the logger took)."""
        sent = self.sent.setdefault(board_id, [])
        if sent and seq <= sent[-1][1]:
            sent.clear()  # the board numbers its lines from 0 again (its journal was lost)
        sent.append((boot, seq, raw))

    def _line(self, board_id, boot, seq, raw, prev):
        payload = {"boot": boot, "seq": seq, "raw": raw, "prev": prev}
        self.client.publish("%s/%s/line" % (self.root, board_id), json.dumps(payload), qos=1)

    def _prev(self, board_id, seq):
        prev = -1
        for _boot, s, _raw in self.sent.get(board_id, ()):
            if s >= seq:
                break
            prev = s
        return prev

    def resend(self, board_id: str, first: int) -> int:
        """A resync: the board's lines from number ``first`` again; how many."""
        sent = [item for item in self.sent.get(board_id, ()) if item[1] >= first]
        prev = self._prev(board_id, sent[0][1]) if sent else -1
        for boot, seq, raw in sent:
            self._line(board_id, boot, seq, raw, prev)
            prev = seq
        return len(sent)

    def status(self, board_id, value):
        name = board_id or "board"
        if self._status.get(name) != value:
            self._status[name] = value
            self.client.publish("%s/%s/status" % (self.root, name), value, qos=1, retain=True)

    def close(self):
        self.client.publish(self.root + "/logger/status", "offline", qos=1, retain=True).wait_for_publish(2)
        self.client.loop_stop()
        self.client.disconnect()
