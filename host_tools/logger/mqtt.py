"""The logger's MQTT side (``--mqtt HOST:PORT``), paho-mqtt 2.x.

Each board speaks for itself: the logger asks a registered board for its password on
the venue's broker (the board's ``mqtt`` command, docs/protocol.md) and connects a
client of its own for it, as the board (user: its id), so the broker (host_tools/venue/
broker.py) lets it publish that board's topics only and hear that board's commands only.
A board with no password (not registered, or not known to the broker) is recorded to
disk as ever and kept off the broker; the logger says so. The logger's own client
(``--mqtt-login``) says only how the logger is.

Topics, per board (``<root>/<board id>/...``, root ``goboard``):

- ``line``: every line the logger took from the board, in order (JSON: boot, seq, raw:
  the line as the board wrote it, CRC included, prev: the number of the line
  published before it for this board, -1 for the first), QoS 1, not retained: the
  venue service's feed (host_tools/venue); its board's password reply is never published;
- ``move``: every move as it is recorded (JSON: n, colour, point, ms), not retained;
- ``state``: the game so far (JSON: game, moves, result, boot, seq: the last line's
  number), retained, so a display that subscribes late sees it at once;
- ``status``: ``online`` / ``offline``, retained: ``offline`` when the board's
  port is lost or the board stays silent, and the board client's last will.

And to the logger: ``<root>/<board>/resync`` (JSON: from) publishes that board's
lines again from that number, from the logger's records (its audit log, so a
restarted logger has them too); ``<root>/<board>/command`` (JSON: text, by) is a
host command for that board (docs/protocol.md), sent on its serial link. Whatever
else comes there (not JSON, nested too deep, a text that is not a printable ASCII
command...) is dropped, counted and audited: no message stops or deafens the logger.

The logger's own ``<root>/logger/status`` is ``online`` while it runs and its last
will ``offline``; ``<root>/logger/<name>/health`` (retained JSON) says which boards
it records, which are on the broker (or why not) and how many messages it dropped.
"""

from __future__ import annotations

import json
import queue
import re
import socket
import threading

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware import protocol as pr

MAX_PAYLOAD = 4096  # a command or resync larger than this is no venue's
MAX_SEQ = 1 << 31
ON_BROKER = "on the broker"


