"""A venue's pages over real sockets with no broker: the Venue service fed lines by hand (its
commands kept, not published), its Site served on a free port, and a referee's HTTP client.
test_venue_console.py, test_venue_http.py and test_venue_console_page.py use it."""

from __future__ import annotations

import http.client
import json
import threading
import time

from host_tools.board import protocol as ph
from host_tools.records import fold, head_of
from host_tools.venue.archive import Archive
from host_tools.venue.service import Venue
from host_tools.venue.web import Site, serve


def line(seq, kind, *fields):
    return ph.encode(seq, kind, fields).decode().rstrip("\n")


def game_lines(board="t1", moves=3, signs=True, clock=True, players=("Ann", "Bo")):
    """A board's lines: its HELLO, a game and ``moves`` moves (with clock figures), each move
    carrying the board's chain (``h=``) as a board writes it (host_tools/records.py)."""
    header = ["1", "rules=japanese", "size=9", "komi=6.5", "handicap=0", "boot=1", "time=byoyomi%2010m%203x30s",
              "pb=" + players[0].replace(" ", "%20"), "pw=" + players[1].replace(" ", "%20")]
    out = [line(0, "HELLO", "proto=1", "board=" + board, "boot=1", "game=0", *(["sign=1"] if signs else [])),
           line(1, "GAME", *header)]
    points = ["ee", "cc", "gg", "cg", "gc", "dd"]
    digest = head_of("GB1 %s %s" % (board, " ".join(header)))
    for k in range(1, moves + 1):
        figures = [str(600000 - 1000 * k), "0"] if clock else []
        fields = [str(k), "B" if k % 2 else "W", points[k - 1], *figures]
        digest = fold(digest, " ".join(fields).encode())
        out.append(line(k + 1, "MOVE", *fields, "h=" + digest[:8].hex()))
    return out


class Clock:
    """The logins' clock, moved on by hand (sessions expire, waits end)."""

    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


class VenueSite:
    """A venue with its pages on 127.0.0.1; ``commands`` holds what it sent to boards."""

    def __init__(self, tmp_path, boards=("t1",), locked=None, body_s=2.0, idle_s=5.0, name="venue.db",
                 players=("Ann", "Bo"), ranks=("", "")):
        self.tmp_path = tmp_path
        self.venue = Venue(Archive("sqlite:///%s" % (tmp_path / name)), "127.0.0.1:1", delay=0)
        self.commands = []
        self.venue.client.publish = self._publish
        self.clock = Clock()
        self.rounds = []
        self.site = Site(self.venue, {"kim": "secret", "lee": "other"}, {"name": "Club Cup"}, self._round,
                         locked=locked, clock=self.clock, body_s=body_s)
        self.server = serve(self.site, "127.0.0.1", 0, idle_s=idle_s)
        self.port = self.server.server_port
        self.url = "http://127.0.0.1:%d" % self.port
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        for n, board in enumerate(boards, start=1):
            if board not in self.venue.live:
                self.venue.pair(board, {"round": 1, "table_no": n, "black": players[0], "white": players[1],
                                        "black_rank": ranks[0], "white_rank": ranks[1]})
                self.venue.status(board, "online")
                self.feed(board, game_lines(board, players=players))

    def _publish(self, topic, payload, qos=0):
        if topic.endswith("/command"):
            self.commands.append((topic.split("/")[1], json.loads(payload)["text"]))

    def _round(self, round_no, action, who):
        self.rounds.append((round_no, action, who))
        return 1

    def feed(self, board, raws):
        start = self.venue.applied.get(board, -1) + 1
        for seq, raw in enumerate(raws, start=start):
            self.venue.line(board, 1, seq, raw, seq - 1)
        self.venue.tick(time.time())

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        self.venue.archive.close()

    # -- a client --------------------------------------------------------------------

    def request(self, method, path, body=None, headers=None, timeout=10):
        """(status, answer headers, JSON or bytes)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            if isinstance(body, (dict, list)):
                body = json.dumps(body)
            conn.request(method, path, body, headers or {})
            answer = conn.getresponse()
            data = answer.read()
            try:
                data = json.loads(data)
            except ValueError:
                pass
            return answer.status, answer.headers, data
        finally:
            conn.close()

    def login(self, user="kim", password="secret"):
        """A referee's (cookie, csrf) after a login."""
        status, headers, said = self.request("POST", "/login", {"user": user, "password": password},
                                             {"Content-Type": "application/json"})
        assert status == 200, said
        return headers["Set-Cookie"].split(";")[0], said["csrf"]

    def act(self, path, body, cookie, csrf, **headers):
        base = {"Content-Type": "application/json", "Cookie": cookie, "X-CSRF-Token": csrf}
        base.update({k.replace("_", "-"): v for k, v in headers.items()})
        return self.request("POST", path, body, base)
