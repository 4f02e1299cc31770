"""The referee console's logins against someone on the hall's network: password guesses
throttled and audited, a session that ends at logout and with time, and requests from another
site, or not JSON, or without the session's CSRF token, refused (host_tools/venue/logins.py,
host_tools/venue/web.py)."""

import time

import pytest

from host_tools.venue.logins import FREE, IDLE_S, MAX_S, Logins, Refused

from .venue_site import VenueSite

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def venue_site(tmp_path):
    site = VenueSite(tmp_path)
    yield site
    site.close()


def audit(site, what=None):
    rows = list(reversed(site.venue.archive.actions(1000)))
    return [r for r in rows if what is None or r["what"] == what]


def test_password_guesses_are_throttled_with_backoff_and_every_one_audited(venue_site):
    site = venue_site
    answers = [site.request("POST", "/login", {"user": "kim", "password": "guess%d" % n}, JSON)
               for n in range(50)]
    statuses = [status for status, _h, _said in answers]
    assert statuses[:FREE] == [403] * FREE  # each of the first guesses looked at, and wrong
    assert statuses[FREE + 1:] == [429] * (50 - FREE - 1)  # then a wait after every failure: refused unseen
    status, headers, said = answers[-1]
    assert int(headers["Retry-After"]) >= 1 and "try again in" in said["error"]
    # The right password during the wait is refused too (a guess is not confirmed by a different answer).
    status, _h, said = site.request("POST", "/login", {"user": "kim", "password": "secret"}, JSON)
    assert status == 429
    failed, refused = audit(site, "login failed"), audit(site, "login refused")
    assert len(failed) == FREE + 1 and all("from 127.0.0.1" in r["detail"] for r in failed)
    assert len(refused) == 1 and refused[0]["who"] == "kim" and "locked out" in refused[0]["detail"]
    # The wait over (1 s after the 6th failure), the referee gets in; the refusals in between are counted.
    site.clock.t += 1.5
    cookie, _csrf = site.login()
    logins = audit(site, "login")
    assert len(logins) == 1 and "44 more attempts refused while locked out" in logins[0]["detail"]


def test_the_wait_doubles_and_is_kept_per_name_and_per_address():
    rows = []
    clock = [0.0]
    logins = Logins({"kim": "secret", "lee": "other"}, lambda *row: rows.append(row), clock=lambda: clock[0])
    waits = []
    for n in range(FREE + 4):  # guesses at kim's password, each from another laptop
        with pytest.raises(Refused) as refused:
            logins.login("kim", "wrong", "10.0.1.%d" % n)
        assert refused.value.status == 403
        if logins.throttle.wait("name kim"):
            with pytest.raises(Refused) as refused:
                logins.login("kim", "secret", "10.0.2.%d" % n)  # even the right one waits
            assert refused.value.status == 429
            waits.append(round(refused.value.retry_after))
            clock[0] += refused.value.retry_after
    assert waits == [1, 2, 4, 8]
    for n in range(FREE + 1):  # one laptop trying names
        with pytest.raises(Refused):
            logins.login("user%d" % n, "x", "10.0.0.1")
    with pytest.raises(Refused) as refused:
        logins.login("lee", "other", "10.0.0.1")
    assert refused.value.status == 429
    token, session = logins.login("lee", "other", "10.0.0.2")  # lee, from elsewhere, is not held up
    assert session.user == "lee" and logins.session(token) is session
    assert [row[1] for row in rows].count("login") == 1


def test_a_session_ends_at_logout_and_its_cookie_is_refused_after(venue_site):
    site = venue_site
    cookie, csrf = site.login()
    status, headers, said = site.act("/api/referee", {"board": "t1", "action": "caution", "colour": "B"}, cookie, csrf)
    assert status == 200 and said["ok"]
    status, headers, _said = site.act("/logout", {}, cookie, csrf)
    assert status == 200
    assert "Max-Age=0" in headers["Set-Cookie"] and "HttpOnly" in headers["Set-Cookie"]
    # The old cookie, kept by whoever copied it, opens nothing any more.
    status, _h, said = site.act("/api/referee", {"board": "t1", "action": "caution", "colour": "W"}, cookie, csrf)
    assert status == 403 and "log in" in said["error"]
    assert site.request("GET", "/api/actions", headers={"Cookie": cookie})[0] == 403
    assert site.request("GET", "/events?view=live", headers={"Cookie": cookie})[0] == 403
    assert site.request("GET", "/api/boards?view=live", headers={"Cookie": cookie})[2]["view"] == "public"
    assert site.commands == [("t1", "referee caution B")]
    assert [r["what"] for r in audit(site)][-3:] == ["login", "referee", "logout"]


