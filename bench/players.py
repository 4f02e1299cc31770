"""make bench: the players' simulator's long run (host_tools/sim/fuzz.py): 20,000 seeded games on the whole board.

    .venv/bin/python bench/players.py [--games N] [--seed S] [--jobs J] [--out DIR]

Prints games, loop passes, the rate, and the violations by invariant and by kind; the first
failing game of each kind is shrunk to a physical event script in DIR (default
build/player_seeds). The seeds (from 100000) are not the bounded run's (tests/host/test_players.py).
"""

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from host_tools.sim.fuzz import report, run  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=100000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "build" / "player_seeds")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    print("The players' simulator: %d seeded games from seed %d, every invariant after every loop pass "
          "(%d processes)" % (args.games, args.seed, args.jobs), flush=True)

    tty = sys.stderr.isatty()
    last = [0.0]

    def progress(text):
        if tty:
            print("\r  " + text[:140].ljust(140), end="", file=sys.stderr, flush=True)
        elif time.monotonic() - last[0] >= 60:  # a log file: a line a minute
            last[0] = time.monotonic()
            print("  " + text, file=sys.stderr, flush=True)

    summary, written = run(args.games, args.seed, args.out, 1, progress, args.jobs)
    print(file=sys.stderr)
    for line in report(summary):
        print("  " + line)
    for path in written:
        print("  shrunk: " + str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path))


if __name__ == "__main__":
    main()
