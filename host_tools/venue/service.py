"""The venue service's core: the boards' lines from MQTT into the archive and the two views.

Boards -> loggers (``python -m host_tools.logger --mqtt``) -> the broker -> here.
Every line arrives as ``<root>/<board>/line`` (host_tools/logger/mqtt.py) with the
number of the line the logger published before it (``prev``). A line whose
``prev`` the venue has not applied is held, and the venue asks that board's
logger to publish again from the last line it has (``<root>/<board>/resync``);
so does every (re)connection to the broker and every logger coming online. A
line already kept is dropped (the archive's key: board, epoch, number), and a
different line under a kept number is flagged, never kept. Nothing is lost or
doubled when the broker, a logger or the venue restarts: the venue's MQTT
session is persistent (QoS 1, its messages wait at the broker), it rebuilds its
views from the archive at start, and the resyncs fill whatever was missed.

Anyone on the broker may publish, so before a line changes anything it passes the
gate (intake.py: the board's chain); one refused is kept apart (the archive's
quarantine) and listed under the board's problems, never applied. A line numbered
far ahead of the board's last waits for its logger to send it again (the venue asks)
before it moves the board's numbering; a board whose lines start again from 0 (its
journal wiped) is a new epoch of that board, its old games kept as they were, and
one whose old numbering then goes on shows that restart was not the board's. No
message is fatal (feed.py): a bad one is dropped, counted and audited.

Two views of each board: ``live`` (referees) and ``public``, fed the same lines
``delay`` seconds later (the broadcast delay). Pages are told of changes through
``Hub`` (host_tools/venue/web.py streams them): at most every ``FLUSH_S``.
``health()`` says how the feed and the archive are doing (docs/venue.md).
"""

from __future__ import annotations

import collections
import json
import sys
import threading
import time

import paho.mqtt.client as mqtt
import sqlalchemy as sa
from paho.mqtt.enums import CallbackAPIVersion

from host_tools.board.protocol import decode
from host_tools.records import board_key
from host_tools.venue import feed
from host_tools.venue.archive import Archive
from host_tools.venue.boards import BoardView
from host_tools.venue.intake import refusal
from host_tools.venue.keys import clock_counter, signed_command

