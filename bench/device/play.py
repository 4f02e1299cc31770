"""The device-fit game: the whole application as a Pico runs it, in MicroPython's unix port.

    MICROPYPATH=.frozen:build/mpy:bench/device micropython -X heapsize=232K bench/device/play.py SCRIPT JOURNAL [PART [ROMFS]]

bench/device_fit.py runs this (and prepares SCRIPT). What runs is the
device's own code from the ``make mpy`` bundle: firmware/drivers/pico.py
builds the Hardware record from its real drivers, on stand-ins for
``machine`` and ``rp2`` (this folder), and ``App.run()``, the device's
asyncio loop, plays. Only its clock and sleep are virtual: each sleep moves
time on by what the loop asked for, and the hands do what SCRIPT says is
due (a physical event script, host_tools/sim/script.py: place, lift,
hover, press black|white, button undo|ok = MENU). The host on the UART
starts the game with a ``new`` (byo-yomi clock), asks ``hello``, ``state``,
``show``, a ``resend`` and ``mem`` on the way, and reads every line.

PART: ``whole`` (the default), ``until:<ms>`` (the power is cut at that
time: the process ends as the board would, the journal as it is), or
``from:<ms>`` (the power comes back: the stones the hands had put down by
then are on the board, the app recovers the game from the journal and the
hands go on from there).

ROMFS: a ROMFS image of the bundle (``mpremote romfs build``), mounted at
/rom as a board with a ROMFS partition mounts it: the code's bytecode then
stays in the image, as in memory-mapped flash. The image is read into the
heap first, one block at its start, and left out of every figure: the
caller adds its size to the heap.

The last line printed is ``FIT ok=<0|1> base= code= data= free= ...`` (bytes);
exit status 0 only when the game finished as scripted in this heap.
"""

import gc
import sys
import time

import micropython
from micropython import const


def mount_rom(path):
    """The ROMFS image at ``path``, read into one block and mounted at /rom (first on the path)."""
    import os

    import vfs

    image = bytearray(os.stat(path)[6])
    with open(path, "rb") as f:
        f.readinto(image)
    vfs.mount(vfs.VfsRom(image), "/rom")
    sys.path.insert(0, "/rom")
    return image


gc.collect()
ROM = mount_rom(sys.argv[4]) if len(sys.argv) > 4 else b""
gc.collect()
BARE = gc.mem_alloc()  # the interpreter, this script's module and the image

import asyncio  # noqa: E402

import machine  # noqa: E402

# (Only the names the device has are wanted in the name pool the device's fill: what can be
# a local or a folded const() here is one, and this file runs compiled, as the firmware does.)
_PRESS_MS = const(60)  # a finger on a button
HOST_AT = (  # (ms, command) the host sends; the game's settings first
    (5, "hello"),
    (10, "new rules=japanese size=19 komi=6.5 time=byoyomi%205m%203x30s pb=Hands%20B pw=Hands%20W"),
    (200_000, "show hint D4 Q16"),
    (200_100, "show clear"),
    (700_000, "state"),
    (700_050, "resend 3"),
    (850_000, "mem"),
)


class Host:
    """The host's end of the UART: sends HOST_AT, reads the board's lines."""

    def __init__(self, start):
        self.lines = 0
        self.moves = 0  # the highest move number in a MOVE line
        self.ended = False
        self.undos = 0
        self.errors = 0
        self.mem = None  # the board's answer to ``mem``
        self.seq = -1  # the highest line number read
        self.resent = 0  # lines read again (the host's resend)
        self.next = 0
        self.line = bytearray(40)  # the start of the line being read
        self.n = 0
        from firmware.protocol import encode_command

        self.commands = [(t, encode_command(text)) for t, text in HOST_AT if t > start]
        machine.UART.on_write = self.read

    def read(self, data):
        """The board's bytes (a memoryview of its line buffer, as a UART driver gets
        them): kept line by line in a small buffer, never copied whole."""
        line = self.line
        for byte in data:
            if byte != 10:
                if self.n < len(line):
                    line[self.n] = byte
                    self.n += 1
                continue
            self.lines += 1
            words = bytes(line[:self.n]).split(None, 3)
            self.n = 0
            kind = words[1] if len(words) > 1 else b""
            seq = int(words[0])
            if seq <= self.seq:
                self.resent += 1
                continue
            self.seq = seq
            if kind == b"UNDO":
                self.undos += 1
            elif kind == b"MOVE":
                self.moves = max(self.moves, int(words[2]))
            elif kind == b"END":
                self.ended = True
            elif kind == b"MEM":
                self.mem = b" ".join(words[1:]).split(b" *")[0].decode()
            elif kind == b"ERR":
                self.errors += 1
                print("host: the board refused:", bytes(line))

    def due(self, now):
        while self.next < len(self.commands) and self.commands[self.next][0] <= now:
            machine.UART.rx.extend(self.commands[self.next][1])
            self.next += 1


