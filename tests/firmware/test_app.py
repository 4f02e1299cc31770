"""The application wiring, on simulated hardware with simulated time."""

from firmware.app import Board
from firmware.drivers.clock_display import ClockDisplay
from firmware.leds.composer import Leds
from firmware.referee.states import OVER as OVER_STATE
from firmware.referee.states import PLAY
from twins.buttons import SimButtons
from twins.buzzer import SimBuzzer
from twins.display import SimCanvas
from twins.sensors import SimPresence
from twins.stones import Stones
from twins.strip import SimStrip


class Hw:
    """A simulated hardware set."""

    def __init__(self):
        self.board = Stones()
        self.sensor = SimPresence(self.board)
        self.buttons = SimButtons()
        self.display = ClockDisplay(SimCanvas())
        self.buzzer = SimBuzzer()
        self.leds = Leds()
        self.strip = SimStrip()


def run(board, hw, start, end):
    for t in range(start, end, 10):
        hw.board.set_time(t)
        board.step(t)


def press(board, hw, index, t):
    hw.buttons.hold(index)
    run(board, hw, t, t + 60)
    hw.buttons.release(index)
    run(board, hw, t + 60, t + 120)


def test_stones_buttons_and_clock_work_together():
    hw = Hw()
    board = Board(hw, size=9, time_spec="byoyomi 1m 3x10s")
    centre = board.referee.region.phys_of[(4 + 1) * 11 + 4 + 1]
    run(board, hw, 0, 100)
    hw.board.place(centre, 1)
    run(board, hw, 100, 400)
    assert board.game.move_number == 1 and board.started  # the first stone started Black's clock
    assert board.clock.snap.running == 1
    assert hw.strip.lit()  # the LEDs show the last move and its liberties
    press(board, hw, 0, 400)  # Black presses: White's time runs
    assert board.clock.snap.running == 2
    press(board, hw, 1, 600)  # White presses without a stone
    assert board.game.move_number == 2  # White pressed without a stone: a pass
    assert board.clock.snap.running == 1
    assert hw.display.frames > 0


def test_a_flag_ends_the_game():
    hw = Hw()
    board = Board(hw, size=9, time_spec="absolute 2s")
    press(board, hw, 1, 0)  # White starts Black's clock, like a table clock
    assert board.started and board.clock.snap.running == 1
    run(board, hw, 120, 2300)
    assert board.game.result.sgf() == "W+T" and board.referee.state == OVER_STATE
    assert board.clock.snap.flag == "B"


def test_no_clock():
    hw = Hw()
    board = Board(hw, size=9)
    run(board, hw, 0, 50)
    press(board, hw, 0, 50)  # Black presses with no stone: a pass
    assert board.game.move_number == 1 and board.referee.state == PLAY


def linked(journal=None, **options):
    """A 9x9 board on simulated hardware with a link to a host (and a journal
    storage, if given): (hw, pipe, board)."""
    from twins.link import Pipe

    hw = Hw()
    pipe = Pipe()
    hw.transport = pipe.board
    if journal is not None:
        hw.journal = journal
    return hw, pipe, Board(hw, size=9, **options)


def host_says(hw, pipe, board, command, t):
    """The host sends ``command`` at t; the board's lines in the next 40 ms, decoded (kind, fields)."""
    from firmware.host.protocol import decode, encode_command

    pipe.send(encode_command(command))
    run(board, hw, t, t + 40)
    lines = []
    for raw in pipe.take().split(b"\n"):
        if raw:
            decoded = decode(raw)
            assert decoded is not None, raw
            lines.append(decoded[1:])
    return lines


def test_the_link_streams_moves_and_takes_host_commands():
    from firmware.leds.marks import HINT
    from firmware.modes import TOURNAMENT

    hw, pipe, board = linked()

    def host(command, t):
        return host_says(hw, pipe, board, command, t)

    replies = host("new size=9 rules=korean pb=Ann handicap=0", 0)
    kinds = [kind for kind, _fields in replies]
    assert "GAME" in kinds and "OK" in kinds and board.game.rules.name == "korean"
    hw.board.place(board.referee.region.phys_of[(4 + 1) * 11 + 4 + 1], 1)
    run(board, hw, 100, 400)
    moves = [fields for kind, fields in host("hello", 400) if kind == "MOVE"]
    assert moves and list(moves[0][:3]) == ["1", "B", "ee"]
    assert [k for k, _f in host("mode tournament", 500)] == ["MODE", "OK"] and board.referee.mode == TOURNAMENT
    host("show hint C3 G7", 600)
    assert sum(1 for p in range(361) if board.marks.bits[p] & HINT) == 2
    assert [k for k, _f in host("new size=13", 700)] == ["ERR"]  # a game is on
    assert [k for k, _f in host("end W+R", 800)] == ["END", "OK"]
    assert board.game.result.sgf() == "W+R"
    assert [k for k, _f in host("time 1000 1000", 900)] == ["ERR"]  # no clock in this game
    replies = host("new size=9 time=byoyomi%201m%203x10s", 1000)
    assert board.clock is not None and [k for k, _f in replies][-1] == "OK"
    assert [k for k, _f in host("new size=9 time=byoyomi%201m%20x10s", 1100)] == ["ERR"]  # bad spec named


