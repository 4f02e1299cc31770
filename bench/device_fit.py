"""Does the whole application fit a Pico's heap? The device-fit game in MicroPython's unix port.

    .venv/bin/python bench/device_fit.py --heap 232     # exit 0 exactly when the game finishes in 232 KB
    .venv/bin/python bench/device_fit.py --find         # the smallest heap that finishes it (bisection)
    .venv/bin/python bench/device_fit.py --romfs ...    # the same with the code in a ROMFS partition

The game: the longest bundled professional record (tests/data/sgf), carried
on to 400 moves with legal moves, then two passes; played by simulated hands
(host_tools/sim/physical.py: hovering hands, captures lifted in random
order, a clock press after every move) with one move taken back (MENU, then
the stone lifted and played again) and the count accepted (MENU); a host on
the UART starts it (byo-yomi 5m 3x30s) and reads every line; the journal is
on the flash log (board_config.JOURNAL, its sectors in a file: bench/device/flash_region.py;
a littlefs file with JOURNAL = "file"), and the power is cut after move 300: the board boots again in a
fresh interpreter, recovers the game from the journal and plays it to the
end. Both parts must finish in the heap. bench/device/play.py runs it on the device's own modules, loaded from
the ``make mpy`` bundle (build/mpy), through the device's ``App.run()`` loop.

--romfs: the bundle is a ROMFS image (built as ``mpremote romfs build``
builds it) mounted at /rom, as on a board with a ROMFS partition: the
bytecode stays in flash and only what the interpreter makes of it (names,
functions, classes, dictionaries) takes heap. The image is read into the
unix port's heap before anything else and the heap is made that much
bigger, so ``--heap KB`` is still what the application gets (a little
less: the collector's tables grow with the heap, by ~2 KB for the image).

The unix port is 64-bit: its objects are at least as big as the RP2040's
(a 32-bit build needs ~85-90% of this heap), so a fit here is a fit there.
"""

import argparse
import contextlib
import io
import os
import pathlib
import random
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "mp")]

import unix_port  # noqa: E402

from firmware.rules.coords import PASS, point  # noqa: E402
from firmware.rules.game import COUNTING, Game, IllegalMove  # noqa: E402
from host_tools import sgf  # noqa: E402
from host_tools.sim.physical import script_lines  # noqa: E402

# The budget: a stock Pico has 241,744 bytes free at boot (MicroPython 1.27 on the emulated RP2040, issue 38), and
# the game must leave 64 KB of it free; this 64-bit port's objects are bigger (192 KB here was ~150 KB there), so
# 232 KB here is about that budget. tests/host/test_device_fit.py holds it.
TARGET_KB = 232
NAMES_POOL_7 = 1261  # the unix port's name pools hold 20, 40, ... 640 names, then 1280 (a 14 KB block)
MOVES = 400
UNDO_AT = 120  # the move taken back and played again
CUT_AFTER = 300  # the power is cut after this move's clock press
WORK = ROOT / "build" / "device_fit"
HARNESS = WORK / "harness"  # bench/device's play.py and stand-ins, compiled (compile_harness)


def longest_record():
    paths = sorted((ROOT / "tests" / "data" / "sgf").glob("*.sgf"))
    records = [(path, sgf.read(path.read_bytes())) for path in paths]
    records = [(path, r) for path, r in records if r.size == 19 and not r.black and not r.white]
    return max(records, key=lambda item: len(item[1].moves))


def game_moves(record, total=MOVES, seed=7):
    """The record's moves (to its first illegal one), then legal moves that fill
    no own eye until ``total``, then two passes."""
    game = Game(19, "japanese", strict_turns=False)
    moves = []
    for colour, pt in record.moves:
        try:
            if game.phase == COUNTING:
                game.resume(3 - colour)
            game.play(colour, pt)
        except IllegalMove:
            break
        moves.append((colour, pt))
    rng = random.Random(seed)
    order = [point(19, c, r) for c in range(19) for r in range(19)]
    colour = 3 - moves[-1][0]
    while len(moves) < total:
        rng.shuffle(order)
        for pt in order:
            if game.pos.cells[pt] == 0 and not own_eye(game, pt, colour) and game.is_legal(colour, pt):
                game.play(colour, pt)
                moves.append((colour, pt))
                break
        else:
            raise RuntimeError("no legal move left at move %d" % (len(moves) + 1))
        colour = 3 - colour
    moves += [(colour, PASS), (3 - colour, PASS)]
    return moves


