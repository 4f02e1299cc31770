"""The assembled board: the App on simulated hardware with simulated time, driven by hands, buttons and a host."""


from harness import board, host_says, linked, point, press, run
from support import let_go, not_loaded

from firmware.app import App
from firmware.referee.states import OVER as OVER_STATE
from firmware.referee.states import PLAY
from firmware.rules.position import BLACK
from firmware.settings import Settings
from host_tools.board.rules import diagram
from twins.hardware import simulated


def test_stones_buttons_and_clock_work_together():
    hw, app = board(size=9, time_spec="byoyomi 1m 3x10s")
    centre = point(app, 4, 4)
    run(app, hw, 0, 100)
    hw.stones.place(centre, 1)
    run(app, hw, 100, 400)
    assert app.game.move_number == 1 and app.timekeeper.started  # the first stone started Black's clock
    assert app.clock.snap.running == 1
    assert hw.strip.lit()  # the LEDs show the last move and its liberties
    press(app, hw, 0, 400)  # Black presses: White's time runs
    assert app.clock.snap.running == 2
    press(app, hw, 1, 600)  # White presses without a stone
    assert app.game.move_number == 2  # White pressed without a stone: a pass
    assert app.clock.snap.running == 1
    assert hw.display.frames > 0


def test_a_flag_ends_the_game():
    hw, app = board(size=9, time_spec="absolute 2s")
    press(app, hw, 1, 0)  # White starts Black's clock, like a table clock
    assert app.timekeeper.started and app.clock.snap.running == 1
    run(app, hw, 120, 2300)
    assert app.game.result.sgf() == "W+T" and app.referee.state == OVER_STATE
    assert app.clock.snap.flag == "B"


def test_the_buzzer_sounds_each_cue_to_its_end_and_then_rests():
    hw, app = board(size=9, time_spec="absolute 2s")
    press(app, hw, 1, 0)  # Black's 2 s run
    edges = []  # (tick, duty) whenever the PWM's duty changes
    for t in range(120, 4000, 10):
        run(app, hw, t, t + 10)
        if hw.buzzer.pwm.duty != (edges[-1][1] if edges else 0):
            edges.append((t, hw.buzzer.pwm.duty))
    # the last second's beep (80 ms), then the flag's three (250, 250, 600 ms, 100 ms apart), each stopped on time
    assert edges == [(1000, 32768), (1080, 0), (2000, 32768), (2250, 0), (2350, 32768), (2600, 0), (2700, 32768),
                     (3300, 0)], edges
    assert hw.buzzer.beeps == [(1000, 3000, 80), (2000, 3000, 250), (2350, 3000, 250), (2700, 3000, 600)]
    assert not hw.buzzer.pattern  # silent: the tick no longer steps it


class Unfit(Settings):
    """Settings whose game does not fit the heap."""

    def game(self, spent=None):
        raise MemoryError("memory allocation failed")


class InPieces(Settings):
    """Settings on a heap in pieces (as a Pico's is after a game): once ``torn``, no
    block is left for a new board and history; a game fits only by taking over the
    last one's (Settings.game's ``spent``)."""

    torn = False

    def game(self, spent=None):
        if InPieces.torn and spent is None:
            raise MemoryError("memory allocation failed, allocating 2048 bytes")
        return Settings.game(self, spent)


def runs_out(app, settings):
    """``app.new_game(settings)`` raises the MemoryError its game raised (the board left playable)."""
    try:
        app.new_game(settings)
    except MemoryError:
        return
    raise AssertionError("the MemoryError was not raised")


def plays_a_move(app, hw):
    """A stone put down is played: the board's game goes on."""
    hw.stones.place(point(app, 4, 4), BLACK)
    run(app, hw, 0, 400)
    assert app.game.move_number == 1 and app.errors == 0, (app.game.move_number, app.last_error)


def test_a_new_game_that_does_not_fit_leaves_a_playable_board():
    hw, app = board(size=9, time_spec="absolute 10m")
    last = app.follower.settings
    runs_out(app, Unfit(size=13))
    assert app.follower.settings is last and app.game.size == 9 and app.clock is not None
    plays_a_move(app, hw)


