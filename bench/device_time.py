"""The device loop's time budget: each task of a loop pass timed in MicroPython's unix port, with RP2040 estimates.

    .venv/bin/python bench/device_time.py

Builds the device bundle with its constants' names kept (build/named:
the twins and test helpers beside it import them), runs
bench/device/timing.py on it in the unix port (the stable yardstick) and prints, per task, the typical
(median) and worst (max) time there and the RP2040 estimate against its
target. Calibration: an RP2040 running MicroPython bytecode takes about
100x (85-110x) the unix port's time on an x86-64 PC. Worst figures include
the unix port's GC pauses (4 MB heap) and host file I/O: the typical
column is the one to read.

Code loaded for a moment (rules/const.py call_briefly: MENU, counting,
a host command) is followed by a collection (in play, in the loop's next
pass: App.step), whose time grows with the heap: this bench's is 4 MB
(its twins and timings), the device's (device_fit.TARGET_KB). So the firmware's
collections are timed at one of the device's: the device-fit game
(bench/device_fit.py) is played in the target heap first and times a
collection at its end (its own row); timing.py counts each of the
firmware's collections at that time. Likewise the journal file's syncs,
renames and removals (an fsync of this PC's disk, not bytecode) are each
counted as FLASH_COMMIT_US on the device.

The timing runs on the bundle with its constants' names kept, whose
modules import those constants by name, in a 4 MB heap beside the twins
and test helpers (thousands more interned names to search): loading a
module there takes several times what the device takes to load the same
module from its own bundle, which folds those imports away. So the
device's own loads are timed first (bench/device/loads.py on the make mpy
bundle, in the target heap: rows of their own), and timing.py counts each
load of such a module at that time.

The x100 holds for what the interpreter's C code does, not for viper
code, so a Hall read on the viper path (firmware/drivers/hall_viper.py)
is bounded as the sum of:

- its calls: the unix time of a whole read x100, on stand-ins that are C
  functions as the device's are (the select lines, the ADCs' read_u16, the
  clock), with the Python of read() around the viper function; that time
  also holds the viper code's own x86 instructions, counted again below;
- the viper code's own cycles, from its Thumb code (mpy-cross
  -march=armv6m): a Cortex-M0+ takes at most 2 cycles for each 2-byte
  instruction of these loops (loads, stores, taken branches, calls; the
  callees' time is in the calls' share), so a part costs at most as many
  cycles as it has bytes each time it runs, at 125 MHz. Each part (marked
  in the source) is counted as often as it can run: a sweep step 193
  times (the last one only classifies), its loop over the points sampled
  at the step before with one test more than points, the settling wait's
  check once more than measured (the check that ends it may begin just
  before the time is up: its clock call is timed apart), a byte of the
  buffer 91 times, a held point's nudge 361 times, the rest once;
- the settling: a step waits until HALL_SETTLE_US (board_config) have passed
  since its line was set, classifying the points sampled at the step before
  meanwhile, so it takes max(the settling, their classification) there;
  the last step's points are classified after the sweep;
- 361 ADC conversions of 2 us.

The Python path (ports without viper) is its sweep, its sleep_us calls and
its classification x100, plus the conversions and the settling whole.
"""

import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "mp"), str(ROOT / "bench")]

import device_fit  # noqa: E402
import unix_port  # noqa: E402

from firmware.board_config import HALL_SETTLE_US  # noqa: E402

FACTOR = 100  # RP2040 bytecode time / unix port time (85-110)
CPU_HZ = 125_000_000
ADC_US = 2  # one RP2040 ADC conversion (96 cycles at 48 MHz): hardware time in a Hall sweep
POINTS = 361
NBYTES = (POINTS + 3) // 4  # the read's buffer, cleared byte by byte
STEPS = 192  # mux settings in a Hall sweep
ADCS = 2
# A littlefs append made durable on the RP2040's flash: about two page programs (W25Q16JV: tPP 0.4 ms
# typical) and their transfer. Not in it: a 4 KB sector erase (tSE 45 ms typical) when littlefs
# takes a fresh block, once every few KB of journal.
FLASH_COMMIT_US = 1000
STEP_MS = 50  # no step longer: a stone placed during it is still seen and settled
IDLE_MS = 1  # the 10 ms idle pass: <= 10% CPU
READ_MS = 10  # a full sensor read


def device_collection_us():
    """A collection of the device's heap, in the unix port: the device-fit game's at its end
    (bench/device_fit.py, the target heap, the device's own live data), in us."""
    unix_port.build_mpy()  # (the bundle make mpy builds: the device's)
    script, _, _, cut = device_fit.prepare()
    ok, figures, output = device_fit.play(script, cut, device_fit.TARGET_KB)
    if not ok:
        raise SystemExit("the device-fit game did not finish in %d KB:\n%s" % (device_fit.TARGET_KB, output[-3000:]))
    return int(figures["collect_us"])


