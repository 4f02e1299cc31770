"""A part missing or failing: the board plays on without it and says so, once (firmware/faults.py).

At power-up a part left out (drivers/pico.py could not build it) is named to the host (HELLO's
``missing=``, an ALERT line) and shown for a while on the LEDs (a point of the top row per part,
in the error colour) and the clock display. A part whose I/O fails in play (an OSError: the
display's I2C when its cable is knocked, the buzzer's PWM) is dropped: the loop goes on, the game
is not touched, and the failure is counted and told once, not at every pass. A board whose sensor
is missing says so for as long as it runs and plays nothing.
"""

from harness import host_says, point, press, run, said

from firmware.app import App
from firmware.faults import F_BUZZER, F_DISPLAY, F_SENSOR, SHOW_MS, NoSensor
from firmware.leds.marks import ERROR
from firmware.settings import Settings
from host_tools.board.event_log import entries
from twins.hardware import simulated
from twins.link import Pipe

TIMEOUT = 110  # errno ETIMEDOUT: what an RP2040's I2C raises when nothing answers


def linked_board(faults=0, **settings):
    """A board with a cable to a host, ``faults`` left out at power-up as drivers/pico.py leaves
    them (the part None, its bit set): (hw, pipe, app)."""
    pipe = Pipe()
    hw = simulated(transport=pipe.board)
    if faults & F_DISPLAY:
        hw.display = None
    if faults & F_BUZZER:
        hw.buzzer = None
    if faults & F_SENSOR:
        hw.sensor = NoSensor()
    hw.faults = faults
    settings.setdefault("size", 9)
    return hw, pipe, App(hw, Settings(**settings))


def alerts(lines):
    return [fields for kind, fields in lines if kind == "ALERT"]


def told(app):
    """The event ring's "missing" events: their values (the parts' mask)."""
    return [e[3] for e in entries(app.events) if e[0] == "missing"]


