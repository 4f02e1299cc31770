"""The emulated Pico's runner (tests/pico/run.mjs): scripts through the raw REPL, flash kept and counted.

What the flash hooks supply (rp2040js ignores flash writes) is checked from both sides: a file
the Pico writes lands in a flash dump that the host's littlefs reads back, the Pico boots again
from that dump and reads it, and the erases and pages programmed are counted and timed.
"""

import json
import os
import subprocess

import pytest

from tests.pico import fs_image
from tests.pico.board import ROOT

RUN = ["node", str(ROOT / "tests" / "pico" / "run.mjs")]
WRITE = """
import gc, os, time
gc.collect()
print("free", gc.mem_free())
t = time.ticks_us()
with open("/data.bin", "wb") as f:
    for i in range(8):
        f.write(bytes([i]) * 1024)
print("us", time.ticks_diff(time.ticks_us(), t))
"""
READ = """
with open("/data.bin", "rb") as f:
    data = f.read()
print(len(data), sum(data))
"""


def run(tmp_path, code, *options, env=None):
    script = tmp_path / "script.py"
    script.write_text(code)
    done = subprocess.run([*RUN, *options, str(script)], capture_output=True, text=True, timeout=300, env=env)
    if "skipped, images missing" in done.stderr:
        pytest.skip(done.stderr)
    assert done.returncode == 0, done.stderr
    return done


def test_a_file_written_on_the_pico_survives_in_its_flash_and_is_counted(tmp_path):
    flash, stats = tmp_path / "flash.bin", tmp_path / "stats.json"
    done = run(tmp_path, WRITE, "--save-flash", str(flash), "--stats", str(stats))
    free = int(done.stdout.split()[1])
    assert 200_000 < free < 264 * 1024  # a Pico's heap, not the host's
    figures = json.loads(stats.read_text())["flash"]
    assert figures["sectorsErased"] >= 2 and figures["pagesProgrammed"] >= 32  # 8 KB of data: 32 pages at least
    # the chip's time is on the emulated clock: the write took at least its pages' program time
    write_us = int(done.stdout.split("us")[1].split()[0])
    assert write_us >= 32 * 400
    assert figures["chipMs"] == pytest.approx(figures["sectorsErased"] * 45 + figures["pagesProgrammed"] * 0.4)
    assert "sectors erased" in done.stderr  # the status line
    # the host reads the Pico's littlefs; the Pico boots again from the dump and reads it
    assert fs_image.files_in(flash.read_bytes())["/data.bin"] == b"".join(bytes([i]) * 1024 for i in range(8))
    again = run(tmp_path, READ, "--flash", str(flash))
    assert again.stdout.split() == ["8192", str(sum(i * 1024 for i in range(8)))]


def test_a_script_that_raises_fails_with_its_traceback(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text("print('before')\nraise ValueError('on the pico')\n")
    done = subprocess.run([*RUN, str(script)], capture_output=True, text=True, timeout=300)
    if "skipped, images missing" in done.stderr:
        pytest.skip(done.stderr)
    assert done.returncode == 1
    assert done.stdout.strip() == "before"
    assert "ValueError: on the pico" in done.stderr


def test_without_its_images_the_tier_says_what_is_missing_and_passes(tmp_path):
    env = dict(os.environ, PICO_FIRMWARE=str(tmp_path / "none.uf2"), PICO_BOOTROM=str(tmp_path / "none.bin"))
    script = tmp_path / "s.py"
    script.write_text("print(1)\n")
    done = subprocess.run([*RUN, str(script)], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0
    assert "none.uf2" in done.stderr and "micropython.org" in done.stderr
    assert "none.bin" in done.stderr and "pico-bootrom" in done.stderr
