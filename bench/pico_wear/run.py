"""The wear game's journal I/O on an emulated stock Pico: sector erases counted by the chip's hooks.

    .venv/bin/python bench/pico_wear/run.py [--pico-tree DIR]

Needs the emulated-Pico harness (tests/pico/run.mjs: rp2040js, stock MicroPython 1.27, the
bootrom's flash routines hooked and counted) from the ``pico`` branch; ``--pico-tree`` names a
checkout that has it (default: this one). What it does, in a work folder (build/pico_wear):

1. the storage operations of bench/mp_journal.py's wear game (300 moves at 20 s a move,
   10 s checkpoints, compactions; 1,593 records, 1,200 flushes) are recorded on CPython
   (``ops.bin``: write/flush/replace/remove, with each record's bytes);
2. a littlefs image as ``make deploy`` leaves the Pico (the ``make mpy`` bundle at
   /lib/firmware) plus ``ops.bin``;
3. on the emulated Pico, ``device.py`` replays the operations on the device's storage:
   ``file`` (FileStorage: /journal.bin on littlefs), and ``flash`` (FlashLog on
   rp2_region.region(): first a run that makes /journal.area, its flash saved, then the
   game from that flash, so that the count is the game's alone).

The harness's counters (sectors erased, pages programmed, the chip's time) are printed for each.
"""

import argparse
import json
import pathlib
import struct
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORK = ROOT / "build" / "pico_wear"
HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests" / "firmware")]


def record_ops(path):
    import mp_journal

    from firmware.app import App
    from firmware.settings import Settings
    from twins.hardware import simulated
    from twins.storage import SimStorage

    class Recording(SimStorage):
        def __init__(self):
            super().__init__(1 << 16)
            self.out = bytearray()

        def write(self, name, data, n=-1):
            data = bytes(data if n < 0 else data[:n])
            self.out += struct.pack("<BBH", 0, name != "", len(data)) + data
            super().write(name, data)

        def flush(self, name):
            self.out += bytes((1, name != ""))

        def replace(self, src, dst):
            self.out += bytes((2, 0))
            super().replace(src, dst)

        def remove(self, name):
            self.out += bytes((3, name != ""))
            super().remove(name)

    storage = Recording()
    app = App(simulated(storage=storage), Settings(19, time_spec="byoyomi 60m 3x30s"))
    mp_journal._play(app, mp_journal._moves(), 20000, False)
    app.game.resign(2)
    app.sync_host(mp_journal.MOVES * 20000 + 1000)
    path.write_bytes(storage.out)
    return app.journal.written, app.journal.records


def build_image(path, ops):
    from littlefs import LittleFS

    fs = LittleFS(block_size=4096, block_count=352, prog_size=256, read_size=256)
    mpy = ROOT / "build" / "mpy"
    files = [("/lib/" + str(p.relative_to(mpy)), p.read_bytes()) for p in sorted((mpy / "firmware").rglob("*"))
             if p.is_file()]
    for name, data in files + [("/ops.bin", ops.read_bytes())]:
        parts = name.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            try:
                fs.mkdir("/" + "/".join(parts[:i]))
            except Exception:  # noqa: BLE001 - it is there already
                pass
        with fs.open(name, "wb") as f:
            f.write(data)
    path.write_bytes(fs.context.buffer)


def pico(tree, script, mode, *options):
    device = WORK / ("device_%s.py" % mode)
    device.write_text((HERE / "device.py").read_text().replace('MODE = "file"', 'MODE = "%s"' % mode))
    stats = WORK / ("%s.json" % mode)
    done = subprocess.run(["node", str(tree / "tests" / "pico" / "run.mjs"), *options, "--stats", str(stats),
                           str(device)], capture_output=True, text=True, timeout=1800)
    out = [line for line in done.stdout.splitlines() if "invalid SIO" not in line]
    if done.returncode:
        raise SystemExit("%s: %s\n%s" % (mode, "\n".join(out), done.stderr))
    return out, json.loads(stats.read_text())["flash"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pico-tree", type=pathlib.Path, default=ROOT)
    args = parser.parse_args()
    if not (args.pico_tree / "tests" / "pico" / "run.mjs").exists():
        raise SystemExit("no tests/pico/run.mjs in %s (the pico branch's harness): --pico-tree" % args.pico_tree)
    WORK.mkdir(parents=True, exist_ok=True)
    subprocess.run(["make", "-s", "mpy"], cwd=ROOT, check=True)
    written, records = record_ops(WORK / "ops.bin")
    build_image(WORK / "fs.img", WORK / "ops.bin")
    print("wear game: %d journal bytes, %d records" % (written, records))
    out, flash = pico(args.pico_tree, None, "file", "--fs", str(WORK / "fs.img"))
    print("\n".join(out))
    print("littlefs file: %(sectorsErased)d sectors erased, %(pagesProgrammed)d pages programmed, "
          "%(chipMs).0f ms of chip time, the most erased sector %(maxSectorErases)d times" % flash)
    out, flash = pico(args.pico_tree, None, "area", "--fs", str(WORK / "fs.img"), "--save-flash",
                      str(WORK / "area.bin"))
    print("\n".join(out))
    print("making /journal.area: %(sectorsErased)d sectors erased, %(pagesProgrammed)d pages programmed" % flash)
    out, flash = pico(args.pico_tree, None, "flash", "--flash", str(WORK / "area.bin"))
    print("\n".join(out))
    print("flash log: %(sectorsErased)d sectors erased, %(pagesProgrammed)d pages programmed, "
          "%(chipMs).0f ms of chip time, the most erased sector %(maxSectorErases)d times" % flash)


if __name__ == "__main__":
    main()
