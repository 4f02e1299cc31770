"""Runs on the emulated Pico (bench/pico_wear/run.py): /ops.bin replayed on the device's journal storage."""

import os
import time

MODE = "file"  # run.py sets it: file, area (make /journal.area only) or flash
if MODE == "area":
    from firmware.drivers.rp2_region import region

    r = region()
    print("area blocks", r.blocks, "blocks whose pointers are off:", r.off_blocks())
    raise SystemExit
if MODE == "flash":
    from firmware.drivers.flashlog import FlashLog
    from firmware.drivers.rp2_region import region

    t0 = time.ticks_ms()
    storage = FlashLog(region())
    print("power-up of the flash log: %d ms" % time.ticks_diff(time.ticks_ms(), t0))
else:
    from firmware.drivers.storage import FileStorage

    storage = FileStorage("/journal.bin")
names = ("", ".new")
buf = bytearray(700)
head = bytearray(4)
mv = memoryview(head)
writes = flushes = worst = slow = 0
t0 = step = time.ticks_ms()
with open("/ops.bin", "rb") as f:
    while f.readinto(mv[:2]) == 2:
        op, name = head[0], names[head[1]]
        if op == 0:
            f.readinto(mv[2:4])
            n = head[2] | head[3] << 8
            f.readinto(memoryview(buf)[:n])
            storage.write(name, buf, n)
            writes += 1
        elif op == 1:
            storage.flush(name)
            flushes += 1
            now = time.ticks_ms()
            took = time.ticks_diff(now, step)  # the writes since the last flush, and the flush
            worst = max(worst, took)
            slow += took > 40
            step = now
        elif op == 2:
            storage.replace(".new", "")
        else:
            storage.remove(name)
storage.close()
print("%s: %d writes, %d flushes in %d ms; the longest from one flush to the next %d ms; %d over 40 ms" % (
    MODE, writes, flushes, time.ticks_diff(time.ticks_ms(), t0), worst, slow))
if MODE == "flash":
    print("main stream: %d bytes" % len(storage.read("")))
else:
    print("/journal.bin: %d bytes" % os.stat("/journal.bin")[6])
