"""What the referee console shows of each board beyond its summary: whether its round is
locked, whether it is registered, and which of its attention items a referee acknowledged.

An acknowledgement clears the items the referee saw until something new happens on that
board: an item not acknowledged (one that went away and came back counts as new) or a new
foul. It is kept in the audit (the archive's ``actions``: ``acknowledge``, with the items),
so it survives a venue restart, and everyone sees who cleared what. The console hears of
every change of every board (a listener on the live view, ``watch``), so an item that went
and came back while no referee looked is still new.
"""

from __future__ import annotations

import collections
import json
import threading

import sqlalchemy as sa

from host_tools.venue.archive import actions
from host_tools.venue.boards import FOULS

WATCH_S = 1.0


class Console:
    def __init__(self, venue, locked=None):
        """``locked(round) -> bool``: whether the venue locked that round (None: not known)."""
        self.venue = venue
        self.locked = locked
        self.rounds: dict[int, bool] = {}  # round -> locked, as last heard
        self.acks: dict[str, tuple[collections.Counter, int]] = {}  # board -> (items acknowledged, fouls then)
        self._lock = threading.Lock()
        self._restore()
        for summary in venue.summaries("live"):
            self.observe(summary)

    def _restore(self) -> None:
        query = sa.select(actions.c.board, actions.c.detail).where(actions.c.what == "acknowledge").order_by(
            actions.c.id)
        with self.venue.archive.engine.connect() as db:
            for board, detail in db.execute(query):
                try:
                    said = json.loads(detail)
                    self.acks[board] = (collections.Counter(map(str, said["items"])), int(said["fouls"]))
                except (ValueError, KeyError, TypeError):
                    continue  # (not one this console wrote)

    # -- each board ----------------------------------------------------------------------

    def observe(self, summary: dict) -> None:
        """A board's summary as it changed: acknowledged items gone, or outnumbered by new fouls,
        are acknowledged no more."""
        board = summary.get("board")
        with self._lock:
            if board not in self.acks:
                return
            items, fouls_then = self.acks[board]
            items = items & collections.Counter(summary.get("attention") or [])
            fouls = _fouls(summary)
            for kind, colour, reason in fouls[fouls_then:]:
                items.pop("%s %s (%s)" % (kind, colour, reason), None)
            self.acks[board] = (items, len(fouls))

    def view(self, summary: dict) -> dict:
        """The summary with what the console adds (``console``)."""
        self.observe(summary)
        attention = summary.get("attention") or []
        with self._lock:
            left = collections.Counter(self.acks.get(summary.get("board"), (collections.Counter(), 0))[0])
        needing, acknowledged = [], []
        for item in attention:
            if left[item] > 0:
                left[item] -= 1
                acknowledged.append(item)
            else:
                needing.append(item)
        registered = summary.get("registered", summary.get("signs"))
        return dict(summary, console={"needing": needing, "acknowledged": acknowledged,
                                      "locked": summary.get("locked", self.round_locked(summary.get("round"))),
                                      "registered": registered})

    def acknowledge(self, board: str, seen: list[str], who: str) -> list[str]:
        """Clear the items of ``board`` the referee saw (those still there); audited. The items cleared."""
        summary = self._summary(board)
        if summary is None:
            raise ValueError("no board %r" % board[:40])
        self.observe(summary)
        now = collections.Counter(summary.get("attention") or [])
        with self._lock:
            items = (self.acks.get(board, (collections.Counter(), 0))[0] | collections.Counter(seen)) & now
            fouls = len(_fouls(summary))
            self.acks[board] = (items, fouls)
        cleared = sorted(items.elements())
        self.venue.archive.act(who, "acknowledge", board, json.dumps({"items": cleared, "fouls": fouls}))
        self.venue.hub.send("live", summary)  # every console redraws the board
        return cleared

    def _summary(self, board: str) -> dict | None:
        with self.venue.lock:
            view = self.venue.live.get(board)
            return view.summary() if view is not None else None

    # -- rounds ----------------------------------------------------------------------------

    def round_locked(self, round_no) -> bool | None:
        if not isinstance(round_no, int) or self.locked is None:
            return None
        with self._lock:
            if round_no not in self.rounds:
                self.rounds[round_no] = bool(self.locked(round_no))
            return self.rounds[round_no]

    def round_changed(self, round_no: int, locked: bool) -> None:
        with self._lock:
            self.rounds[round_no] = locked
        for summary in self.venue.summaries("live"):
            if summary.get("round") == round_no:
                self.venue.hub.send("live", summary)

    # -- every change ----------------------------------------------------------------------

    def watch(self) -> threading.Thread:
        """Hear every change of every board (a daemon thread, for as long as the venue runs)."""
        thread = threading.Thread(target=self._watch, name="venue-console", daemon=True)
        thread.start()
        return thread

    def _watch(self) -> None:
        listener = self.venue.hub.listen("live")
        _view, queue, ready = listener
        while True:
            ready.wait(WATCH_S)
            ready.clear()
            while queue:
                try:
                    self.observe(json.loads(queue.popleft()))
                except (ValueError, TypeError, AttributeError):
                    continue


def _fouls(summary: dict) -> list[tuple]:
    return [(p.get("kind"), p.get("colour"), p.get("reason")) for p in summary.get("penalties") or []
            if p.get("kind") in FOULS]