def checked(what: str, payload: bytes) -> dict:
    """A resync's or command's payload, checked; ValueError naming what is wrong (and any
    error json raises on a hostile text, e.g. RecursionError: the caller drops the message)."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("%d bytes" % len(payload))
    data = json.loads(payload)
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if what == "resync":
        first = data.get("from")
        if type(first) is not int or not 0 <= first < MAX_SEQ:
            raise ValueError("from is not a line number")
        return {"from": first}
    text, by = data.get("text"), data.get("by", "?")
    if not isinstance(text, str) or not 0 < len(text) <= pr.MAX_COMMAND - 10 or not text.isascii() \
            or not text.isprintable():
        raise ValueError("text is not a host command")
    if not isinstance(by, str) or not by.isprintable():
        raise ValueError("by is not a name")
    return {"text": text, "by": by[:40]}


def topic_level(name: str) -> str:
    """``name`` as one MQTT topic level (no ``/``, ``+`` or ``#``)."""
    return re.sub(r"[/+#\s]", "-", name) or "logger"


class MqttOut:
    """The broker as the logger sees it. Callbacks run in paho's threads: what they hear goes to
    ``inbox`` as ``(board, what, payload)`` for the logger's loop (what: resync, command,
    dropped, connected, refused); everything else is called from that loop."""

    def __init__(self, hostport: str, root: str = "goboard", login: tuple[str, str] | None = None,
                 ca: str | None = None, name: str | None = None):
        host, _, port = hostport.rpartition(":")
        self.address = (host or "127.0.0.1", int(port or 1883))
        self.root = root
        self.ca = ca
        self.name = topic_level(name or socket.gethostname())
        self.inbox: queue.Queue[tuple[str, str, dict]] = queue.Queue()
        self.sent: dict[str, list[tuple[int, int, str]]] = {}  # board -> (boot, seq, raw) published, in order
        self.boards: dict[str, mqtt.Client] = {}  # board -> its own client
        self.where: dict[str, str] = {}  # board -> ON_BROKER, or why it is not
        self.dropped = 0  # messages dropped (audited)
        self._status: dict[str, str] = {}
        self._up = threading.Event()
        self.own = self._client(login, root + "/logger/status")
        self.own.on_connect = self._own_connected
        self.own.connect_async(*self.address, keepalive=10)
        self.own.loop_start()
        self._up.wait(5)  # (publishing before the broker's answer can stall paho's in-flight window)

    def _client(self, login, will_topic):
        client = mqtt.Client(CallbackAPIVersion.VERSION2)
        if login is not None:
            client.username_pw_set(*login)
        if self.ca:
            client.tls_set(ca_certs=self.ca)
        client.will_set(will_topic, "offline", qos=1, retain=True)
        client.reconnect_delay_set(1, 30)  # (a board refused now may be known after the venue's next reload)
        return client

    def _own_connected(self, client, _userdata, _flags, reason, _properties):
        """(Again after a broker restart: paho reconnects by itself.)"""
        if not reason.is_failure:
            client.publish(self.root + "/logger/status", "online", qos=1, retain=True)
            self.inbox.put(("", "connected", {}))
        else:
            self.inbox.put(("", "refused", {"why": str(reason)}))
        self._up.set()

    # -- a board's own client ------------------------------------------------------------

    def allow(self, board: str, password: str) -> None:
        """The board told its password: a client of its own, as the board, from now on."""
        if board in self.boards or topic_level(board) != board:
            return
        client = self._client((board, password), "%s/%s/status" % (self.root, board))
        client.on_connect = lambda c, _u, _f, reason, _p: self._board_connected(board, c, reason)
        client.on_message = lambda _c, _u, msg: self._message(board, msg)
        self.boards[board] = client
        self.where[board] = "connecting"
        client.connect_async(*self.address, keepalive=10)
        client.loop_start()

    def deny(self, board: str, why: str) -> None:
        """The board has no password for the broker (``why``): recorded to disk only."""
        if board not in self.boards:
            self.where[board] = why

    def why_not(self, board: str) -> str:
        """Why the board is kept off the broker ("" if it is on it, or on its way)."""
        where = self.where.get(board, "")
        return "" if where in (ON_BROKER, "connecting") else where

    def _board_connected(self, board, client, reason):
        if reason.is_failure:
            self.inbox.put((board, "refused", {"why": str(reason)}))
            return
        r = self.root
        client.subscribe([("%s/%s/resync" % (r, board), 1), ("%s/%s/command" % (r, board), 1)])
        self.inbox.put((board, "connected", {}))

    def connected(self, board: str) -> None:
        """(The logger's loop, told by the inbox.) The board is on the broker: its status, and
        its last line again, so a venue that lacks lines before it asks for them."""
        self.where[board] = ON_BROKER
        if board in self._status:
            self.boards[board].publish("%s/%s/status" % (self.root, board), self._status[board], qos=1, retain=True)
        sent = self.sent.get(board)
        if sent:
            boot, seq, raw = sent[-1]
            self._line(board, boot, seq, raw, sent[-2][1] if len(sent) > 1 else -1)

    def _message(self, board, msg):
        """A resync or a command for ``board``, checked here: anything else is dropped (never
        raised: an exception would end this client's thread and leave the board deaf)."""
        what = msg.topic.rsplit("/", 1)[-1]
        try:
            if msg.topic != "%s/%s/%s" % (self.root, board, what) or what not in ("resync", "command"):
                raise ValueError("not a topic of this board's")
            self.inbox.put((board, what, checked(what, msg.payload)))
        except Exception as error:  # noqa: BLE001 - whatever a payload makes json or the checks raise
            self.inbox.put((board, "dropped", {"topic": msg.topic[:80], "why": type(error).__name__,
                                               "detail": str(error)[:80]}))

    # -- publishing ----------------------------------------------------------------------

    def publish(self, board_id, what, payload, retain=False):
        client = self.boards.get(board_id)
        if client is None:
            return  # not on the broker
        if what in ("move", "state"):
            self.status(board_id, "online")
        client.publish("%s/%s/%s" % (self.root, board_id, what), json.dumps(payload), qos=1, retain=retain)

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
        client = self.boards.get(board_id)
        if client is not None:
            payload = {"boot": boot, "seq": seq, "raw": raw, "prev": prev}
            client.publish("%s/%s/line" % (self.root, board_id), json.dumps(payload), qos=1)

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
        if not board_id or self._status.get(board_id) == value:
            return
        self._status[board_id] = value
        client = self.boards.get(board_id)
        if client is not None:
            client.publish("%s/%s/status" % (self.root, board_id), value, qos=1, retain=True)

    def health(self, boards: list[str], state: str = "online"):
        """The logger's retained health: the boards on its ports, where each is, the drops."""
        payload = {"state": state, "boards": {b: self.where.get(b, "asking") for b in boards}, "dropped": self.dropped}
        return self.own.publish("%s/logger/%s/health" % (self.root, self.name), json.dumps(payload), qos=1,
                                retain=True)

    def close(self, boards: list[str]):
        waits = [self.health(boards, "offline"),
                 self.own.publish(self.root + "/logger/status", "offline", qos=1, retain=True)]
        waits += [client.publish("%s/%s/status" % (self.root, board), "offline", qos=1, retain=True)
                  for board, client in self.boards.items() if client.is_connected()]
        for info in waits:
            if info.rc == mqtt.MQTT_ERR_SUCCESS:
                info.wait_for_publish(2)
        for client in [self.own, *self.boards.values()]:
            client.disconnect()  # (first: a client the broker refused then waits for no retry)
            client.loop_stop()
