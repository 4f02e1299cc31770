"""The journal's format, compaction and crash consistency (a sample of cuts; tests/host has them dense)."""

from journal_cases import (
    Play,
    TraceStorage,
    before_last,
    check_cut,
    is_fresh,
    loaded,
    record_game,
    records_of,
    recover,
    state,
    storage_at,
)

from firmware.jobs import resume
from firmware.journal import recovery
from firmware.journal.records import K_MOVE, K_NEW, K_UNDO
from firmware.journal.store import COMMIT, MAIN, NEXT, Journal, crc16
from twins.storage import SimStorage

SLICE_MAX = 384 + 16  # recorder._SLICE and the MOVE record that crosses it


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


class _Streams(SimStorage):
    """A SimStorage whose files can only be read as streams; it notes the largest read."""

    def __init__(self):
        super().__init__()
        self.largest = 0

    def read(self, name):
        raise AssertionError("the whole file read at once")

    def reader(self, name):
        stream = super().reader(name)
        if stream is None:
            return None
        storage = self

        class Noted:
            def readinto(self, buf):
                storage.largest = max(storage.largest, len(buf))
                return stream.readinto(buf)

            def __enter__(self):
                return self

            def __exit__(self, *_exc):
                stream.close()

        return Noted()


def test_power_up_reads_the_journal_a_record_at_a_time():
    storage = _Streams()
    play = Play(storage, limit=1 << 30)
    for _ in range(60):
        play.move()
    assert len(storage.data(MAIN)) > 1500
    assert state(recover(storage)) == state(play.app)
    assert 0 < storage.largest <= 5 + 600 + 2  # one record at most (header, payload, CRC)
    storage, _ = _journal((1, b"a" * 600), (2, b"b"))
    streams = _Streams()
    streams.files = storage.files
    assert loaded(Journal(streams)) == [(1, b"a" * 600), (2, b"b")] and streams.largest == 600 + 2  # (+ its CRC)


def _append(j, target, kind, payload):
    j.target = target
    j.begin(kind)
    j.text(payload)
    j.end()


def test_a_cut_compaction_is_discarded_and_a_finished_one_completed():
    storage, j = _journal((1, b"old"))
    j.begin_snapshot()
    _append(j, NEXT, 1, b"new")
    _append(j, MAIN, 2, b"live")  # the game goes on in the journal meanwhile
    assert loaded(Journal(storage)) == [(1, b"old"), (2, b"live")]  # no COMMIT yet: the journal stands
    assert storage.data(NEXT) is None
    storage, j = _journal((1, b"old"))
    j.begin_snapshot()
    _append(j, NEXT, 1, b"new")
    _append(j, MAIN, 2, b"live")
    _append(j, NEXT, COMMIT, b"")  # the power fails before the rename
    assert loaded(Journal(storage)) == [(1, b"new")]
    assert storage.data(NEXT) is None and records_of(storage.data(MAIN))[0][-1][0] == COMMIT


def test_a_snapshot_has_its_own_sequence_and_the_journal_goes_on_from_it():
    storage, j = _journal((1, b"old"), (2, b"older"))
    j.begin_snapshot()
    _append(j, NEXT, 1, b"new")
    _append(j, MAIN, 2, b"live")
    _append(j, NEXT, 3, b"more")
    assert records_of(storage.data(MAIN)) == ([(1, b"old"), (2, b"older"), (2, b"live")], j.size, 2)
    assert records_of(storage.data(NEXT)) == ([(1, b"new"), (3, b"more")], j.next_size, 1)
    j.end_snapshot()
    assert j.target == MAIN and storage.data(NEXT) is None
    _append(j, MAIN, 4, b"after")
    assert records_of(storage.data(MAIN))[0] == [(1, b"new"), (3, b"more"), (COMMIT, b""), (4, b"after")]
    assert loaded(Journal(storage)) == [(1, b"new"), (3, b"more"), (4, b"after")]