def test_a_session_expires_when_unused_and_after_a_day(venue_site):
    site = venue_site
    cookie, _csrf = site.login()
    site.clock.t += IDLE_S - 10
    assert site.request("GET", "/api/actions", headers={"Cookie": cookie})[0] == 200  # used: kept
    site.clock.t += IDLE_S + 1
    assert site.request("GET", "/api/actions", headers={"Cookie": cookie})[0] == 403  # unused too long
    cookie, _csrf = site.login()
    for _ in range(int(MAX_S // (IDLE_S / 2)) + 1):  # used all day long: it still ends
        site.clock.t += IDLE_S / 2
        site.request("GET", "/api/actions", headers={"Cookie": cookie})
    assert site.request("GET", "/api/actions", headers={"Cookie": cookie})[0] == 403


def test_the_cookie_is_httponly_and_samesite_strict(venue_site):
    status, headers, said = venue_site.request("POST", "/login", {"user": "kim", "password": "secret"}, JSON)
    cookie = headers["Set-Cookie"]
    assert status == 200 and "HttpOnly" in cookie and "SameSite=Strict" in cookie and said["csrf"]


def test_a_request_from_another_site_or_not_json_or_without_the_csrf_token_is_refused(venue_site):
    site = venue_site
    cookie, csrf = site.login()
    forfeit = {"board": "t1", "action": "caution", "colour": "B"}
    # What a page on another site can make a referee's browser send: a text/plain form post...
    status, _h, said = site.request("POST", "/api/referee", '{"board": "t1", "action": "caution", "colour": "B"}',
                                    {"Content-Type": "text/plain", "Cookie": cookie, "Origin": "http://evil.example"})
    assert status == 403 and "cross-site" in said["error"]
    status, _h, said = site.request("POST", "/api/referee", '{"board": "t1", "action": "caution", "colour": "B"}',
                                    {"Content-Type": "text/plain", "Cookie": cookie, "X-CSRF-Token": csrf})
    assert status == 415 and "application/json" in said["error"]
    status, _h, said = site.act("/api/referee", forfeit, cookie, csrf, Referer="http://evil.example/page")
    assert status == 403 and "cross-site" in said["error"]
    status, _h, said = site.act("/api/referee", forfeit, cookie, "")
    assert status == 403 and "CSRF" in said["error"]
    status, _h, said = site.act("/api/referee", forfeit, cookie, csrf + "x")
    assert status == 403 and "CSRF" in said["error"]
    _other_cookie, other_csrf = site.login("lee", "other")  # another referee's token is not this session's
    assert site.act("/api/referee", forfeit, cookie, other_csrf)[0] == 403
    assert site.commands == []
    # The console itself: its own origin, JSON, its token.
    status, _h, said = site.act("/api/referee", forfeit, cookie, csrf, Origin=site.url)
    assert status == 200 and site.commands == [("t1", "referee caution B")]


def test_a_referees_open_event_stream_ends_with_the_session(venue_site, monkeypatch):
    import http.client

    from host_tools.venue import web

    monkeypatch.setattr(web, "KEEPALIVE_S", 0.1)
    site = venue_site
    cookie, csrf = site.login()
    conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=5)
    conn.request("GET", "/events?view=live", headers={"Cookie": cookie})
    stream = conn.getresponse()
    assert stream.status == 200 and stream.fp.readline().startswith(b"data: ")  # the live view flows
    site.act("/logout", {}, cookie, csrf)
    deadline = time.monotonic() + 3
    while stream.fp.readline() and time.monotonic() < deadline:
        pass  # (keepalives, at most until the session's end is noticed)
    assert time.monotonic() < deadline, "the live stream went on after the logout"
    conn.close()
