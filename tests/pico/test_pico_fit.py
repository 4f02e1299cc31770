"""The device-fit game, shortened, on the emulated Pico: the heap's worst point and taps never lost.

bench/pico_game.py's game (bench/device_fit.py's record, a move taken back with MENU, the power
cut and the recovery, the count accepted with MENU, the host's show/state/resend/mem) cut to
MOVES moves so the tier stays within its time; ``make bench`` plays the whole 402-move game.
The firmware is make deploy's with bench/pico/probe.py installed by main.py: it finds the least
heap free after a collection over the game, which must leave BUDGET_FREE (64 KB). Every clock
press and MENU is a bare 30 ms tap, lifted whatever the board was doing (a journal write, a
redraw): the host's record must hold every move, so no tap was lost.
"""

from __future__ import annotations

import subprocess
import time

import pytest

from bench import pico_game
from tests.pico.board import Missing

MOVES = 24
TAP_MS = 30  # a short human press


def test_the_device_fit_game_leaves_64_kb_free_and_loses_no_tap(tmp_path, capsys):
    wall = time.monotonic()
    subprocess.run(["make", "--no-print-directory", "-s", "mpy"], cwd=pico_game.ROOT, check=True)
    image = tmp_path / "fit.img"
    image.write_bytes(pico_game.image())
    lines, host_at, expected, _ = pico_game.game(MOVES)
    try:
        player, powerups = pico_game.play(image, lines, host_at, bare_taps=True, tap_ms=TAP_MS)
    except Missing as missing:
        pytest.skip(str(missing))
    figures = pico_game.summary(powerups)
    host = player.host
    played = pico_game.recorded_moves(host)
    pico_game.OUT.mkdir(parents=True, exist_ok=True)  # for a person reading a failure: what the host read
    (pico_game.OUT / "fit.log").write_bytes(b"\n".join(host.lines) + b"\n")
    with capsys.disabled():
        print(f"\n[pico fit] {MOVES} moves, bare {TAP_MS} ms taps: heap free at the worst point "
              f"{figures['least_free']} bytes; (with the heap looks) idle pass median {figures['idle_median_us'] / 1000:.2f} ms; "
              f"passes over 50 ms {figures['over_ms'][50]}; wall {time.monotonic() - wall:.0f} s")
    assert played == len(expected), "a tap was lost? the host's record holds %s moves of %d (build/pico/fit.log)" % (
        played, len(expected))
    assert any(b" END " in line for line in host.lines)
    assert figures["least_free"] >= pico_game.BUDGET_FREE, figures["least_free"]
