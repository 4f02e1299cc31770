"""firmware/main.py, the device's boot file, run as it is in MicroPython's unix port.

The board's own modules from the make mpy bundle on bench/device's machine
stand-ins (tests/mp/boot_main.py), in the heap the device-fit game holds:
it boots, opens its journal, answers a host's ``hello`` on the UART, and
stops cleanly on Ctrl-C (SIGINT), as main.py promises. A board whose display
does not answer on I2C, or whose buzzer fails, boots all the same: it names
the part missing to the host (HELLO, ALERT) and plays (issue 36, item 15).
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


def kind(line):
    return (line.split(b" ", 2)[1:2] or [b""])[0]  # "<seq> <KIND> ... *<crc>"


def is_hello(line):
    return kind(line) == b"HELLO"


def boot(tmp_path, *broken, until=is_hello, linger=0.0):
    """main.py booted with the stand-ins' ``broken`` parts (tests/mp/boot_main.py), stopped by a
    Ctrl-C (SIGINT) ``linger`` seconds after a line it writes passes ``until``: (lines, stdout after,
    stderr, exit status)."""
    unix_port.build_mpy()
    journal = tmp_path / "journal.bin"
    env = dict(os.environ, MICROPYPATH=":".join([".frozen", str(unix_port.MPY), str(ROOT / "bench" / "device")]))
    # unbuffered: each line the board writes is seen by select() as it comes
    board = subprocess.Popen([unix_port.executable(), "-X", "heapsize=296K", "tests/mp/boot_main.py", str(journal),
                              *broken], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    lines = []
    with selectors.DefaultSelector() as sel:
        sel.register(board.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if any(until(line) for line in lines):
                deadline = min(deadline, time.monotonic() + linger)
                if not linger:
                    break
            if sel.select(timeout=1):
                line = board.stdout.readline()
                if not line:  # the board stopped by itself
                    board.wait(timeout=60)
                    break
                lines.append(line.rstrip(b"\n"))
    assert board.poll() is None, "the board stopped on its own: %s" % (b"\n".join(lines) + board.stderr.read()).decode()
    board.send_signal(signal.SIGINT)
    out, err = board.communicate(timeout=60)
    assert journal.stat().st_size > 0  # its game is journalled
    return lines, out, err, board.returncode


def test_main_boots_answers_the_host_and_stops_on_ctrl_c(tmp_path):
    lines, out, err, status = boot(tmp_path)
    hello = [line for line in lines if is_hello(line)]
    assert hello and check_crc(hello[0])[1] is True
    assert b" game=1 size=19 moves=0 " in hello[0]
    assert status == 0
    assert b"board stopped" in out
    assert b"Traceback" not in out + err, (out + err).decode()
    assert not any(b"missing=" in line or kind(line) == b"ALERT" for line in lines)  # nothing is missing


def is_move(line):
    return kind(line) == b"MOVE"


def plays_without(tmp_path, part):
    """The board boots with ``part`` broken, says so, and plays: its lines."""
    lines, out, err, status = boot(tmp_path, part, until=is_move)
    assert all(check_crc(line)[1] for line in lines if not line.startswith(b"board: ")), lines
    assert b"board: no %s: " % part.encode() in lines[0]  # the console (the first line: before the link runs)
    hello = [line for line in lines if is_hello(line)]
    assert hello and b" missing=%s " % part.encode() in hello[-1], hello  # the host's hello answered
    assert [line for line in lines if kind(line) == b"ALERT"] == [
        line for line in lines if b" ALERT journal=ok missing=%s *" % part.encode() in line]  # told once
    assert any(kind(line) == b"ALERT" for line in lines)
    assert any(b" MOVE 1 B aa h=" in line for line in lines), lines  # the stone on A19 is the first move
    assert status == 0 and b"board stopped" in out
    assert b"Traceback" not in out + err, (out + err).decode()
    return lines


def test_a_board_whose_display_does_not_answer_boots_says_so_and_plays(tmp_path):
    """Its SSD1306 unplugged: every I2C write raises OSError 110 (ETIMEDOUT) from the display's first
    command. The board starts without it, names it in HELLO and an ALERT line, and takes a move."""
    plays_without(tmp_path, "display")


def test_a_board_whose_buzzer_fails_boots_says_so_and_plays(tmp_path):
    """Its buzzer's PWM raises (ValueError: a bad pin): the board starts silent, says so, and plays."""
    plays_without(tmp_path, "buzzer")


def test_a_board_whose_sensor_does_not_answer_boots_says_so_and_plays_nothing(tmp_path):
    """A diode-matrix board whose I/O expanders do not answer on I2C: the board cannot see its
    stones, but it starts, names the sensor to the host (HELLO, ALERT) and keeps its link; a
    stone put down is not a move."""
    lines, out, err, status = boot(tmp_path, "sensor", until=lambda line: is_hello(line) and b" missing=sensor " in
                                   line and not line.startswith(b"0 "), linger=2.0)
    assert b"board: no sensor: " in lines[0]
    assert [line for line in lines if kind(line) == b"ALERT"] == [
        line for line in lines if b" ALERT journal=ok missing=sensor *" in line] != []
    assert not any(kind(line) == b"MOVE" for line in lines), lines  # the stone on A19 is not seen
    assert status == 0 and b"board stopped" in out
    assert b"Traceback" not in out + err, (out + err).decode()
