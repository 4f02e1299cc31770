"""The live simulator's board in process (no page, no thread): the page's controls take the
device's own paths, the journal included."""

from firmware.app import App
from firmware.modes import TOURNAMENT
from firmware.rules.coords import parse_vertex
from firmware.settings import Settings
from host_tools.board.clock_spec import canonical
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


# -- a counted game on the page's board (the walk's game: tests/host/test_browser_walk.py) ------

def _counted(live, now):
    """Walk a's 9x9 game up to the count, its dead stone (Black's H5) lifted."""
    def run(seconds=0.3):
        for _ in range(int(seconds * 100)):
            now[0] += 0.01
            live.step()

    def click(vertex, colour=0):
        live.toggle(live.physical(parse_vertex(9, vertex)), colour)
        run()

    walls = [v for row in (5, 4, 6, 3, 7, 2, 8, 1, 9) for v in ("D%d" % row, "F%d" % row)]
    for vertex in walls + ["H5", "B5", "B4", "E1", "B6", "E2", "A5", "E3", "C5"]:
        click(vertex)
    click("B5")  # the capture lifted
    for _ in range(2):
        live.control("pass")
        run()
    click("H5")  # dead: lifted
    run(1)
    return run


def test_after_a_count_the_captures_include_the_dead_stones():
    now = [0.0]
    live = LiveBoard(Settings(9), clock=lambda: now[0])
    run = _counted(live, now)
    state = live.state()
    assert state["message"].startswith("counting: Black 24, White 28 + komi 6.5")
    assert state["captures"] == [1, 1], "Black took B5 in play, White takes the dead H5 at the count"
    assert live.control("ok") is None  # the count agreed (the page's OK)
    run()
    state = live.state()
    assert state["result"] == "W+10.5" and state["captures"] == [1, 1]


def test_the_legend_shows_and_names_the_colours_the_page_draws_the_count_in():
    now = [0.0]
    live = LiveBoard(Settings(9), clock=lambda: now[0])
    _counted(live, now)
    state = live.state()
    territory = next(row for row in state["legend"] if row["kind"] == "territory")
    black, white = (live.physical(parse_vertex(9, v)) for v in ("B8", "H8"))  # Black's area (A-C), White's (G-J)
    assert state["marks"][black] == state["marks"][white] == "territory"
    # The swatches are the colours the board's points are drawn in (the page draws state["leds"])...
    assert (territory["colour"], territory["colour_white"]) == ("#" + state["leds"][black], "#" + state["leds"][white])
    # ...and the words name them: at the board's brightness the palette's dim blue is lit (0, 2, 6).
    assert "Black (blue dot) or White (white dot)" in territory["meaning"], territory["meaning"]
    from host_tools.sim.legend import colour_name

    assert (colour_name(state["leds"][black]), colour_name(state["leds"][white])) == ("blue", "white")


def test_colour_names():
    from host_tools.sim.legend import colour_name, drawn

    assert drawn((0, 1, 1)) == "00ffff" and drawn((0, 0, 0)) == ""
    assert [colour_name(c) for c in ("00ffff", "ffffff", "0062ff", "ff2600", "00ff80", "ffe20a", "ff559c",
                                     "ffaa00")] == ["cyan", "white", "blue", "red", "green", "yellow", "pink", "orange"]


def test_the_event_log_says_a_chain_put_back_is_alive_again():
    now = [0.0]
    live = LiveBoard(Settings(9), clock=lambda: now[0])
    run = _counted(live, now)
    live.toggle(live.physical(parse_vertex(9, "H5")), 1)  # the dead stone put back: alive again
    run(1)
    live.toggle(live.physical(parse_vertex(9, "H5")))  # and lifted: dead
    run(1)
    log = [line.split(None, 1)[1] for line in live.state()["log"]]
    assert log[-2:] == ["alive again Black H5", "dead Black H5"], log[-4:]


def test_after_a_result_no_clock_face_runs():
    """A foul ends a clocked game: the clock stops for good, and the page shows no face running
    (it showed White's, running and paused, after a ko retake lost the game)."""
    now = [0.0]
    live = LiveBoard(Settings(9, "korean", time_spec="byoyomi 10m 3x30s"), mode="tournament", clock=lambda: now[0])

    def run(seconds=0.3):
        for _ in range(int(seconds * 100)):
            now[0] += 0.01
            live.step()

    def click(vertex):
        live.toggle(live.physical(parse_vertex(9, vertex)))
        run()

    for n, vertex in enumerate(("D5", "E5", "C4", "D4", "D3", "F4", "A9", "E3", "E4"), 1):
        click(vertex)
        if n == 9:
            click("D4")  # the captured stone lifted
        live.press(("black", "white")[(n - 1) % 2])
        run()
    assert live.state()["clock"]["running"] == "white"
    click("D4")  # White retakes the ko at once: loses by a foul
    state = live.state()
    assert state["result"] == "B+F" and live.app.clock.stopped
    assert state["clock"]["running"] == "" and state["clock"]["stopped"], state["clock"]
