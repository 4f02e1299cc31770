"""Take the README's picture of the browser simulator: the bundled handicap game played
by simulated hands (with clock presses) on the live board, photographed mid-game.

    .venv/bin/python scripts/screenshot.py [--moves 80] [--out docs/images/simulator.png]

Needs Debian's chromium (/usr/bin/chromium) and the pinned playwright (make setup).
"""

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=80, help="photograph once this many moves are recorded")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "simulator.png")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp())
    script = work / "demo.script"
    script.write_text(subprocess.run([sys.executable, "-m", "host_tools.sim.physical", "--clock", "--seed", "3",
                                      "examples/handicap-game.sgf"], cwd=ROOT, check=True, capture_output=True,
                                     text=True).stdout)
    sim = subprocess.Popen([sys.executable, "-m", "host_tools.sim", "--no-browser", "--port", "0", "--handicap", "2",
                            "--time", "korean-amateur", "--mode", "teaching", "--script", str(script),
                            "--speed", "1.3", "--games", str(work)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    url = next(line for line in sim.stdout if "http://" in line).split()[-1]
    try:
        moves = 0
        while moves < args.moves:
            moves = json.load(urllib.request.urlopen(url + "state"))["moves"]
            print("\rmoves recorded: %d of %d" % (moves, args.moves), end="", flush=True)
            time.sleep(0.5)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.goto(url)
            page.wait_for_selector("#connection.live")
            sim.send_signal(signal.SIGSTOP)  # hold the position still for the picture
            page.wait_for_timeout(300)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out))
            sim.send_signal(signal.SIGCONT)
            browser.close()
    finally:
        sim.send_signal(signal.SIGINT)
        sim.wait(20)
    print("\nwrote", args.out)


if __name__ == "__main__":
    main()