def test_pause_and_menu_held_3_s_enter_and_leave_diagnostics():
    from firmware.leds.marks import ERROR, HINT

    hw = Hw()
    board = Board(hw, size=9)
    centre = board.referee.region.phys_of[(4 + 1) * 11 + 4 + 1]
    run(board, hw, 0, 100)
    hw.buttons.hold(2)
    hw.buttons.hold(3)
    run(board, hw, 100, 3000)
    assert board.diag is None  # not held long enough yet
    run(board, hw, 3000, 3200)
    diag = board.diag
    assert diag is not None
    hw.buttons.release(2)
    hw.buttons.release(3)
    hw.board.place(centre, 1)
    run(board, hw, 3200, 3300)
    assert diag.marks.bits[centre] & HINT and not diag.marks.bits[centre] & ERROR
    assert board.game.move_number == 0 and not board.marks.bits[centre]  # the referee saw nothing
    assert hw.strip.lit()
    press(board, hw, 0, 3300)  # BLACK: start the check again, with a magnet left on the board
    run(board, hw, 3420, 5500)
    assert diag.bad == [centre] and diag.marks.bits[centre] & ERROR  # stuck
    hw.board.lift(centre)
    press(board, hw, 0, 5500)  # BLACK: start again
    assert diag.bad == [] and not diag.marks.bits[centre] & ERROR
    hw.board.place(centre, 1)
    run(board, hw, 5620, 5700)
    hw.board.lift(centre)  # the walk-over reached only the centre
    press(board, hw, 3, 5700)  # MENU: flag the dead sensors
    run(board, hw, 5820, 5900)
    assert len(diag.bad) == 360 and centre not in diag.bad
    hw.buttons.hold(2)
    hw.buttons.hold(3)
    run(board, hw, 5900, 9000)
    assert board.diag is None  # left: the game as it was
    hw.buttons.release(2)
    hw.buttons.release(3)
    run(board, hw, 9000, 9200)
    assert board.game.move_number == 0 and not any(board.marks.bits)


def test_diag_host_command_and_no_diagnostics_during_a_game():
    from firmware.leds.marks import HINT

    hw, pipe, board = linked()

    def host(command, t):
        return host_says(hw, pipe, board, command, t)

    centre = board.referee.region.phys_of[(4 + 1) * 11 + 4 + 1]
    host("mode tournament", 0)
    assert host("diag on", 100) == [("OK", ["diag"])] and board.diag is not None
    hw.board.place(centre, 2)
    run(board, hw, 140, 300)
    assert board.diag.marks.bits[centre] & HINT and board.game.move_number == 0
    hw.board.lift(centre)
    assert host("diag off", 300) == [("OK", ["diag"])] and board.diag is None
    hw.board.place(centre, 1)
    run(board, hw, 340, 700)
    assert board.game.move_number == 1  # playing again
    assert [k for k, _f in host("diag on", 700)][-1] == "ERR" and board.diag is None
    hw.buttons.hold(2)
    hw.buttons.hold(3)
    run(board, hw, 740, 4000)
    assert board.diag is None  # the buttons cannot either


def test_the_diagnostics_chord_during_a_casual_game_takes_nothing_back():
    hw = Hw()
    board = Board(hw, size=9)
    region = board.referee.region
    for n, (col, row) in enumerate(((4, 4), (2, 2), (6, 6))):
        hw.board.place(region.phys_of[(row + 1) * 11 + col + 1], 1 + n % 2)
        run(board, hw, 400 * n, 400 * n + 400)
    assert board.game.move_number == 3
    hw.buttons.hold(3)  # MENU first, then PAUSE: the chord
    run(board, hw, 1200, 1300)
    hw.buttons.hold(2)
    run(board, hw, 1300, 4800)
    hw.buttons.release(3)
    hw.buttons.release(2)
    run(board, hw, 4800, 5000)
    assert board.game.move_number == 3 and board.diag is None  # refused mid-game, and no takeback
    press(board, hw, 3, 5000)  # MENU alone, let go: the casual takeback
    assert board.game.move_number == 2
