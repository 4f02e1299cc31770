"""Game journal figures under MicroPython: bytes allocated per append, ms to recover a 300-move game,
and the bytes one game writes to flash (docs/journal.md's wear estimate uses them).

A 300-move game (a bundled record, passes added where it leaves one out) is
played straight into a journalled App's Game with a byo-yomi clock: a
stone, then the clock press, every move; ``sync_host`` (the follower and the
recorder, no link here) journals it, as the app's host stage does. bench/mp_bench.mjs runs each
``STEPS`` snippet in its own runPython call (inside one, the WebAssembly
port's GC frees nothing: a gc.mem_alloc() delta is what was allocated).
"""

import gc
import time

from mp_referee import _longest_record

from firmware.app import App
from firmware.rules.coords import PASS
from firmware.rules.game import COUNTING, IllegalMove
from firmware.settings import Settings
from twins.hardware import simulated
from twins.storage import SimStorage

MOVES = 300
_state = {}


class CountingStorage(SimStorage):
    """Counts flushes (each is a littlefs commit on the device)."""

    def __init__(self, capacity):
        super().__init__(capacity)
        self.flushes = 0

    def flush(self, name):
        self.flushes += 1


def _moves():
    return _longest_record().moves  # 349 moves, no handicap


def _play(app, moves, think_ms, measure):
    """Play up to MOVES moves; returns (bytes allocated by the journal, appends, us)."""
    game = app.game
    clock = app.clock
    journal = app.journal
    t = 0
    clock.start(t, 1)
    app.sync_host(t)
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
        if think_ms:  # the player thinks (the app steps), places the stone, presses a second later
            for _ in range(think_ms // 1000):
                t += 1000
                app.sync_host(t)
            app.sync_host(t)
            t += 1000
        clock.press(colour, t)
        if measure:
            before_records = journal.seq
            before = gc.mem_alloc()
            t0 = time.ticks_us()
            app.sync_host(t)
            us += time.ticks_diff(time.ticks_us(), t0)
            total += gc.mem_alloc() - before
            appends += (journal.seq - before_records) & 0xFFFF
        else:
            app.sync_host(t)
    return total, appends, us


def append_alloc():
    storage = CountingStorage(1 << 16)
    app = App(simulated(storage=storage), Settings(19, "japanese", time_spec="byoyomi 60m 3x30s"))
    app.recorder.limit = 1 << 30  # no compaction here: appends only
    total, appends, us = _play(app, _moves(), 0, True)
    before = gc.mem_alloc()
    for t in range(1000):
        app.sync_host(t)  # nothing changed
    idle = gc.mem_alloc() - before
    _state["storage"] = storage
    print("REPORT journal: %d appends (a MOVE and a CLOCK record per move): %d bytes allocated after start-up "
          "(target 0), %d us per move recorded; an idle observe: %d bytes" % (appends, total, us // MOVES, idle // 1000))


def recover_ms():
    storage = _state["storage"]
    size = len(storage.data(""))
    gc.collect()
    t0 = time.ticks_ms()
    app = App(simulated(storage=storage), Settings(19))
    ms = time.ticks_diff(time.ticks_ms(), t0)
    assert app.game.move_number == MOVES, app.game.move_number
    t0 = time.ticks_ms()
    App(simulated(storage=SimStorage(1 << 12)), Settings(19))
    empty = time.ticks_diff(time.ticks_ms(), t0)
    print("REPORT journal: power-up with a %d-move game to recover (%d journal bytes): %d ms "
          "(a power-up with an empty journal: %d ms)" % (MOVES, size, ms, empty))


def wear(think_ms=20000):
    """One 300-move game at 20 s a move (checkpoints every 10 s), compactions on (16 KiB)."""
    storage = CountingStorage(1 << 15)
    app = App(simulated(storage=storage), Settings(19, time_spec="byoyomi 60m 3x30s"))
    _play(app, _moves(), think_ms, False)
    app.game.resign(2)
    app.sync_host(MOVES * think_ms + 1000)
    print("REPORT journal: one %d-move game at %d s a move writes %d bytes, %d records, %d flushes, "
          "compactions included" % (MOVES, think_ms // 1000, storage.written, app.journal.records,
                                    storage.flushes))


def flash_wear(think_ms=20000, sectors=16):
    """The same game on the raw flash log (firmware/drivers/flashlog.py over the NOR twin):
    the sector erases and page programs it costs, counted."""
    from firmware.drivers.flashlog import DATA, FlashLog
    from twins.flash import SimFlash

    flash = SimFlash(sectors)
    storage = FlashLog(flash)
    app = App(simulated(storage=storage), Settings(19, time_spec="byoyomi 60m 3x30s"))
    _play(app, _moves(), think_ms, False)
    app.game.resign(2)
    app.sync_host(MOVES * think_ms + 1000)
    written = app.journal.written
    ahead = int(storage.ready > storage.seq)  # erased ahead for the next game (FlashLog.prepare)
    used = flash.erases - ahead
    print("REPORT journal: on the flash log the same game writes %d journal bytes in %d page programs and "
          "%d sector erases (%d of them the next game's sector, erased ahead): %d.%02d erases per 4 KiB of journal "
          "(one per %d-byte sector filled would be %d.%02d); the most erased sector: %d" % (
              written, flash.programs, flash.erases, ahead, used * 4096 // written,
              used * 409600 // written % 100, DATA, 4096 // DATA, 409600 // DATA % 100,
              max(flash.erase_counts)))


STEPS = ["import mp_journal", "mp_journal.append_alloc()", "mp_journal.recover_ms()", "mp_journal.wear()",
         "mp_journal.flash_wear()"]