class Hands:
    """The players' hands on the stand-in hardware, following the script."""

    def __init__(self, hw, script, start):
        """``start``: the power comes back then: what the hands did before is on the board."""
        from firmware.rules.coords import col_row, parse_vertex

        self.col_row = col_row
        self.parse_vertex = parse_vertex
        sensor = hw.sensor
        machine.SPI.raw = bytearray(sensor.nbytes)  # the switches: an empty board until the hands come
        self.slot_of = bytearray(2 * 361)  # physical point -> raw slot (little-endian 16 bits)
        for slot in range(len(sensor.point_at)):
            p = sensor.point_at[slot]
            if p != 0xFFFF:
                self.slot_of[2 * p] = slot & 0xFF
                self.slot_of[2 * p + 1] = slot >> 8
        pins = hw.buttons.pins  # black, white, pause, menu (firmware/drivers/buttons.py)
        self.button = {"black": pins[0], "white": pins[1], "menu": pins[3]}
        self.release = []  # (ms, pin) fingers to lift
        self.unhover = []  # (ms, physical point)
        self.file = open(script)
        self.event = None
        self.events = 0
        self._next()
        while self.event is not None and int(self.event[0]) <= start:  # stones stay; fingers and hovers pass
            if self.event[1] in ("place", "lift"):
                self._stone(self.event[2], self.event[1] == "place")
            self._next()

    def _next(self):
        line = self.file.readline()
        while line and (line[0] == "#" or not line.strip()):
            line = self.file.readline()
        self.event = line.split() if line else None

    def _stone(self, vertex, on):
        """Set the switch under ``vertex``; False if it already was."""
        col, row = self.col_row(19, self.parse_vertex(19, vertex))
        p = row * 19 + col
        slot = self.slot_of[2 * p] | self.slot_of[2 * p + 1] << 8
        raw = machine.SPI.raw
        bit = 1 << (slot & 7)
        if bool(raw[slot >> 3] & bit) == on:
            return False
        raw[slot >> 3] ^= bit
        return True

    def due(self, now):
        """Do what is due at ``now``; False when the script is done and every finger is up."""
        for item in self.release:
            if item[0] <= now:
                item[1].value(1)
                self.release.remove(item)
        for item in self.unhover:
            if item[0] <= now:
                self._stone(item[1], False)
                self.unhover.remove(item)
        while self.event is not None and int(self.event[0]) <= now:
            e = self.event
            action = e[1]
            if action == "place":
                self._stone(e[2], True)
            elif action == "lift":
                self._stone(e[2], False)
            elif action == "hover":  # a magnet passing over a stone changes nothing
                if self._stone(e[2], True):
                    self.unhover.append((now + int(e[3]), e[2]))
            else:  # press black|white, button undo|ok (MENU)
                pin = self.button[e[2] if action == "press" else "menu"]
                pin.value(0)
                self.release.append((now + _PRESS_MS, pin))
            self.events += 1
            self._next()
        return self.event is not None or bool(self.release)


