"""The live simulator's board in process (no page, no thread): the page's controls take the
device's own paths, the journal included."""

from firmware.app import App
from firmware.clock.canonical import canonical
from firmware.modes import TOURNAMENT
from firmware.settings import Settings
from host_tools.sim.live import LiveBoard


def cut_power(live):
    """The board's flash, read back by a new start of the firmware right now (no step in between)."""
    live.hw.power_up()
    return App(live.hw, Settings(19))


def test_a_command_from_the_page_is_on_flash_when_it_returns():
    live = LiveBoard(Settings(9))
    assert live.command("mode", ["tournament"]) is None
    assert cut_power(live).referee.mode == TOURNAMENT


def test_a_new_game_from_the_page_is_on_flash_when_it_returns():
    live = LiveBoard(Settings(9))
    assert live.new_game("korean", 13, 0, "byoyomi 10m 3x30s") is None
    again = cut_power(live)
    assert (again.game.size, again.game.rules.name, canonical(again.clock.tc)) == (13, "korean", "byoyomi 10m 3x30s")


def test_a_resignation_from_the_page_stops_the_clock():
    now = [0.0]
    live = LiveBoard(Settings(9, time_spec="absolute 5m"), clock=lambda: now[0])
    live.press("black")  # the table clock starts: White's time runs
    for _ in range(20):
        now[0] += 0.01
        live.step()
    assert live.app.timekeeper.started and not live.app.clock.stopped
    assert live.control("resign_black") is None  # the first press asks: nothing ends
    assert live.app.game.result is None and not live.app.clock.stopped
    assert live.state()["confirm"].startswith("Black resigns? Press")
    assert live.control("resign_black") is None  # the second, within 5 s: resigned
    assert live.app.clock.stopped and live.app.game.result.sgf() == "W+R"
    assert live.state()["result_words"] == "White wins by resignation"


def test_a_resignation_needs_its_second_press_within_five_seconds():
    now = [0.0]
    live = LiveBoard(Settings(9), clock=lambda: now[0])
    live.control("resign_white")
    now[0] += 5.5  # too late: this press asks again
    live.control("resign_white")
    assert live.app.game.result is None and live.state()["confirm"]
    live.control("pass")  # another control forgets the question
    live.control("resign_white")
    assert live.app.game.result is None
    live.control("resign_white")
    assert live.app.game.result.sgf() == "B+R"
    assert live.state()["confirm"] == ""
