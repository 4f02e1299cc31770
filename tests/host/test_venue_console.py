"""The referee console's side of the venue: an action that cannot be undone goes out only
confirmed, each board's status (lock, registration, record, clocks, link), attention items a
referee acknowledges (cleared until something new happens, kept across a restart), and the
health of each service (host_tools/venue/console.py, health.py, web.py)."""

import time

import pytest
import sqlalchemy

from .venue_site import VenueSite, game_lines, line


@pytest.fixture
def venue_site(tmp_path):
    site = VenueSite(tmp_path, boards=("t1", "t2"), locked=lambda round_no: round_no == 1)
    yield site
    site.close()


def live(site, cookie, board):
    said = site.request("GET", "/api/boards?view=live", headers={"Cookie": cookie})[2]
    return next(b for b in said["boards"] if b["board"] == board)


@pytest.mark.parametrize("body, words", [
    ({"board": "t1", "action": "forfeit", "colour": "B"}, "Forfeit: Black loses the game on board t1"),
    ({"board": "t1", "action": "result", "value": "W+R"}, "End the game on board t1 with the result W+R"),
    ({"board": "t1", "action": "undo"}, "Take back the last move on board t1"),
])
def test_an_action_that_cannot_be_undone_goes_out_only_confirmed(venue_site, body, words):
    site = venue_site
    cookie, csrf = site.login()
    status, _h, said = site.act("/api/referee", body, cookie, csrf)
    assert status == 409 and not said["ok"] and said["confirm"].startswith(words)
    assert site.commands == []  # nothing went to the board
    status, _h, said = site.act("/api/referee", dict(body, confirm=True), cookie, csrf)
    assert status == 200 and said["ok"] and len(site.commands) == 1


def test_unlocking_a_round_goes_out_only_confirmed_and_the_lock_shows_on_its_boards(venue_site):
    site = venue_site
    cookie, csrf = site.login()
    assert live(site, cookie, "t1")["console"]["locked"] is True  # (round 1, locked at the venue)
    status, _h, said = site.act("/api/round", {"round": 1, "action": "unlock"}, cookie, csrf)
    assert status == 409 and "Unlock round 1" in said["confirm"] and site.rounds == []
    status, _h, said = site.act("/api/round", {"round": 1, "action": "unlock", "confirm": True}, cookie, csrf)
    assert status == 200 and site.rounds == [(1, "unlock", "kim")]
    assert live(site, cookie, "t1")["console"]["locked"] is False
    assert site.act("/api/round", {"round": 1, "action": "lock"}, cookie, csrf)[0] == 200  # (no confirmation)
    assert live(site, cookie, "t1")["console"]["locked"] is True


def test_a_caution_needs_no_confirmation(venue_site):
    cookie, csrf = venue_site.login()
    assert venue_site.act("/api/referee", {"board": "t1", "action": "caution", "colour": "W"}, cookie, csrf)[0] == 200
    assert venue_site.commands == [("t1", "referee caution W")]


def test_each_board_says_its_lock_registration_record_clocks_and_link(venue_site):
    site = venue_site
    site.feed("t2", [line(5, "HELLO", "proto=1", "board=t2", "boot=1", "game=1")])  # (no sign=1: not registered)
    site.venue.status("t2", "offline")
    cookie, _csrf = site.login()
    t1, t2 = live(site, cookie, "t1"), live(site, cookie, "t2")
    assert t1["console"] == {"needing": [], "acknowledged": [], "locked": True, "registered": True}
    assert t2["console"]["registered"] is False and t2["status"] == "offline"
    assert t2["console"]["needing"] == ["disconnected"]
    assert t1["seal"] == "hashed" and set(t1["clock"]) == {"B", "W"} and t1["clock"]["B"]["ms"] == 597000
    assert "console" not in site.request("GET", "/api/boards")[2]["boards"][0]  # (the public view: not the console's)
    assert site.request("GET", "/board/t1?view=live")[0] == 200  # each board's page, linked from its row


def warning(site, board, colour, n):
    site.feed(board, [line(0, "PENALTY", "3", colour, "warning", str(n), "referee")])


