"""A professional game played on a journalled app, for the crash tests (CPython and MicroPython).

``record_game`` plays a bundled record on an App with a clock, with an
undo, a mode change, a warning and a resignation on the way, and logs every
storage operation; ``Play`` plays one a move at a time. ``storage_at(ops, n)`` is the storage as a power cut
after n bytes left it. ``state(app)`` is what must survive: moves, clock
figures, result, mode, warnings. ``boundaries[i]`` is (bytes written, state)
after step i of the game.
"""

import io

from harness import quiet_pass
from pro_games import load_games
from support import data_path

from firmware.app import App
from firmware.journal.recovery import load, walk
from firmware.journal.store import Journal
from firmware.modes import TOURNAMENT
from firmware.rules.coords import PASS
from firmware.rules.game import IllegalMove
from firmware.settings import Settings
from twins.hardware import simulated
from twins.storage import SimStorage

TIME = "byoyomi 10m 3x30s"


class TraceStorage(SimStorage):
    """A SimStorage that logs every operation (to replay them up to a cut)."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def write(self, name, data, n=-1):
        data = bytes(data if n < 0 else data[:n])
        self.ops.append((0, name, data))
        super().write(name, data)

    def replace(self, src, dst):
        self.ops.append((1, src, dst))
        super().replace(src, dst)

    def remove(self, name):
        self.ops.append((2, name, None))
        super().remove(name)


def records_of(data):
    """A file's valid records as a list of (kind, payload bytes), the bytes they take and
    the last sequence number (firmware/journal/recovery.py ``walk``, collected)."""
    out = []
    size, last = walk(io.BytesIO(data), lambda kind, payload: out.append((kind, bytes(payload))), Journal(None).buf)
    return out, size, last


def loaded(journal):
    """The records a power-up replays (recovery.py ``load``), as a list of (kind, payload bytes)."""
    out = []
    load(journal, lambda kind, payload: out.append((kind, bytes(payload))))
    return out


def storage_at(ops, n):
    """The storage after the power failed once n bytes were written."""
    s = SimStorage()
    s.cut_after(n)
    for op, a, b in ops:
        if op == 0:
            s.write(a, b)
        elif op == 1:
            s.replace(a, b)
        else:
            s.remove(a)
    s.restore_power()
    return s


def first_plain_game(min_moves):
    for record in load_games(data_path("pro_games.txt")):
        if not record.black and not record.white and len(record.moves) >= min_moves:
            return record
    raise AssertionError("no such record")


def state(app):
    game = app.game
    hist = game.hist
    clock = app.clock
    figures = None
    if clock is not None:
        figures = (clock.main[1], clock.main[2], clock.periods[1], clock.periods[2])
    return (tuple(hist.moves[1:hist.length]), figures, game.result.sgf() if game.result else None,
            app.referee.mode, game.warnings[1], game.warnings[2])


def record_game(moves, limit=16384, retake=False, storage=None, mark=None):
    """Returns (ops, boundaries, app). ``retake``: the first time a compaction under way
    holds every move (it is not committed yet), the last move is taken back, which starts
    it again, and its player passes instead. ``storage``: another storage than a
    TraceStorage (ops is then None), ``mark(storage)`` what the boundaries count (bytes
    written by default; a flash's operations: tests/firmware/test_flashlog.py)."""
    record = first_plain_game(moves)
    if storage is None:
        storage = TraceStorage()
    if mark is None:
        mark = _written
    app = App(simulated(storage=storage), Settings(19, "korean", time_spec=TIME))
    app.recorder.limit = limit
    game = app.game
    clock = app.clock
    boundaries = [(mark(storage), state(app))]
    t = 0
    clock.start(t, 1)

    def step():
        app.sync_host(t)  # the change journalled
        boundaries.append((mark(storage), state(app)))
        quiet_pass(app, t + 10)  # the next loop pass: a slice of a compaction under way
        boundaries.append((mark(storage), state(app)))

    for i, (colour, pt) in enumerate(record.moves[:moves]):
        t += 700 + (pt * 37) % 9000
        if colour != game.to_move:  # a pass the record leaves out
            game.play(game.to_move, PASS)
            clock.press(3 - colour, t)
            step()
        try:
            game.play(colour, pt)
        except IllegalMove:
            continue
        clock.press(colour, t)
        step()
        if i == 20:
            game.undo()
            step()
            game.play(colour, pt)
            step()
        elif i == 30:
            app.set_mode(TOURNAMENT)
            step()
        elif i == 40:
            game.warn(2, "test")
            step()
        if retake and app.recorder.compacting == game.hist.length:
            retake = False
            game.undo()
            step()
            game.play(colour, PASS)  # (a snapshot still holding the stone would be wrong)
            step()
    game.resign(2)
    step()
    return getattr(storage, "ops", None), boundaries, app


def _written(storage):
    return storage.written


class Play:
    """A professional game on an App with a clock on ``storage``, a move at a time:
    ``move()`` plays the record's next move (a pass where it leaves one out), presses
    the clock and runs a host stage."""

    def __init__(self, storage, limit=16384):
        self.app = App(simulated(storage=storage), Settings(19, "korean", time_spec=TIME))
        self.app.recorder.limit = limit
        self.moves = iter(first_plain_game(150).moves)
        self.t = 0
        self.app.clock.start(0, 1)

    def move(self):
        game = self.app.game
        for colour, pt in self.moves:
            self.t += 700 + (pt * 37) % 9000
            if colour != game.to_move:
                colour, pt = game.to_move, PASS
            try:
                game.play(colour, pt)
            except IllegalMove:
                continue
            self.app.clock.press(colour, self.t)
            self.app.sync_host(self.t)
            return
        raise AssertionError("the record has no moves left")

    def next_pass(self):
        """A loop pass after: nothing told (a slice of a compaction under way)."""
        self.t += 10
        quiet_pass(self.app, self.t)


def before_last(boundaries):
    """The boundary before the game's last event (record_game: each event's pass, then the
    pass after it, a boundary each)."""
    return boundaries[-3]


def recover(storage):
    """A new App on the storage, as at power-up. Its settings come from the journal."""
    return App(simulated(storage=storage), Settings(9))


def is_fresh(app):
    """A new game started at power-up (the journal's game had ended)."""
    return app.game.move_number == 0 and app.game.result is None


def check_cut(boundaries, n, app):
    """The recovered app is the state after the last step fully written at
    byte n, or (only the record in progress lost) the one after it."""
    i = 0
    while i + 1 < len(boundaries) and boundaries[i + 1][0] <= n:
        i += 1
    got = state(app)
    allowed = [boundaries[i][1]] + ([boundaries[i + 1][1]] if i + 1 < len(boundaries) else [])
    if i == 0 and n < boundaries[0][0]:
        assert app.game.move_number == 0, "cut at %d: moves invented" % n
        return
    if got[0] == () and got[2] is None and any(a[2] is not None for a in allowed):
        return  # the game had ended: a new one starts
    assert got[0] in [a[0] for a in allowed], "cut at %d: moves %d, expected %s" % (
        n, len(got[0]), [len(a[0]) for a in allowed])
    for part in range(1, len(got)):
        assert got[part] in [a[part] for a in allowed], "cut at %d: part %d %r not in %r" % (
            n, part, got[part], [a[part] for a in allowed])
