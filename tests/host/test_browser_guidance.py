"""The simulator's page as players, referees and teachers meet it, in Debian's Chromium (Playwright):
handicap guidance, counting with the board's proposal and both players' agreement, a foul in words,
the LED legend, the guided sensor check, a resignation that needs its second press, a layout that
does not move under the pointer, and the clock above the board on a portrait tablet and a phone.
Screenshots go to build/artifacts/ (the issue's evidence)."""

import os

import pytest

from .sim_page import CHROMIUM, browser_page, click_move, shot, start_sim, stop_sim

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="Debian chromium is not installed (make test installs it)")


def test_handicap_points_are_lit_and_stones_accepted_as_they_come(tmp_path):
    from playwright.sync_api import expect

    proc, url = start_sim(tmp_path, "--handicap", "4", "--time", "byoyomi 10m 3x30s")
    try:
        with browser_page(url) as page:
            message = page.locator("#message")
            expect(message).to_have_text("place 4 handicap stones on the lit points: 0 of 4 down")
            for v in ("D4", "Q4", "D16", "Q16"):
                expect(page.locator('[data-vertex="%s"]' % v)).to_have_attribute("data-mark", "place")
            page.click('[data-vertex="Q16"]')
            expect(page.locator('[data-vertex="Q16"]')).to_have_attribute("data-mark", "accepted")
            page.click('[data-vertex="K10"]')  # a wrong point: explained, not just red
            expect(message).to_have_text("K10: not a handicap point, lift it (the handicap points are lit)")
            expect(page.locator('[data-vertex="K10"]')).to_have_attribute("data-mark", "error")
            expect(page.locator('#legend-list li.now[data-kind="place"]')).to_be_visible()
            shot(page, "handicap-placement.png")
            page.click('[data-vertex="K10"]')
            for v in ("D4", "Q4", "D16"):
                page.click('[data-vertex="%s"]' % v)
            expect(message).to_have_text("white to play")
            expect(page.locator("#clock-white")).to_have_class("face running")  # White's first move is timed
    finally:
        stop_sim(proc)


def test_counting_proposal_score_and_agreement_by_both_clocks(tmp_path):
    from playwright.sync_api import expect

    proc, url = start_sim(tmp_path, "--size", "9")
    try:
        with browser_page(url) as page:
            n = 0
            for row in range(1, 10):  # Black's wall on D, White's on F
                for col in "DF":
                    n += 1
                    click_move(page, "%s%d" % (col, row), n)
            click_move(page, "H5", 19)  # Black's stone inside White's area
            page.click("#clock-white")  # no clock in this game: a press is a pass
            click_count = page.locator("body")
            expect(click_count).to_have_attribute("data-moves", "20")
            page.click("#clock-black")
            message = page.locator("#message")
            expect(message).to_contain_text("counting: Black 27, White 28 + komi 6.5: White leads by 7.5.")
            expect(message).to_contain_text("The lit stones look dead")
            expect(page.locator('[data-vertex="H5"]')).to_have_attribute("data-mark", "lift")
            expect(page.locator('[data-vertex="B5"]')).to_have_attribute("data-mark", "territory")
            expect(page.locator('[data-vertex="E5"]')).to_have_attribute("data-mark", "dame")
            expect(page.locator('#legend-list li.now[data-kind="territory"]')).to_be_visible()
            shot(page, "counting.png")
            page.click("#clock-white")
            expect(message).to_contain_text("White agreed: Black, press your clock to agree")
            page.click("#clock-black")
            expect(message).to_have_text("Game over: White wins by 7.5 points")
            expect(page.locator("#info-result")).to_have_text("White wins by 7.5 points (W+7.5)")
            shot(page, "counting-result.png")
    finally:
        stop_sim(proc)
    records = list((tmp_path / "games").glob("*.sgf"))
    assert len(records) == 1 and b"TB[" in records[0].read_bytes() and b"Count (Japanese rules)" in \
        records[0].read_bytes()


def test_a_tournament_foul_is_said_with_its_rule(tmp_path):
    from playwright.sync_api import expect

    proc, url = start_sim(tmp_path, "--size", "9", "--rules", "korean", "--mode", "tournament")
    try:
        with browser_page(url) as page:
            for n, v in enumerate(("D5", "E5", "C4", "D4", "D3", "F4", "A9", "E3", "E4"), 1):
                click_move(page, v, n)
            page.click('[data-vertex="D4"]')  # the captured stone lifted
            expect(page.locator("#message")).to_have_text("white to play")
            page.click('[data-vertex="D4"]')  # White retakes the ko at once
            expect(page.locator("#message")).to_have_text(
                "Game over: White loses by a foul: immediate ko retake (Korean regulations 19-1-5)")
            shot(page, "foul.png")
            page.select_option("#mode", "casual")  # after the game: no question asked
            expect(page.locator("#mode")).to_have_value("casual")
    finally:
        stop_sim(proc)


