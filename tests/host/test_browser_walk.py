"""The page walked as players walk it (issue 36's last item): the real simulator (``python -m
host_tools.sim``, its logger writing the SGF) in Debian's Chromium, driven only by clicks on the
page (points, the clock faces, PAUSE, MENU, Undo, Pass, New game), through four 9x9 games:

a. a counted game: a capture lifted, two passes, the dead stone lifted, put back and lifted
   again, both players agree by their clocks -> the result at once, and in the logger's SGF;
b. takebacks in a clocked game (the page's Undo, the board's MENU) -> the page says whose turn
   it is, that side's clock runs, and the next press switches it;
c. a handicap game set from New game: the stones on the lit points, White first, on the clock,
   PAUSE and PAUSE again;
d. a tournament foul (Korean, on the clock): an immediate ko retake loses at once, said with
   its rule on the page and kept in the SGF;

and a's count on a 375 px phone, agreed by MENU: nothing off the screen, the Captures with the
dead stone, the legend's territory in the colours the board is drawn in (issue 36 item 8).

Every walk fails on an ``error:`` line in the page's event log (a stage of the board raised)
and on a Python traceback on the simulator's stderr. One Chromium serves the whole module.
Screenshots go to build/artifacts/walk-*.png.
"""

import contextlib
import re
import time

import pytest

from .sim_page import (
    HAVE_CHROMIUM,
    NO_CHROMIUM,
    assert_no_log_errors,
    chromium,
    click_move,
    open_page,
    point,
    recorded_game,
    shot,
    start_sim,
    stop_sim,
)

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM, reason=NO_CHROMIUM)

CLOCK = "byoyomi 10m 3x30s"


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@contextlib.contextmanager
def walk(browser, tmp_path, *args, width=1280, height=900):
    """The simulator started with ``args`` and its page open; at the end of the walk, no
    ``error:`` in the event log, and (stopped with Ctrl-C) no traceback on its stderr."""
    proc, url = start_sim(tmp_path, "--size", "9", *args)
    try:
        with open_page(browser, url, width, height) as page:
            yield page
            assert_no_log_errors(page)
    finally:
        stop_sim(proc)


def expect_turn(page, side, running=True):
    """The page says ``side`` is to play and, on a clocked game, ``side``'s face is the one running."""
    from playwright.sync_api import expect

    expect(page.locator("#message")).to_have_text("%s to play" % side)
    if running:
        expect(page.locator("#clock-" + side)).to_have_class("face running")
        other = "white" if side == "black" else "black"
        expect(page.locator("#clock-" + other)).to_have_class("face")


def sgf_root(tmp_path):
    game, moves = recorded_game(tmp_path / "games")
    return game.get_root(), moves


# -- a. a counted game --------------------------------------------------------------------------

# Black's wall on D, White's on F (E: dame); a black stone left dead at H5; White invades at B5 and
# is captured (White fills dame meanwhile). Japanese rules, komi 6.5: Black 23 territory + 1
# prisoner = 24; White 27 territory (H5 counted) + 1 prisoner (the dead H5) = 28 -> W+10.5.
WALLS = [v for row in (5, 4, 6, 3, 7, 2, 8, 1, 9) for v in ("D%d" % row, "F%d" % row)]
INVASION = ["H5", "B5", "B4", "E1", "B6", "E2", "A5", "E3", "C5"]  # C5 captures B5
COUNT_WORDS = "counting: Black 24, White 28 + komi 6.5: White leads by 10.5."


def play_to_counting(page):
    """Walk a's game up to the count: the capture lifted, White passes, Black passes."""
    from playwright.sync_api import expect

    moves = WALLS + INVASION
    for n, vertex in enumerate(moves, 1):
        click_move(page, vertex, n)
    message = page.locator("#message")
    expect(message).to_have_text("remove the captured stones at B5 (lit)")
    expect(point(page, "B5")).to_have_attribute("data-mark", "lift")
    point(page, "B5").click()  # the captured stone lifted
    expect(message).to_have_text("white to play")
    expect(page.locator("#info-captures")).to_have_text("black 1, white 0")
    page.click('[data-control="pass"]')  # White passes: the players are told
    expect(message).to_have_text("White passed: a pass by Black too ends play. black to play")
    page.click('[data-control="pass"]')  # Black passes: counting
    expect(message).to_contain_text("The lit stones look dead")
    expect(point(page, "H5")).to_have_attribute("data-mark", "lift")
    return len(moves) + 2


