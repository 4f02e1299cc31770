"""The assembled board for tests: the firmware's App on the simulated hardware, with simulated time.

    hw, app = board(size=9, time_spec="byoyomi 1m 3x10s")
    hw.stones.place(point(app, 4, 4), BLACK)
    run(app, hw, 0, 400)                 # app.step every 10 ms, the stones' clock with it
    press(app, hw, B_BLACK, 400)         # a finger on Black's clock button for 60 ms

or, with every pass checked as players see it, a ``Table``:

    table = Table("japanese", "none", size=19, cable=True)
    table.place(BLACK, "Q16")            # a hand puts a stone down; the board reads it
    table.says("state")                  # the host asks over the cable: the board's lines

Every firmware test builds its board here (CPython and MicroPython alike: no
CPython-only module).
"""

from firmware.app import App
from firmware.jobs import resume
from firmware.modes import CASUAL
from firmware.settings import Settings
from twins.hardware import simulated


def board(storage=None, transport=None, mode=CASUAL, boot=0, now_ms=0, sensors="presence", board_id="board",
          **settings):
    """(hw, app): a new board on twins; ``settings``: firmware.settings.Settings fields."""
    hw = simulated(sensors, transport, storage, board_id=board_id)
    return hw, App(hw, Settings(**settings), mode, boot=boot, now_ms=now_ms)



def quiet_pass(app, t):
    """What a loop pass at ``t`` with nothing new does for the journal and the link: a slice of the
    app's first job (a compaction, the seal's catch-up), then the host stage (firmware/loop.py: a
    pass apart; here in one, and without the other stages)."""
    if app.jobs:
        resume(app.jobs, t)
    app.sync_host(t)

def power_up(hw, mode=CASUAL, boot=0, now_ms=0, **settings):
    """The same board (stones, cable, flash) powered up again: a new App; what
    the power cut loses (buttons, display, LEDs) starts afresh."""
    hw.power_up()
    return App(hw, Settings(**settings), mode, boot=boot, now_ms=now_ms)


def point(app, col, row):
    """The physical point under the game's (col, row), row 0 at the top."""
    size = app.game.size
    return app.referee.region.phys_of[(row + 1) * (size + 2) + col + 1]


def run(app, hw, start, end):
    """Step the board every 10 ms from start to end (the sensors read the stones then)."""
    for t in range(start, end, 10):
        hw.stones.set_time(t)
        app.step(t)


def press(app, hw, index, t):
    """A finger on button ``index`` (drivers/buttons.py order) at t, for 60 ms."""
    hw.buttons.hold(index)
    run(app, hw, t, t + 60)
    hw.buttons.release(index)
    run(app, hw, t + 60, t + 120)


def linked(storage=None, **options):
    """A 9x9 board with a cable to a host (and a flash, if given): (hw, pipe, app)."""
    from twins.link import Pipe

    pipe = Pipe()
    options.setdefault("size", 9)
    hw, app = board(storage, pipe.board, **options)
    return hw, pipe, app


def said(data, numbered=False):
    """The board's lines in ``data`` (bytes, or a Pipe: what the host takes from it now), decoded:
    (kind, fields) each, or (seq, kind, fields) if ``numbered``."""
    from host_tools.board.protocol import decode

    if not isinstance(data, (bytes, bytearray)):
        data = data.take()
    lines = []
    for raw in data.split(b"\n"):
        if raw:
            decoded = decode(raw)
            assert decoded is not None, raw
            lines.append(decoded if numbered else decoded[1:])
    return lines


def host_says(hw, pipe, app, command, t):
    """The host sends ``command`` at t; the board's lines in the next 40 ms, decoded (kind, fields)."""
    from firmware.protocol import encode_command

    pipe.send(encode_command(command))
    run(app, hw, t, t + 40)
    return said(pipe)


def moves(game):
    """The game's moves as GTP text: "BQ16 WD4 Wpass B-lost-turn"."""
    from firmware.rules.coords import vertex
    from firmware.rules.history import LOST_TURN, move_colour, move_point

    hist = game.hist
    out = []
    for k in range(1, hist.length):
        r = hist.moves[k]
        where = "-lost-turn" if r & LOST_TURN else vertex(game.size, move_point(r))
        out.append("BW"[move_colour(r) - 1] + where)
    return " ".join(out)


def marked(app, kind):
    """GTP names of the game's points the LEDs' marks show ``kind`` at."""
    from firmware.referee.region import NONE
    from firmware.rules.coords import vertex

    region, bits = app.referee.region, app.marks.bits
    return sorted(vertex(app.game.size, region.game_of[p]) for p in range(len(region.game_of))
                  if bits[p] & kind and region.game_of[p] != NONE)


# Words a message may never hold: a player or point left out ("Black has not pressed" said
# with no name: ": has not pressed"), or a value that is not words.
_GARBLED = (" None", ": has ", "; presses", "( ", " ,", "  ", ". agreed", ": , ")


