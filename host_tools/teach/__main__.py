"""``python -m host_tools.teach guess FILE [--colour B|W] [--board PORT|sim]``: guess a recorded game's
moves on the board (guess.py); ``python -m host_tools.teach.course --check``: the problem course."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from host_tools import sgf
from host_tools.play.board import BoardError
from host_tools.play.connect import open_board

from .guess import Guess


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_tools.teach", description="teaching on the board")
    sub = parser.add_subparsers(dest="what", required=True)
    guess = sub.add_parser("guess", help="guess a recorded game's moves, the other side's lit to place")
    guess.add_argument("record", type=Path, help="an SGF file")
    guess.add_argument("--colour", choices=("B", "W"), default="B", help="the side whose moves you guess")
    guess.add_argument("--board", default="sim", metavar="PORT|sim", help="the board's serial port, or sim")
    guess.add_argument("--seed", type=int, default=0, help="with --board sim: the simulated student's seed")
    args = parser.parse_args(argv)
    try:
        record = sgf.read(args.record.read_bytes())
        board, _ = open_board(args.board, args.seed)
        Guess(board, record, 1 if args.colour == "B" else 2).run()
    except OSError as error:
        print(f"teach: cannot read {args.record}: {error.strerror}", file=sys.stderr)
        return 1
    except (BoardError, ValueError) as error:
        print(f"teach: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
