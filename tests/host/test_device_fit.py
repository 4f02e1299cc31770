"""The whole application in a fixed heap: bench/device_fit.py's 402-move game in MicroPython's unix port.

The device modules from the make mpy bundle, built by drivers/pico.py on
machine/rp2 stand-ins, play through App.run(): hands, an undo, byo-yomi,
counting, a host on the UART, the journal on the flash log, and a power cut near
move 300 after which the board boots again and recovers the game from its
journal. A change that makes the application need more heap than HEAP_KB
fails here.
"""

import subprocess
import sys

from .conftest import ROOT

# The budget, bench/device_fit.py's TARGET_KB: about what leaves 64 KB of a stock Pico's heap free.
# Measured smallest heap: 196 KB (--find, 64-bit unix port; a 32-bit RP2040 needs ~85-90% of it). The run
# is deterministic (virtual time, paths relative to the harness).
sys.path.insert(0, str(ROOT / "bench"))
import device_fit as fit  # noqa: E402

HEAP_KB = fit.TARGET_KB
# With the code in a ROMFS partition (bench/device_fit.py --romfs --find): measured 160 KB (the code every game
# runs imported, not loaded for a moment: issue 39), held 8 KB above it.
ROMFS_HEAP_KB = 168


def run_fit(heap_kb, *options):
    return subprocess.run([sys.executable, str(ROOT / "bench" / "device_fit.py"), "--heap", str(heap_kb), *options],
                          capture_output=True, text=True, timeout=600)


def expected_result():
    """The game's moves counted by the rules core under CPython, with the dead stones the
    board proposes (the device game's hands lift none and agree: the proposal stands)."""
    from firmware.rules.dead import propose
    from firmware.rules.game import Game

    game = Game(19, "japanese")
    for colour, pt in fit.game_moves(fit.longest_record()[1]):
        game.play(colour, pt)
    assert propose(game) > 0
    return game.finish().sgf()


def test_the_device_game_finishes_in_the_heap_budget():
    done = run_fit(HEAP_KB)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "game: 402 moves, result %s;" % expected_result() in done.stdout, done.stdout
    assert "recovered from the journal: True" in done.stdout, done.stdout
    assert "code: ../../mpy/firmware/__init__.mpy" in done.stdout, done.stdout  # build/mpy: the make mpy bundle


def test_the_device_game_with_its_code_in_romfs_finishes_in_its_budget():
    done = run_fit(ROMFS_HEAP_KB, "--romfs")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "game: 402 moves, result %s;" % expected_result() in done.stdout, done.stdout
    assert "recovered from the journal: True" in done.stdout, done.stdout
    assert "code: /rom/firmware/__init__.mpy" in done.stdout, done.stdout


def test_the_heap_is_really_fixed():
    """The same game in a heap far too small runs out of memory and says so (the WebAssembly
    port, which grows its heap, could not tell)."""
    done = run_fit(128)
    assert done.returncode == 1
    assert "MemoryError" in done.stdout and "did NOT finish in 128 KB" in done.stdout, done.stdout[-3000:]
