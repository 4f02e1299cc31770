"""The referee console in Chromium: it asks before an action that cannot be undone, shows each
board's lock, registration, record, clocks and a link to its page, lets a referee clear an
attention item until something new happens, shows each service's health, and fits a phone
(375 px: nothing off the screen)."""

import os
import time

import pytest

from .sim_page import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS
from .venue_site import VenueSite, line

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no Chromium (make test installs it)")
BOARDS = ("table01", "table02", "table03", "table04")


@pytest.fixture
def venue_site(tmp_path):
    site = VenueSite(tmp_path, boards=BOARDS, locked=lambda round_no: round_no == 1,
                     players=("Lee Sedol", "Gu Li"), ranks=("9p", "9p"))
    site.feed("table02", [line(0, "PENALTY", "3", "W", "warning", "1", "referee")])
    yield site
    site.close()


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def logged_in(browser, site, width=1280, height=900):
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(10000)
    page.goto(site.url + "/referee")
    page.fill("input[name=user]", "kim")
    page.fill("input[name=password]", "secret")
    page.click("#login button")
    expect(page.locator("#all tbody tr")).to_have_count(len(BOARDS))
    return page


def wait_for(predicate, seconds=5.0):
    end = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < end, "not in %g s" % seconds
        time.sleep(0.02)


def test_a_forfeit_is_sent_only_after_the_referee_confirms_it(browser, venue_site):
    from playwright.sync_api import expect

    site = venue_site
    page = logged_in(browser, site)
    page.locator('#all tr[data-board="table01"] button:has-text("Act")').click()
    page.select_option("select[name=action]", "forfeit")
    page.select_option("select[name=colour]", "B")
    page.click("#act-send")
    page.wait_for_function("document.querySelector('#confirm')?.open || !document.querySelector('#act').open")
    assert site.commands == []  # (asked, not sent)
    expect(page.locator("#confirm")).to_be_visible()
    expect(page.locator("#confirm-text")).to_contain_text("Forfeit: Black loses the game on board table01")
    page.screenshot(path=str(ARTIFACTS / "venue-console-confirm.png"))
    page.click("#confirm-no")
    expect(page.locator("#confirm")).to_be_hidden()
    expect(page.locator("#act-error")).to_have_text("not sent")
    assert site.commands == []
    page.click("#act-send")
    page.click("#confirm-yes")
    expect(page.locator("#act")).to_be_hidden()
    assert site.commands == [("table01", "referee forfeit B")]
    expect(page.locator("#audit")).to_contain_text("kim: referee on table01 (referee forfeit B)")


def test_unlocking_the_round_asks_first(browser, venue_site):
    from playwright.sync_api import expect

    site = venue_site
    page = logged_in(browser, site)
    expect(page.locator('#all tr[data-board="table01"] td[data-label=Lock]')).to_have_text("locked")
    page.click("#round button[value=unlock]")
    expect(page.locator("#confirm-text")).to_contain_text("Unlock round 1")
    page.click("#confirm-yes")
    expect(page.locator("#round-said")).to_have_text("unlocked: 1 boards")
    assert site.rounds == [(1, "unlock", "kim")]
    expect(page.locator('#all tr[data-board="table01"] td[data-label=Lock]')).to_have_text("unlocked")


def test_each_board_shows_its_status_clocks_and_a_link_to_its_page(browser, venue_site):
    from playwright.sync_api import expect

    site = venue_site
    site.feed("table04", [line(0, "HELLO", "proto=1", "board=table04", "boot=1", "game=1")])  # (not registered)
    site.venue.health = lambda: {"connected": True, "last_message": time.time() - 4, "dropped": 3}  # (its intake's word)
    page = logged_in(browser, site)
    row = page.locator('#all tr[data-board="table01"]')
    expect(row.locator("td[data-label=Lock]")).to_have_text("locked")
    expect(row.locator("td[data-label=Registered]")).to_have_text("yes")
    expect(row.locator("td[data-label=Record]")).to_have_text("hashed")
    expect(row.locator("td[data-label=Link]")).to_have_text("online")
    expect(row.locator("td[data-label=Clocks]")).to_contain_text("● 9:57 ○ 9:")  # White's runs
    expect(page.locator('#all tr[data-board="table04"] td[data-label=Registered]')).to_have_text("no")
    expect(page.locator("#services [data-service=intake]")).to_contain_text(
        "MQTT intake: ok · connected, last message 4 s ago, 3 dropped")
    expect(page.locator("#services [data-service=archive]")).to_contain_text("Archive: ok · writable")
    expect(page.locator("#services [data-service=loggers]")).to_contain_text("down")
    link = row.locator("td[data-label=Board] a")
    expect(link).to_have_attribute("href", "/board/table01?view=live")
    link.click()
    expect(page.locator("#delay")).to_have_text("Live (referees): no broadcast delay.")
    expect(page.locator("#at")).to_have_text("move 3 of 3")


def test_an_acknowledged_board_leaves_the_list_until_something_new_happens(browser, venue_site):
    from playwright.sync_api import expect

    site = venue_site
    page = logged_in(browser, site)
    needing = page.locator('#attention tr[data-board="table02"]')
    expect(needing).to_contain_text("warning W (referee)")
    needing.locator('button:has-text("Acknowledge")').click()
    expect(needing).to_have_count(0)
    expect(page.locator("#audit")).to_contain_text("kim: acknowledge on table02")
    page.reload()  # (the server keeps it: a reload, another referee, a restart see it cleared)
    expect(page.locator("#all tbody tr")).to_have_count(len(BOARDS))
    expect(needing).to_have_count(0)
    site.feed("table02", [line(0, "PENALTY", "4", "B", "points", "2", "referee")])  # something new
    expect(needing).to_contain_text("points B (referee)")


def test_the_console_fits_a_phone(browser, venue_site):
    from playwright.sync_api import expect

    site = venue_site
    page = logged_in(browser, site, 375, 740)
    page.screenshot(path=str(ARTIFACTS / "venue-console-phone.png"), full_page=True)
    assert off_screen(page) == []
    page.locator('#attention tr[data-board="table02"] button:has-text("Act")').click()
    page.select_option("select[name=action]", "result")
    page.fill("input[name=value]", "W+R")
    assert off_screen(page, "#act") == []
    page.click("#act-send")
    expect(page.locator("#confirm")).to_be_visible()
    assert off_screen(page, "#confirm") == []
    page.screenshot(path=str(ARTIFACTS / "venue-console-phone-confirm.png"))
    page.click("#confirm-yes")
    wait_for(lambda: site.commands == [("table02", "end W+R")])


def off_screen(page, within="body"):
    """What sticks out of the screen's width (the page scrolling sideways, or any element shown
    beyond its right edge), as (tag, id or class, its right edge)."""
    return page.evaluate("""(within) => {
        const width = document.documentElement.clientWidth, out = [];
        if (document.documentElement.scrollWidth > width) out.push(["page", "scrolls sideways", document.documentElement.scrollWidth]);
        for (const node of document.querySelector(within).querySelectorAll("*")) {
            const box = node.getBoundingClientRect();
            if (box.width && box.height && (box.right > width + 0.5 || box.left < -0.5))
                out.push([node.tagName, node.id || node.className || node.textContent.slice(0, 20), Math.round(box.right)]);
        }
        return out;
    }""", within)
