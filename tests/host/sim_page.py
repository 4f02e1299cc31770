"""The browser simulator as the tests drive it, in one place: ``python -m host_tools.sim`` started
as a real process (with its logger), Debian's Chromium driven by Playwright (never a downloaded
browser), and what a person does on the page (click a point, press a clock face) with what the
page then shows. test_browser_sim.py, test_browser_guidance.py, test_browser_walk.py and others use it.
"""

import contextlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

from sgfmill import sgf

from .conftest import ROOT

CHROMIUM = "/usr/bin/chromium"
HAVE_CHROMIUM = os.path.exists(CHROMIUM)
NO_CHROMIUM = "Debian chromium is not installed (make test installs it)"
ARTIFACTS = ROOT / "build" / "artifacts"
# Chromium headless as root (no sandbox: root may not have one), nothing fetched from the network.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# An event-log line the simulator writes when a stage of the board (or the page's own step) raised:
# "   12.3  error: IndexError('tuple index out of range')" (host_tools/sim/live.py).
ERROR_LINE = re.compile(r"^\s*-?\d+\.\d\s+error:")


def start_sim(tmp_path, *args, make=False):
    """The simulator on a free port (through ``make sim`` if asked); returns (process, page URL)."""
    args = ["--no-browser", "--port", "0", "--games", str(tmp_path / "games"), *args]
    if make:
        command = ["make", "--no-print-directory", "sim", "ARGS=" + " ".join(shlex.quote(a) for a in args)]
    else:
        command = [sys.executable, "-m", "host_tools.sim", *args]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=make)  # make's children get the Ctrl-C as a group
    for line in proc.stdout:
        if "http://" in line:
            return proc, line.split()[-1]
    proc.kill()
    raise AssertionError("the simulator did not start: " + proc.stderr.read())


def stop_sim(proc, group=False):
    """Ctrl-C, as a user would; returns what it printed. Fails on a Python traceback on its stderr."""
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == (-signal.SIGINT if group else 0), err  # make reports the Ctrl-C it passed on
    assert "Traceback" not in err, err
    return out


@contextlib.contextmanager
def chromium():
    """Debian's Chromium under Playwright (one per test, or one per module: see open_page)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def open_page(browser, url, width=1280, height=900):
    """The simulator's page in a fresh context of ``browser``, once its live stream is connected,
    watching its event log for ``error:`` lines (see log_errors)."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(url)
        expect(page.locator("#connection")).to_have_text("live")
        watch_log(page)
        yield page
    finally:
        context.close()


@contextlib.contextmanager
def browser_page(url):
    """The simulator's page in a Chromium of its own."""
    with chromium() as browser, open_page(browser, url) as page:
        yield page


def watch_log(page):
    """Keep every event-log line the page ever shows that says ``error:`` (the page shows only the
    last 60 lines: one could scroll out between two looks)."""
    page.evaluate("""(pattern) => {
        const re = new RegExp(pattern);
        const seen = window.__logErrors = [];
        const log = document.getElementById("log");
        const look = () => {
            for (const line of log.textContent.split("\\n")) if (re.test(line) && !seen.includes(line)) seen.push(line);
        };
        new MutationObserver(look).observe(log, { childList: true, characterData: true, subtree: true });
        look();
    }""", ERROR_LINE.pattern)


def log_errors(page):
    """The ``error:`` lines the page's event log has shown since it was opened."""
    return page.evaluate("window.__logErrors || []")


def assert_no_log_errors(page):
    errors = log_errors(page)
    assert not errors, "the event log shows stage errors:\n" + "\n".join(errors)


def point(page, vertex):
    return page.locator('[data-vertex="%s"]' % vertex)


def click_move(page, vertex, n):
    """Click a stone onto ``vertex`` and wait for the board to record it as move ``n``."""
    from playwright.sync_api import expect

    point(page, vertex).click()
    expect(page.locator("body")).to_have_attribute("data-moves", str(n))


def play_in_page(page, n, vertex, colour):
    """Move n: click the stone onto vertex, wait for the board to record it, press the mover's clock."""
    from playwright.sync_api import expect

    click_move(page, vertex, n)
    page.click("#clock-" + colour)  # end the move with a press
    other = "white" if colour == "black" else "black"
    expect(page.locator("#clock-" + other)).to_have_class("face running")


def shot(page, name, full_page=True):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=full_page)


def recorded_game(games):
    """The one game the logger wrote in ``games``: (sgfmill game, its moves)."""
    records = list(games.glob("*.sgf"))
    assert len(records) == 1, records  # one game, one file
    game = sgf.Sgf_game.from_bytes(records[0].read_bytes())
    return game, [node.get_move() for node in game.get_main_sequence()[1:]]


def get(url):
    return urllib.request.urlopen(url, timeout=10).read().decode()


def wait_for(what, url, timeout=20):
    """The page's state once ``what(state)`` holds (AssertionError with the last state after ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = json.loads(get(url + "state"))
        if what(state):
            return state
        time.sleep(0.05)
    raise AssertionError("timed out; last state: %r" % {k: state[k] for k in ("moves", "message", "state", "log")})


def post(url, body):
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