def test_a_counted_game(browser, tmp_path):
    from playwright.sync_api import expect

    with walk(browser, tmp_path) as page:
        message = page.locator("#message")
        h5 = point(page, "H5")
        play_to_counting(page)
        h5.click()  # the players agree H5 is dead: lifted
        expect(h5).to_have_attribute("data-stone", ".")
        expect(message).to_contain_text(COUNT_WORDS + " Lift dead stones (put one back: alive again).")
        page.check('input[name="colour"][value="1"]')  # a black stone in hand
        h5.click()  # put back: alive again, and White's area is no longer White's
        expect(message).to_contain_text("counting: Black 24, White 0 + komi 6.5: Black leads by 17.5.")
        page.check('input[name="colour"][value="0"]')
        h5.click()  # lifted again: dead
        expect(message).to_contain_text(COUNT_WORDS)
        expect(page.locator("#info-captures")).to_contain_text("white 1")  # the dead stone is White's
        shot(page, "walk-a-counting.png")
        page.click("#clock-white")  # White agrees
        expect(message).to_contain_text("White agreed: Black, press your clock to agree")
        pressed = time.monotonic()
        page.click("#clock-black")  # Black agrees: the count is the result
        expect(message).to_have_text("Game over: White wins by 10.5 points")
        waited = time.monotonic() - pressed
        assert_no_log_errors(page)
        assert waited < 1.5, "the result took %.1f s to show" % waited
        expect(page.locator("#info-result")).to_have_text("White wins by 10.5 points (W+10.5)")
        expect(page.locator("#info-captures")).to_contain_text("black 1, white 1")
        shot(page, "walk-a-result.png")
    root, moves = sgf_root(tmp_path)
    assert root.get("RE") == "W+10.5"
    assert len(moves) == len(WALLS) + len(INVASION) + 2  # the two passes too


def test_the_count_on_a_phone(browser, tmp_path):
    """Walk a's count on a 375 px wide phone: nothing off the screen; the Captures with the dead
    stone taken (issue 36 item 8); the legend's territory swatches in the colours the board's
    territory is drawn in, and named as them."""
    from playwright.sync_api import expect

    with walk(browser, tmp_path, width=375, height=812) as page:
        play_to_counting(page)
        point(page, "H5").click()
        expect(page.locator("#message")).to_contain_text(COUNT_WORDS + " Lift dead stones")
        expect(page.locator("#info-captures")).to_have_text(
            "black 1, white 1 (dead stones included: white 1)")
        drawn = page.evaluate("""() => {
            const led = (v) => getComputedStyle(document.querySelector(`[data-vertex="${v}"] circle.led`)).fill;
            const swatch = document.querySelector('#legend-list li[data-kind="territory"] .swatch');
            return { black: led("B8"), white: led("H8"), swatch: swatch.style.background,
                     words: swatch.parentNode.textContent };
        }""")
        assert drawn["swatch"] == "linear-gradient(90deg, %s 50%%, %s 50%%)" % (drawn["black"], drawn["white"]), drawn
        assert (drawn["black"], drawn["white"]) == ("rgb(0, 85, 255)", "rgb(255, 255, 255)")  # dim blue lit (0, 2, 6)
        assert "counted for Black (blue dot) or White (white dot)" in drawn["words"], drawn["words"]
        page.click('[data-button="menu"]')  # casual play: MENU agrees the count for both
        expect(page.locator("#message")).to_have_text("Game over: White wins by 10.5 points")
        expect(page.locator("#info-captures")).to_have_text("black 1, white 1 (dead stones included: white 1)")
        page.click("#new-game summary")  # the next game's settings, open too
        shot(page, "walk-count-375.png")
        wide = page.evaluate("""() => [...document.querySelectorAll("body *")].filter((e) => {
            const r = e.getBoundingClientRect();
            return r.width && r.height && (r.left < -0.5 || r.right > window.innerWidth + 0.5);
        }).map((e) => e.id || e.tagName + (e.name ? "[name=" + e.name + "]" : ""))""")
        assert not wide, "off the 375 px screen: %s" % wide
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert sgf_root(tmp_path)[0].get("RE") == "W+10.5"