class Table:
    """A game at the table: the app on twins, played by hands and fingers, ``t`` the time now (ms).

    Every loop pass is checked as players would see it: no stage error, the referee's message
    is whole words, and the clock runs for the side the board waits for (``clock_side``).
    ``cable``: a host on a cable (``pipe``, ``says``); ``storage``: a flash (``power_up``);
    the other options are ``board()``'s.
    """

    def __init__(self, rules="japanese", time_spec="byoyomi 10m 3x30s", size=9, mode=CASUAL, cable=False,
                 storage=None, **options):
        transport = None
        self.pipe = None
        if cable:
            from twins.link import Pipe

            self.pipe = Pipe()
            transport = self.pipe.board
        self.hw, self.app = board(storage, transport, size=size, rules=rules, time_spec=time_spec, mode=mode,
                                  **options)
        self.t = 0

    @property
    def game(self):
        return self.app.game

    def at(self, where, row=None):
        """The physical point of ``where``: a GTP vertex ("Q16"), a game point, or a column with ``row``."""
        if row is not None:
            return point(self.app, where, row)
        if isinstance(where, str):
            from firmware.rules.coords import parse_vertex

            where = parse_vertex(self.game.size, where)
        return self.app.referee.region.phys_of[where]

    def place(self, colour, where, row=None, ms=300):
        self.hw.stones.place(self.at(where, row), colour)
        self.wait(ms)

    def lift(self, where, row=None, ms=300):
        self.hw.stones.lift(self.at(where, row))
        self.wait(ms)

    def tidy(self, ms=300):
        """The players' hands make the stones what the game says (captures lifted, stones taken
        back lifted, stones to put back put back), then the board reads them (if any moved)."""
        from firmware.rules.coords import point as game_point

        game, stones = self.game, self.hw.stones
        phys_of, cells, size = self.app.referee.region.phys_of, game.pos.cells, game.size
        moved = False
        for row in range(size):
            for col in range(size):
                pt = game_point(size, col, row)
                if stones.colour[phys_of[pt]] != cells[pt]:
                    stones.place(phys_of[pt], cells[pt])
                    moved = True
        if moved:
            self.wait(ms)

    def play(self, colour, where, row=None):
        """``colour`` plays ``where`` (press its clock, if any), and the captured stones are lifted."""
        if self.app.clock is None:
            self.place(colour, where, row)
        else:
            self.move(colour, where, row)
        self.tidy()

    def in_turn(self, *where):
        """A stone at each of ``where`` (vertices), Black's and White's in turn from the side to move."""
        for v in where:
            self.place(self.game.to_move, v)

    def button(self, index):
        """A finger on button ``index`` (drivers/buttons.py order) for 60 ms, then 60 ms more."""
        self.hw.buttons.hold(index)
        self.wait(60)
        self.hw.buttons.release(index)
        self.wait(60)

    def press(self, colour):
        """``colour``'s clock button."""
        self.button(colour - 1)

    def move(self, colour, where, row=None):
        self.place(colour, where, row)
        self.press(colour)

    def control(self, name):
        """The referee's other controls (the page's buttons)."""
        done = self.app.control(name, self.t)
        self.wait(20)
        return done

    def host(self, *words):
        """A host command: None when done, else why not."""
        said = self.app.command(words[0], list(words[1:]), self.t)
        self.wait(20)
        return said

    def says(self, command, ms=40, numbered=False):
        """The host sends ``command`` over the cable: the board's lines after it, decoded
        (``said``); what the board said before is taken first."""
        from firmware.protocol import encode_command

        self.pipe.take()
        self.pipe.send(encode_command(command))
        self.wait(ms)
        return said(self.pipe, numbered)

    def power_up(self, mode=CASUAL, boot=0, **settings):
        """The power goes and comes back now: the same stones, cable and flash, a new App."""
        self.app = power_up(self.hw, mode, boot, self.t, **settings)
        self.wait(10)

    def wait(self, ms):
        """Step the board every 10 ms for ``ms``, checking each pass."""
        app, hw = self.app, self.hw
        for t in range(self.t, self.t + ms, 10):
            hw.stones.set_time(t)
            app.step(t)
            self.check(t)
        self.t += ms

    def check(self, t):
        app = self.app
        assert app.errors == 0, "a stage failed at %d ms: %r" % (t, app.last_error)
        from host_tools.board.messages import message

        said = message(app.referee, app.clock)
        for bad in _GARBLED:
            assert bad not in said and not said.startswith(":"), "at %d ms the board says %r" % (t, said)
        side, runs = clock_side(app), clock_running(app)
        assert side == runs, "at %d ms the clock runs for %d, the board waits for %d (%s)" % (t, runs, side, said)

    def moves(self):
        return moves(self.game)

    def marked(self, kind):
        return marked(self.app, kind)

    def left(self, colour):
        return self.app.clock.snapshot(self.t).sides[colour]

    def result(self):
        return self.game.result and self.game.result.sgf()


def clock_running(app):
    """The side whose time runs now (0: nobody's)."""
    clock = app.clock
    if clock is None or clock.paused or clock.stopped or clock.flag is not None:
        return 0
    return clock.turn


def clock_side(app):
    """The side whose clock must run now: 0 for none (no clock, not started, paused, counting,
    over); else the player the board waits for, the mover until its press ends the move."""
    from firmware.rules.game import PLAYING

    clock = app.clock
    if clock is None or not app.timekeeper.started or clock.paused or clock.stopped or clock.flag is not None:
        return 0
    if app.game.phase != PLAYING:
        return 0
    return app.referee.awaiting_press or app.game.to_move
