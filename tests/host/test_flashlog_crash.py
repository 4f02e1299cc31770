"""The journal on the raw flash log, densely: power cut in every flash operation of a game and of a compaction.

A professional game (150 moves, compaction at 4 KiB so that it happens
several times, a slice a pass, on a ring of 4 sectors that wraps) is played
on ``FlashLog(SimFlash)`` (firmware/drivers/flashlog.py, twins/flash.py)
with every erase and page program logged. For every operation, the flash
is rebuilt with that operation torn (a program: after 0, 1, 100 and 255 of
its bytes, the next byte half done; an erase: every byte partly set, two
ways) and nothing after it, and a new app powers up on it: recovery must
never raise, never invent a move, and lose at most the step being written
(journal_cases.check_cut, counted in flash operations: a step's records are
durable once its flush has programmed them). The same for the compaction a
power-up writes (the recovery's own snapshot): every operation of it, torn,
and the game must still be the one before. And on a region whose sectors
keep a littlefs file's pointers, every torn operation leaves them whole
after the next power-up.
"""

from journal_cases import check_cut, is_fresh, recover, state
from test_flashlog import flash_game

from firmware.drivers.flashlog import FlashLog
from twins.flash import SECTOR, SimFlash, replay

SECTORS = 4
TRACE, BOUNDARIES, APP, LOG = flash_game(150, limit=4096, sectors=SECTORS)


def _keeps(op):
    return (0, 1) if op == 0 else (0, 1, 100, 255)


def test_the_game_wraps_the_ring_and_compacts():
    erases = [i for op, i, _, _ in TRACE if op == 0]
    assert len(erases) > SECTORS and LOG.seq > SECTORS  # every sector reused
    commits = sum(1 for op, _, _, page in TRACE if op == 1 and b"\xf3" in page)
    assert commits >= 3


def test_a_cut_in_any_flash_operation_of_a_game_loses_at_most_the_step_being_written():
    for k, (op, _, _, _) in enumerate(TRACE):
        for keep in _keeps(op):
            app = recover(FlashLog(replay(TRACE, k, keep, SECTORS)))
            check_cut(BOUNDARIES, k, app)
    assert is_fresh(recover(FlashLog(replay(TRACE, len(TRACE), 0, SECTORS))))  # the game ended


def test_a_cut_in_any_flash_operation_of_the_power_ups_compaction_keeps_the_game():
    k = len(TRACE) * 2 // 3  # mid-game, mid-sector
    while TRACE[k][0] != 1:
        k += 1
    flash = replay(TRACE, k, 0, SECTORS)  # the power went in the middle of a program
    base = bytes(flash.data)
    before = state(recover(FlashLog(replay(TRACE, k, 0, SECTORS))))
    assert before[0]
    trace = []
    flash.trace = trace
    recover(FlashLog(flash))  # the power-up: its snapshot, a COMMIT
    assert any(op == 0 for op, _, _, _ in trace)  # (it starts in a fresh sector)
    for j, (op, _, _, _) in enumerate(trace):
        for keep in _keeps(op):
            again = replay(trace, j, keep, SECTORS, base=base)
            app = recover(FlashLog(again))
            assert state(app) == before, (j, keep)
            assert state(recover(FlashLog(again))) == before  # and that power-up's own snapshot reads back


def test_the_reserved_files_pointers_survive_every_cut():
    prefixes = [bytes([(7 * i) & 0xFF, 1, 0, 0]) * (1 + (i & 1)) for i in range(SECTORS)]
    trace, boundaries, app, log = flash_game(150, limit=2048, sectors=SECTORS, prefixes=prefixes)
    assert max(log.flash.erase_counts) >= 2
    for k, (op, _, _, _) in enumerate(trace):
        if op != 0:
            continue
        for keep in (0, 1):
            flash = replay(trace, k, keep, SECTORS, prefixes)
            check_cut(boundaries, k, recover(FlashLog(flash)))
            for s in range(SECTORS):
                assert bytes(flash.data[s * SECTOR:s * SECTOR + len(prefixes[s])]) == prefixes[s], (k, s)
    assert SimFlash  # (the twin the replays are made of)
