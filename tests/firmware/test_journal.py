"""The journal's format, compaction and crash consistency (a sample of cuts; tests/host has them dense)."""

from journal_cases import check_cut, is_fresh, loaded, record_game, records_of, recover, state, storage_at

from firmware.journal.store import COMMIT, MAIN, NEXT, Journal, crc16
from twins.storage import SimStorage


def _journal(*payloads):
    storage = SimStorage()
    j = Journal(storage)
    for kind, payload in payloads:
        j.begin(kind)
        j.text(payload)
        j.end()
    return storage, j


def test_crc16_is_ccitt_false():
    assert crc16(b"123456789", 9) == 0x29B1


def test_records_come_back_and_reading_stops_at_the_first_damage():
    storage, j = _journal((1, b"abc"), (2, b""), (3, b"xyz" * 50))
    data = storage.data(MAIN)
    records, size, last = records_of(data)
    assert records == [(1, b"abc"), (2, b""), (3, b"xyz" * 50)] and size == len(data) == j.size and last == 2
    assert len(data) == 3 * 7 + 3 + 150  # 7 bytes per record besides the payload
    for cut in range(len(data)):
        kept = records_of(data[:cut])[0]
        assert kept == records[:len(kept)] and len(kept) >= (cut >= 10) + (cut >= 17)
    for bit in range(8 * 17):
        flipped = bytearray(data)
        flipped[bit // 8] ^= 1 << (bit % 8)
        kept = records_of(flipped)[0]
        assert kept == records[:len(kept)] and len(kept) < 3, bit


def test_a_record_out_of_sequence_ends_the_journal():
    storage, _ = _journal((1, b"a"), (2, b"b"))
    first = storage.data(MAIN)
    storage2, _ = _journal((1, b"a"))
    assert records_of(first[:8] + storage2.data(MAIN))[0] == [(1, b"a")]  # seq 0 again after seq 0


def test_a_cut_compaction_is_discarded_and_a_finished_one_completed():
    storage, j = _journal((1, b"old"))
    j.begin_snapshot()
    j.begin(1)
    j.text(b"new")
    j.end()
    assert loaded(Journal(storage)) == [(1, b"old")]  # no COMMIT yet: the old journal stands
    assert storage.data(NEXT) is None
    storage, j = _journal((1, b"old"))
    j.begin_snapshot()
    j.begin(1)
    j.text(b"new")
    j.end()
    j.begin(COMMIT)
    j.end()  # the power fails before the rename
    assert loaded(Journal(storage)) == [(1, b"new")]
    assert storage.data(NEXT) is None and records_of(storage.data(MAIN))[0][-1][0] == COMMIT


def test_a_pro_game_survives_a_sample_of_power_cuts():
    ops, boundaries, app = record_game(45, limit=2048)
    total = boundaries[-1][0]
    assert is_fresh(recover(storage_at(ops, total)))  # the game ended: the next one starts
    assert state(recover(storage_at(ops, boundaries[-2][0]))) == boundaries[-2][1]
    for i in range(31):
        n = total * i // 30 + i % 7
        check_cut(boundaries, n, recover(storage_at(ops, n)))


def test_record_sizes_on_flash():
    from firmware.app import App
    from firmware.journal.recorder import CHECKPOINT_MS
    from firmware.settings import Settings
    from twins.hardware import simulated

    storage = SimStorage()
    app = App(simulated(storage=storage), Settings(19, time_spec="byoyomi 10m 3x30s"))
    app.clock.start(0, 1)
    app.sync_host(0)
    sizes = []
    for act in ("stone", "press", "think"):
        before = len(storage.data(MAIN))
        if act == "stone":
            app.game.play(1, 100)
            t = 1000
        elif act == "press":
            app.clock.press(1, 2000)
            t = 2000
        else:
            t = 2000 + CHECKPOINT_MS
        app.sync_host(t)
        sizes.append(len(storage.data(MAIN)) - before)
    assert sizes == [16, 87, 11]  # MOVE, CLOCK, TICK (docs/journal.md)


def test_the_clock_is_checkpointed_only_while_it_runs():
    from firmware.app import App
    from firmware.journal.recorder import CHECKPOINT_MS
    from firmware.journal.records import K_CLOCK, K_TICK
    from firmware.settings import Settings
    from twins.hardware import simulated

    storage = SimStorage()
    app = App(simulated(storage=storage), Settings(9, time_spec="absolute 30m"))
    clock = app.clock
    written = []  # (ms, kind) of every clock record after the game's snapshot
    seen = len(records_of(storage.data(MAIN))[0])
    for t in range(0, 90000, 10):
        if t == 1000:
            clock.start(t, 1)
        elif t == 25000:
            clock.pause(t)
        elif t == 60000:  # a long pause ends: its state saved whole, the next checkpoint a full period on
            clock.resume(t)
        count = app.journal.records
        app.sync_host(t)
        if app.journal.records != count:
            records = records_of(storage.data(MAIN))[0]
            written += [(t, kind) for kind, _payload in records[seen:] if kind in (K_CLOCK, K_TICK)]
            seen = len(records)
    assert written == [(1000, K_CLOCK), (1000 + CHECKPOINT_MS, K_TICK), (1000 + 2 * CHECKPOINT_MS, K_TICK),
                       (25000, K_CLOCK), (60000, K_CLOCK), (60000 + CHECKPOINT_MS, K_TICK),
                       (60000 + 2 * CHECKPOINT_MS, K_TICK)], written
