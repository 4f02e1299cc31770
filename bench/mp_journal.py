"""Game journal figures under MicroPython: bytes allocated per append, ms to recover a 300-move game,
and the bytes one game writes to flash (docs/journal.md's wear estimate uses them).

A 300-move game (a bundled record, passes added where it leaves one out) is
played straight into a journalled Board's Game with a byo-yomi clock: a
stone, then the clock press, every move. bench/mp_bench.mjs runs each
``STEPS`` snippet in its own runPython call (inside one, the WebAssembly
port's GC frees nothing: a gc.mem_alloc() delta is what was allocated).
"""

import gc
import time

from mp_referee import _longest_record

from firmware.app import Board
from firmware.rules.coords import PASS
from firmware.rules.game import COUNTING, IllegalMove
from twins.sensors import SimPresence
from twins.stones import Stones
from twins.storage import SimStorage

MOVES = 300
_state = {}


class CountingStorage(SimStorage):
    """Counts flushes (each is a littlefs commit on the device)."""

    def __init__(self, capacity):
        super().__init__(capacity)
        self.flushes = 0

    def flush(self):
        self.flushes += 1


class Hw:
    def __init__(self, journal):
        self.board = Stones()
        self.sensor = SimPresence(self.board)
        self.journal = journal


def _moves():
    return _longest_record().moves  # 349 moves, no handicap


def _play(board, moves, think_ms, measure):
    """Play up to MOVES moves; returns (bytes allocated by the journal, appends, us)."""
    game = board.game
    clock = board.clock
    recorder = board.recorder
    t = 0
    clock.start(t, 1)
    recorder.observe(t)
    total = appends = us = 0
    i = 0
    while game.move_number < MOVES and i < len(moves):
        colour, pt = moves[i]
        i += 1
        if game.phase == COUNTING:
            game.resume(3 - colour)
        if colour != game.to_move:
            colour, pt = game.to_move, PASS
        try:
            game.play(colour, pt)
        except IllegalMove:
            continue
        if think_ms:  # the player thinks (the board steps), places the stone, presses a second later
            for _ in range(think_ms // 1000):
                t += 1000
                recorder.observe(t)
            recorder.observe(t)
            t += 1000
        clock.press(colour, t)
        if measure:
            before_records = recorder.journal.seq
            before = gc.mem_alloc()
            t0 = time.ticks_us()
            recorder.observe(t)
            us += time.ticks_diff(time.ticks_us(), t0)
            total += gc.mem_alloc() - before
            appends += (recorder.journal.seq - before_records) & 0xFFFF
        else:
            recorder.observe(t)
    return total, appends, us


def append_alloc():
    storage = CountingStorage(1 << 16)
    board = Board(Hw(storage), size=19, rules="japanese", time_spec="byoyomi 60m 3x30s")
    board.recorder.limit = 1 << 30  # no compaction here: appends only
    total, appends, us = _play(board, _moves(), 0, True)
    recorder = board.recorder
    before = gc.mem_alloc()
    for t in range(1000):
        recorder.observe(t)  # nothing changed
    idle = gc.mem_alloc() - before
    _state["storage"] = storage
    print("REPORT journal: %d appends (a MOVE and a CLOCK record per move): %d bytes allocated after start-up "
          "(target 0), %d us per move recorded; an idle observe: %d bytes" % (appends, total, us // MOVES, idle // 1000))


def recover_ms():
    storage = _state["storage"]
    size = len(storage.data(""))
    gc.collect()
    t0 = time.ticks_ms()
    board = Board(Hw(storage), size=19)
    ms = time.ticks_diff(time.ticks_ms(), t0)
    assert board.game.move_number == MOVES, board.game.move_number
    t0 = time.ticks_ms()
    Board(Hw(SimStorage(1 << 12)), size=19)
    empty = time.ticks_diff(time.ticks_ms(), t0)
    print("REPORT journal: power-up with a %d-move game to recover (%d journal bytes): %d ms "
          "(a power-up with an empty journal: %d ms)" % (MOVES, size, ms, empty))


def wear(think_ms=20000):
    """One 300-move game at 20 s a move (checkpoints every 10 s), compactions on (16 KiB)."""
    storage = CountingStorage(1 << 15)
    board = Board(Hw(storage), size=19, time_spec="byoyomi 60m 3x30s")
    _play(board, _moves(), think_ms, False)
    board.game.resign(2)
    board.recorder.observe(MOVES * think_ms + 1000)
    print("REPORT journal: one %d-move game at %d s a move writes %d bytes, %d records, %d flushes, "
          "compactions included" % (MOVES, think_ms // 1000, storage.written, board.recorder.journal.records,
                                    storage.flushes))


STEPS = ["import mp_journal", "mp_journal.append_alloc()", "mp_journal.recover_ms()", "mp_journal.wear()"]