def lit_points(app, hw, frame=-1):
    """The physical points lit in a frame the LED strip was sent."""
    leds = app.leds
    lit = hw.strip.lit(frame)
    return [p for p in range(361) if leds.offset_of[p] // 3 in lit]


def broken(*args):
    raise OSError(TIMEOUT)


def test_parts_missing_at_power_up_are_told_and_shown_and_the_board_plays():
    hw, pipe, app = linked_board(F_DISPLAY | F_BUZZER)
    run(app, hw, 0, 100)
    lines = said(pipe)
    hello = [fields for kind, fields in lines if kind == "HELLO"]
    assert hello and "missing=display,buzzer" in hello[0], lines
    assert alerts(lines) == [["journal=ok", "missing=display,buzzer"]], lines
    assert told(app) == [F_DISPLAY | F_BUZZER]
    # The LEDs: the display's and the buzzer's points of the top row (C19, D19), in the error colour.
    fault = getattr(app, "fault", None)
    assert fault is not None and fault.bits[2] == ERROR and fault.bits[3] == ERROR
    assert [p for p in range(361) if fault.bits[p]] == [2, 3]
    run(app, hw, 100, 1000)
    shown = set()
    for i in range(-len(hw.strip.frames), 0):
        shown.update(lit_points(app, hw, i))
    assert shown == {2, 3}, shown  # (blinking: dark in its off half)
    # After SHOW_MS the game's marks again; the board plays.
    run(app, hw, 1000, SHOW_MS + 200)
    assert getattr(app, "fault", None) is None
    hw.stones.place(point(app, 4, 4), 1)
    run(app, hw, SHOW_MS + 200, SHOW_MS + 600)
    assert app.game.move_number == 1
    assert 2 not in lit_points(app, hw) and lit_points(app, hw)  # the last move shown, not the fault
    lines = said(pipe)
    assert ("MOVE" in [kind for kind, _ in lines]) and not alerts(lines)
    hello = [fields for kind, fields in host_says(hw, pipe, app, "hello", SHOW_MS + 600) if kind == "HELLO"]
    assert hello and "missing=display,buzzer" in hello[0]  # every HELLO says them
    assert app.errors == 0


def test_a_display_that_fails_in_play_is_dropped_and_told_once():
    hw, pipe, app = linked_board(time_spec="absolute 10m")
    run(app, hw, 0, 100)
    hw.stones.place(point(app, 2, 2), 1)  # the first stone starts Black's clock
    run(app, hw, 100, 500)
    assert app.clock.snap.running == 1 and hw.display.frames > 0
    said(pipe)
    hw.display.canvas.flush = broken  # its cable knocked: the next frame's I2C write times out
    run(app, hw, 500, 5000)  # (a new frame every second: each would fail)
    assert app.errors == 1 and isinstance(app.last_error, OSError), app.errors  # counted once, not every 100 ms
    assert hw.display is None and hw.faults == F_DISPLAY
    lines = said(pipe)
    assert alerts(lines) == [["journal=ok", "missing=display"]], lines
    assert told(app) == [F_DISPLAY]
    # The game is not touched: the clock runs on, moves are played, pressed and told.
    press(app, hw, 0, 5000)
    assert app.clock.snap.running == 2
    hw.stones.place(point(app, 6, 6), 2)
    run(app, hw, 5120, 5600)
    press(app, hw, 1, 5600)
    run(app, hw, 5720, 20000)  # the LEDs tell it for SHOW_MS, then show the game again
    assert app.game.move_number == 2 and app.clock.snap.running == 1
    assert getattr(app, "fault", None) is None and 2 not in lit_points(app, hw)
    lines = said(pipe)
    assert [kind for kind, _ in lines].count("MOVE") == 1 and not alerts(lines), lines
    assert app.errors == 1 and told(app) == [F_DISPLAY]
    hello = [fields for kind, fields in host_says(hw, pipe, app, "hello", 20000) if kind == "HELLO"]
    assert hello and "missing=display" in hello[0]


def test_a_buzzer_that_fails_in_play_is_dropped_and_the_clock_goes_on_to_its_flag():
    hw, pipe, app = linked_board(time_spec="absolute 2s")
    hw.buzzer.pwm.freq = broken  # its PWM fails at the first cue it plays
    press(app, hw, 1, 0)  # Black's 2 s run
    run(app, hw, 120, 4000)
    assert app.errors == 1, app.errors  # the last second's cue failed; the flag's cues had no buzzer to fail in
    assert hw.buzzer is None and hw.faults == F_BUZZER
    assert app.game.result.sgf() == "W+T" and app.clock.snap.flag == "B"  # the game ended as it would have
    lines = said(pipe)
    assert alerts(lines) == [["journal=ok", "missing=buzzer"]], lines
    assert "END" in [kind for kind, _ in lines]
    assert told(app) == [F_BUZZER]


def test_a_journal_alert_after_a_part_is_missing_names_both():
    hw, pipe, app = linked_board(F_BUZZER)
    run(app, hw, 0, 100)
    said(pipe)
    app._journal_alert(True, 100)  # (the flash full: test_journal_full.py fills one)
    run(app, hw, 100, 200)
    assert alerts(said(pipe)) == [["journal=failing", "missing=buzzer"]]


def test_a_display_failing_as_the_journal_alert_inverts_it_is_the_one_dropped():
    hw, pipe, app = linked_board()
    run(app, hw, 0, 100)
    said(pipe)
    hw.display.canvas.invert = broken
    app._journal_alert(True, 100)
    run(app, hw, 100, 200)
    assert hw.display is None and hw.faults == F_DISPLAY and hw.transport is not None
    assert alerts(said(pipe)) == [["journal=failing"], ["journal=failing", "missing=display"]]


def test_a_board_without_its_sensor_says_so_for_good_and_plays_nothing():
    hw, pipe, app = linked_board(F_SENSOR)
    run(app, hw, 0, 100)
    lines = said(pipe)
    assert alerts(lines) == [["journal=ok", "missing=sensor"]], lines
    hw.stones.place(point(app, 4, 4), 1)  # (no sensor sees it)
    press(app, hw, 0, 100)  # (no button plays: it would be a pass)
    run(app, hw, 220, 3 * SHOW_MS)
    assert app.game.move_number == 0 and not app.timekeeper.started
    assert getattr(app, "fault", None) is not None  # told for as long as it runs
    assert 0 in lit_points(app, hw, -1) or 0 in lit_points(app, hw, -2)  # A19, blinking
    assert hw.display.said() == "MISSING: / SENSOR"
    lines = host_says(hw, pipe, app, "state", 3 * SHOW_MS)
    assert "STATE" in [kind for kind, _ in lines]  # the host's link answers
    assert app.errors == 0


def test_a_sensor_that_fails_in_play_is_dropped_and_the_game_kept():
    """A diode matrix whose expanders stop answering (an I2C cable knocked): the board stops
    seeing the board instead of failing every scan, keeps the game as it was and says so."""
    pipe = Pipe()
    hw = simulated("matrix", pipe.board)
    app = App(hw, Settings(size=9))
    hw.stones.place(point(app, 4, 4), 1)
    run(app, hw, 0, 400)
    assert app.game.move_number == 1
    said(pipe)
    hw.sensor._i2c.readfrom_mem_into = broken  # the column expanders' reads time out
    hw.stones.place(point(app, 2, 2), 2)
    run(app, hw, 400, 3000)
    assert app.errors == 1 and hw.faults == F_SENSOR  # once, not at every 10 ms scan
    assert isinstance(hw.sensor, NoSensor) and app.controls is None
    assert app.game.move_number == 1  # the game as it was: White's stone is not seen
    lines = said(pipe)
    assert alerts(lines) == [["journal=ok", "missing=sensor"]], lines
    assert getattr(app, "fault", None) is not None and hw.display.said() == "MISSING: / SENSOR"
