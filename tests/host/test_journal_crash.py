"""Crash consistency of the game journal, densely: a recorded professional game with power cuts
at 1000 random byte offsets, at every loop pass's boundary (each compaction's slices), at every
byte of a compaction written a slice a pass while moves go on to the journal (and of one an undo
starts again), and random bit flips (hypothesis).

Recovery must never raise, never invent a move, and lose at most the event
whose record was being written (tests/firmware/journal_cases.py says what
that means exactly). Also: FileStorage on a real file system, with the file
cut and a compaction left half done, and with a compaction written a slice a
pass (both files open), the power cut between two slices.
"""

import random
import shutil

from hypothesis import given, settings
from hypothesis import strategies as st
from journal_cases import (
    Play,
    before_last,
    check_cut,
    is_fresh,
    record_game,
    records_of,
    recover,
    state,
    storage_at,
)

from firmware.drivers.storage import FileStorage
from firmware.journal.store import MAIN, NEXT

OPS, BOUNDARIES, _BOARD = record_game(150, limit=4096)
TOTAL = BOUNDARIES[-1][0]
RETAKEN = record_game(150, limit=4096, retake=True)  # an undo that starts a compaction again


def _compactions(ops):
    """Each compaction: (bytes written when it began, when it was renamed, NEXT removals,
    runs of NEXT writes between journal writes, journal bytes written meanwhile)."""
    out = []
    written = 0
    current = None
    last = None
    for op, name, data in ops:
        if op == 2 and name == NEXT:
            if current is None:
                current = [written, 0, 0, 0, 0]
            current[2] += 1
        elif op == 1 and current is not None:
            current[1] = written
            out.append(tuple(current))
            current = None
        elif op == 0:
            written += len(data)
            if current is not None:
                if name == NEXT and last != NEXT:
                    current[3] += 1
                elif name == MAIN:
                    current[4] += len(data)
            last = name
    return out


def test_the_game_was_compacted_and_recovers_whole():
    assert sum(1 for op in OPS if op[0] == 1) >= 3  # several compactions (renames)
    assert is_fresh(recover(storage_at(OPS, TOTAL)))  # the game ended: the next one starts
    before = before_last(BOUNDARIES)
    assert state(recover(storage_at(OPS, before[0]))) == before[1]


def test_1000_random_cuts():
    rng = random.Random(10)
    for n in sorted(rng.randrange(TOTAL + 1) for _ in range(1000)):
        check_cut(BOUNDARIES, n, recover(storage_at(OPS, n)))


def test_every_pass_boundary():
    # Every loop pass's end, and a byte either side: each slice of every compaction begins and ends there.
    assert sum(1 for c in _compactions(OPS) if c[3] >= 3) >= 3  # compactions of several slices
    for written, _state in BOUNDARIES:
        for n in (written - 1, written, written + 1):
            check_cut(BOUNDARIES, n, recover(storage_at(OPS, n)))


def test_every_byte_of_a_compaction():
    # The last compaction, written a slice a pass while the moves go on to the journal.
    start, end, removals, slices, live = _compactions(OPS)[-1]
    assert removals == 1 and slices >= 3 and live > 300
    for n in range(start, end + 1):
        check_cut(BOUNDARIES, n, recover(storage_at(OPS, n)))


def test_every_byte_of_a_compaction_an_undo_started_again():
    ops, boundaries, _app = RETAKEN
    assert is_fresh(recover(storage_at(ops, boundaries[-1][0])))
    before = before_last(boundaries)
    assert state(recover(storage_at(ops, before[0]))) == before[1]
    again = [c for c in _compactions(ops) if c[2] > 1]
    assert len(again) == 1
    start, end, removals, _slices, _live = again[0]
    assert removals == 2
    for n in range(start, end + 1):
        check_cut(boundaries, n, recover(storage_at(ops, n)))


def _last_record_span(data):
    records, size, _ = records_of(data)
    return size - (7 + len(records[-1][1])), size


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=3), st.booleans())
def test_bit_flips(flips, anywhere):
    storage = storage_at(OPS, TOTAL)
    data = bytearray(storage.data(MAIN))
    start, end = _last_record_span(data) if not anywhere else (0, len(data))
    for f in flips:
        bit = f % (8 * (end - start))
        data[start + bit // 8] ^= 1 << (bit % 8)
    storage.set_data(MAIN, bytes(data))
    app = recover(storage)
    got = state(app)
    if not anywhere:
        assert got == before_last(BOUNDARIES)[1] or is_fresh(app)  # at most the last event (the resignation) lost
    else:
        final = BOUNDARIES[-1][1][0]
        assert got[0] == final[:len(got[0])]  # a prefix of the game: nothing invented


def test_file_storage_cut_and_half_compacted(tmp_path):
    path = str(tmp_path / "journal.bin")
    storage = storage_at(OPS, TOTAL)
    with open(path, "wb") as f:
        f.write(storage.data(MAIN)[:-3])  # the last record torn
    with open(path + NEXT, "wb") as f:
        f.write(storage.data(MAIN)[:200])  # a compaction cut short: no COMMIT
    app = recover(FileStorage(path))
    assert state(app) == before_last(BOUNDARIES)[1]  # the resignation was torn
    app.hw.storage.close()
    assert not (tmp_path / "journal.bin.new").exists()
    again = recover(FileStorage(path))  # the recovery's own snapshot reads back
    assert state(again) == state(app)


def test_file_storage_compacting_a_slice_a_pass(tmp_path):
    path = tmp_path / "journal.bin"
    storage = FileStorage(str(path))
    play = Play(storage, limit=1 << 30)
    for _ in range(60):
        play.move()
    app = play.app
    app.recorder.limit = app.journal.size - 1
    for _ in range(2):
        play.move()
        play.next_pass()
    assert app.recorder.compacting  # the snapshot half written, both files open
    cut = tmp_path / "cut"
    cut.mkdir()
    for name in ("journal.bin", "journal.bin.new"):
        shutil.copy(tmp_path / name, cut / name)  # the power is cut: the files as the file system has them
    again = recover(FileStorage(str(cut / "journal.bin")))
    assert state(again) == state(app) and app.game.move_number == 62
    again.hw.storage.close()
    while app.recorder.compacting:
        play.move()
        play.next_pass()
    storage.close()
    assert not (tmp_path / "journal.bin.new").exists() and len(path.read_bytes()) < app.recorder.limit
    assert state(recover(FileStorage(str(path)))) == state(app)