def own_eye(game, pt, colour):
    cells, stride = game.pos.cells, game.pos.stride
    return all(cells[q] in (colour, 3) for q in (pt - 1, pt + 1, pt - stride, pt + stride))


def with_undo(lines, move):
    """Take back move ``move`` right after its press (MENU), lift it, put it back
    and press again: 2.5 s of play inserted, every later event shifted."""
    places = 0
    for i, line in enumerate(lines):
        t, action, *args = line.split()
        if action == "place":
            places += 1
        if places >= move and action == "press" and i + 1 < len(lines) and lines[i - 1].split()[1] == "place":
            vertex = lines[i - 1].split()[2]
            at = int(t)
            undo = [f"{at + 400} button undo", f"{at + 900} lift {vertex}", f"{at + 1600} place {vertex}",
                    f"{at + 2100} press {args[0]}"]
            later = [f"{int(t2) + 2500} {rest}" for t2, rest in (x.split(" ", 1) for x in lines[i + 1:])]
            return lines[:i + 1] + undo + later
    raise RuntimeError("no move to take back")


def cut_time(lines, move):
    """A moment after the clock press that ends move ``move`` (nothing in the air)."""
    places = 0
    for line in lines:
        t, action, *_ = line.split()
        places += action == "place"
        if places >= move and action == "press":
            return int(t) + 200
    raise RuntimeError("the game is shorter than %d moves" % move)


def prepare():
    """Write the game's script and compile the harness; (the script's path, the record's name,
    moves, the power cut's time)."""
    path, record = longest_record()
    moves = game_moves(record)
    lines, expected = script_lines(19, moves, clock=True, seed=3)
    lines = with_undo(lines, UNDO_AT)
    last = int(lines[-1].split()[0])
    lines.append(f"{last + 1500} button ok")  # the count accepted
    WORK.mkdir(parents=True, exist_ok=True)
    script = WORK / "game.script"
    script.write_text(f"# {path.name}: {len(expected)} moves\n" + "\n".join(lines) + "\n")
    compile_harness()
    return script, path.name, len(expected), cut_time(lines, CUT_AFTER)


def romfs_image():
    """The bundle as a ROMFS image, the image mpremote's ``romfs build`` makes of it."""
    from mpremote.romfs import make_romfs

    image = WORK / "firmware.romfs"
    with contextlib.redirect_stdout(io.StringIO()):  # (it lists every file)
        image.write_bytes(make_romfs(str(unix_port.MPY), mpy_cross=False))
    return image


def compile_harness():
    """The harness (bench/device: play.py and the machine/rp2 stand-ins) as .mpy files, as the
    firmware is: compiled from source in the heap, every local name of theirs would be
    interned for good, names the device never has, in the pool the device's names fill."""
    HARNESS.mkdir(parents=True, exist_ok=True)
    for stem in ("play", "machine", "rp2", "flash_region"):
        subprocess.run([str(unix_port.MPY_CROSS), "-O2", "-o", str(HARNESS / (stem + ".mpy")),
                        str(ROOT / "bench" / "device" / (stem + ".py"))], check=True)


