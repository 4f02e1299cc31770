"""Referees' logins: sessions that end, and a throttle on password guesses, every attempt audited.

A session is a random token in an HttpOnly, SameSite=Strict cookie, with a CSRF token of its
own that the console sends back in a header on every request that changes anything (a page
of another site can neither read it nor send that header without a preflight the venue never
grants). Logging out forgets the token on the server, so a copied cookie is refused after it;
a session also ends after ``IDLE_S`` unused or ``MAX_S`` in all.

Password guesses: each failed login counts against the name tried (a referee's) and against
the client's address. After ``FREE`` failures each further one makes that name or address wait
twice as long as the last (1 s, 2 s, 4 s ... at most ``CAP_S``); an attempt during the wait is
refused (HTTP 429) without the password being looked at. Audit (the archive's ``actions``):
every login, failed login and logout; of the attempts refused during one wait, the first, and
how many more there were in the next line about that name or address (a flood of refusals
does not flood the archive).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass

IDLE_S = 2 * 3600.0
MAX_S = 14 * 3600.0  # a tournament day
FREE = 5
FIRST_S = 1.0
CAP_S = 300.0
FORGET_S = 900.0  # failures this long ago no longer count
MAX_TRACKED = 10000  # names and addresses followed at once (the oldest forgotten first)


class Refused(Exception):
    """A login refused: ``status`` (403 wrong, 429 wait), the reason, and the seconds to wait."""

    def __init__(self, status: int, reason: str, retry_after: float = 0.0):
        super().__init__(reason)
        self.status = status
        self.retry_after = retry_after


@dataclass
class Session:
    user: str
    csrf: str
    created: float
    seen: float


@dataclass
class _Record:
    fails: int = 0
    last: float = 0.0
    until: float = 0.0  # no attempt before this
    told: bool = False  # this wait's first refusal is audited
    refused: int = 0  # refusals not audited yet


class Throttle:
    """Failures per key (``"name kim"``, ``"address 10.0.0.7"``) and the wait they impose."""

    def __init__(self, clock=time.monotonic, free=FREE, first_s=FIRST_S, cap_s=CAP_S, forget_s=FORGET_S):
        self.clock = clock
        self.free, self.first_s, self.cap_s, self.forget_s = free, first_s, cap_s, forget_s
        self._records: dict[str, _Record] = {}

    def _record(self, key: str) -> _Record:
        now = self.clock()
        record = self._records.get(key)
        if record is not None and now - record.last > self.forget_s and now >= record.until:
            record = None
        if record is None:
            if len(self._records) >= MAX_TRACKED:
                del self._records[min(self._records, key=lambda k: self._records[k].last)]
            record = self._records[key] = _Record(last=now)
        return record

    def wait(self, key: str) -> float:
        """Seconds before ``key`` may try again (0: now)."""
        return max(0.0, self._record(key).until - self.clock())

    def failed(self, key: str) -> None:
        record = self._record(key)
        now = self.clock()
        record.fails += 1
        record.last = now
        if record.fails > self.free:
            record.until = now + min(self.cap_s, self.first_s * 2 ** min(30, record.fails - self.free - 1))
            record.told = False

    def succeeded(self, key: str) -> None:
        self._records.pop(key, None)

    def refused(self, key: str) -> bool:
        """Count a refusal during the wait; True for the first one (the one to audit)."""
        record = self._record(key)
        first = not record.told
        record.told = True
        record.refused += 0 if first else 1
        return first

    def untold(self, key: str) -> int:
        """The refusals not audited yet (and forget them: the caller audits the count)."""
        record = self._records.get(key)
        if record is None:
            return 0
        count, record.refused = record.refused, 0
        return count


class Logins:
    """The referees (name -> password), their sessions, the throttle and the audit of it all."""

    def __init__(self, referees: dict[str, str], audit, clock=time.monotonic, idle_s=IDLE_S, max_s=MAX_S, **throttle):
        """``audit(who, what, detail)`` keeps one line of the audit."""
        self.referees = referees
        self.audit = audit
        self.clock = clock
        self.idle_s, self.max_s = idle_s, max_s
        self.throttle = Throttle(clock, **throttle)
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def login(self, user: str, password: str, address: str) -> tuple[str, Session]:
        """A new session (its token and itself); ``Refused`` for a wrong password or during a wait."""
        keys = ["address " + address] + (["name " + user] if user in self.referees else [])
        who = user[:64] or "?"
        with self._lock:  # (checked and counted in one step: parallel guesses get no extra tries)
            wait = max(self.throttle.wait(key) for key in keys)
            if wait > 0:
                if any([self.throttle.refused(key) for key in keys if self.throttle.wait(key) > 0]):
                    self.audit(who, "login refused", "from %s: too many failed logins, locked out for %d s%s" % (
                        address, wait + 0.999, self._untold(keys)))
                raise Refused(429, "too many failed logins: try again in %d s" % (wait + 0.999), wait)
            expected = self.referees.get(user)
            if expected is None or not hmac.compare_digest(expected.encode(), password.encode("utf-8", "surrogatepass")):
                for key in keys:
                    self.throttle.failed(key)
                self.audit(who, "login failed", "from %s: wrong name or password%s" % (address, self._untold(keys)))
                raise Refused(403, "wrong name or password")
            untold = self._untold(keys)
            for key in keys:
                self.throttle.succeeded(key)
            now = self.clock()
            token = secrets.token_urlsafe(24)
            session = self._sessions[token] = Session(user, secrets.token_urlsafe(24), now, now)
            self._expire(now)
            self.audit(user, "login", "from %s%s" % (address, untold))
            return token, session

    def _untold(self, keys) -> str:
        count = max([self.throttle.untold(key) for key in keys])  # (each refusal counted under every key)
        return "; %d more attempts refused while locked out" % count if count else ""

    def session(self, token: str) -> Session | None:
        """The session of this cookie, if it is still one (a use keeps it from going idle)."""
        with self._lock:
            session = self._sessions.get(token)
            now = self.clock()
            if session is not None and (now - session.seen > self.idle_s or now - session.created > self.max_s):
                del self._sessions[token]
                return None
            if session is not None:
                session.seen = now
            return session

    def alive(self, token: str) -> bool:
        """Whether the session still stands (without counting as a use: an open event stream)."""
        with self._lock:
            session = self._sessions.get(token)
            now = self.clock()
            return session is not None and now - session.seen <= self.idle_s and now - session.created <= self.max_s

    def logout(self, token: str) -> None:
        with self._lock:
            session = self._sessions.pop(token, None)
        if session is not None:
            self.audit(session.user, "logout", "")

    def _expire(self, now: float) -> None:
        for token in [t for t, s in self._sessions.items() if now - s.seen > self.idle_s or now - s.created > self.max_s]:
            del self._sessions[token]
