"""Serial link figures under MicroPython: lines per second through the
protocol parser (``LineParser`` + ``decode``), commands per second the board's
link answers, and the bytes the board allocates writing one move line
(``Link._write``; exact inside one runPython call, where the GC frees nothing).
The board is the assembled one (tests/firmware/harness.py: the App on twins),
its link on a cable that only counts bytes.

bench/mp_bench.mjs runs each ``STEPS`` snippet in its own runPython call.
"""

import gc
import time

from harness import board
from mp_referee import _longest_record

from firmware import protocol as pr
from host_tools.board import protocol as ph


class _Sink:
    def __init__(self):
        self.n = 0

    def read_into(self, buf):
        return 0

    def write(self, data):
        self.n += len(data)
        return len(data)


def parser_rate(lines=2000):
    data = b"".join(ph.encode(i, "MOVE", (i, "B", "pd")) for i in range(lines))
    parser = pr.LineParser(pr.MAX_LINE)
    got = 0
    t0 = time.ticks_ms()
    mv = memoryview(data)
    while mv:
        taken = parser.feed(mv[:256])
        mv = mv[taken:]
        while True:
            line = parser.line()
            if line is None:
                break
            if ph.decode(line) is not None:
                got += 1
    ms = max(time.ticks_diff(time.ticks_ms(), t0), 1)
    print("REPORT link: %d move lines parsed and CRC-checked by the host-side parser: %d lines/s" % (got, got * 1000 // ms))


def command_rate(commands=1000):
    sink = _Sink()
    queue = bytearray()

    class _In:
        def read_into(self, buf):
            n = min(len(buf), len(queue))
            buf[:n] = queue[:n]
            queue[:n] = b""
            return n

        def write(self, data):
            return sink.write(data)

    _hw, app = board(transport=_In(), size=19)
    link = app.link
    link.poll(0)
    t0 = time.ticks_ms()
    for i in range(commands):
        queue.extend(b"hello\n" if i % 2 else b"frob 1 2\n")
        link.poll(i)
    ms = max(time.ticks_diff(time.ticks_ms(), t0), 1)
    print("REPORT link: board answers %d commands/s (parse, reply line, CRC)" % (commands * 1000 // ms))


def move_alloc(moves=100):
    # (the record's moves played on the board's game, as its referee plays them, no loop pass run)
    _hw, app = board(transport=_Sink(), size=19)
    link, game = app.link, app.game
    link.poll(0)
    total = 0
    t_us = 0
    record = _longest_record()
    moves = min(moves, len(record.moves))
    for colour, pt in record.moves[:moves]:
        game.play(colour, pt)
        link.follower.follow()
        before = gc.mem_alloc()
        t0 = time.ticks_us()
        link._write(link.cursor)
        t_us += time.ticks_diff(time.ticks_us(), t0)
        total += gc.mem_alloc() - before
        link.cursor += 1
    print("REPORT link: writing one MOVE line (CRC included): %d bytes allocated, %d us" % (total // moves, t_us // moves))


STEPS = ["import mp_link", "mp_link.parser_rate()", "mp_link.command_rate()", "mp_link.move_alloc()"]