def test_an_acknowledged_item_stays_cleared_until_something_new_and_across_a_restart(venue_site, tmp_path):
    site = venue_site
    cookie, csrf = site.login()
    warning(site, "t1", "W", 1)
    assert live(site, cookie, "t1")["console"]["needing"] == ["warning W (referee)"]
    status, _h, said = site.act("/api/ack", {"board": "t1", "items": ["warning W (referee)"]}, cookie, csrf)
    assert status == 200 and said["cleared"] == ["warning W (referee)"]
    board = live(site, cookie, "t1")
    assert board["console"] == dict(board["console"], needing=[], acknowledged=["warning W (referee)"])
    assert site.venue.archive.actions()[0]["what"] == "acknowledge"
    site.feed("t1", game_lines("t1", moves=4)[-1:])  # a move: nothing new to look at
    assert live(site, cookie, "t1")["console"]["needing"] == []
    site.close()

    again = VenueSite(tmp_path, boards=("t1", "t2"), locked=lambda round_no: round_no == 1)  # the same archive
    try:
        again.venue.status("t1", "online")
        cookie, csrf = again.login()
        assert live(again, cookie, "t1")["console"]["needing"] == []  # still cleared after the restart
        warning(again, "t1", "W", 2)  # something new: a second warning, worded as the first
        assert live(again, cookie, "t1")["console"]["needing"] == ["warning W (referee)", "warning W (referee)"]
        again.act("/api/ack", {"board": "t1", "items": ["warning W (referee)"] * 2}, cookie, csrf)
        again.venue.status("t1", "offline")  # and gone, and back
        again.venue.tick(time.time())
        assert live(again, cookie, "t1")["console"]["needing"] == ["disconnected"]
        again.act("/api/ack", {"board": "t1", "items": ["disconnected"]}, cookie, csrf)
        assert live(again, cookie, "t1")["console"]["needing"] == []
        again.venue.status("t1", "online")
        again.venue.tick(time.time())
        wait_for(lambda: again.site.console.acks["t1"][0]["disconnected"] == 0)  # (the console heard it)
        again.venue.status("t1", "offline")
        again.venue.tick(time.time())
        assert live(again, cookie, "t1")["console"]["needing"] == ["disconnected"]  # a new disconnection
    finally:
        again.close()


def test_an_item_the_referee_did_not_see_is_not_cleared(venue_site):
    site = venue_site
    cookie, csrf = site.login()
    warning(site, "t1", "B", 1)
    site.venue.status("t1", "offline")  # (after the referee's page was drawn)
    said = site.act("/api/ack", {"board": "t1", "items": ["warning B (referee)"]}, cookie, csrf)[2]
    assert said["cleared"] == ["warning B (referee)"]
    assert live(site, cookie, "t1")["console"]["needing"] == ["disconnected"]


def wait_for(predicate, seconds=5.0):
    end = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < end, "not in %g s" % seconds
        time.sleep(0.02)


def test_the_health_of_each_service(venue_site):
    site = venue_site
    status, _h, report = site.request("GET", "/health")
    services = report["services"]
    assert services["intake"]["state"] == "down" and not services["intake"]["connected"]  # (no broker here)
    assert services["archive"] == {"state": "ok", "writable": True}
    assert services["loggers"] == {"state": "down", "status": "offline"}  # (none heard from)
    assert status == 503 and not report["ok"]
    site.venue.loggers = "online"
    site.venue.health = lambda: {"connected": True, "last_message": time.time(), "dropped": 3}
    status, _h, report = site.request("GET", "/health")
    assert status == 200 and report["ok"]
    assert report["services"]["intake"]["state"] == "ok" and report["services"]["intake"]["dropped"] == 3
    site.venue.health = lambda: {"connected": False, "last_message": None, "dropped": 0}
    assert site.request("GET", "/health")[2]["services"]["intake"]["state"] == "down"
    assert site.venue.archive.actions() == []  # (the archive's probe leaves nothing)


def test_an_archive_that_takes_no_write_is_shown_down(tmp_path):
    site = VenueSite(tmp_path, boards=())
    try:
        site.venue.archive.engine.dispose()  # the database, opened read-only from now on
        site.venue.archive.engine = sqlalchemy.create_engine("sqlite:///file:%s?mode=ro&uri=true" % (tmp_path / "venue.db"))
        status, _h, report = site.request("GET", "/health")
        assert status == 503 and report["services"]["archive"]["state"] == "down"
        assert not report["services"]["archive"]["writable"] and "readonly" in report["services"]["archive"]["error"]
    finally:
        site.close()