# -- b. takebacks in a clocked game ---------------------------------------------------------------

def test_b_undo_and_menu_takeback_on_the_clock(browser, tmp_path):
    from playwright.sync_api import expect

    with walk(browser, tmp_path, "--time", CLOCK) as page:
        message = page.locator("#message")
        for n, (vertex, side) in enumerate((("E5", "black"), ("C3", "white"), ("G7", "black")), 1):
            click_move(page, vertex, n)
            page.click("#clock-" + side)
            expect_turn(page, "white" if side == "black" else "black")
        # The page's Undo: Black's G7 taken back; its stone to lift.
        page.click('[data-control="undo"]')
        expect(message).to_have_text("taken back: lift the stone at G7 (lit)")
        point(page, "G7").click()
        expect_turn(page, "black")  # Black to play again, on Black's time
        click_move(page, "G3", 3)
        page.click("#clock-black")  # the next press switches the clock
        expect_turn(page, "white")
        click_move(page, "C7", 4)
        page.click("#clock-white")
        expect_turn(page, "black")
        # The board's MENU (casual play): White's C7 taken back.
        page.click('[data-button="menu"]')
        expect(message).to_have_text("taken back: lift the stone at C7 (lit)")
        point(page, "C7").click()
        expect_turn(page, "white")
        click_move(page, "G5", 4)
        page.click("#clock-white")
        expect_turn(page, "black")
        shot(page, "walk-b-after-takebacks.png")
    _root, moves = sgf_root(tmp_path)
    assert moves == [("b", (4, 4)), ("w", (2, 2)), ("b", (2, 6)), ("w", (4, 6))]


# -- c. a handicap game -------------------------------------------------------------------------

def test_c_a_handicap_game_from_new_game(browser, tmp_path):
    from playwright.sync_api import expect

    with walk(browser, tmp_path) as page:
        message = page.locator("#message")
        page.click("#new-game summary")
        page.select_option('#new-form select[name="size"]', "9")
        page.fill('#new-form input[name="handicap"]', "2")
        page.fill('#new-form input[name="time"]', CLOCK)
        page.click('#new-form button[type="submit"]')
        expect(message).to_have_text("place 2 handicap stones on the lit points: 0 of 2 down")
        expect(page.locator("#info-rules")).to_have_text("japanese, 9×9, komi 0.5, handicap 2")
        lit = page.locator('[data-mark="place"]')
        expect(lit).to_have_count(2)
        spots = [lit.nth(i).get_attribute("data-vertex") for i in range(2)]
        assert sorted(spots) == ["C3", "G7"], spots
        for n, vertex in enumerate(spots, 1):
            point(page, vertex).click()
            if n < 2:
                expect(message).to_have_text("place 2 handicap stones on the lit points: 1 of 2 down")
        expect_turn(page, "white")  # White first, on White's time
        expect(page.locator("#info-moves")).to_have_text("0 (white to play)")
        click_move(page, "E5", 1)
        page.click("#clock-white")
        expect_turn(page, "black")
        page.click('[data-button="pause"]')  # Black stops the clock...
        expect(message).to_have_text("clock paused: PAUSE restarts it; black to play")
        expect(page.locator("#clock-black")).to_have_class("face running paused")
        # (a click while the simulated finger still holds the button, 60 ms, is lost: wait as a hand does)
        page.wait_for_timeout(150)
        page.click('[data-button="pause"]')  # ...and starts it again
        expect_turn(page, "black")
        click_move(page, "E3", 2)
        page.click("#clock-black")
        expect_turn(page, "white")
        shot(page, "walk-c-handicap.png")
    root, moves = sgf_root(tmp_path)
    assert root.get("HA") == 2 and sorted(root.get_setup_stones()[0]) == [(2, 2), (6, 6)]
    assert moves == [("w", (4, 4)), ("b", (2, 4))]


