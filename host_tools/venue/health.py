"""The venue's health (``/health`` and the console's panel): is each service doing its job?

- ``intake``: the venue's MQTT intake, from ``venue.health()`` (service.py: its ``mqtt`` part,
  ``connected``, ``last_message`` (unix time), ``dropped`` (messages refused), and its lines'
  counts); ``unknown`` when it has none.
- ``archive``: whether the database takes a write (one tried and rolled back, every
  ``PROBE_S`` at most).
- ``loggers``: the loggers' retained word on ``goboard/logger/status`` (online, offline).
- ``web``: the requests answered, refused (4xx) and failed (5xx) since the start.

Each has a ``state``: ``ok``, ``down`` or ``unknown``; the report is ``ok`` when none is down.
"""

from __future__ import annotations

import threading
import time

from host_tools.venue.archive import actions

PROBE_S = 2.0


class Health:
    def __init__(self, venue, clock=time.time):
        self.venue = venue
        self.clock = clock
        self.web = {"answered": 0, "refused": 0, "failed": 0}  # counted by the pages' handler
        self._probe: tuple[float, dict] = (-PROBE_S, {})
        self._lock = threading.Lock()

    def count(self, status: int) -> None:
        with self._lock:
            self.web["answered"] += 1
            if 400 <= status < 500:
                self.web["refused"] += 1
            elif status >= 500:
                self.web["failed"] += 1

    def report(self) -> dict:
        services = {"intake": self.intake(), "archive": self.archive(), "loggers": self.loggers(),
                    "web": dict(self.web, state="ok")}
        return {"ok": all(s["state"] != "down" for s in services.values()), "at": self.clock(),
                "services": services}

    def intake(self) -> dict:
        health = getattr(self.venue, "health", None)
        if not callable(health):
            return {"state": "unknown"}
        try:
            found = dict(health())
        except Exception as error:  # noqa: BLE001 - a health check reports, it does not raise
            return {"state": "down", "error": str(error)[:200]}
        mqtt = found.get("mqtt", found)  # (service.py's report: the feed's state under "mqtt")
        out = {"connected": mqtt.get("connected"), "last_message": mqtt.get("last_message"),
               "dropped": mqtt.get("dropped", 0)}
        if "lines" in found:
            out["lines"] = found["lines"]
        out["state"] = {True: "ok", False: "down"}.get(out["connected"], "unknown")
        return out

    def archive(self) -> dict:
        with self._lock:
            at, found = self._probe
            if self.clock() - at < PROBE_S:
                return found
            try:
                with self.venue.archive.engine.connect() as db:
                    transaction = db.begin()
                    db.execute(actions.insert().values(at=0.0, who="health", what="probe"))
                    transaction.rollback()
                found = {"state": "ok", "writable": True}
            except Exception as error:  # noqa: BLE001 - whatever the database says, shown
                found = {"state": "down", "writable": False, "error": str(error).splitlines()[0][:200]}
            self._probe = (self.clock(), found)
            return found

    def loggers(self) -> dict:
        status = getattr(self.venue, "loggers", None)
        state = {"online": "ok", "offline": "down"}.get(status, "unknown") if isinstance(status, str) else "unknown"
        return {"state": state, "status": status if isinstance(status, str) else None}