def test_a_new_game_takes_over_the_last_ones_board_and_history_and_plays_afresh():
    hw, app = board(size=9)
    pos, hist, region = app.game.pos, app.game.hist, app.referee.region
    hw.stones.place(point(app, 4, 4), BLACK)
    run(app, hw, 0, 400)
    assert app.game.move_number == 1
    hw.stones.lift(point(app, 4, 4))
    app.new_game(Settings(size=9, rules="korean", time_spec="absolute 10m"))
    assert app.game.pos is pos and app.game.hist is hist  # no big block allocated again
    assert app.referee.region is region  # (nor where the game lies on the board)
    assert app.game.move_number == 0 and diagram(app.game.pos) == ["." * 9] * 9 and app.game.rules.name == "korean"
    hw.stones.place(point(app, 2, 2), BLACK)
    run(app, hw, 400, 800)
    assert app.game.move_number == 1 and app.errors == 0, app.last_error
    app.new_game(Settings(size=13))  # another size: its own board and history
    assert app.game.pos is not pos and app.game.size == 13
    assert app.referee.region is not region and app.referee.region.size == 13


def test_a_game_that_does_not_fit_a_heap_in_pieces_leaves_the_last_one_playable():
    # Seen on the device-fit game in a tight heap: the host's new game ran out of memory, and so did the
    # fallback's board and history; the app was left with no game and every pass of its loop failed.
    hw = simulated("presence")
    app = App(hw, InPieces(size=9, time_spec="absolute 10m"))
    try:
        InPieces.torn = True
        runs_out(app, Unfit(size=9))
    finally:
        InPieces.torn = False
    assert app.game is not None and app.game.size == 9 and app.clock is not None
    plays_a_move(app, hw)


class NoRoomForAClock(Settings):
    """Settings on a heap so full that, once ``full``, their clock does not fit."""

    full = False

    def clock(self, events):
        if NoRoomForAClock.full:
            raise MemoryError("memory allocation failed, allocating 64 bytes")
        return Settings.clock(self, events)


def test_when_not_even_the_last_game_fits_the_board_plays_it_without_its_clock():
    # Neither the new game nor the fallback with the last settings fits: the board was left with no
    # game (every pass of its loop failed). It plays the last settings' game with no clock instead.
    hw = simulated("presence")
    app = App(hw, NoRoomForAClock(size=9, rules="korean", time_spec="absolute 10m"))
    try:
        NoRoomForAClock.full = True
        runs_out(app, Unfit(size=9))
    finally:
        NoRoomForAClock.full = False
    assert app.game is not None and app.game.size == 9 and app.game.rules.name == "korean"
    assert app.clock is None and app.follower.settings.time_spec == "none"  # (what the journal and host are told)
    plays_a_move(app, hw)


def test_games_are_made_without_keeping_the_setup_code():
    # The rule-set table, the time-control grammar and the handicap points are loaded
    # while a game is made, then let go: a board plays with the records they made.
    setup = ("firmware.rules.catalog", "firmware.clock.spec", "firmware.rules.handicap")
    not_loaded(*setup)
    hw, app = board(size=9, rules="korean", handicap=2, time_spec="byoyomi 10m 3x30s")
    assert app.game.rules.name == "korean" and app.clock.tc.periods == 3 and app.referee.guide is not None
    app.new_game(Settings(size=13, rules="aga", handicap=3, time_spec="fischer 5m +10s"))
    assert app.game.rules.name == "aga" and app.clock.tc.increment_ms == 10000
    assert app.follower.settings.ruleset() is app.game.rules  # one record each, kept with the game
    assert app.follower.settings.time_control() is app.clock.tc
    rules, time = app.game.rules, app.clock.tc
    app.new_game(Settings(size=13, rules="aga", time_spec="fischer 5m +10s"))  # the next game like the last
    assert app.game.rules is rules and app.clock.tc is time  # not read again
    loaded = [name for name in setup if not let_go(name)]
    assert not loaded, loaded


def test_the_result_is_said_on_the_clock_display():
    hw, app = board(size=9, time_spec="absolute 10m")
    app.control("resign_black", 0)
    run(app, hw, 0, 200)
    assert hw.display.said() == "WHITE WINS / BY RESIGNATION"