# -- d. a tournament foul -----------------------------------------------------------------------

FOUL_WORDS = "White loses by a foul: immediate ko retake (Korean regulations 19-1-5)"


def test_d_a_tournament_foul(browser, tmp_path):
    from playwright.sync_api import expect

    with walk(browser, tmp_path, "--rules", "korean", "--mode", "tournament", "--time", CLOCK) as page:
        message = page.locator("#message")
        sides = ("black", "white")
        for n, vertex in enumerate(("D5", "E5", "C4", "D4", "D3", "F4", "A9", "E3", "E4"), 1):
            click_move(page, vertex, n)
            if n == 9:  # Black's E4 captures D4: the stone comes off before the press
                expect(message).to_have_text("remove the captured stones at D4 (lit)")
                point(page, "D4").click()
            page.click("#clock-" + sides[(n - 1) % 2])
            expect_turn(page, sides[n % 2])
        point(page, "D4").click()  # White retakes the ko at once
        expect(message).to_have_text("Game over: " + FOUL_WORDS)
        expect(page.locator("#info-result")).to_have_text(FOUL_WORDS + " (B+F)")
        for side in sides:  # the clocks stop: no face runs
            expect(page.locator("#clock-" + side)).not_to_have_class(re.compile(r"\brunning\b"))
        shot(page, "walk-d-foul.png")
    root, _moves = sgf_root(tmp_path)
    assert root.get("RE") == "B+F"
    assert "19-1-5" in root.get("GC"), root.get("GC")


def test_e_a_game_against_gnugo_from_new_game(browser, tmp_path):
    from playwright.sync_api import expect

    from host_tools.gtp.engine import default_engine

    if default_engine() is None:
        pytest.skip("GNU Go is not installed (make test installs it)")
    with walk(browser, tmp_path) as page:
        page.click("#new-game summary")
        page.select_option('#new-form select[name="size"]', "9")
        page.select_option('#new-form select[name="opponent"]', "gnugo")
        page.select_option('#new-form select[name="colour"]', "W")
        page.fill('#new-form input[name="level"]', "0")
        page.click('#new-form button[type="submit"]')
        lit = page.locator('[data-mark="put_back"]')
        expect(lit).to_have_count(1, timeout=20_000)  # GNU Go's first stone, lit to place
        point(page, lit.get_attribute("data-vertex")).click()
        expect(lit).to_have_count(0)
        expect(page.locator("#info-moves")).to_have_text("1 (white to play)")


# -- f. capture Go on 7x7 -----------------------------------------------------------------------

def test_f_capture_go_on_seven_by_seven_from_new_game(browser, tmp_path):
    """A teacher's first game for beginners: capture Go, the first capture wins."""
    from playwright.sync_api import expect

    with walk(browser, tmp_path) as page:
        page.click("#new-game summary")
        page.select_option('#new-form select[name="size"]', "7")
        page.select_option('#new-form select[name="captures"]', "1")
        page.click('#new-form button[type="submit"]')
        expect(page.locator("#info-rules")).to_contain_text("7×7")
        for n, vertex in enumerate(("C4", "D4", "E4", "A1", "D5", "A2", "D3"), 1):
            click_move(page, vertex, n)  # Black's D3 takes White's D4
        expect(page.locator("#info-result")).to_have_text(
            "Black wins at capture Go, the first to capture 1 stone (B+)")
        shot(page, "walk-f-capture-go.png")
    root, moves = sgf_root(tmp_path)
    assert root.get("SZ") == 7 and root.get("RE") == "B+" and len(moves) == 7
    assert root.get("GC") == "Result: Black wins at capture Go, the first to capture 1 stone"
