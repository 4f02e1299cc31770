"""``python -m host_tools.gtp [--rules NAME] [--size N] [--komi K] [--tournament]``: the GTP arbiter
(host_tools/gtp/arbiter.py) on stdin and stdout, for any GTP controller (Sabaki, gogui, a tournament runner)."""

import argparse
import sys

from firmware.rules.catalog import ALL

from .arbiter import Arbiter


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_tools.gtp", description="the rules core as a GTP arbiter")
    parser.add_argument("--rules", default="japanese", help="rule set: " + ", ".join(r.name for r in ALL))
    parser.add_argument("--size", type=int, default=19, help="board size 5..19 (default 19)")
    parser.add_argument("--komi", type=float, default=None, help="komi (default: the rule set's)")
    parser.add_argument("--tournament", action="store_true",
                        help="apply the rule set's penalty to illegal plays (Korean: loss; Thai: warning, lost turn)")
    args = parser.parse_args(argv)
    try:
        arbiter = Arbiter(args.rules, args.size, args.komi, args.tournament)
    except ValueError as error:
        parser.error(str(error))
    for line in sys.stdin:
        answer = arbiter.handle(line)
        if answer is not None:
            sys.stdout.write(answer)
            sys.stdout.flush()
        if arbiter.done:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
