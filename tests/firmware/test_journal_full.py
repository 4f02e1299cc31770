"""A flash that fills up mid-game: the board keeps playing and says so.

The clock display turns inverse, the event log and the host (an ALERT line, and
``journal=failing`` in its HELLO) are told, the flash is tried again every few seconds
rather than at every host stage; once it has room the whole game is written again,
everyone is told, and a power cut then loses nothing.
"""

from harness import host_says, linked, point, power_up, run

from firmware.journal.recorder import RETRY_MS
from host_tools.board.event_log import entries
from twins.storage import SimStorage

# 32 moves, Black and White in turn, that capture nothing (column 2 and row 8 stay empty).
MOVES = [(col, row) for row in range(8) for col in (0, 1, 3, 4)]


def _play(hw, app, moves, t):
    for i, (col, row) in enumerate(moves):
        hw.stones.place(point(app, col, row), 1 + i % 2)
        run(app, hw, t, t + 400)
        t += 400
    return t


def test_a_full_flash_is_told_and_play_goes_on():
    storage = SimStorage(capacity=400)  # room for the game's first moves only
    hw, pipe, app = linked(storage, size=9)
    run(app, hw, 0, 100)
    t = _play(hw, app, MOVES[:24], 100)
    assert app.game.move_number == 24  # play went on
    assert app.journal_failing and app.recorder.errors > 0
    assert hw.display.text().endswith("(INVERSE)")
    assert [e for e in entries(app.events) if e[0] == "journal"][-1][3] == 1
    said = pipe.take()
    assert b"ALERT journal=failing" in said
    hello = [fields for kind, fields in host_says(hw, pipe, app, "hello", t) if kind == "HELLO"]
    assert hello and "journal=failing" in hello[0]
    # Tried again every RETRY_MS, not every 10 ms: a few snapshots' worth of bytes, not one per stage.
    attempts = app.recorder.errors
    assert attempts <= 2 + (t // RETRY_MS)

    storage.capacity = 1 << 16  # room again (files written from now on are larger)
    t = _play(hw, app, MOVES[24:], t + 40)
    run(app, hw, t, t + RETRY_MS + 100)
    t += RETRY_MS + 100
    assert not app.journal_failing and not hw.display.text().endswith("(INVERSE)")
    assert b"ALERT journal=ok" in pipe.take()
    del app  # and the power is cut: every move is on flash again
    again = power_up(hw, now_ms=t)
    assert again.game.move_number == len(MOVES)