def test_the_guided_sensor_check(tmp_path):
    from playwright.sync_api import expect

    proc, url = start_sim(tmp_path, "--size", "9")
    try:
        with browser_page(url) as page:
            page.click("#diag")
            page.click('[data-vertex="A1"]')  # stones left on the board from before
            page.click('[data-vertex="B2"]')
            message = page.locator("#message")
            expect(message).to_contain_text("sensor check: clear the board first: 2 points read a stone")
            shot(page, "sensor-check-clear.png")
            page.click('[data-vertex="A1"]')
            page.click('[data-vertex="B2"]')
            expect(message).to_contain_text("walk one stone over every point, then MENU: 0 of 361", timeout=10000)
            for v in ("C3", "D4", "E5"):
                page.click('[data-vertex="%s"]' % v)
                page.click('[data-vertex="%s"]' % v)
            expect(message).to_contain_text("3 of 361 points have read it")
            page.click('[data-button="menu"]')
            expect(message).to_contain_text("sensor check done: 3 of 361 sensors work; dead (never read a stone): A19")
            expect(page.locator('#legend-list li[data-kind="error"]')).to_contain_text("stuck or dead sensor")
            shot(page, "sensor-check-done.png")
            page.click("#diag")
            expect(message).to_have_text("black to play")
    finally:
        stop_sim(proc)


def test_a_resignation_asks_first_and_the_layout_stays_put(tmp_path):
    from playwright.sync_api import expect

    proc, url = start_sim(tmp_path, "--size", "9")
    try:
        with browser_page(url) as page:
            assert page.locator("#stars circle").count() == 5  # 9x9: the 3-3 points and the centre
            click_move(page, "E5", 1)
            power = page.locator("#power")
            before = [page.locator(s).bounding_box() for s in ("#power", "#diag", "#board")]
            power.click()
            expect(power).to_have_text("Plug in")
            assert [page.locator(s).bounding_box() for s in ("#power", "#diag", "#board")] == before
            power.dblclick()  # a double click on Plug in: plugged in (the second asks the same); nothing resigned
            expect(power).to_have_text("Unplug")
            assert page.locator("#info-result").text_content() == "–"
            page.click('[data-control="resign_black"]')
            expect(page.locator("#message")).to_contain_text("Black resigns? Press")
            assert page.locator("#info-result").text_content() == "–"
            shot(page, "resign-asks.png")
            page.click('[data-control="resign_black"]')
            expect(page.locator("#message")).to_have_text("Game over: White wins by resignation")
            expect(page.locator("#display-words")).to_have_text("Clock display: WHITE WINS / BY RESIGNATION")
    finally:
        stop_sim(proc)


@pytest.mark.parametrize("width,height,name", [(820, 1180, "tablet-portrait"), (390, 844, "phone")])
def test_the_clock_is_above_the_board_on_narrow_screens(tmp_path, width, height, name):
    from playwright.sync_api import expect

    proc, url = start_sim(tmp_path, "--size", "13", "--time", "byoyomi 10m 3x30s")
    try:
        with browser_page(url) as page:
            page.set_viewport_size({"width": width, "height": height})
            clock = page.locator("#clock").bounding_box()
            board = page.locator("#board").bounding_box()
            assert clock["y"] + clock["height"] <= board["y"] and clock["y"] + clock["height"] <= height
            assert board["x"] >= 0 and board["x"] + board["width"] <= width  # nothing off the side
            assert page.locator("#stars circle").count() == 5  # 13x13
            page.click("#new-game summary")
            page.fill('#new-form input[name="time"]', "byoyomi 10m 3x30s and then some more words nobody could parse")
            page.click('#new-form button[type="submit"]')
            error = page.locator("#error")
            expect(error).to_contain_text("and then some more words nobody could parse")  # the whole reason
            assert len(error.text_content()) > 65 and error.bounding_box()["width"] <= width
            shot(page, "simulator-%s.png" % name)
    finally:
        stop_sim(proc)
