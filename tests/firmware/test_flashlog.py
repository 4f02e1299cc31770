"""The journal on a raw flash log (firmware/drivers/flashlog.py over twins/flash.py): wear and power cuts.

CPython and MicroPython. A sample of cuts here; tests/host/test_flashlog_crash.py cuts
in every flash operation of a game and of a compaction.
"""

from journal_cases import Play, check_cut, is_fresh, loaded, record_game, records_of, recover, state

from firmware.drivers.flashlog import DATA, FlashLog
from firmware.journal.store import COMMIT, MAIN, NEXT, Journal
from firmware.micro import mem_alloc
from twins.flash import SECTOR, SimFlash, replay


def _ops(storage):
    return storage.flash.ops


def flash_game(moves, limit=16384, sectors=16, prefixes=None):
    """record_game on a FlashLog: (trace of flash operations, boundaries in operations, app, log)."""
    trace = []
    log = FlashLog(SimFlash(sectors, prefixes, trace))
    _, boundaries, app = record_game(moves, limit, storage=log, mark=_ops)
    return trace, boundaries, app, log


def _records(log, *payloads):
    j = Journal(log)
    for kind, payload in payloads:
        j.begin(kind)
        j.text(payload)
        j.end()
        j.flush()
    return j


def test_records_come_back_after_a_power_up_and_a_compaction_switches_atomically():
    flash = SimFlash(4)
    log = FlashLog(flash)
    j = _records(log, (1, b"new"), (3, b"a" * 600), (3, b""))
    assert records_of(log.read(MAIN))[0] == [(COMMIT, b"")] * 0 + [(1, b"new"), (3, b"a" * 600), (3, b"")]
    j.begin_snapshot()
    j.target = NEXT
    j.begin(1)
    j.text(b"snap")
    j.end()
    j.target = MAIN
    j.begin(3)
    j.text(b"meanwhile")
    j.end()
    j.flush()
    again = FlashLog(flash)  # a power-up before the switch: the journal, and the unfinished snapshot
    assert [k for k, _ in records_of(again.read(MAIN))[0]] == [1, 3, 3, 3]
    assert records_of(again.read(NEXT))[0] == [(1, b"snap")]
    j.end_snapshot()
    assert records_of(log.read(MAIN))[0] == [(1, b"snap"), (COMMIT, b"")] and log.read(NEXT) is None
    again = FlashLog(flash)
    assert loaded(Journal(again)) == [(1, b"snap")] and again.read(NEXT) is None


def test_only_whole_records_are_taken():
    log = FlashLog(SimFlash(2))
    for bad in (b"\x05\x00ab", b"\x01\x00\x00\x00\x03"):
        try:
            log.write(MAIN, bad)
        except ValueError:
            continue
        raise AssertionError("took %r" % bad)


def test_a_full_ring_refuses_and_the_journal_fails_instead_of_erasing_live_data():
    log = FlashLog(SimFlash(2))
    j = _records(log, (1, b"x" * 500))
    for _ in range(14):  # 15 x 507 bytes: the two sectors are nearly full
        j.begin(3)
        j.text(b"y" * 500)
        j.end()
        j.flush()
    assert not j.failed
    j.begin(3)
    j.text(b"z" * 600)
    j.end()
    assert j.failed and len(records_of(log.read(MAIN))[0]) == 15


def test_a_game_makes_one_erase_per_sector_of_journal_and_writes_no_page_twice_over():
    trace, boundaries, app, log = flash_game(150, limit=16384)
    flash = log.flash
    written = app.recorder.journal.written  # the journal's bytes (records, snapshots included)
    sectors_filled = (written + DATA - 1) // DATA
    assert flash.erases <= sectors_filled + 1, (flash.erases, written)
    assert flash.erases * SECTOR <= written * 1.06 + SECTOR
    assert max(flash.erase_counts) - min(flash.erase_counts) <= 1  # the ring wears its sectors evenly
    # a page is programmed again only with bytes that were 0xFF there (nothing cleared twice)
    seen = {}
    for op, i, off, page in trace:
        if op == 0:
            for key in [key for key in seen if key[0] == i]:
                del seen[key]
        else:
            old = seen.get((i, off))
            if old is not None:
                for a, b in zip(old, page):
                    assert a == 0xFF or b == 0xFF
                page = bytes(a & b for a, b in zip(old, page))
            seen[(i, off)] = page
    assert state(recover(FlashLog(flash))) == state(app) or is_fresh(recover(FlashLog(flash)))