def test_a_pro_game_survives_a_sample_of_power_cuts():
    ops, boundaries, app = record_game(45, limit=2048)
    total = boundaries[-1][0]
    assert is_fresh(recover(storage_at(ops, total)))  # the game ended: the next one starts
    before = before_last(boundaries)
    assert state(recover(storage_at(ops, before[0]))) == before[1]
    for i in range(31):
        n = total * i // 30 + i % 7
        check_cut(boundaries, n, recover(storage_at(ops, n)))


def _kinds(storage, name):
    data = storage.data(name)
    return [] if data is None else [kind for kind, _ in records_of(data)[0]]


def _next_removals(storage):
    return sum(1 for op, name, _ in storage.ops if op == 2 and name == NEXT)


def test_a_long_journal_is_compacted_a_slice_a_pass_while_play_goes_on():
    storage = TraceStorage()
    play = Play(storage, limit=1 << 30)
    for _ in range(80):
        play.move()
    app = play.app
    recorder = app.recorder
    recorder.limit = len(storage.data(MAIN)) - 1  # due at the next pass
    passes = 0
    while passes == 0 or recorder.compacting:
        before = len(storage.data(NEXT) or b"")
        moves = _kinds(storage, MAIN).count(K_MOVE)
        play.move()  # the move journalled, no slice in its pass
        assert len(storage.data(NEXT) or b"") == before
        play.next_pass()
        passes += 1
        if recorder.compacting:
            kinds = _kinds(storage, NEXT)
            assert COMMIT not in kinds and kinds[0] == K_NEW
            assert 0 < len(storage.data(NEXT)) - before <= SLICE_MAX
            assert _kinds(storage, MAIN).count(K_MOVE) == moves + 1  # the move went on to the journal
            written = len(storage.data(NEXT))
            app.sync_host(play.t)  # a host command's record() in the same pass: no second slice
            assert len(storage.data(NEXT)) == written
    assert 5 <= passes <= 12 and storage.data(NEXT) is None
    records = records_of(storage.data(MAIN))[0]
    assert records[0][0] == K_NEW and COMMIT in [kind for kind, _ in records]
    assert sum(1 for kind, _ in records if kind == K_MOVE) == app.game.hist.length - 1  # those played meanwhile too
    assert len(storage.data(MAIN)) < recorder.limit
    assert state(recover(storage)) == state(app)


def test_an_undo_starts_a_compaction_again_only_when_the_snapshot_holds_the_moves_taken_back():
    storage = TraceStorage()
    play = Play(storage, limit=1 << 30)
    for _ in range(60):
        play.move()
    app = play.app
    game = app.game
    recorder = app.recorder
    for below in (False, True):
        recorder.limit = app.journal.size - 1  # due (and the snapshot will be shorter)
        play.move()
        play.next_pass()  # the first slice
        removals = _next_removals(storage)
        held = recorder.compacting
        assert 10 < held < game.hist.length - 3
        keep = held - 1 if below else game.hist.length - 2  # positions kept: moves 1..keep-1
        while game.hist.length > keep:
            game.undo()
        play.t += 10
        app.sync_host(play.t)  # the UNDO to the journal
        play.next_pass()  # a slice (of a new snapshot when below)
        assert K_UNDO in _kinds(storage, MAIN)[-3:]
        assert _next_removals(storage) == removals + below
        assert (recorder.compacting < held) == below
        while recorder.compacting:
            play.move()
            play.next_pass()
        assert state(recover(storage)) == state(app)
        app = play.app = recover(storage)  # (the recovered board plays on)
        game = app.game
        recorder = app.recorder


def test_a_reservation_made_in_a_pass_with_a_slice_is_in_the_journal():
    storage = SimStorage()
    play = Play(storage, limit=1 << 30)
    for _ in range(30):
        play.move()
    recorder = play.app.recorder
    recorder.limit = 0
    mark = recorder.seq_mark
    recorder.record(play.t + 10, play.app.clock, mark)  # the link used every number reserved
    resume(play.app.jobs, play.t + 20)  # the compaction's first slice (the snapshot writes the mark too)
    assert recorder.compacting and recorder.seq_mark > mark
    assert recovery.recover(Journal(storage)).seq_mark == recorder.seq_mark  # a cut now: the journal has it


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
