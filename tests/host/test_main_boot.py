"""firmware/main.py, the device's boot file, run as it is in MicroPython's unix port.

The board's own modules from the make mpy bundle on bench/device's machine
stand-ins (tests/mp/boot_main.py), in the heap the device-fit game holds:
it boots, opens its journal, answers a host's ``hello`` on the UART, and
stops cleanly on Ctrl-C (SIGINT), as main.py promises.
"""

import os
import selectors
import signal
import subprocess
import sys
import time

from .conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "mp"))
import unix_port  # noqa: E402

from firmware.protocol import check_crc  # noqa: E402


def is_hello(line):
    return line.split(b" ", 2)[1:2] == [b"HELLO"]  # "<seq> HELLO ... *<crc>"


def test_main_boots_answers_the_host_and_stops_on_ctrl_c(tmp_path):
    unix_port.build_mpy()
    journal = tmp_path / "journal.bin"
    env = dict(os.environ, MICROPYPATH=":".join([".frozen", str(unix_port.MPY), str(ROOT / "bench" / "device")]))
    # unbuffered: each line the board writes is seen by select() as it comes
    board = subprocess.Popen([unix_port.executable(), "-X", "heapsize=296K", "tests/mp/boot_main.py", str(journal)],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    lines = []
    with selectors.DefaultSelector() as sel:
        sel.register(board.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + 60
        while not any(is_hello(line) for line in lines) and time.monotonic() < deadline:
            if sel.select(timeout=1):
                line = board.stdout.readline()
                if not line:
                    break  # the board stopped by itself
                lines.append(line.rstrip(b"\n"))
    assert board.poll() is None, "the board stopped on its own: %s" % board.stderr.read().decode()
    board.send_signal(signal.SIGINT)
    out, err = board.communicate(timeout=60)
    hello = [line for line in lines if is_hello(line)]
    assert hello and check_crc(hello[0])[1] is True
    assert b" game=1 size=19 moves=0 " in hello[0]
    assert board.returncode == 0
    assert b"board stopped" in out
    assert b"Traceback" not in out + err, (out + err).decode()
    assert journal.stat().st_size > 0  # the new game is journalled
