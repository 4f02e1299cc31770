"""`make deploy` end to end: mpremote flashes a simulated board over a pty (the MicroPython
WebAssembly REPL, tests/mp/pty_board.py), which then imports and runs the deployed .mpy bundle."""

import ast
import json
import subprocess

import pytest

from tests.mp.pty_board import PtyBoard

from .conftest import ROOT

MPREMOTE = ROOT / ".venv" / "bin" / "mpremote"

CHECK = """
import os, json
def walk(d):
    out = []
    for name in sorted(os.listdir(d)):
        path = d + '/' + name
        out += walk(path) if os.stat(path)[0] & 0x4000 else [path]
    return out
import firmware.rules.game as game
from firmware.rules.coords import parse_vertex
g = game.Game(9)
g.play(1, parse_vertex(9, 'E5'))
with open('/main.py') as f:
    main = f.read()
from array import array
from firmware.app import App
from firmware.hardware import Hardware
class Sensor:  # a sensor on the bench: nothing on it
    nbytes = 46
    bits_per_point = 1
    point_at = array('H', [p if p < 361 else 0xFFFF for p in range(368)])
    def read(self, buf):
        pass
app = App(Hardware(Sensor()))
app.step(0)
print(json.dumps({'files': walk('/lib/firmware'), 'main': main, 'to_move': g.to_move, 'game': game.__file__,
                  'app': type(app.game).__name__ + ' ' + str(app.errors)}))
"""


@pytest.fixture(scope="module")
def board():
    """The serial port (a pty) of a fresh simulated board."""
    with PtyBoard() as port:
        yield port


def mpremote(port, *args):
    done = subprocess.run([MPREMOTE, "connect", port, *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_make_deploy_flashes_a_board_that_then_runs_the_bundle(board):
    # An earlier install left a module the new bundle does not have, and a .py that would shadow its .mpy.
    mpremote(board, "exec", "import os\nfor d in ('/lib', '/lib/firmware', '/lib/firmware/rules'):\n"
             " try:\n  os.mkdir(d)\n except OSError:\n  pass\n"
             "for f in ('/lib/firmware/stale.py', '/lib/firmware/rules/game.py'):\n"
             " open(f, 'w').write('raise ImportError(\"stale\")')\nopen('/journal.bin', 'wb').write(b'game')")
    done = subprocess.run(["make", "--no-print-directory", "deploy", "PORT=" + board, "RESET=soft"], cwd=ROOT,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Deployed" in done.stdout

    found = json.loads(mpremote(board, "exec", CHECK).strip().splitlines()[-1])
    bundle = ROOT / "build" / "mpy"
    assert found["files"] == sorted("/lib/" + p.relative_to(bundle).as_posix() for p in bundle.rglob("*.mpy"))
    assert "/lib/firmware/app.mpy" in found["files"]
    assert found["game"] == "/lib/firmware/rules/game.mpy"
    assert found["main"] == (ROOT / "firmware" / "main.py").read_text()
    assert found["to_move"] == 2  # black played, white to move
    assert found["app"] == "Game 0"  # the whole app, from the bundle, ran a round of its loop
    assert mpremote(board, "exec", "print(open('/journal.bin', 'rb').read())").strip() == "b'game'"  # data kept


def test_deploy_rejects_an_unknown_reset():
    done = subprocess.run(["make", "--no-print-directory", "deploy", "RESET=sometimes"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "RESET must be hard, soft or none" in done.stderr


def test_the_boot_script_imports_the_package_by_absolute_paths():
    """main.py lies at the board's root, outside the package: a relative import there fails at boot."""
    tree = ast.parse((ROOT / "firmware" / "main.py").read_text())
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert imports and all(node.level == 0 for node in imports)
    for node in imports:
        if node.module.startswith("firmware."):
            module = ast.parse((ROOT / (node.module.replace(".", "/") + ".py")).read_text())
            defined = {n.name for n in module.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
            assert {alias.name for alias in node.names} <= defined, node.module