def run_timing(collect_us, loads):
    """The TASK lines of bench/device/timing.py, its collections timed at ``collect_us``, its
    flash commits at FLASH_COMMIT_US and its loads of code for a moment as ``loads``
    (device_loads), each scaled to the fastest pace of the run (this PC's speed varies by tens
    of percent between seconds): [(name, typical, worst, runs, code)] and the slowest pace
    over the fastest."""
    unix_port.build_mpy(keep_names=True)  # (the twins and test helpers import its constants)
    args = [collect_us, FLASH_COMMIT_US // FACTOR, ",".join("%s=%d" % load[:2] for load in loads)]
    with tempfile.TemporaryDirectory() as tmp:
        done = unix_port.run(ROOT / "bench" / "device" / "timing.py", [os.path.join(tmp, "journal.bin"), *args],
                             "4M", [unix_port.MPY_NAMED, ROOT, ROOT / "tests" / "firmware"], timeout=300)
    if done.returncode:
        raise SystemExit(done.stdout + done.stderr)
    lines = []
    for line in done.stdout.splitlines():
        if line.startswith("TASK "):
            lines.append(line[5:].split("|"))
        else:
            print(line)
    fastest = min(int(fields[5]) for fields in lines)
    tasks = []
    for name, typical, worst, runs, code, pace in lines:
        scale = fastest / int(pace)
        tasks.append((name, float(typical) * scale, float(worst) * scale, int(runs), code))
    return tasks, max(int(fields[5]) for fields in lines) / fastest


def device_loads():
    """bench/device/loads.py on the device bundle (make mpy) in the target heap: [(module, us, pace)]."""
    done = unix_port.run(ROOT / "bench" / "device" / "loads.py", (), "%dK" % device_fit.TARGET_KB, [unix_port.MPY])
    if done.returncode:
        raise SystemExit(done.stdout + done.stderr)
    loads = []
    for line in done.stdout.splitlines():
        if line.startswith("LOAD "):
            name, us, pace = line[5:].split("|")
            loads.append((name, int(us), int(pace)))
    return loads


def thumb_bytes(source, tmp, name):
    """The size of ``source`` compiled for a Cortex-M0+ (mpy-cross -march=armv6m)."""
    src = pathlib.Path(tmp, name + ".py")
    src.write_text("import micropython\n" + source)
    out = src.with_suffix(".mpy")
    subprocess.run([str(unix_port.MPY_CROSS), "-march=armv6m", "-O2", str(src), "-o", str(out)],
                   check=True)
    return out.stat().st_size


def cut(source, region):
    """``source`` without the lines from ``# <region>`` to ``# </region>`` (a ``pass`` instead)."""
    lines = source.split("\n")
    first = next(i for i, line in enumerate(lines) if line.strip() == "# <%s>" % region)
    last = next(i for i, line in enumerate(lines) if line.strip() == "# </%s>" % region)
    indent = lines[first][:len(lines[first]) - len(lines[first].lstrip())]
    return "\n".join(lines[:first] + [indent + "pass"] + lines[last + 1:])


def viper_regions():
    """Thumb bytes of the parts of the Hall array's viper code (firmware/drivers/hall_viper.py):
    one point's classification, the test of that loop, the rest of a step, its settling check, a
    byte cleared, a held point nudged, and all the rest (run once)."""
    from firmware.drivers import hall, hall_viper

    source = hall_viper.source(hall._STEPS, hall._RAIL_LOW, hall._RAIL_HIGH, hall._FIX)
    regions = ("point", "points", "wait", "step", "clear", "held")
    with tempfile.TemporaryDirectory() as tmp:
        whole = thumb_bytes(source, tmp, "whole")
        left = {r: thumb_bytes(cut(source, r), tmp, r) for r in regions}
    size = {r: whole - left[r] for r in regions}
    return {"point": size["point"], "test": size["points"] - size["point"], "step": size["step"] - size["points"],
            "wait": size["wait"], "clear": size["clear"], "held": size["held"],
            "rest": left["step"] - size["clear"] - size["held"]}


def viper_read_ms(calls_ms, check_ms, sizes, settle_us):
    """An upper bound on a viper-path Hall read on an RP2040 (see the module doc): ``calls_ms`` the
    read's calls, ``check_ms`` a clock call a step; the viper code's own cycles, the settling, the
    ADC conversions."""
    f = CPU_HZ / 1000  # cycles a ms
    code = ((STEPS + 1) * (sizes["step"] + (ADCS + 1) * sizes["test"]) + STEPS * sizes["wait"]
            + POINTS * sizes["held"] + NBYTES * sizes["clear"] + sizes["rest"]) / f
    judge = ADCS * sizes["point"] / f  # the points sampled at a step, classified during the next one's settling
    return calls_ms + check_ms + code + STEPS * max(settle_us / 1000, judge) + judge + POINTS * ADC_US / 1000


def target(name):
    """The row's target in ms, None for a row that is no single step."""
    if name.startswith(("Journal compaction, its", "count, whole", "loading ")):
        return None
    if name.startswith("App.step idle: sense"):
        return IDLE_MS
    if name.startswith(("HallArray read", "ShiftChain.read", "DiodeMatrix.read")):
        return READ_MS
    return STEP_MS


def main():
    device_us = device_collection_us()
    loads = device_loads()
    tasks, spread = run_timing(device_us, loads)
    sizes = viper_regions()
    by_name = {t[0]: t for t in tasks}
    sweep = by_name["HallArray.sample, Python path (mux sweep, 361 ADC reads)"]
    sleeps = by_name["time.sleep_us(0) x 192 (the Python path's settle calls)"]
    python = by_name["HallArray classify, Python path (181 stones)"]
    calls = by_name["HallArray.read, viper path: its calls and Python (stand-ins)"]
    check = by_name["the clock x 192 from viper code (the viper path's settling: a check more a step)"]
    hardware_ms = POINTS * ADC_US / 1000 + STEPS * HALL_SETTLE_US / 1000  # the Python path waits whole
    rows = [("gc.collect(), the device's %d KB heap at the device-fit game's end" % device_fit.TARGET_KB, device_us, device_us,
             device_us * FACTOR / 1000, device_us * FACTOR / 1000, "bytecode")]
    for name, typical, worst, _runs, code in tasks:
        rows.append((name, typical, worst, typical * FACTOR / 1000, worst * FACTOR / 1000, code))
    fastest = min(pace for _, _, pace in loads)
    for module, us, pace in loads:
        us = us * fastest / pace
        rows.append(("loading %s for a moment (the device bundle, %d KB heap)" % (module, device_fit.TARGET_KB), us, us,
                     us * FACTOR / 1000, us * FACTOR / 1000, "bytecode"))
    for settle_us in (HALL_SETTLE_US, 0):
        rows.append(("HallArray read, viper path, settle %d us (calls + viper bound + waits)" % settle_us,
                     calls[1], calls[2], viper_read_ms(calls[1] * FACTOR / 1000, check[1] * FACTOR / 1000, sizes,
                                                       settle_us),
                     viper_read_ms(calls[2] * FACTOR / 1000, check[2] * FACTOR / 1000, sizes, settle_us), "bound"))
    rows.append(("HallArray read, Python path, settle %d us (sweep + sleeps + classify + waits)" % HALL_SETTLE_US,
                 sweep[1] + sleeps[1] + python[1], sweep[2] + sleeps[2] + python[2],
                 (sweep[1] + sleeps[1] + python[1]) * FACTOR / 1000 + hardware_ms,
                 (sweep[2] + sleeps[2] + python[2]) * FACTOR / 1000 + hardware_ms, "mixed"))
    f = CPU_HZ / 1_000_000
    print("RP2040 estimate: bytecode x%d of the unix port's time (calibration 85-110x). A Hall read adds %d ADC"
          " conversions of %d us and, a step, %d us settling (HALL_SETTLE_US) at %d mux steps. Its viper code is"
          " bounded from its armv6m Thumb code, <= 2 cycles a byte at %d MHz (bytes: a point's classification %d"
          " = %.1f us, a step %d + %d x the points' loop test %d + a settling check %d, a byte cleared %d, a held"
          " point %d, once %d); its calls (select lines, clock, ADCs) and read()'s Python are the unix time x%d."
          % (FACTOR, POINTS, ADC_US, HALL_SETTLE_US, STEPS, CPU_HZ // 1_000_000, sizes["point"], sizes["point"] / f,
             sizes["step"], ADCS + 1, sizes["test"], sizes["wait"], sizes["clear"], sizes["held"], sizes["rest"],
             FACTOR))
    width = max(len(r[0]) for r in rows)
    print("%-*s | %10s | %9s | %19s | %8s | %s" % (width, "task", "typical us", "worst us", "RP2040 ms typ/worst",
                                                   "target", "(typical)"))
    print("-" * (width + 72))
    over = []
    for name, typical, worst, est, est_worst, code in rows:
        limit = target(name)
        ok = "(passes)" if limit is None else "OK" if est <= limit else "OVER"
        if ok == "OVER":
            over.append(name)
        print("%-*s | %10.1f | %9.1f | %8.2f / %8.2f%1s | %8s | %s" % (
            width, name, typical, worst, est, est_worst, "*" if code == "bound" else "",
            "-" if limit is None else "<= %2d ms" % limit, ok))
    print("(RP2040 ms: the unix figures x%d; * with the viper bound; OK/OVER on the typical estimate: the worst one"
          " holds the unix port's GC pauses; stage rows leave the twins' sensor read and display drawing out; (passes): spread"
          " over several loop passes, no one step; the unix figures of timing.py's rows are scaled to the run's fastest"
          " pace: this PC ran up to %.2fx slower at times)" % (FACTOR, spread))
    print("over target: " + (", ".join(over) if over else "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
