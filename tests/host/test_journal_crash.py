"""Crash consistency of the game journal, densely: a recorded professional game with power cuts
at 1000 random byte offsets and at every byte of a compaction, and random bit flips (hypothesis).

Recovery must never raise, never invent a move, and lose at most the event
whose record was being written (tests/firmware/journal_cases.py says what
that means exactly). Also: FileStorage on a real file system, with the file
cut and a compaction left half done.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from journal_cases import check_cut, is_fresh, record_game, records_of, recover, state, storage_at

from firmware.drivers.storage import FileStorage
from firmware.journal.store import MAIN, NEXT

OPS, BOUNDARIES, _BOARD = record_game(150, limit=4096)
TOTAL = BOUNDARIES[-1][0]


def test_the_game_was_compacted_and_recovers_whole():
    assert sum(1 for op in OPS if op[0] == 1) >= 3  # several compactions (renames)
    assert is_fresh(recover(storage_at(OPS, TOTAL)))  # the game ended: the next one starts
    assert state(recover(storage_at(OPS, BOUNDARIES[-2][0]))) == BOUNDARIES[-2][1]


def test_1000_random_cuts():
    rng = random.Random(10)
    for n in sorted(rng.randrange(TOTAL + 1) for _ in range(1000)):
        check_cut(BOUNDARIES, n, recover(storage_at(OPS, n)))


def test_every_byte_of_a_compaction():
    # The last compaction: from the removal of the old .new file to the rename.
    written = 0
    start = end = 0
    for op, _name, data in OPS:
        if op == 2:
            start = written
        elif op == 1:
            end = written
        elif op == 0:
            written += len(data)
    assert end - start > 500
    for n in range(start, end + 1):
        check_cut(BOUNDARIES, n, recover(storage_at(OPS, n)))


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
        assert got == BOUNDARIES[-2][1] or is_fresh(app)  # at most the last event (the resignation) lost
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
    assert state(app) == BOUNDARIES[-2][1]  # the resignation was torn
    app.hw.storage.close()
    assert not (tmp_path / "journal.bin.new").exists()
    again = recover(FileStorage(path))  # the recovery's own snapshot reads back
    assert state(again) == state(app)
