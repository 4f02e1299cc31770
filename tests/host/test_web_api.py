"""The simulator's web API under abuse: every request answered, bad ones with 400 and the reason,
a refused new game changing nothing, a burst of connections all served (host_tools/sim/web.py
on a LiveBoard, over real sockets)."""

from __future__ import annotations

import http.client
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from firmware.rules.coords import point
from firmware.settings import Settings
from host_tools.sim.live import LiveBoard
from host_tools.sim.web import serve

# (body bytes, the words the error must contain): each a 400
BAD = [
    (b"[" * 3000, "nested"),
    (b'{"rules": "japanese", "size": 7, "handicap": 0, "time": "none", "captures": 2}', "captures"),
    (b'{"rules": "japanese", "size": 6, "handicap": 0, "time": "none"}', "size"),
    (b'{"rules": "japanese", "size": 9, "handicap": 0, "time": "none", "komi": Infinity}', "Infinity"),
    (b'{"rules": "japanese", "size": 9, "handicap": 0, "time": "none", "komi": -Infinity}', "Infinity"),
    (b'{"rules": "japanese", "size": 9, "handicap": 0, "time": "none", "komi": NaN}', "NaN"),
    (b'{"rules": "japanese", "size": 9, "handicap": 0, "time": "none", "komi": 1e300}', "komi"),
    (b'{"rules": "japanese", "size": 9, "handicap": 0, "time": "none", "komi": 1e999}', "komi"),
    (b'{"rules": "japanese", "size": 9, "handicap": 0, "time": "none", "komi": 6.3}', "half"),
    (b'{"rules": "japanese", "size": 9, "handicap": 20, "time": "none"}', "handicap"),
    (b'{"rules": "japanese", "size": 9, "handicap": -1, "time": "none"}', "handicap"),
    (b'{"rules": "japanese", "size": 9, "handicap": 1e400, "time": "none"}', "handicap"),
    (b'{"rules": "japanese", "size": 9, "handicap": 0, "time": "byoyomi 10m 3x"}', "3x"),
    (b'{"rules": "chess", "size": 9, "handicap": 0, "time": "none"}', "rules"),
    (b'{"rules": "japanese", "size": 21, "handicap": 0, "time": "none"}', "size"),
    (b'{"rules": "japanese", "size": "9", "handicap": 0, "time": "none"}', "size"),
    (b'{"rules": "japanese", "size": true, "handicap": 0, "time": "none"}', "size"),
    (b"[1, 2]", "object"),
    (b'"new"', "object"),
    (b"not json", "JSON"),
    (b"\xff\xfe{}", "JSON"),
    (b"\x80{}", "UTF-8"),
    (b'{"size": 9', "JSON"),
]


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def play_a_stone(live):
    """Black's stone on the board and recorded (the board's time moved on by hand)."""
    live.toggle(live.physical(point(9, 4, 4)), 0)
    for _ in range(40):
        live._clock.t += 0.01
        live.step()
    assert live.app.game.move_number == 1