def play(script, cut, heap_kb, rom=None):
    """Run the game (``script`` and the harness as prepare() left them) in a heap of ``heap_kb`` KB
    (and ``rom``, a ROMFS image, if given), cut at ``cut`` ms: (finished, the second part's
    figures, output)."""
    journal = WORK / "journal.bin"
    for name in (journal, journal.with_name(journal.name + ".new")):
        name.unlink(missing_ok=True)
    output = ""
    heap = "%dK" % heap_kb
    def near(path):  # (relative to the harness: the heap's strings the same length in any checkout)
        return os.path.relpath(path, HARNESS)

    path = [near(unix_port.MPY), "."]
    extra = []
    if rom is not None:
        heap = "%dK" % (heap_kb + (rom.stat().st_size + 1023) // 1024)
        path = path[1:]
        extra = [near(rom)]
    for part in ("until:%d" % cut, "from:%d" % cut):
        done = unix_port.run(("-m", "play"), [near(script), near(journal), part, *extra], heap, path, timeout=900,
                             cwd=HARNESS)  # (-m puts the working folder first: not the source tree's firmware/)
        output += "[%s]\n%s%s" % (part, done.stdout, done.stderr)
        figures = {}
        for line in done.stdout.splitlines():
            if line.startswith("qstr pool: "):  # micropython.qstr_info(): "n_pool=6, n_qstr=1234, ..."
                figures.update(item.split("=") for item in line[11:].replace(",", "").split())
            if line.startswith("FIT "):
                for item in line.split()[1:]:
                    key, _, value = item.partition("=")
                    figures[key] = value
        if done.returncode != 0 or figures.get("ok") != "1":
            return False, figures, output
    return True, figures, output


def smallest_heap(script, cut, rom=None, low=64, high=1024, step=4):
    """The smallest heap (KB, a multiple of ``step``) that finishes the game, by bisection."""
    ok, _, output = play(script, cut, high, rom)
    if not ok:
        raise SystemExit("the game does not finish even in %d KB:\n%s" % (high, output[-3000:]))
    while high - low > step:
        mid = (low + high) // 2 // step * step
        if play(script, cut, mid, rom)[0]:
            high = mid
        else:
            low = mid
        print("  bisecting: %d-%d KB" % (low, high), file=sys.stderr, flush=True)
    return high


def report(figures, heap_kb):
    kb = lambda key: int(figures[key]) / 1024  # noqa: E731
    live = kb("base") + kb("harness") + kb("code") + kb("data")
    print("  heap %d KB: interpreter %.1f KB + bench harness %.1f KB + firmware code %.1f KB"
          " + live data %.1f KB at the end (%.1f KB after start-up) = %.1f KB live;"
          " peak transient and fragmentation %.1f KB"
          % (heap_kb, kb("base"), kb("harness"), kb("code"), kb("data"), kb("data_start"), live, heap_kb - live))
    print("  names interned for good: %s in %s pools (the 7th, 1280 names, ~14 KB, would open at the %dth)"
          % (figures.get("n_qstr", "?"), figures.get("n_pool", "?"), NAMES_POOL_7))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--heap", type=int, default=TARGET_KB, help="the heap in KB (default: the target, %(default)s)")
    group.add_argument("--find", action="store_true", help="find the smallest heap that finishes the game")
    parser.add_argument("--romfs", action="store_true", help="the code in a ROMFS partition, not on the filesystem")
    args = parser.parse_args(argv)
    unix_port.build_mpy()
    script, name, moves, cut = prepare()
    rom = romfs_image() if args.romfs else None
    print("device fit: %s carried on to %d moves, played by hands through App.run(), the power cut near move %d"
          " (unix port, 64-bit; the code %s)"
          % (name, moves, CUT_AFTER, "in a ROMFS image of %d bytes" % rom.stat().st_size if rom else "from .mpy files"))
    if args.find:
        heap = smallest_heap(script, cut, rom)
        _, figures, _ = play(script, cut, heap, rom)
        print("  smallest heap that finishes the game: %d KB (target for a stock Pico: %d KB)" % (heap, TARGET_KB))
        report(figures, heap)
        return 0
    ok, figures, output = play(script, cut, args.heap, rom)
    print("\n".join(line for line in output.splitlines() if line.startswith(("[", "game:", "host:", "code:"))))
    if not ok:
        print(output[-3000:])
        print("  the game did NOT finish in %d KB" % args.heap)
        return 1
    report(figures, args.heap)
    return 0


if __name__ == "__main__":
    sys.exit(main())
