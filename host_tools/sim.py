"""The board, simulated: the firmware's scanner, referee and rules on simulated sensors.

    python -m host_tools.sim --headless --script FILE [--rules NAME] [--size N]
        [--komi K] [--handicap N] [--sensors presence|polarity] [--mode casual|teaching|tournament]
        [--clock] [--hardware fast|shift|matrix|hall] [--sgf PATH]

Headless mode plays a physical event script (see host_tools.script) with
simulated time and writes the recorded game as SGF FF[4] to stdout, or to
``--sgf PATH``. Bad script lines are reported on stderr with their line
number and skipped; the game is still written, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware.referee import MODE_NAMES
from firmware.rules.coords import MAX_SIZE, MIN_SIZE
from firmware.rules.rulesets import ALL, by_name
from firmware.version import NAME, VERSION
from host_tools import sgf
from host_tools.script import parse
from host_tools.simulation import Simulation


def build_parser():
    parser = argparse.ArgumentParser(prog="python -m host_tools.sim", description=__doc__.split("\n\n")[0])
    parser.add_argument("--headless", action="store_true", help="no browser: play --script and write the SGF")
    parser.add_argument("--script", type=Path, help="physical event script to play")
    parser.add_argument("--rules", default="japanese", help="rule set: " + ", ".join(r.name for r in ALL))
    parser.add_argument("--size", type=int, default=19, help="board size, 5..19 (a region of the 19x19 board)")
    parser.add_argument("--komi", type=float, default=None, help="komi (default: the rule set's)")
    parser.add_argument("--handicap", type=int, default=0, help="handicap stones Black places first")
    parser.add_argument("--sensors", choices=("presence", "polarity"), default="presence",
                        help="presence: stones only (reed switches); polarity: colours too (Hall sensors)")
    parser.add_argument("--mode", choices=MODE_NAMES, default="casual")
    parser.add_argument("--clock", action="store_true", help="a game clock is in use (moves end with a press)")
    parser.add_argument("--hardware", choices=("fast", "shift", "matrix", "hall"), default="fast",
                        help="fast: sensor twins reading the board directly; or the real driver over "
                             "simulated hardware: shift (74HC165, presence), matrix (presence), hall (polarity)")
    parser.add_argument("--sgf", type=Path, help="write the SGF here instead of stdout")
    return parser


def run_headless(args, out=sys.stdout, err=sys.stderr) -> int:
    try:
        text = args.script.read_text(encoding="utf-8")
    except OSError as error:
        print(f"cannot read the script: {error.strerror or error}", file=err)
        return 1
    events, errors = parse(text.splitlines(), args.size)
    for error in errors:
        print(f"{args.script}:{error}", file=err)
    sim = Simulation(args.size, args.rules, komi=args.komi, handicap=args.handicap,
                     polarity=args.sensors == "polarity", mode=MODE_NAMES.index(args.mode),
                     clock=args.clock, hardware=args.hardware)
    sim.run(events)
    game = sim.game
    record = sgf.write(game, {"AP": (NAME, VERSION)}).decode("utf-8")
    if args.sgf:
        args.sgf.write_text(record + "\n", encoding="utf-8")
    else:
        out.write(record + "\n")
    print(f"{len(events)} events, {game.move_number} moves recorded; board: {sim.referee.message()}", file=err)
    return 2 if errors else 0


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not MIN_SIZE <= args.size <= MAX_SIZE:
        parser.error(f"--size must be {MIN_SIZE}..{MAX_SIZE}")
    try:
        by_name(args.rules)
    except ValueError as error:
        parser.error(str(error))
    if not args.headless:
        parser.error("the browser simulator is not available yet: use --headless --script FILE")
    if args.script is None:
        parser.error("--headless needs --script FILE")
    try:
        return run_headless(args)
    except ValueError as error:  # a setting the game refuses (a handicap the rules do not have, say)
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