@pytest.fixture
def site():
    live = LiveBoard(Settings(9), clock=Clock())
    server = serve(live, port=0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield live, server.server_address[1]
    server.stopping = True
    server.shutdown()
    server.server_close()


def post(port, path, body, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", path, body, headers or {"Content-Type": "application/json"})
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        conn.close()


def test_every_bad_new_game_is_a_400_with_the_reason_and_changes_nothing(site):
    live, port = site
    play_a_stone(live)  # a game in progress
    failures = []
    for body, words in BAD:
        status, answer = post(port, "/api/new", body)
        if status != 400 or answer["ok"] or words.lower() not in answer["error"].lower():
            failures.append((body[:60], status, answer))
    assert not failures
    assert live.app.game.move_number == 1 and live.app.game.result is None  # the game goes on


def test_malformed_requests_of_every_other_kind_are_answered(site):
    _live, port = site
    cases = [("/api/point", b'{"p": 99999}', 400), ("/api/point", b'{"p": 3, "colour": 7}', 400),
             ("/api/button", b'{"name": "boom"}', 400), ("/api/mode", b'{"mode": 3}', 400),
             ("/api/diag", b'{"on": "yes"}', 400), ("/api/nothing", b"{}", 404),
             ("/api/point", b"x" * 5000, 400)]
    for path, body, status in cases:
        got, answer = post(port, path, body)
        assert (got, answer["ok"]) == (status, False), (path, body[:40], got, answer)
    got, answer = post(port, "/api/point", b"{}", {"Content-Length": "-5"})
    assert got == 400 and "body" in answer["error"]
    got, answer = post(port, "/api/point", b"{}", {"Content-Length": "many"})
    assert got == 400 and "Content-Length" in answer["error"]


def test_a_refused_new_game_from_the_page_keeps_the_game_in_progress(site):
    live, port = site
    play_a_stone(live)
    status, answer = post(port, "/api/new", b'{"rules": "japanese", "size": 9, "handicap": 12, "time": "none"}')
    assert status == 400 and "handicap" in answer["error"]
    assert live.app.game.move_number == 1 and live.app.game.result is None
    status, answer = post(port, "/api/new", b'{"rules": "korean", "size": 13, "handicap": 0, "time": "none"}')
    assert (status, answer["ok"]) == (200, False) and "confirm to void it" in answer["error"]  # not silently
    assert live.app.game.move_number == 1 and live.app.game.size == 9
    status, answer = post(port, "/api/new", b'{"rules": "korean", "size": 13, "handicap": 0, "time": "none", '
                                            b'"void": true}')
    assert (status, answer["ok"]) == (200, True) and live.app.game.size == 13


def test_capture_go_on_7x7_from_the_page(site):
    live, port = site
    status, answer = post(port, "/api/new", b'{"rules": "japanese", "size": 7, "handicap": 0, "time": "none", '
                                            b'"captures": 1}')
    assert (status, answer["ok"]) == (200, True)
    game = live.app.game
    assert game.size == 7 and game.captures[0] == 1 and live.app.follower.settings.players == {"captures": "1"}


def test_a_mode_change_during_a_game_needs_both_players_or_the_referee(site):
    live, port = site
    play_a_stone(live)
    status, answer = post(port, "/api/mode", b'{"mode": "teaching"}')
    assert not answer["ok"] and "both players agree" in answer["error"] and live.state()["mode"] == "casual"
    assert post(port, "/api/mode", b'{"mode": "tournament", "by": "agreed"}')[1]["ok"]
    status, answer = post(port, "/api/mode", b'{"mode": "casual", "by": "agreed"}')
    assert not answer["ok"] and "referee" in answer["error"] and live.state()["mode"] == "tournament"
    assert post(port, "/api/mode", b'{"mode": "casual", "by": "referee"}')[1]["ok"]
    assert post(port, "/api/mode", b'{"mode": "casual", "by": "nobody"}')[0] == 400


def test_a_burst_of_connections_is_served_whole(site):
    _live, port = site

    def get(_):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        try:
            conn.request("GET", "/state")
            answer = conn.getresponse()
            return answer.status, "size" in json.loads(answer.read())
        finally:
            conn.close()

    with ThreadPoolExecutor(120) as pool:
        answers = list(pool.map(get, range(120)))
    assert answers == [(200, True)] * 120


def test_a_chains_liberties_lit_from_the_page(site):
    from firmware.leds.marks import HINT

    live, port = site
    play_a_stone(live)  # Black E5
    e5 = live.physical(point(9, 4, 4))
    assert post(port, "/api/liberties", b'{"p": %d}' % e5)[1]["ok"]
    lit = sorted(p for p in range(361) if live.app.marks.bits[p] & HINT)
    assert lit == sorted(live.physical(point(9, c, r)) for c, r in ((4, 3), (3, 4), (5, 4), (4, 5)))
    assert post(port, "/api/liberties", b'{"p": %d}' % live.physical(point(9, 0, 0)))[1]["ok"]  # no stone
    assert not any(live.app.marks.bits[p] & HINT for p in range(361))
    assert post(port, "/api/liberties", b'{"p": 400}')[0] == 400
