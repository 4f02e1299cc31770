"""What each module loaded for a moment would cost a Pico's heap if it stayed: measured on the emulated Pico.

    .venv/bin/python bench/brief_loads.py          # (make bench; ~1 min wall)

The firmware keeps a module out of the heap between its calls
(``call_briefly`` in firmware/rules/const.py) only where that pays: its
table ``BRIEF`` names each such module, why, and the figure printed here.
This boots the bundle as ``make deploy`` leaves it on stock MicroPython on
the emulated RP2040 (tests/pico), with main.py's game built and its loop
stopped, then loads each module named at a ``call_briefly`` site twice: the
first load interns its names (they stay, whether the module does or not),
the second is measured, the heap collected before and after: its bytes
(what keeping it would take from the game, with whatever it imports that
the game does not) and its load time on the Pico's own ``ticks_us``. Each
is let go again before the next.

Exit 1 when a module fails to load, when the table in firmware/rules/const.py
does not name exactly the modules loaded briefly, or when a figure there is
more than DRIFT_KB off the one measured.
"""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "mp")]

from tests.pico import fs_image  # noqa: E402

RUN = ["node", str(ROOT / "tests" / "pico" / "run.mjs"), "--board"]
CALL = re.compile(r"""call_briefly\(\s*"([\w.]+)\"""")
DRIFT_KB = 0.3
ROW = re.compile(r"^#\s+(firmware\.[\w.]+)\s+(\d+(?:\.\d)?)\s+KB\b", re.M)

LOOP = "asyncio.run(app.run())"
PROBE = """
exec(MAIN)  # main.py: the hardware and the app built, the loop not run
import gc, sys, time
from firmware.rules.const import drop  # (as call_briefly lets a module go)

def let_go(before):
    for name in [m for m in sys.modules if m not in before]:
        drop(name)

for name in NAMES:
    if name in sys.modules:
        print("RESIDENT", name)
        continue
    for load in (1, 2):
        before = list(sys.modules)
        gc.collect()
        free = gc.mem_free()
        t = time.ticks_us()
        __import__(name)
        us = time.ticks_diff(time.ticks_us(), t)
        gc.collect()
        kept = free - gc.mem_free()
        let_go(before)
        gc.collect()
    print("LOAD", name, kept, us)
print("FREE", gc.mem_free())
"""


def brief_modules():
    """The modules named at a call_briefly site in firmware/ (sorted)."""
    names = set()
    for path in (ROOT / "firmware").rglob("*.py"):
        names.update(CALL.findall(path.read_text()))
    return sorted(names)


def table_rows():
    """{module: KB} of the table in firmware/rules/const.py."""
    text = (ROOT / "firmware" / "rules" / "const.py").read_text()
    return {name: float(kb) for name, kb in ROW.findall(text)}


def measure(names):
    """{module: (bytes, us)}, the heap free at the end; the bundle built first (make mpy)."""
    subprocess.run([sys.executable, str(ROOT / "scripts" / "mpy_bundle.py")], check=True, stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as tmp:
        image = pathlib.Path(tmp) / "fs.img"
        files = dict(fs_image.deploy_files())
        main = files.pop("/main.py").decode()  # (run by the script, not at boot)
        if main.count(LOOP) != 1:
            raise SystemExit("firmware/main.py has no single %r" % LOOP)
        image.write_bytes(fs_image.build(sorted(files.items())))
        script = pathlib.Path(tmp) / "probe.py"
        script.write_text("MAIN = %r\nNAMES = %r\n%s" % (main.replace(LOOP, "pass"), names, PROBE))
        done = subprocess.run([*RUN, "--fs", str(image), str(script)], capture_output=True, text=True, timeout=900)
    if done.returncode or "skipped, images missing" in done.stderr:
        raise SystemExit(done.stderr[-2000:] or "the emulated Pico did not run")
    loads, free = {}, None
    for line in done.stdout.splitlines():
        words = line.split()
        if words[:1] == ["LOAD"]:
            loads[words[1]] = (int(words[2]), int(words[3]))
        elif words[:1] == ["RESIDENT"]:
            loads[words[1]] = (0, 0)
        elif words[:1] == ["FREE"]:
            free = int(words[1])
    return loads, free


def main():
    names = brief_modules()
    loads, free = measure(names)
    rows = table_rows()
    print("Modules loaded for a moment (call_briefly), on the emulated Pico with a game built:")
    print("  %-34s %9s %9s %9s" % ("module", "kept KB", "load ms", "table KB"))
    for name in names:
        kept, us = loads.get(name, (-1, -1))
        table = rows.get(name)
        print("  %-34s %9.1f %9.1f %9s" % (name, kept / 1024, us / 1000, "-" if table is None else "%.1f" % table))
    total = sum(kept for kept, _ in loads.values())
    print("  all of them kept: %.1f KB; free with the game built and none kept: %s bytes" % (total / 1024, free))
    problems = ["%s did not load" % name for name in names if name not in loads]
    problems += ["%s is loaded briefly but not in the table" % name for name in names if name not in rows]
    problems += ["%s is in the table but loaded nowhere briefly" % name for name in rows if name not in names]
    problems += ["%s keeps %.1f KB, the table says %.1f" % (name, loads[name][0] / 1024, rows[name])
                 for name in names if name in loads and name in rows and abs(loads[name][0] / 1024 - rows[name]) > DRIFT_KB]
    for problem in problems:
        print("  PROBLEM: " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