def test_no_clock():
    hw, app = board(size=9)
    run(app, hw, 0, 50)
    press(app, hw, 0, 50)  # Black presses with no stone: a pass
    assert app.game.move_number == 1 and app.referee.state == PLAY


def test_the_link_streams_moves_and_takes_host_commands():
    from firmware.leds.marks import HINT
    from firmware.modes import CASUAL, TOURNAMENT

    hw, pipe, app = linked()

    def host(command, t):
        return host_says(hw, pipe, app, command, t)

    replies = host("new size=9 rules=korean pb=Ann handicap=0", 0)
    kinds = [kind for kind, _fields in replies]
    assert "GAME" in kinds and "OK" in kinds and app.game.rules.name == "korean"
    assert app.follower.settings.players == {"pb": "Ann"}  # the game's own fields are the settings'
    hw.stones.place(point(app, 4, 4), 1)
    run(app, hw, 100, 400)
    moves = [fields for kind, fields in host("hello", 400) if kind == "MOVE"]
    assert moves and list(moves[0][:3]) == ["1", "B", "ee"]
    # during a game the mode changes when both players agree; a tournament game's, by the referee only
    replies = host("mode tournament", 500)
    assert replies[-1][0] == "ERR" and "both%20players%20agree" in replies[-1][1][1] and app.referee.mode == CASUAL
    assert [k for k, _f in host("mode tournament agreed", 510)] == ["MODE", "OK"] and app.referee.mode == TOURNAMENT
    replies = host("mode casual agreed", 520)
    assert replies[-1][0] == "ERR" and "referee" in replies[-1][1][1] and app.referee.mode == TOURNAMENT
    assert [k for k, _f in host("mode casual referee", 530)] == ["MODE", "OK"] and app.referee.mode == CASUAL
    assert [k for k, _f in host("mode tournament referee", 540)] == ["MODE", "OK"] and app.referee.mode == TOURNAMENT
    host("show hint C3 G7", 600)
    assert sum(1 for p in range(361) if app.marks.bits[p] & HINT) == 2
    for i, bad in enumerate(("pass", "Z9", "K1", "C3%20")):  # (K1: off the 9x9 board) the hints stay
        replies = host("show hint C3 " + bad, 610 + 20 * i)
        assert replies[-1][0] == "ERR" and "not%20a%20point" in replies[-1][1][1], replies
    assert sum(1 for p in range(361) if app.marks.bits[p] & HINT) == 2
    assert [k for k, _f in host("new size=13", 700)] == ["ERR"]  # a game is on
    assert [k for k, _f in host("end W+R", 800)] == ["END", "OK"]
    assert app.game.result.sgf() == "W+R"
    assert [k for k, _f in host("time 1000 1000", 900)] == ["ERR"]  # no clock in this game
    replies = host("new size=9 time=byoyomi%201m%203x10s", 1000)
    assert app.clock is not None and [k for k, _f in replies][-1] == "OK"
    assert [k for k, _f in host("new size=9 time=byoyomi%201m%20x10s", 1100)] == ["ERR"]  # bad spec named


def test_pause_and_menu_held_3_s_enter_and_leave_diagnostics():
    from firmware.leds.marks import ERROR, HINT

    hw, app = board(size=9)
    centre = point(app, 4, 4)
    run(app, hw, 0, 100)
    hw.buttons.hold(2)
    hw.buttons.hold(3)
    run(app, hw, 100, 3000)
    assert app.diag is None  # not held long enough yet
    run(app, hw, 3000, 3200)
    diag = app.diag
    assert diag is not None
    hw.buttons.release(2)
    hw.buttons.release(3)
    hw.stones.place(centre, 1)
    run(app, hw, 3200, 3300)
    assert diag.marks.bits[centre] & HINT and not diag.marks.bits[centre] & ERROR
    assert app.game.move_number == 0 and not app.marks.bits[centre]  # the referee saw nothing
    assert hw.strip.lit()
    press(app, hw, 0, 3300)  # BLACK: start the check again, with a stone (or a magnet) left on the board
    run(app, hw, 3420, 5500)
    assert diag.nstuck == 1 and diag.marks.bits[centre] & ERROR and diag.clearing is False  # stuck, so far
    assert hw.display.said() == "WALK A STONE / 1/361 READ"
    hw.stones.lift(centre)  # it was a stone: its sensor is healthy, the flag goes
    run(app, hw, 5500, 5600)
    assert diag.nstuck == 0 and not diag.marks.bits[centre] & ERROR and diag.walked() == 1  # (it read one)
    run(app, hw, 5600, 5750)
    hw.stones.place(centre, 1)
    run(app, hw, 5750, 5800)
    hw.stones.lift(centre)  # the walk-over reached only the centre
    press(app, hw, 3, 5800)  # MENU: flag the dead sensors
    run(app, hw, 5920, 5900 + 100)
    assert len(diag.bad) == 360 and centre not in diag.bad and diag.checked
    assert hw.display.said() == "1/361 WORK / 360 DEAD 0 STUCK"
    hw.buttons.hold(2)
    hw.buttons.hold(3)
    run(app, hw, 6000, 9200)
    assert app.diag is None  # left: the game as it was
    hw.buttons.release(2)
    hw.buttons.release(3)
    run(app, hw, 9200, 9400)
    assert app.game.move_number == 0 and not any(app.marks.bits)


