"""The browser simulator end to end: ``python -m host_tools.sim`` (a real process with its
logger), Debian's Chromium driven by Playwright (never a downloaded browser).

Clicks stones into a capture, checks the captured stone's LED asks for removal, lifts it,
presses the clocks, checks the clock faces moved, stops with Ctrl-C and reads the SGF the
logger left in the games folder. The screenshot is kept in build/artifacts/.
"""

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from .conftest import ROOT
from .sim_page import (
    ARTIFACTS,
    CHROMIUM,
    browser_page,
    get,
    play_in_page,
    post,
    recorded_game,
    start_sim,
    stop_sim,
)


def test_make_sim_no_browser_serves_the_page(tmp_path):
    proc, url = start_sim(tmp_path, "--size", "13", "--rules", "korean", make=True)
    try:
        assert '<svg id="board"' in get(url)
        assert "EventSource" in get(url + "app.js")
        state = json.loads(get(url + "state"))
        assert state["rules"] == "korean" and state["size"] == 13 and state["moves"] == 0
    finally:
        out = stop_sim(proc, group=True)
    assert "stopped" in out


def test_bad_requests_are_answered_and_change_nothing(tmp_path):
    proc, url = start_sim(tmp_path, "--size", "9")
    try:
        assert post(url + "api/point", {"p": 400}) == (400, {"ok": False, "error": "p: expected 0..360"})
        status, answer = post(url + "api/new", {"rules": "japanese", "size": 9, "handicap": 0, "time": "byoyomi 5x"})
        assert status == 400 and not answer["ok"] and "5x" in answer["error"]  # settings no game can have
        status, answer = post(url + "api/frob", {})
        assert status == 404 and "frob" in answer["error"]
        request = urllib.request.Request(url + "api/button", b"{not json", {"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as bad:
            urllib.request.urlopen(request, timeout=10)
        assert bad.value.code == 400
        state = json.loads(get(url + "state"))
        assert state["size"] == 9 and state["clock"] is None and state["moves"] == 0
        assert any("new game refused" in line for line in state["log"])
        assert post(url + "api/new", {"rules": "chinese", "size": 13, "handicap": 3, "time": "fischer 5m +10s"}) == (
            200, {"ok": True, "error": None})
        state = json.loads(get(url + "state"))
        assert (state["rules"], state["size"], state["handicap"]) == ("chinese", 13, 3)
        assert state["clock"]["spec"] == "fischer 5m +10s" and state["state"] == "setup"
        assert post(url + "api/diag", {"on": True}) == (200, {"ok": True, "error": None})  # no move yet: allowed
        assert json.loads(get(url + "state"))["diagnostics"] is True
        assert post(url + "api/diag", {"on": "yes"})[0] == 400
        assert post(url + "api/diag", {"on": False}) == (200, {"ok": True, "error": None})
    finally:
        stop_sim(proc)


def test_a_script_drives_the_live_board(tmp_path):
    script = tmp_path / "game.script"
    script.write_text("100 place E5\n700 place C3\n1300 place G7\n2000 lift E5\n")  # 600 ms apart: settled
    proc, url = start_sim(tmp_path, "--size", "9", "--script", str(script), "--speed", "2")
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            state = json.loads(get(url + "state"))
            if state["moves"] == 3 and state["message"] == "put back the stone at E5 (lit)":
                break
            time.sleep(0.1)
        assert state["moves"] == 3 and state["message"] == "put back the stone at E5 (lit)", state
    finally:
        stop_sim(proc)


def test_a_bad_time_spec_is_refused_before_anything_starts(tmp_path):
    done = subprocess.run([sys.executable, "-m", "host_tools.sim", "--no-browser", "--port", "0", "--time",
                           "byoyomi 10m 3y30s", "--games", str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1
    assert "3y30s" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium is not installed (make test installs it)")
def test_play_a_capture_in_the_browser(tmp_path):
    from playwright.sync_api import expect

    proc, url = start_sim(tmp_path, "--size", "9", "--time", "byoyomi 10m 3x30s")
    try:
        with browser_page(url) as page:
            body = page.locator("body")
            moves = ["D5", "E5", "F5", "A1", "E6", "B1"]
            for n, vertex in enumerate(moves, 1):
                play_in_page(page, n, vertex, "black" if n % 2 else "white")
            page.click('[data-vertex="E4"]')  # Black captures E5
            expect(body).to_have_attribute("data-moves", "7")
            captured = page.locator('[data-vertex="E5"]')
            expect(captured).to_have_attribute("data-mark", "lift")
            expect(captured).not_to_have_attribute("data-led", "")  # lit (it blinks: this waits for "on")
            expect(page.locator("#message")).to_have_text("remove the captured stones at E5 (lit)")
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "simulator-capture.png"))
            captured.click()  # lift it
            expect(captured).to_have_attribute("data-stone", ".")
            expect(captured).to_have_attribute("data-mark", "liberty")  # now a liberty of the capturing stone
            expect(page.locator("#info-captures")).to_have_text("black 1, white 0")
            page.click("#clock-black")
            expect(page.locator("#clock-white")).to_have_class("face running")
            time.sleep(1.2)
            for side in ("black", "white"):  # both sides have used time now
                face = page.locator("#clock-%s .time" % side)
                expect(face).not_to_have_text("10:00")
            page.screenshot(path=str(ARTIFACTS / "simulator.png"))
    finally:
        stop_sim(proc)
    _game, got = recorded_game(tmp_path / "games")
    cols = "ABCDEFGHJ"
    expected = [("b" if i % 2 == 0 else "w", (int(v[1:]) - 1, cols.index(v[0])))
                for i, v in enumerate([*moves, "E4"])]
    assert got == expected


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium is not installed (make test installs it)")
def test_unplug_move_a_stone_plug_in(tmp_path):
    from playwright.sync_api import expect

    proc, url = start_sim(tmp_path, "--size", "9", "--time", "byoyomi 10m 3x30s")
    try:
        with browser_page(url) as page:
            body = page.locator("body")
            for n, (vertex, colour) in enumerate((("D5", "black"), ("E5", "white"), ("F5", "black")), 1):
                play_in_page(page, n, vertex, colour)
            page.click("#power")  # unplugged
            expect(page.locator("#message")).to_have_text("the board is off (unplugged)")
            expect(page.locator("#power")).to_have_text("Plug in")
            d5 = page.locator('[data-vertex="D5"]')
            d5.click()  # a stone knocked off while the board is off
            expect(d5).to_have_attribute("data-stone", ".")
            page.click("#power")  # power back: the game comes back from the journal
            expect(page.locator("#message")).to_have_text("put back the stone at D5 (lit)")
            expect(d5).to_have_attribute("data-mark", "put_back")
            expect(body).to_have_attribute("data-moves", "3")
            page.check('input[name="colour"][value="1"]')
            d5.click()  # put back (a black stone)
            expect(page.locator("#message")).to_have_text("white to play")
            expect(page.locator("#clock-white")).to_have_class("face running")  # time runs again
            assert "power back: game recovered at move 3" in page.locator("#log").text_content()
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "simulator-power-back.png"))
    finally:
        stop_sim(proc)
    assert recorded_game(tmp_path / "games")[1] == [("b", (4, 3)), ("w", (4, 4)), ("b", (4, 5))]
