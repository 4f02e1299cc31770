"""The venue service's core: the boards' lines from MQTT into the archive and the two views.

Boards -> loggers (``python -m host_tools.logger --mqtt``) -> the broker -> here.
Every line arrives as ``<root>/<board>/line`` (host_tools/logger/mqtt.py) with the
number of the line the logger published before it (``prev``). A line whose
``prev`` the venue has not applied is held, and the venue asks that board's
logger to publish again from the last line it has (``<root>/<board>/resync``);
so does every (re)connection to the broker and every logger coming online. A
line already kept is dropped (the archive's key: board, boot, number), and a
different line under a kept key is flagged, never kept. Nothing is lost or
doubled when the broker, a logger or the venue restarts: the venue's MQTT
session is persistent (QoS 1, its messages wait at the broker), it rebuilds its
views from the archive at start, and the resyncs fill whatever was missed.

Two views of each board: ``live`` (referees) and ``public``, fed the same lines
``delay`` seconds later (the broadcast delay). Pages are told of changes through
``Hub`` (host_tools/venue/web.py streams them): at most every ``FLUSH_S``.
"""

from __future__ import annotations

import collections
import json
import threading
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware.protocol_host import decode
from host_tools.records import board_key
from host_tools.venue.archive import Archive
from host_tools.venue.boards import BoardView
from host_tools.venue.keys import clock_counter, signed_command

FLUSH_S = 0.1  # how often the pages hear of the boards that changed
RESYNC_WAIT_S = 2.0  # a board's resync is not asked again sooner


class Hub:
    """Listeners of one or both views; each gets ``(view, board summary)`` items on its queue."""

    def __init__(self):
        self._listeners: list[tuple[str, collections.deque, threading.Event]] = []
        self._lock = threading.Lock()

    def listen(self, view: str):
        item = (view, collections.deque(maxlen=2000), threading.Event())
        with self._lock:
            self._listeners.append(item)
        return item

    def leave(self, item) -> None:
        with self._lock:
            if item in self._listeners:
                self._listeners.remove(item)

    def send(self, view: str, summary: dict) -> None:
        data = json.dumps(summary)
        with self._lock:
            for want, queue, ready in self._listeners:
                if want == view:
                    queue.append(data)
                    ready.set()


