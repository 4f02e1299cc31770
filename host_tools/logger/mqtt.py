"""The logger's MQTT output (``--mqtt HOST:PORT``), paho-mqtt 2.x.

Topics, per board (``<root>/<board id>/...``, root ``goboard``):

- ``move``: every move as it is recorded (JSON: n, colour, point, ms), not retained;
- ``state``: the game so far (JSON: game, moves, result), retained, so a display
  that subscribes late sees it at once;
- ``status``: ``online`` / ``offline``, retained: ``offline`` when the board's
  port is lost or the board stays silent.

The logger's own ``<root>/logger/status`` is ``online`` while it runs and its
last will ``offline`` (the broker publishes it if the logger dies).
"""

from __future__ import annotations

import json

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion


class MqttOut:
    def __init__(self, hostport: str, root: str = "goboard", client_id: str = ""):
        host, _, port = hostport.rpartition(":")
        self.root = root
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        self.client.will_set(root + "/logger/status", "offline", qos=1, retain=True)
        self.client.connect(host or "127.0.0.1", int(port or 1883), keepalive=10)
        self.client.loop_start()
        self.client.publish(root + "/logger/status", "online", qos=1, retain=True)
        self._status: dict[str, str] = {}

    def publish(self, board_id, what, payload, retain=False):
        name = board_id or "board"
        if what in ("move", "state"):
            self.status(board_id, "online")
        self.client.publish("%s/%s/%s" % (self.root, name, what), json.dumps(payload), qos=1, retain=retain)

    def status(self, board_id, value):
        name = board_id or "board"
        if self._status.get(name) != value:
            self._status[name] = value
            self.client.publish("%s/%s/status" % (self.root, name), value, qos=1, retain=True)

    def close(self):
        self.client.publish(self.root + "/logger/status", "offline", qos=1, retain=True).wait_for_publish(2)
        self.client.loop_stop()
        self.client.disconnect()