FLUSH_S = 0.1  # how often the pages hear of the boards that changed
RESYNC_WAIT_S = 2.0  # a board's resync is not asked again sooner
JUMP = 256  # a line numbered further ahead than this waits for its logger's word (a power-up's reservation)
JUMP_WAIT_S = 6.0  # ... this long, then it is refused (a resend later still takes it)
HELD_MAX = 4096  # lines held per board, waiting for the lines before them
PLACES = 256  # numbers of refused lines remembered per board (the board's own line may come for one)
STALL_S = 600.0  # a game whose clock runs with no move this long is listed as stuck
REGISTRY_S = 5.0  # how often the registry of boards is read again (boards registered at the desk)
HEALTH_S = 5.0  # how often health() tries a write in the archive
AUDIT_S = 1.0  # dropped messages are audited at most this often (with how many since)


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
                 ca: str | None = None, stall_s: float = STALL_S):
        """``key``: the venue's secret, from which each board's is derived (host_tools/records.py):
        signed results are checked with it; None: they are not. ``login``: the venue's user and
        password on the broker; ``ca``: TLS, the broker checked against this CA certificate
        (host_tools/venue/broker.py). ``stall_s``: a game whose clock runs with no move this long
        is listed under Needing attention."""
        self.archive = archive
        self.key = key
        self.sent: dict[str, collections.deque] = {}  # board -> the commands sent it, not answered yet
        self.root = root
        self.delay = delay
        self.stall_s = stall_s
        self.hub = Hub()
        self.live: dict[str, BoardView] = {}
        self.public: dict[str, BoardView] = {}
        self.lock = threading.RLock()
        self.epoch: dict[str, int] = {}  # board -> its run of line numbers (a wiped journal: the next)
        self.previous: dict[str, tuple[int, set[int]]] = {}  # board -> (epoch, where its numbering stood) before a restart
        self.held: dict[str, dict[int, dict]] = {}  # board -> prev -> a line waiting for that one
        self.applied: dict[str, int] = {}  # board -> the number of the last line applied (or refused in its place)
        self.places: dict[str, dict[tuple[int, int], str]] = {}  # board -> (epoch, number) -> a refused line there
        self.runs: dict[str, list[tuple[int, int, str]]] = {}  # board -> lines again from 0: (boot, seq, raw)
        self.jumps: dict[str, dict] = {}  # board -> a line numbered far ahead, waiting for its logger's word
        self.jumped: dict[str, list[tuple[int, int, int]]] = {}  # board -> (epoch, from, to) of far lines taken
        self.asked: dict[str, float] = {}  # board -> when its resync was asked
        self.pending: collections.deque = collections.deque()  # (release, board, seq, raw, at, boot, epoch): public
        self.dirty: set[tuple[str, str]] = set()  # (view, board) to tell the pages about
        self.loggers = "offline"
        self.counts = collections.Counter()  # new, duplicate, conflict, held, resync, quarantined, dropped lines
        self.latency: collections.deque = collections.deque(maxlen=20000)  # (received - logged) seconds
        self.registry: dict[str, dict] = {}  # the archive's boards (registered, paired, hashed)
        self._registry_at = 0.0
        self._stall_at = 0.0
        self.mqtt_state = {"connected": False, "since": None, "last_message": None, "messages": 0}
        self.dropped: dict = {"count": 0, "last": None, "audited": 0, "audited_at": 0.0}
        self.store = {"writable": True, "error": "", "checked": 0.0}  # the archive, as the last write found it
        self._running = False
        self._restore()
        host, _, port = broker.rpartition(":")
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
        if login is not None:
            self.client.username_pw_set(*login)
        if ca is not None:
            self.client.tls_set(ca_certs=ca)
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_message = self._message
        self.broker = (host or "127.0.0.1", int(port or 1883))

    # -- start and stop -------------------------------------------------------------

    def _restore(self) -> None:
        """The views as the archive has them (a restarted venue starts where it stopped)."""
        self.registry = self.archive.boards()
        self.epoch = self.archive.epochs()
        rows: dict[str, list] = {}
        for row in self.archive.all_lines():
            rows.setdefault(row[0], []).append(row)
        for board, found in rows.items():
            self._load(board, found)

    def _load(self, board: str, rows) -> None:
        """A board's views afresh from its lines kept (its current epoch), and its refused lines' alerts."""
        now = time.time()
        epoch = self.epoch.get(board, 1)
        for views in (self.live, self.public):
            views.pop(board, None)
        self.pending = collections.deque(item for item in self.pending if item[1] != board)
        live = self._view("live", board)
        for _board, _epoch, boot, seq, raw, received in rows:
            live.take(seq, raw, received, boot)
            self.applied[board] = max(self.applied.get(board, -1), seq)
            if received + self.delay <= now:
                self._view("public", board).take(seq, raw, received, boot)
            else:
                self.pending.append((received + self.delay, board, seq, raw, received, boot, epoch))
        for row in self.archive.quarantined(board):
            if row["epoch"] == epoch:
                live.refuse(_refused_text(row["seq"], row["raw"], row["why"]))
        for view in ("live", "public"):
            self.dirty.add((view, board))

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

    def _connected(self, client, _userdata, _flags, reason, _properties):
        if getattr(reason, "is_failure", False):
            return  # (refused: paho tries again)
        self.mqtt_state.update(connected=True, since=time.time())
        r = self.root
        client.subscribe([(r + "/+/line", 1), (r + "/+/status", 1), (r + "/logger/status", 1)])
        with self.lock:
            for board in list(self.live):
                self._resync(board, force=True)

    def _disconnected(self, _client, _userdata, _flags, _reason, _properties):
        self.mqtt_state.update(connected=False, since=time.time())

    def _message(self, _client, _userdata, msg):
        """Every message (paho's thread): one the venue cannot take is dropped and audited, and an
        archive that cannot be written is told in ``health()``: nothing stops the feed."""
        self.mqtt_state["last_message"] = time.time()
        self.mqtt_state["messages"] += 1
        try:
            self.message(msg.topic, msg.payload)
        except ValueError as error:
            self.drop(msg.topic, str(error))
        except sa.exc.SQLAlchemyError as error:
            self._store_failed(error)
        except Exception as error:  # noqa: BLE001  (a fault of the venue's own: that message only)
            self.drop(msg.topic, "%s: %s" % (type(error).__name__, error))

    def message(self, topic: str, payload: bytes) -> None:
        """One MQTT message; ValueError for one that is not the venue's to take."""
        board, what = feed.topic(topic, self.root)
        if board == "logger" and what == "status":
            self.loggers = feed.status(payload)
            if self.loggers == "online":  # a logger (re)started: whatever it has that we lack
                with self.lock:
                    for name in list(self.live):
                        self._resync(name, force=True)
        elif what == "status":
            self.status(board, feed.status(payload))
        elif what == "line":
            self.line(board, *feed.line(payload))
        else:
            raise ValueError("not a topic the venue reads: %r" % topic[:80])

    def drop(self, topic: str, why: str) -> None:
        """A message dropped: counted, and audited (at most every AUDIT_S, with how many since)."""
        now = time.time()
        dropped = self.dropped
        dropped["count"] += 1
        dropped["last"] = {"at": now, "topic": topic[:120], "why": why[:200]}
        if now - dropped["audited_at"] < AUDIT_S:
            return
        text = "%s: %s (%d dropped since the last note)" % (topic[:120], why[:200], dropped["count"] - dropped["audited"])
        dropped["audited"], dropped["audited_at"] = dropped["count"], now
        try:
            self.archive.act("venue", "dropped", "", text)
        except sa.exc.SQLAlchemyError as error:
            self._store_failed(error)
            print("venue: dropped %s" % text, file=sys.stderr)

    def _store_failed(self, error) -> None:
        self.store.update(writable=False, error=str(error).splitlines()[0][:200], checked=time.time())
        self.counts["archive errors"] += 1

    def status(self, board: str, value: str) -> None:
        """The logger's word on a board: online or offline (shown at once, in both views)."""
        with self.lock:
            for view in ("live", "public"):
                self._view(view, board).set_status(value)
                self.dirty.add((view, board))

    # -- lines ------------------------------------------------------------------------

    def line(self, board: str, boot: int, seq: int, raw: str, prev: int) -> None:
        """One line from a board's logger (any order, maybe again, maybe not the board's)."""
        with self.lock:
            if decode(raw.encode()) is None:
                self._view("live", board).problem("line %d arrived damaged (CRC)" % seq)
                self.dirty.add(("live", board))
                self.counts["damaged"] += 1
                return  # (its place stays open: the resync brings the board's copy)
            last = self.applied.get(board, -1)
            if seq <= last:
                self._behind(board, boot, seq, raw, prev)
                return
            self.runs.pop(board, None)
            if prev > last:
                if self._goes_on(board, seq, prev):
                    held = list(self.held.get(board, {}).values()) + [dict(boot=boot, seq=seq, raw=raw, prev=prev)]
                    self._revert(board)
                    for item in sorted(held, key=lambda h: h["seq"]):  # (the board's own lines, those held too)
                        self.line(board, **item)
                    return
                waiting = self.held.setdefault(board, {})
                if prev - last <= JUMP and len(waiting) < HELD_MAX:  # (further: a resync brings it if it is real)
                    waiting[prev] = dict(boot=boot, seq=seq, raw=raw, prev=prev)
                    self.counts["held"] += 1
                self._resync(board)
                return
            self._next(board, boot, seq, raw)
            waiting = self.held.get(board, {})
            while self.applied[board] in waiting:
                nxt = waiting.pop(self.applied[board])
                before = self.applied[board]
                self._next(board, nxt["boot"], nxt["seq"], nxt["raw"])
                if self.applied[board] == before:
                    break  # (a line far ahead: it waits for its logger's word)
            for old in [p for p in waiting if p < self.applied[board]]:
                del waiting[old]

    def _next(self, board, boot, seq, raw):
        """The line that follows the last applied: taken, refused in its place, or (far ahead)
        left waiting until its logger sends it again."""
        last = self.applied.get(board, -1)
        if seq - last > JUMP and not self._vouched(board, boot, seq, raw):
            return
        jump = self.jumps.get(board)
        if jump is not None and seq < jump["seq"]:  # the board's own line came: the far one was not its
            del self.jumps[board]
            self._refuse(board, jump["boot"], jump["seq"], jump["raw"],
                         "numbered %d ahead of line %d, where the board's own line %d came" % (
                             jump["seq"] - last, last, seq), place=False)
        self._apply(board, boot, seq, raw)

    def _vouched(self, board, boot, seq, raw) -> bool:
        """A line numbered far ahead (a board idle a long time, or a forger's line meant to hide the
        board's next ones): taken once its logger sends it again when asked."""
        jump = self.jumps.get(board)
        if jump is not None and jump["seq"] == seq and jump["raw"] == raw:
            del self.jumps[board]
            jumped = self.jumped.setdefault(board, [])
            jumped[:] = jumped[-15:] + [(self.epoch.get(board, 1), self.applied.get(board, -1), seq)]
            self.archive.release(board, self.epoch.get(board, 1), seq, raw)
            return True
        self.jumps[board] = {"boot": boot, "seq": seq, "raw": raw, "at": time.monotonic()}
        self.counts["jumps"] += 1
        self._resync(board, force=True)
        return False

    def _behind(self, board, boot, seq, raw, prev):
        """A line numbered at or below the last applied: a resend (dropped), the board numbering
        from 0 again (a new epoch), the board's own line in a place a refused one took, or one
        that is not a resend of what was kept there (refused)."""
        epoch = self.epoch.get(board, 1)
        kept = self.archive.kept(board, epoch, seq)
        skip = _kind(raw) == "SKIP"
        run = self.runs.get(board)
        if prev == -1:
            run = self.runs[board] = []
        elif run is not None and (not run or prev != run[-1][1]):
            del self.runs[board]  # (not contiguous: not a numbering from 0 again)
            run = None
        if kept is not None and (kept == raw or skip or _kind(kept) == "SKIP") or kept is None and skip:
            if kept is None:
                self.archive.add_line(board, boot, seq, raw, epoch=epoch)  # (a number the feed skipped)
            self.counts["duplicate"] += 1
            if run is not None:
                run.append((boot, seq, raw))
            return
        if run is not None:
            before = self.previous.get(board)
            if before is not None and self.archive.kept(board, before[0], seq) == raw:
                self._revert(board)  # the board's numbering from before the restart, resent: it never stopped
                self.line(board, boot, seq, raw, prev)
                return
            self._new_epoch(board, run + [(boot, seq, raw)])
            return
        jumps = [j for j in self.jumped.get(board, ()) if j[0] == epoch and seq < j[2]]
        if kept is None and jumps:  # a far line was let through, but the board's own numbering had not got there
            _epoch, start, far = min(jumps, key=lambda j: j[2])
            self._unjump(board, start, far)
            self.line(board, boot, seq, raw, prev)
            return
        if kept is None and (epoch, seq) in self.places.get(board, {}):
            self._apply(board, boot, seq, raw, place=False)  # the board's own line, where a refused one stood
            return
        if kept is not None:
            self.counts["conflict"] += 1
        self._refuse(board, boot, seq, raw, "differs from the line kept under its number: an edit or a replay"
                     if kept is not None else "numbered below lines taken after it, and not a resend", place=False)

    def _apply(self, board, boot, seq, raw, place=True):
        """Through the gate into the archive and the views; refused: kept apart instead."""
        _seq, kind, fields = decode(raw.encode())
        view = self._view("live", board)
        known = board in self.registry
        signs = known and self.registry[board]["signs"]
        why = refusal(view, kind, fields, known, signs, boot)
        if why is not None:
            self._refuse(board, boot, seq, raw, why, place=place)
            return
        epoch = self.epoch.get(board, 1)
        kept = self.archive.add_line(board, boot, seq, raw, epoch=epoch)
        self.counts[kept] += 1
        if kept == "conflict":
            self._refuse(board, boot, seq, raw, "differs from the line kept under its number: an edit or a replay",
                         place=False)
            return
        self.applied[board] = max(self.applied.get(board, -1), seq)
        if kept != "new":
            return
        now = time.time()
        view.take(seq, raw, now, boot)
        self._answered(board, view, seq, raw)
        self._enrol(board, kind, fields, view)
        self.dirty.add(("live", board))
        self._archive_game(board, view)
        if self.delay <= 0:
            self._view("public", board).take(seq, raw, now, boot)
            self.dirty.add(("public", board))
        else:
            self.pending.append((now + self.delay, board, seq, raw, now, boot, epoch))

    def _refuse(self, board, boot, seq, raw, why, place=True):
        """Keep a line apart (the quarantine) and tell the referees; ``place``: it came in order, so
        the board's numbering goes on after it (its own line for that number is taken if it comes)."""
        if place:
            self.applied[board] = max(self.applied.get(board, -1), seq)
            places = self.places.setdefault(board, {})
            places[self.epoch.get(board, 1), seq] = raw
            while len(places) > PLACES:
                del places[min(places)]
        if self.archive.quarantine(board, self.epoch.get(board, 1), boot, seq, raw, why):
            self.counts["quarantined"] += 1
            self._view("live", board).refuse(_refused_text(seq, raw, why))
            self.dirty.add(("live", board))

    def _enrol(self, board, kind, fields, view):
        """A board that sends its chain is known from then on (a missing hash is refused); one
        whose result's signature verified must sign from then on."""
        entry = self.registry.get(board)
        hashed = kind in ("MOVE", "END") and any(f.startswith(("h=", "hash=")) for f in fields)
        signer = kind == "END" and view.seal == "signed" and self.key is not None
        if (hashed and entry is None) or (signer and not (entry and entry["signs"])):
            self.archive.know(board, "hashed", signs=signer)
            self.registry = self.archive.boards()

    def know(self, board: str, how: str) -> None:
        """Add a board to the registry: ``registered`` at the desk (its results must be signed) or
        ``paired`` (its lines must carry its chain)."""
        with self.lock:
            self.archive.know(board, how, signs=how == "registered")
            self.registry = self.archive.boards()

    def _new_epoch(self, board, run):
        """The board numbers its lines from the start again (its journal was wiped): a new run of
        the board, its lines from the start of the run, its old games kept as they were."""
        old = self.epoch.get(board, 1)
        kept = max((row[3] for row in self.archive.all_lines(board, old)), default=-1)
        starts = {start for epoch, start, _far in self.jumped.get(board, ()) if epoch == old}
        self.previous[board] = (old, {self.applied.get(board, -1), kept} | starts)
        self.epoch[board] = old + 1
        self._forget(board)
        pairing, status = self._view("live", board).pairing, self._view("live", board).status
        self._load(board, [])
        for view in ("live", "public"):
            self._view(view, board).pairing = dict(pairing)
            self._view(view, board).set_status(status)
        self.counts["epochs"] += 1
        self.archive.act("venue", "new epoch", board, "numbering from %d again: epoch %d" % (run[0][1], old + 1))
        self._view("live", board).problem("the board numbers its lines from %d again (its journal lost?): its "
                                          "games from then on are a new run; the games before are kept" % run[0][1])
        prev = -1
        for boot, seq, raw in run:
            self.line(board, boot, seq, raw, prev)
            prev = seq

    def _goes_on(self, board, seq, prev) -> bool:
        """Whether a line follows the board's numbering from before a restart from 0 (from where it
        stood, or from a line kept then, to a number that numbering had not used): the board never
        stopped it, so that restart was not the board's."""
        before = self.previous.get(board)
        if before is None or before[0] != self.epoch.get(board, 1) - 1:
            return False
        return prev in before[1] or (self.archive.kept(board, before[0], prev) is not None
                                     and self.archive.kept(board, before[0], seq) is None)

    def _revert(self, board):
        """Back to the epoch before a restart that was not the board's; the restart's lines kept apart."""
        epoch = self.epoch[board]
        old = self.previous.pop(board)[0]
        rows = self.archive.drop_epoch(board, epoch)
        self.epoch[board] = old
        self._forget(board)
        for boot, seq, raw, received in rows:
            self.archive.quarantine(board, old, boot, seq, raw, "a restart from 0 (epoch %d) that the board's own "
                                    "numbering then went on past: not the board's" % epoch, received)
        pairing, status = self._view("live", board).pairing, self._view("live", board).status
        self._load(board, self.archive.all_lines(board, old))
        for view in ("live", "public"):
            self._view(view, board).pairing = dict(pairing)
            self._view(view, board).set_status(status)
        self.counts["reverted"] += 1
        self.archive.act("venue", "restart refused", board, "epoch %d: %d lines kept apart" % (epoch, len(rows)))

    def _unjump(self, board, start, far):
        """The far line let through was not the board's (its own came for a number below): out of
        the record, into the quarantine, with every line after it, and the views as they were."""
        epoch = self.epoch.get(board, 1)
        self.jumped[board] = [j for j in self.jumped[board] if j[0] != epoch or j[2] < start]
        rows = self.archive.unkeep(board, epoch, far)  # (the far line and whatever followed it)
        for boot, seq, raw, received in rows:
            self.archive.quarantine(board, epoch, boot, seq, raw, "numbered %d ahead of line %d, or after it: the "
                                    "board's own line came for a number below" % (far - start, start), received)
        pairing, status = self._view("live", board).pairing, self._view("live", board).status
        self.held.pop(board, None)
        self.applied.pop(board, None)
        self._load(board, self.archive.all_lines(board, epoch))
        for view in ("live", "public"):
            self._view(view, board).pairing = dict(pairing)
            self._view(view, board).set_status(status)
        self._view("live", board).problem("line %d, numbered %d ahead, was not the board's: kept apart" % (
            far, far - start))
        self.counts["quarantined"] += len(rows)

    def _forget(self, board):
        for table in (self.held, self.runs, self.jumps, self.applied):
            table.pop(board, None)

    def _archive_game(self, board, view):
        log = view.games.current
        if log is None:
            return
        pairing = view.pairing
        self.archive.save_game(board, int(log.boot or view.boot or 0), log.gid, epoch=self.epoch.get(board, 1),
                               moves=len(log.moves), result=log.result,
                               black=log.fields.get("pb", pairing.get("black", "")),
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
            try:
                self.tick(time.time())
            except sa.exc.SQLAlchemyError as error:
                self._store_failed(error)
            except Exception as error:  # noqa: BLE001  (the pages must go on hearing of the boards)
                self.drop("tick", "%s: %s" % (type(error).__name__, error))

    def tick(self, now: float) -> None:
        """Release the delayed lines now due, ask again for what is still missing (a resync
        asked before the logger listened), refuse far lines their logger did not send again,
        look for stuck games, and tell the pages what changed."""
        with self.lock:
            for board, waiting in self.held.items():
                if waiting:
                    self._resync(board)
            for board, jump in list(self.jumps.items()):
                if time.monotonic() - jump["at"] > JUMP_WAIT_S:
                    del self.jumps[board]
                    self._refuse(board, jump["boot"], jump["seq"], jump["raw"], "numbered %d ahead of line %d, and "
                                 "its logger did not send it again" % (jump["seq"] - self.applied.get(board, -1),
                                                                      self.applied.get(board, -1)), place=False)
            while self.pending and self.pending[0][0] <= now:
                _release, board, seq, raw, at, boot, epoch = self.pending.popleft()
                if epoch == self.epoch.get(board, 1):
                    self._view("public", board).take(seq, raw, at, boot)
                    self.dirty.add(("public", board))
            if now - self._stall_at >= 1.0:
                self._stall_at = now
                for board, view in self.live.items():
                    if view.stall(now, self.stall_s):
                        self.dirty.add(("live", board))
            if now - self._registry_at >= REGISTRY_S:
                self._registry_at = now
                self.registry = self.archive.boards()
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

    def health(self) -> dict:
        """How the venue is doing, for the console's health page (docs/venue.md, "Health")."""
        now = time.time()
        if now - self.store["checked"] >= HEALTH_S:
            try:
                self.archive.probe()
                self.store.update(writable=True, error="", checked=now)
            except sa.exc.SQLAlchemyError as error:
                self._store_failed(error)
        with self.lock:
            counts = dict(self.counts)
            attention = sum(1 for view in self.live.values() if view.summary().get("attention"))
            held = sum(len(waiting) for waiting in self.held.values())
            boards = len(self.live)
        mqtt_state = dict(self.mqtt_state, broker="%s:%d" % self.broker, dropped=self.dropped["count"],
                          last_dropped=self.dropped["last"])
        return {"ok": mqtt_state["connected"] and self.store["writable"], "mqtt": mqtt_state,
                "archive": dict(self.store), "loggers": self.loggers, "boards": boards, "attention": attention,
                "lines": {"new": counts.get("new", 0), "duplicate": counts.get("duplicate", 0),
                          "quarantined": counts.get("quarantined", 0), "conflict": counts.get("conflict", 0),
                          "damaged": counts.get("damaged", 0), "held": held}}

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
        return signed_command(board_key(self.key, board), text, clock_counter())

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
            answer = view.refused[-1]
            if waiting:
                answer["command"] = waiting.popleft()
            self.archive.act("board", "refused", board, "%s %s%s" % (
                answer["code"], answer["detail"], " (to: %s)" % answer["command"] if "command" in answer else ""))

    def pair(self, board: str, pairing: dict) -> None:
        """Who plays at this board (round, table, names, ranks), for the pages; a paired board is
        known (its lines must carry its chain)."""
        with self.lock:
            if self.registry.get(board, {}).get("how") not in ("paired", "registered"):
                self.know(board, "paired")
            for view in ("live", "public"):
                self._view(view, board).pairing = dict(pairing)
                self.dirty.add((view, board))


def _kind(raw: str) -> str:
    parts = raw.split(" ", 2)
    return parts[1] if len(parts) > 1 else ""


def _refused_text(seq: int, raw: str, why: str) -> str:
    return "line %d %s refused: %s" % (seq, _kind(raw)[:12], why)


def _board_order(views):
    def key(board):
        table = views[board].pairing.get("table_no")
        return (table is None, table or 0, board)
    return key
