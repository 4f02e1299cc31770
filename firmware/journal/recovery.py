"""Power-up: the journal read back into the game it records, handed to the app as a value.

``load(journal, visit)`` reads the journal's files (store.py's format) a
record at a time into the journal's one buffer (``walk``: a long game's
journal, ~16 KB, is never one block in the heap), finishing or discarding a
compaction a power cut interrupted. It is here, not in store.py, because
only a power-up reads: this module is loaded for it and dropped after
(journal/__init__.py ``recover_once``), its code with it.

``recover(journal)`` replays the records (records.py) through the rules core
(``Game.play``, ``undo``, ``warn``...: a journal can never make the game
hold what the rules refuse), stopping at the first record that is damaged or
that the rules refuse, and returns a ``Recovered``, or None for a journal
with no game. It changes nothing else: the app builds its parts from it
(firmware/app.py), the timekeeper restores the clock paused until the
stones match (firmware/timekeeper.py).
"""

from ..clock.engine import SAVED
from ..rules.const import zeros
from ..rules.ending import FORFEIT
from ..rules.game import COUNTING, OVER
from ..rules.history import DAME_FILL, LOST_TURN, move_colour, move_point
from ..rules.result import Result
from .records import (
    K_CLOCK,
    K_END,
    K_MODE,
    K_MOVE,
    K_NEW,
    K_PENALTY,
    K_RESUME,
    K_SEQ,
    K_SETUP,
    K_TICK,
    K_UNDO,
    K_WARN,
    REASONS,
    parse_new,
)
from .store import COMMIT, HEADER, MAIN, MAX_PAYLOAD, NEXT, crc16


def u16(data, i):
    return data[i] | data[i + 1] << 8


def i32(data, i):
    v = data[i] | data[i + 1] << 8 | data[i + 2] << 16 | data[i + 3] << 24
    return v - (1 << 32) if v & 0x80000000 else v


def walk(stream, visit, buf):
    """Call ``visit(kind, payload)`` for each valid record ``stream`` (a file open for
    reading: ``readinto``) holds, in order, each read alone into ``buf`` (room for the
    longest record: a Journal's ``buf``); ``payload`` is a memoryview into ``buf``,
    valid during the call only. Returns (bytes the valid records take, sequence number
    of the last or -1)."""
    mv = memoryview(buf)
    header = mv[:HEADER]
    size = 0
    seq = -1
    while stream.readinto(header) == HEADER:
        n = u16(buf, 0)
        end = HEADER + n
        if n > MAX_PAYLOAD or stream.readinto(mv[HEADER:end + 2]) != n + 2:
            break  # an impossible length, or torn: the file ends inside the record
        s = u16(buf, 2)
        if (seq >= 0 and s != (seq + 1) & 0xFFFF) or u16(buf, end) != crc16(buf, end):
            break
        visit(buf[4], mv[HEADER:end])
        seq = s
        size += end + 2
    return size, seq


def load(journal, visit):
    """Replay the journal at power-up: ``visit(kind, payload)`` for each record (``walk``:
    the payload is valid during the call only), COMMIT records left out; the journal
    then goes on after the last valid one. Finishes or discards a compaction a power
    cut interrupted."""
    storage = journal.storage
    stream = storage.reader(NEXT)
    if stream is not None:
        committed = bytearray(1)

        def note(kind, _payload):
            if kind == COMMIT:
                committed[0] = 1

        with stream:
            walk(stream, note, journal.buf)
        if committed[0]:
            storage.replace(NEXT, MAIN)
        else:
            storage.remove(NEXT)
    journal.size = 0
    last = -1
    stream = storage.reader(MAIN)
    if stream is not None:
        with stream:
            journal.size, last = walk(stream, lambda kind, payload: kind == COMMIT or visit(kind, payload), journal.buf)
    journal.seq = (last + 1) & 0xFFFF