class Venue:
    """Every board of the venue; ``start()`` connects to the broker, ``stop()`` leaves."""

    def __init__(self, archive: Archive, broker: str = "127.0.0.1:1883", root: str = "goboard", delay: float = 0.0,
                 client_id: str = "venue", key: bytes | None = None, login: tuple[str, str] | None = None,
                 ca: str | None = None):
        """``key``: the venue's secret, from which each board's is derived (host_tools/records.py):
        signed results are checked with it; None: they are not. ``login``: the venue's user and
        password on the broker; ``ca``: TLS, the broker checked against this CA certificate
        (host_tools/venue/broker.py)."""
        self.archive = archive
        self.key = key
        self._counter = 0  # the last signed command's
        self.sent: dict[str, collections.deque] = {}  # board -> the commands sent it, not answered yet
        self.root = root
        self.delay = delay
        self.hub = Hub()
        self.live: dict[str, BoardView] = {}
        self.public: dict[str, BoardView] = {}
        self.lock = threading.RLock()
        self.held: dict[str, dict[int, dict]] = {}  # board -> prev -> a line waiting for that one
        self.applied: dict[str, int] = {}  # board -> the number of the last line applied
        self.asked: dict[str, float] = {}  # board -> when its resync was asked
        self.pending: collections.deque = collections.deque()  # (release, board, seq, raw, at) for the public view
        self.dirty: set[tuple[str, str]] = set()  # (view, board) to tell the pages about
        self.loggers = "offline"
        self.counts = collections.Counter()  # new, duplicate, conflict, held, resync lines
        self.latency: collections.deque = collections.deque(maxlen=20000)  # (received - logged) seconds
        self._running = False
        self._restore()
        host, _, port = broker.rpartition(":")
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
        if login is not None:
            self.client.username_pw_set(*login)
        if ca is not None:
            self.client.tls_set(ca_certs=ca)
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.broker = (host or "127.0.0.1", int(port or 1883))

    # -- start and stop -------------------------------------------------------------

    def _restore(self) -> None:
        """The views as the archive has them (a restarted venue starts where it stopped)."""
        now = time.time()
        for board, boot, seq, raw, received in self.archive.all_lines():
            self._view("live", board).take(seq, raw, received)
            self._booted(board, boot)
            self.applied[board] = seq
            if received + self.delay <= now:
                self._view("public", board).take(seq, raw, received)
            else:
                self.pending.append((received + self.delay, board, seq, raw, received))

    def start(self) -> None:
        self._running = True
        self.client.connect_async(*self.broker, keepalive=10)
        self.client.loop_start()
        threading.Thread(target=self._ticker, name="venue-ticker", daemon=True).start()

    def stop(self) -> None:
        self._running = False
        self.client.loop_stop()
        self.client.disconnect()

    # -- MQTT ---------------------------------------------------------------------------

    def _connected(self, client, _userdata, _flags, _reason, _properties):
        r = self.root
        client.subscribe([(r + "/+/line", 1), (r + "/+/status", 1), (r + "/logger/status", 1)])
        with self.lock:
            for board in list(self.live):
                self._resync(board, force=True)

    def _message(self, _client, _userdata, msg):
        _root, board, what = msg.topic.rsplit("/", 2)
        if board == "logger" and what == "status":
            self.loggers = msg.payload.decode(errors="replace")
            if self.loggers == "online":  # a logger (re)started: whatever it has that we lack
                with self.lock:
                    for name in list(self.live):
                        self._resync(name, force=True)
            return
        if what == "status":
            self.status(board, msg.payload.decode(errors="replace"))
            return
        if what == "line":
            try:
                payload = json.loads(msg.payload)
                line = (int(payload["boot"]), int(payload["seq"]), str(payload["raw"]), int(payload["prev"]))
            except (ValueError, KeyError, TypeError):
                return  # not a logger's line
            self.line(board, *line)

    def status(self, board: str, value: str) -> None:
        """The logger's word on a board: online or offline (shown at once, in both views)."""
        with self.lock:
            for view in ("live", "public"):
                self._view(view, board).set_status(value)
                self.dirty.add((view, board))

    # -- lines ------------------------------------------------------------------------

    def line(self, board: str, boot: int, seq: int, raw: str, prev: int) -> None:
        """One line from a board's logger (any order, maybe again)."""
        with self.lock:
            last = self.applied.get(board, -1)
            if seq <= last:
                self._keep(board, boot, seq, raw)  # already applied: a duplicate, or a conflict to flag
                return
            if prev > last:  # lines between are missing: held until the resync brings them
                self.held.setdefault(board, {})[prev] = {"boot": boot, "seq": seq, "raw": raw}
                self.counts["held"] += 1
                self._resync(board)
                return
            self._apply(board, boot, seq, raw)
            waiting = self.held.get(board, {})
            while self.applied[board] in waiting:
                nxt = waiting.pop(self.applied[board])
                self._apply(board, nxt["boot"], nxt["seq"], nxt["raw"])
            for old in [p for p in waiting if p < self.applied[board]]:
                del waiting[old]

    def _apply(self, board, boot, seq, raw):
        kept = self._keep(board, boot, seq, raw)
        self.applied[board] = seq
        if kept != "new":
            return
        now = time.time()
        view = self._view("live", board)
        view.take(seq, raw, now)
        self._answered(board, view, seq, raw)
        self._booted(board, boot)
        self.dirty.add(("live", board))
        self._archive_game(board, view)
        if self.delay <= 0:
            self._view("public", board).take(seq, raw, now)
            self.dirty.add(("public", board))
        else:
            self.pending.append((now + self.delay, board, seq, raw, now))

    def _booted(self, board, boot):
        # The board's power-up, as its logger heard it in the board's HELLO (a HELLO line itself
        # may not come: the logger publishes lines in order, and a board resends only its last).
        for views in (self.live, self.public):
            if board in views:
                views[board].boot = max(views[board].boot, boot)

    def _keep(self, board, boot, seq, raw):
        if decode(raw.encode()) is None:
            self._view("live", board).problem("line %d arrived damaged (CRC)" % seq)
            self.counts["damaged"] += 1
            return "damaged"
        kept = self.archive.add_line(board, boot, seq, raw)
        self.counts[kept] += 1
        if kept == "conflict":
            self._view("live", board).problem("line %d differs from the one kept: an edit or a replay" % seq)
            self.dirty.add(("live", board))
        return kept

    def _archive_game(self, board, view):
        log = view.games.current
        if log is None:
            return
        pairing = view.pairing
        self.archive.save_game(board, int(log.boot or view.boot or 0), log.gid, moves=len(log.moves),
                               result=log.result, black=log.fields.get("pb", pairing.get("black", "")),
                               white=log.fields.get("pw", pairing.get("white", "")),
                               round=pairing.get("round"), table_no=pairing.get("table_no"), seal=view.seal)

    def _resync(self, board, force=False):
        now = time.monotonic()
        if not force and now - self.asked.get(board, -1e9) < RESYNC_WAIT_S:
            return
        self.asked[board] = now
        self.counts["resync"] += 1
        first = self.applied.get(board, -1) + 1
        self.client.publish("%s/%s/resync" % (self.root, board), json.dumps({"from": first}), qos=1)

    def _view(self, view, board) -> BoardView:
        views = self.live if view == "live" else self.public
        if board not in views:
            views[board] = BoardView(board, None if self.key is None else board_key(self.key, board))
            views[board].pairing = dict(self.live[board].pairing) if view == "public" and board in self.live else {}
        return views[board]

    # -- the delayed view and the pages -----------------------------------------------

    def _ticker(self):
        while self._running:
            time.sleep(FLUSH_S)
            self.tick(time.time())

    def tick(self, now: float) -> None:
        """Release the delayed lines now due, ask again for what is still missing (a resync
        asked before the logger listened), and tell the pages what changed."""
        with self.lock:
            for board, waiting in self.held.items():
                if waiting:
                    self._resync(board)
            while self.pending and self.pending[0][0] <= now:
                _release, board, seq, raw, at = self.pending.popleft()
                self._view("public", board).take(seq, raw, at)
                self.dirty.add(("public", board))
            dirty, self.dirty = self.dirty, set()
            summaries = [(view, self._view(view, board).summary()) for view, board in sorted(dirty)]
        for view, summary in summaries:
            self.hub.send(view, summary)

    def summaries(self, view: str) -> list[dict]:
        with self.lock:
            views = self.live if view == "live" else self.public
            return [views[b].summary() for b in sorted(views, key=_board_order(views))]

    def board(self, view: str, board: str) -> dict | None:
        with self.lock:
            views = self.live if view == "live" else self.public
            if board not in views:
                return None
            return dict(views[board].summary(), moves_list=views[board].moves(), setup=views[board].setup())

    # -- commands -----------------------------------------------------------------------

    def command(self, board: str, text: str, who: str) -> None:
        """A host command for a board (docs/protocol.md), through its logger; audited. The board's
        answer comes back on its line: a refusal (``ERR``) shows in its summary (``refused``)."""
        if not text or len(text) > 200 or not text.isascii() or not text.isprintable():
            raise ValueError("not a host command: %r" % text[:40])
        self.archive.act(who, text.split()[0], board, text)
        with self.lock:
            self.sent.setdefault(board, collections.deque(maxlen=20)).append(" ".join(text.split()))
        self.client.publish("%s/%s/command" % (self.root, board), json.dumps({"text": self._signed(board, text),
                                                                              "by": who}), qos=1)

    def _signed(self, board: str, text: str) -> str:
        """The command with the venue's signature (``~<counter>:<tag>``): a registered board takes
        no other that changes anything (firmware/host/signing.py). The counter is the time in
        ms, so it grows across the venue's restarts (and the board keeps the last on flash)."""
        if self.key is None:
            return text
        with self.lock:
            self._counter = max(clock_counter(), self._counter + 1)
            n = self._counter
        return signed_command(board_key(self.key, board), text, n)

    def _answered(self, board, view, seq, raw):
        # The board's answer to a command (``OK <name>``, ``ERR``): the venue's command it
        # answers is let go; a refusal is audited with the command, when it was the venue's.
        msg = decode(raw.encode())
        kind = msg[1] if msg else ""
        waiting = self.sent.get(board)
        if kind == "OK" and waiting:
            name = msg[2][0] if msg[2] else ""
            for text in waiting:
                if text.split()[0] == name:
                    waiting.remove(text)
                    break
        elif kind == "ERR" and view.refused and view.refused[-1]["seq"] == seq:
            refusal = view.refused[-1]
            if waiting:
                refusal["command"] = waiting.popleft()
            self.archive.act("board", "refused", board, "%s %s%s" % (
                refusal["code"], refusal["detail"], " (to: %s)" % refusal["command"] if "command" in refusal else ""))

    def pair(self, board: str, pairing: dict) -> None:
        """Who plays at this board (round, table, names, ranks), for the pages."""
        with self.lock:
            for view in ("live", "public"):
                self._view(view, board).pairing = dict(pairing)
                self.dirty.add((view, board))


def _board_order(views):
    def key(board):
        table = views[board].pairing.get("table_no")
        return (table is None, table or 0, board)
    return key