def test_a_game_survives_a_sample_of_cuts_in_its_flash_operations():
    trace, boundaries, app, log = flash_game(45, limit=2048, sectors=6)
    total = len(trace)
    assert is_fresh(recover(FlashLog(replay(trace, total, 0, 6))))
    for i in range(25):
        k = total * i // 24 - (i == 24)
        flash = replay(trace, k, (i * 37) % 257, 6)
        check_cut(boundaries, k, recover(FlashLog(flash)))


def test_a_cut_erase_of_a_reserved_files_block_gets_its_pointers_back():
    prefixes = [bytes([i, 0, 0, 0]) * (1 + i % 3) for i in range(4)]
    flash = SimFlash(4, prefixes)
    log = FlashLog(flash)
    j = _records(log, (1, b"a" * 300))
    for _ in range(38):  # 39 x 307 bytes: three sectors nearly full
        j.begin(3)
        j.text(b"b" * 300)
        j.end()
        j.flush()
    trace = []
    flash.trace = trace
    j.begin(3)
    j.text(b"c" * 600)  # into the next sector: an erase
    j.end()
    j.flush()
    erased = [i for op, i, _, _ in trace if op == 0]
    assert len(erased) == 1
    torn = SimFlash(4, prefixes)
    torn.data[:] = flash.data
    i = erased[0]
    torn.data[i * SECTOR:(i + 1) * SECTOR] = bytes(0x5A for _ in range(SECTOR))  # a half-done erase
    again = FlashLog(torn)
    for s in range(4):
        assert bytes(torn.data[s * SECTOR:s * SECTOR + len(prefixes[s])]) == prefixes[s]
    assert len(records_of(again.read(MAIN))[0]) == 39  # all but the record being written


def test_appending_allocates_nothing():
    log = FlashLog(SimFlash(4))
    j = _records(log, (1, b"x" * 100))
    for _ in range(5):  # (the first sector change and page images warmed up)
        j.begin(3)
        j.u16(7)
        j.i32(-1)
        j.end()
        j.flush()
    before = mem_alloc()
    for i in range(400):  # 400 MOVE-sized records, a flush each: pages and sectors change
        j.begin(3)
        j.u16(i)
        j.u16(i)
        j.i32(-1)
        j.u8(0)
        j.end()
        j.flush()
    used = mem_alloc() - before
    assert log.flash.erases >= 2 and used == 0, used


def test_the_next_sector_is_erased_in_a_pass_that_records_nothing():
    log = FlashLog(SimFlash(4))
    play = Play(log, limit=4096)
    in_moves = 0
    for _ in range(120):
        before = log.flash.erases
        play.move()  # a move's pass: its records and a flush
        in_moves += log.flash.erases - before
        play.next_pass()  # (a slice of a compaction, or nothing: then the erase ahead)
        play.next_pass()
    assert log.flash.erases >= 4 and in_moves == 0, (log.flash.erases, in_moves)
    assert state(recover(FlashLog(log.flash))) == state(play.app)


def test_removing_and_replacing_as_the_file_storage_does():
    flash = SimFlash(3)
    log = FlashLog(flash)
    assert log.reader(MAIN) is None and log.read(NEXT) is None
    try:
        log.replace(NEXT, MAIN)  # nothing to rename
        raise AssertionError("replaced nothing")
    except OSError:
        pass
    j = Journal(log)
    j.target = NEXT
    j.begin(1)
    j.text(b"snap")
    j.end()
    j.target = MAIN
    _records(log, (3, b"first"))  # a first journal while a snapshot is being written
    assert records_of(log.read(NEXT))[0] == [(1, b"snap")]
    log.remove(MAIN)
    assert records_of(log.read(MAIN))[0] == [] and records_of(log.read(NEXT))[0] == [(1, b"snap")]
    log.replace(NEXT, MAIN)
    log.remove(NEXT)
    assert records_of(FlashLog(flash).read(MAIN))[0] == [(1, b"snap")] and log.read(NEXT) is None


def test_the_apps_host_stage_allocates_nothing_on_the_flash_log():
    log = FlashLog(SimFlash(4))
    play = Play(log, limit=1 << 30)
    app = play.app
    for _ in range(20):
        play.move()
    game = app.game
    total = 0
    erases = log.flash.erases
    for _ in range(110):  # ~2 KB of records: a sector changes, erased ahead in an idle pass
        for colour, pt in play.moves:
            if colour == game.to_move:
                try:
                    game.play(colour, pt)
                    break
                except Exception:  # noqa: BLE001 - an illegal move of the record: the next
                    continue
        play.t += 1000
        app.clock.press(3 - game.to_move, play.t)
        before = mem_alloc()
        app.sync_host(play.t)  # the move's pass
        app.sync_host(play.t + 10)  # an idle pass (the erase ahead when due)
        total += mem_alloc() - before
    assert log.flash.erases > erases and total == 0, (log.flash.erases, total)
