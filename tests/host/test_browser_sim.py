"""The browser simulator end to end: ``python -m host_tools.sim`` (a real process with its
logger), Debian's Chromium driven by Playwright (never a downloaded browser).

Clicks stones into a capture, checks the captured stone's LED asks for removal, lifts it,
presses the clocks, checks the clock faces moved, stops with Ctrl-C and reads the SGF the
logger left in the games folder. The screenshot is kept in build/artifacts/.
"""

import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
from sgfmill import sgf

from .conftest import ROOT

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "build" / "artifacts"
# Chromium as root in a sandbox with no network (see README "Tests").
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def start_sim(tmp_path, *args):
    """The simulator on a free port; returns (process, page URL)."""
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.sim", "--no-browser", "--port", "0",
                             "--games", str(tmp_path / "games"), *args],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        raise AssertionError("the simulator did not start: " + line + proc.stderr.read())
    return proc, line.split()[-1]


def stop_sim(proc):
    """Ctrl-C, as a user would; returns what it printed."""
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    return out


def test_no_browser_serves_the_page(tmp_path):
    proc, url = start_sim(tmp_path, "--size", "13", "--rules", "korean")
    try:
        page = urllib.request.urlopen(url, timeout=10).read().decode()
        assert "<svg id=\"board\"" in page
        script = urllib.request.urlopen(url + "app.js", timeout=10).read().decode()
        assert "EventSource" in script
        state = urllib.request.urlopen(url + "state", timeout=10).read().decode()
        assert '"rules": "korean"' in state and '"size": 13' in state
    finally:
        out = stop_sim(proc)
    assert "stopped" in out


def test_a_bad_time_spec_is_refused_before_anything_starts(tmp_path):
    done = subprocess.run([sys.executable, "-m", "host_tools.sim", "--no-browser", "--port", "0", "--time",
                           "byoyomi 10m 3y30s", "--games", str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1
    assert "3y30s" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium is not installed (make test installs it)")
def test_play_a_capture_in_the_browser(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    proc, url = start_sim(tmp_path, "--size", "9", "--time", "byoyomi 10m 3x30s")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(url)
            expect(page.locator("#connection")).to_have_text("live")
            body = page.locator("body")

            def play(n, vertex, colour):
                page.click('[data-vertex="%s"]' % vertex)
                expect(body).to_have_attribute("data-moves", str(n))
                page.click("#clock-" + colour)  # end the move with a press
                other = "white" if colour == "black" else "black"
                expect(page.locator("#clock-" + other)).to_have_class("face running")

            moves = ["D5", "E5", "F5", "A1", "E6", "B1"]
            for n, vertex in enumerate(moves, 1):
                play(n, vertex, "black" if n % 2 else "white")
            page.click('[data-vertex="E4"]')  # Black captures E5
            expect(body).to_have_attribute("data-moves", "7")
            captured = page.locator('[data-vertex="E5"]')
            expect(captured).to_have_attribute("data-mark", "lift")
            expect(captured).not_to_have_attribute("data-led", "")  # lit (it blinks: this waits for "on")
            expect(page.locator("#message")).to_have_text("remove the captured stones")
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
            browser.close()
    finally:
        stop_sim(proc)
    records = list((tmp_path / "games").glob("sim-*-g1.sgf"))
    assert len(records) == 1
    game = sgf.Sgf_game.from_bytes(records[0].read_bytes())
    got = [node.get_move() for node in game.get_main_sequence()[1:]]
    cols = "ABCDEFGHJ"
    expected = [("b" if i % 2 == 0 else "w", (int(v[1:]) - 1, cols.index(v[0])))
                for i, v in enumerate([*moves, "E4"])]
    assert got == expected