class Recovered:
    """What the journal held: the game's ``settings``, ``mode`` and number ``gid``;
    ``game``, replayed; ``clock_state`` (Clock.save's ints, or None); each move's
    clock figures as recorded, ``tleft[k]`` and ``periods[k]`` for k < ``known``;
    the link's ``seq_mark`` (numbers reserved), the ``boot`` count (power-ups so far) and
    the ``game_boot`` the game began in. ``in_progress``:
    the game has no result (a finished game is not resumed: the next one starts)."""

    def __init__(self, settings, mode, gid, game_boot):
        self.settings = settings
        self.game_boot = game_boot
        self.mode = mode
        self.gid = gid
        self.game = settings.game()
        self.clock_state = None  # type: list | None
        capacity = len(self.game.hist.moves)  # arrays as long as the history's: no list to grow
        self.tleft = zeros("i", capacity)
        self.tleft[0] = -1
        self.periods = bytearray(capacity)
        self.seq_mark = 0
        self.boot = 0

    @property
    def known(self):
        return self.game.hist.length

    @property
    def in_progress(self):
        return self.game.phase != OVER


class _Replay:
    """Each journal record as ``load`` reads it: the game rebuilt, up to the
    first record that is damaged or that the rules refuse (the rest is ignored)."""

    def __init__(self):
        self.got = None
        self.seq_mark = 0
        self.boot = 0
        self.stopped = False

    def record(self, kind, p):
        if self.stopped:
            return
        got = self.got
        try:
            if kind == K_NEW:
                self.got = Recovered(*parse_new(bytes(p)))
            elif kind == K_SEQ:
                self.seq_mark = i32(p, 0)
                self.boot = i32(p, 4)
            elif got is None:
                self.stopped = True
            elif kind == K_CLOCK:
                got.clock_state = [i32(p, 4 * i) for i in range(SAVED)]
            elif kind == K_TICK:
                if got.clock_state is not None:
                    got.clock_state[2] = i32(p, 0)
            elif not _replay(got, kind, p):
                self.stopped = True
        except (ValueError, IndexError, KeyError):  # IllegalMove is a ValueError
            self.stopped = True


def recover(journal):
    """The game the journal holds, or None (see the module doc)."""
    replay = _Replay()
    load(journal, replay.record)
    got = replay.got
    if got is not None:
        got.seq_mark = replay.seq_mark
        got.boot = replay.boot
        if not got.game_boot:  # journalled before games kept their power-up
            got.game_boot = replay.boot
    return got


def _replay(got, kind, p):
    """One record into the game; False when the rules (or the record's order) refuse it."""
    game = got.game
    hist = game.hist
    if kind == K_SETUP:
        game.place_handicap([u16(p, i) for i in range(0, len(p), 2)])
    elif kind == K_MOVE:
        k = u16(p, 0)
        record = u16(p, 2)
        if k != hist.length:
            return False
        colour = move_colour(record)
        if record & DAME_FILL:
            if not game.fill_dame(colour, move_point(record)):
                return False
        else:
            if game.phase == COUNTING:
                game.resume(3 - colour)  # play went on after the passes
            if record & LOST_TURN:
                game.lose_turn(colour)
            else:
                game.play(colour, move_point(record))
        if hist.moves[k] != record:
            game.undo()
            return False
        if k >= len(got.tleft):  # the history grew past its first capacity
            got.tleft.extend(zeros("i", len(got.tleft)))
            got.periods.extend(bytes(len(got.periods)))
        got.tleft[k] = i32(p, 4)
        got.periods[k] = p[8]
    elif kind == K_UNDO:
        keep = u16(p, 0)
        if not 1 <= keep <= hist.length:
            return False
        while hist.length > keep:
            game.undo()
    elif kind == K_PENALTY:
        colour, what = p[2], p[3]
        if colour not in (1, 2) or what > FORFEIT:
            return False
        game.restore_penalty(u16(p, 0), colour, what, u16(p, 4), bytes(p[6:]).decode())
    elif kind == K_WARN:  # (journals written before K_PENALTY)
        colour = p[0]
        while game.warnings[colour] < p[1]:
            game.warn(colour)
    elif kind == K_END:
        game.end(Result(None if p[0] == 3 else p[0], REASONS[p[1]], u16(p, 2), bytes(p[4:]).decode()))
    elif kind == K_MODE:
        got.mode = p[0]
    elif kind == K_RESUME:
        if game.phase == COUNTING:  # (else the move after the resumption has resumed it)
            game.resume(3 - p[0])
    return True
