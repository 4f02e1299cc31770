"""Referee figures under MicroPython: from a settled frame with one new stone
to the recorded move and the LED marks.

bench/mp_bench.mjs runs each ``STEPS`` snippet in its own runPython call.
"""

import gc
import time

from pro_games import longest_game

from firmware.leds.marks import Marks
from firmware.referee.machine import Referee
from firmware.rules.game import Game


def _longest_record():
    here = __file__.replace("\\", "/").rsplit("/", 2)[0]
    for path in ("/tests/data/pro_games.txt", here + "/tests/data/pro_games.txt"):
        try:
            return longest_game(path)
        except OSError:
            pass
    raise OSError("pro_games.txt not found")


def move_latency(moves=200):
    """A presence referee gets one frame per move with the new stone (the
    scanner's output); captured stones are lifted in a second frame. Times
    the move frames and counts the bytes they allocate."""
    record = _longest_record()
    game = Game(19, "japanese")
    ref = Referee(game, Marks())
    frame = bytearray(361)
    phys = ref.region.phys_of
    game_of = ref.region.game_of
    total = 0
    allocated = 0
    played = 0
    for _colour, pt in record.moves[:moves]:
        if pt == 0:
            continue
        frame[phys[pt]] = 3
        start = gc.mem_alloc()
        t0 = time.ticks_us()
        ref.update(frame, played * 1000)
        total += time.ticks_diff(time.ticks_us(), t0)
        allocated += gc.mem_alloc() - start
        played += 1
        cells = game.pos.cells
        for p in range(361):
            g = game_of[p]
            if g != 0xFFFF and frame[p] and not cells[g]:
                frame[p] = 0  # the captured stones are lifted
        ref.update(frame, played * 1000 + 500)
    print("REPORT referee: settled frame with one new stone -> move recorded + LED marks: %.0f us per move "
          "(target <= 1000), %d bytes allocated per move (%d moves)" % (total / played, allocated // played, played))


STEPS = ["import mp_referee", "mp_referee.move_latency()"]
