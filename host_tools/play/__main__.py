"""``python -m host_tools.play --engine "COMMAND" [--board PORT|sim] [--colour B|W] ...``: a GTP engine
against the person at the board (match.py); GNU Go (``gnugo --mode gtp``) where no engine is named and
it is installed. Writes the game's SGF (the board's record, the engine's name as PB or PW) to --out."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware.rules.catalog import ALL
from host_tools.gtp.engine import Engine, EngineError, default_engine

from .board import BoardError
from .connect import open_board
from .match import Match, MatchError


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_tools.play",
                                     description="play a GTP engine (GNU Go, KataGo, Leela Zero...) on the board")
    parser.add_argument("--engine", help="the engine's command line (default: GNU Go at --level, where installed)")
    parser.add_argument("--level", type=int, default=5, help="GNU Go's level 0-10, when it is the engine")
    parser.add_argument("--board", default="sim", metavar="PORT|sim", help="the board's serial port, or sim")
    parser.add_argument("--colour", choices=("B", "W"), default="B", help="the person's colour (default B)")
    parser.add_argument("--size", type=int, default=19, choices=range(5, 20), metavar="5..19")
    parser.add_argument("--komi", type=float, default=None, help="komi (default: the rule set's)")
    parser.add_argument("--handicap", type=int, default=0, help="fixed handicap stones for Black")
    parser.add_argument("--rules", default="japanese", choices=[r.name for r in ALL])
    parser.add_argument("--time", default="none", help="the board's clock, e.g. 'byoyomi 10m 3x30s' (docs/clock.md)")
    parser.add_argument("--move-time", type=float, default=120.0, metavar="SECONDS",
                        help="the longest the engine may think about a move before it is given up")
    parser.add_argument("--out", default="games", help="folder for the game's SGF (default ./games)")
    parser.add_argument("--sim-hands", nargs="+", default=["random"], metavar="random|sgf FILE|gtp COMMAND",
                        help="with --board sim: the simulated person's judgement")
    parser.add_argument("--seed", type=int, default=0, help="with --board sim: the hands' seed")
    args = parser.parse_args(argv)
    command = args.engine or default_engine(args.level)
    engine_colour = "W" if args.colour == "B" else "B"
    fields = {"rules": args.rules, "size": str(args.size), "handicap": str(args.handicap),
              "time": args.time.replace(" ", "%20")}
    if args.komi is not None:
        fields["komi"] = f"{args.komi:g}"
    try:
        board, table = open_board(args.board, args.seed, args.sim_hands)
        with Engine(command) as engine:
            match = Match(board, engine, engine_colour, fields, args.move_time)
            try:
                game = match.run()
            finally:
                path = save(board, args.out)
                if path:
                    print(f"the game is in {path}")
    except (BoardError, EngineError, MatchError, ValueError) as error:
        print(f"play: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # (Ctrl-C, or the simulator stopping: the game so far is saved above)
        print("play: stopped", file=sys.stderr)
        return 130
    print(f"result: {game.result}" + (f"; dead: {len(game.dead)} stones" if game.dead else ""))
    return 0


def save(board, out):
    """Write the board's game as the logger would (its SGF) to ``out``; the path, or None with no game."""
    game = board.game
    if game is None:
        return None
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    board_id = board.sync.board_id or "board"
    path = folder / f"{board_id}-{game.boot or board.sync.boot}-g{game.gid}.sgf"  # (the logger's name for it)
    path.write_bytes(game.sgf_bytes(board_id))
    return path


if __name__ == "__main__":
    sys.exit(main())
