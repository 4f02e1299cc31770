"""How long the device takes to load the code it loads for a moment, on the device bundle itself.

    MICROPYPATH=.frozen:build/mpy micropython -X heapsize=232K bench/device/loads.py

The rare events' code (rules/const.py ``call_briefly``: MENU's, a penalty's,
the count's, a host command's) is loaded when it is needed. The timing bench
(timing.py) runs on the bundle built with its constants' names kept
(build/named), whose modules import those constants by name; the device's
bundle (``make mpy``) folds them, so its modules import less and load
faster. Each module here is loaded once with what it imports (kept), let
go, then loaded and let go five times: ``LOAD name|median us|pace us``
(pace: this PC's speed, pace.py, for bench/device_time.py's scaling).
"""

import gc
import time

from pace import pace

from firmware.rules.const import drop

MODULES = ("firmware.referee.buttons", "firmware.referee.fouls", "firmware.rules.dead", "firmware.rules.scoring",
           "firmware.rules.penalties", "firmware.host.snapshot", "firmware.host.arguments", "firmware.clock.verdict")


for name in MODULES:
    __import__(name)  # (its package and the modules it imports: loaded once, kept)
    drop(name)
    times = []
    for _ in range(5):
        gc.collect()
        t0 = time.ticks_us()
        __import__(name)
        times.append(time.ticks_diff(time.ticks_us(), t0))
        drop(name)
    times.sort()
    print("LOAD %s|%d|%d" % (name, times[len(times) // 2], pace()))