def test_diag_host_command_and_no_diagnostics_during_a_game():
    from firmware.leds.marks import HINT

    hw, pipe, app = linked()

    def host(command, t):
        return host_says(hw, pipe, app, command, t)

    centre = point(app, 4, 4)
    host("mode tournament", 0)
    assert host("diag on", 100) == [("OK", ["diag"])] and app.diag is not None
    hw.stones.place(centre, 2)
    run(app, hw, 140, 300)
    assert app.diag.marks.bits[centre] & HINT and app.game.move_number == 0
    hw.stones.lift(centre)
    assert host("diag off", 300) == [("OK", ["diag"])] and app.diag is None
    hw.stones.place(centre, 1)
    run(app, hw, 340, 700)
    assert app.game.move_number == 1  # playing again
    assert [k for k, _f in host("diag on", 700)][-1] == "ERR" and app.diag is None
    hw.buttons.hold(2)
    hw.buttons.hold(3)
    run(app, hw, 740, 4000)
    assert app.diag is None  # the buttons cannot either


def test_the_diagnostics_chord_during_a_casual_game_takes_nothing_back():
    hw, app = board(size=9)
    for n, (col, row) in enumerate(((4, 4), (2, 2), (6, 6))):
        hw.stones.place(point(app, col, row), 1 + n % 2)
        run(app, hw, 400 * n, 400 * n + 400)
    assert app.game.move_number == 3
    hw.buttons.hold(3)  # MENU first, then PAUSE: the chord
    run(app, hw, 1200, 1300)
    hw.buttons.hold(2)
    run(app, hw, 1300, 4800)
    hw.buttons.release(3)
    hw.buttons.release(2)
    run(app, hw, 4800, 5000)
    assert app.game.move_number == 3 and app.diag is None  # refused mid-game, and no takeback
    press(app, hw, 3, 5000)  # MENU alone, let go: the casual takeback
    assert app.game.move_number == 2


def test_the_last_games_stones_are_lit_to_lift_and_never_a_move():
    """A new game begun with the last game's stones on the board: each is lit to lift at once,
    lifting them down to the last one plays nothing (that stone was once taken for Black's
    first move), nobody is charged in a tournament, and the first stone placed after is a move."""
    from harness import Table

    from firmware.leds.marks import LIFT
    from firmware.modes import TOURNAMENT

    for mode in (0, TOURNAMENT):
        table = Table("japanese", "none", cable=True, mode=mode)
        table.wait(100)
        table.in_turn("C3", "D4", "E5")
        assert table.moves() == "BC3 WD4 BE5"
        assert table.says("end Void")[-1][0] == "OK" and table.says("new size=9")[-1][0] == "OK"
        assert table.marked(LIFT) == ["C3", "D4", "E5"] and table.moves() == ""
        table.lift("D4")
        table.lift("E5")
        assert table.marked(LIFT) == ["C3"] and table.moves() == ""
        table.lift("C3")
        table.place(BLACK, "E5")
        assert table.moves() == "BE5" and not table.game.penalties and not table.marked(LIFT)
