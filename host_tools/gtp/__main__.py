"""``python -m host_tools.gtp [--rules NAME] [--size N] [--komi K] [--tournament]``: the GTP arbiter
(host_tools/gtp/arbiter.py) on stdin and stdout, for any GTP controller (Sabaki, gogui, a tournament runner).

``python -m host_tools.gtp --board PORT|sim [--sim-hands random|sgf FILE|gtp CMD] [--seed N]``: the board
itself as a GTP engine (board_engine.py): the person at the board plays the controller's other
side; ``sim``: the simulated board, its hands following the LEDs."""

import argparse
import sys

from firmware.rules.catalog import ALL
from host_tools.play.board import BoardError
from host_tools.play.connect import open_board

from .arbiter import Arbiter
from .board_engine import PATIENCE_S, BoardEngine


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_tools.gtp",
                                     description="the rules core as a GTP arbiter, or the board as a GTP engine")
    parser.add_argument("--rules", default="japanese", help="rule set: " + ", ".join(r.name for r in ALL))
    parser.add_argument("--size", type=int, default=19, help="board size 5..19 (default 19)")
    parser.add_argument("--komi", type=float, default=None, help="komi (default: the rule set's)")
    parser.add_argument("--tournament", action="store_true",
                        help="apply the rule set's penalty to illegal plays (Korean: loss; Thai: warning, lost turn)")
    parser.add_argument("--board", metavar="PORT|sim",
                        help="be the board as an engine: its serial port, or sim (the simulated board)")
    parser.add_argument("--sim-hands", nargs="+", default=["random"], metavar="random|sgf FILE|gtp COMMAND",
                        help="with --board sim: the person's own moves (random, an SGF's, or an engine's)")
    parser.add_argument("--seed", type=int, default=0, help="with --board sim: the hands' seed")
    parser.add_argument("--slip", type=float, default=0.05,
                        help="with --board sim: how often a hand puts the opponent's stone on a wrong point first")
    parser.add_argument("--patience", type=float, default=PATIENCE_S, metavar="SECONDS",
                        help="with --board: how long to wait for the person's move or count")
    args = parser.parse_args(argv)
    try:
        if args.board:
            board, table = open_board(args.board, args.seed, args.sim_hands, args.slip)
            mode = "tournament" if args.tournament else "casual"
            arbiter = BoardEngine(board, args.rules, mode, args.patience)
        else:
            table, arbiter = None, Arbiter(args.rules, args.size, args.komi, args.tournament)
    except (ValueError, BoardError) as error:
        parser.error(str(error))
    for line in sys.stdin:
        answer = arbiter.handle(line)
        if answer is not None:
            sys.stdout.write(answer)
            sys.stdout.flush()
        if arbiter.done:
            break
    if table is not None:  # (for benchmarks: what the simulated hands had to do)
        hands = table.hands
        print(f"sim hands: {hands.corrections} stones put right, {hands.refused} refused", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