class World:
    """The loop's virtual clock and sleep: time moves on by what the loop asks."""

    def __init__(self, app, hands, host, start, until):
        self.app = app
        self.hands = hands
        self.host = host
        self.now = start
        self.until = until  # the power cut (None: none)
        self.idle_until = None  # the script is done: run 3 s more, then stop

    def ticks(self):
        return self.now

    async def sleep_ms(self, ms):
        self.now += ms if ms > 0 else 1
        self.host.due(self.now)
        if not self.hands.due(self.now) and self.idle_until is None:
            self.idle_until = self.now + 3000
        if (self.idle_until is not None and self.now >= self.idle_until) or (self.until and self.now >= self.until):
            self.app.running = False
        await asyncio.sleep_ms(0)


def main():
    script, journal = sys.argv[1], sys.argv[2]
    part = sys.argv[3] if len(sys.argv) > 3 else "whole"
    cut = int(part.split(":")[1]) if ":" in part else 0  # the power cut's time (ms)
    gc.collect()
    harness = gc.mem_alloc() - BARE
    gc.threshold(4096)  # as firmware/main.py boots: collect often while the code loads and the app builds
    from firmware import board_config as cfg
    from firmware.app import App
    from firmware.drivers import pico
    from firmware.rules.const import drop

    gc.collect()
    code = gc.mem_alloc() - BARE - harness  # (with the board's builder and pin table, let go below)
    cfg.LINK = "uart"  # the host on the UART stand-in (USB is this process's terminal)
    pico.JOURNAL_PATH = journal
    if cfg.JOURNAL == "flash":  # the flash log's sectors: in the JOURNAL file (rp2_region needs littlefs)
        from flash_region import FileRegion

        pico._region = lambda: FileRegion(journal)
    start = cut if part.startswith("from") else 0
    hw = pico.hardware()
    del cfg, pico  # as firmware/main.py does once the hardware record is built
    drop("firmware.drivers.pico")
    drop("firmware.board_config")
    hands = Hands(hw, script, start)
    app = App(hw, now_ms=start)
    host = Host(start)
    world = World(app, hands, host, start, cut if part.startswith("until") else None)
    gc.threshold(-1)
    gc.collect()
    data_start = gc.mem_alloc() - BARE - harness - code
    asyncio.run(app.run(world.ticks, world.sleep_ms))
    game = app.game
    result = game.result
    snap = app.clock.snapshot(world.now) if app.clock is not None else None
    byoyomi = snap is not None and snap.black.overtime and snap.white.overtime
    t0 = time.ticks_us()
    gc.collect()
    collect_us = time.ticks_diff(time.ticks_us(), t0)  # (a collection of this heap)
    data = gc.mem_alloc() - BARE - harness - code
    ok = app.errors == 0 and host.errors == 0
    if part.startswith("until"):  # the game goes on when the power is cut
        ok = ok and result is None and game.move_number > 0 and host.moves == game.move_number
    else:
        ok = (ok and result is not None and host.ended and host.resent > 0 and host.moves == game.move_number
              and hands.event is None and byoyomi and host.mem is not None and app.recovered == (start > 0))
    if not part.startswith("from"):  # the move taken back comes before the cut
        ok = ok and host.undos == 1
    print("game: %d moves, result %s; %d script events; %d stage errors; both clocks in byo-yomi: %s;"
          " host read %d lines (%d resent; last MOVE %d, %d UNDO, END %s); recovered from the journal: %s"
          % (game.move_number, result and result.sgf(), hands.events, app.errors, byoyomi, host.lines, host.resent,
             host.moves, host.undos, host.ended, app.recovered))
    print("host: the board answered %s" % host.mem)
    print("code: %s" % sys.modules["firmware"].__file__)
    micropython.qstr_info()  # "qstr pool: n_pool=6, n_qstr=...": the names interned for good
    print("FIT ok=%d base=%d harness=%d code=%d data_start=%d data=%d free=%d ms=%d collect_us=%d"
          % (ok, BARE - len(ROM), harness, code, data_start, data, gc.mem_free(), world.now, collect_us))
    return ok


try:
    passed = main()
except MemoryError as error:
    sys.print_exception(error)  # where the heap ran out
    print("FIT ok=0 memory=%s" % error)
    passed = False
sys.exit(0 if passed else 1)
