"""Run on the board by `make deploy` (mpremote run) before the copy: /lib exists and
the previous /lib/firmware is gone, so no stale module (an old .py beside a new .mpy,
which MicroPython would import first) survives an update. Game data at / (the journal,
the Hall calibration) is left alone."""

import os


def remove(path):
    try:
        mode = os.stat(path)[0]
    except OSError:
        return
    if mode & 0x4000:  # a directory
        for name in os.listdir(path):
            remove(path + "/" + name)
        os.rmdir(path)
    else:
        os.remove(path)


if "lib" not in os.listdir("/"):
    os.mkdir("/lib")
remove("/lib/firmware")
