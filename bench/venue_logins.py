"""Password guessing at the referee console (part of ``make bench``): how many guesses the venue
looks at, how many it refuses unseen, what the audit keeps, and how long a patient guesser needs.

    .venv/bin/python bench/venue_logins.py [--guesses 1000] [--workers 16]

Over HTTP, on a venue on 127.0.0.1 (bench/venue_http_fuzz.py's): ``--guesses`` wrong passwords
for one referee as fast as one client sends them, then as fast as ``--workers`` clients
together; the right password during the wait. Then, on the throttle alone with a simulated
clock (host_tools/venue/logins.py): a guesser who waits out every wait, from one address or
from a new address every time. Exits 1 if more guesses were looked at than the throttle
allows, or a refused attempt went unaudited.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from venue_http_fuzz import VenueUnderTest  # noqa: E402

from host_tools.venue.logins import CAP_S, FIRST_S, FREE, Logins, Refused  # noqa: E402


def guess(port: int, password: str) -> int:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", "/login", json.dumps({"user": "kim", "password": password}),
                     {"Content-Type": "application/json"})
        answer = conn.getresponse()
        answer.read()
        return answer.status
    finally:
        conn.close()


def audit(venue) -> dict[str, int]:
    rows = venue.archive.actions(100000)
    return {what: sum(1 for r in rows if r["what"] == what) for what in ("login failed", "login refused", "login")}


def over_http(guesses: int, workers: int) -> bool:
    ok = True
    for clients in (1, workers):
        with tempfile.TemporaryDirectory() as folder:
            target = VenueUnderTest(pathlib.Path(folder))
            try:
                import logging

                logging.getLogger("host_tools.venue.web").setLevel(logging.ERROR)
                t0 = time.monotonic()
                with ThreadPoolExecutor(clients) as pool:
                    answers = list(pool.map(guess, [target.port] * guesses, ["guess%04d" % n for n in range(guesses)]))
                elapsed = time.monotonic() - t0
                right = guess(target.port, "secret")
                rows = audit(target.venue)
            finally:
                target.stop()
        looked = answers.count(403)
        print("  %d guesses at one referee's password, %d client%s at once, in %.1f s: %d looked at (403), "
              "%d refused unseen (429); the right password then: %d" % (
                  guesses, clients, "s" if clients > 1 else "", elapsed, looked, answers.count(429), right))
        print("    audit: %(login failed)d 'login failed', %(login refused)d 'login refused' (the first of the wait; "
              "the rest counted in the next line), %(login)d 'login'" % rows)
        print("    the throttle allows %d in that time" % allowed(elapsed))
        ok &= looked <= allowed(elapsed) and right == 429 and rows["login failed"] == looked and rows["login refused"] >= 1
    return ok


def allowed(seconds: float) -> int:
    """The guesses the throttle looks at in ``seconds`` from the first: FREE + 1, then one per wait."""
    count, spent, wait = FREE + 1, 0.0, FIRST_S
    while spent + wait <= seconds:
        spent, wait, count = spent + wait, min(CAP_S, wait * 2), count + 1
    return count


class SimulatedClock:
    t = 0.0

    def __call__(self) -> float:
        return self.t


def patient(guesses: int) -> None:
    """A guesser who waits out every wait: the time for ``guesses`` guesses, simulated."""
    for label, address in (("from one address", lambda n: "10.0.0.1"),
                           ("from a new address each time", lambda n: "10.%d.%d.%d" % (n >> 16, (n >> 8) & 255, n & 255))):
        clock = SimulatedClock()
        logins = Logins({"kim": "secret"}, lambda *_row: None, clock=clock)
        looked = 0
        while looked < guesses:
            try:
                logins.login("kim", "guess%d" % looked, address(looked))
            except Refused as refused:
                if refused.status == 429:
                    clock.t += refused.retry_after
                    continue
                looked += 1
        print("  a patient guesser %s: %d guesses take %.1f days (waits double up to %d s)" % (
            label, guesses, clock.t / 86400, CAP_S))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--guesses", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=16)
    args = ap.parse_args(argv)
    ok = over_http(args.guesses, args.workers)
    patient(args.guesses)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
