"""GNU Go against the board as a GTP engine, many seeded games through Sabaki's GTP controller.

    python bench/engine_games.py [--nine 100] [--nineteen 10] [--jobs 2]

Each game is tests/tools/gtp_match.mjs (@sabaki/gtp, the library Sabaki uses) driving Debian's
GNU Go as Black against ``python -m host_tools.gtp --board sim`` as White: the simulated board
whose person follows the LEDs for GNU Go's stones and captures and plays its own moves as a
second GNU Go would (``--sim-hands gtp``), slipping now and then. It prints, per board size:
games, moves, desyncs (the board's logged record not the controller's game: must be 0),
final scores that differ, the opponent's stones the hands put on a wrong point and moved to the
lit one, the person's stones the board refused, and the controller's wall time from a ``play``
to the board's answer (median, 90th percentile, worst). Exit status 1 on any desync or error.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sgfmill import sgf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from host_tools.gtp.engine import default_engine  # noqa: E402


def one_game(size, seed, level):
    board = (f"{sys.executable} -m host_tools.gtp --board sim --seed {seed} --patience 3600 "
             f"--sim-hands gtp '{default_engine(level, seed + 1000)}'")
    command = ["node", str(ROOT / "tests" / "tools" / "gtp_match.mjs"), "--size", str(size), "--komi", "7",
               "--black", default_engine(level, seed), "--white", board, "--sgf-from", "white"]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=3600)
    try:
        return json.loads(out.stdout.splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {"moves": [], "error": (out.stderr or "no output")[-300:]}


def desynced(game):
    """Whether the board's record differs from the controller's moves."""
    record = sgf.Sgf_game.from_string(game["sgf"])
    logged = []
    for node in record.get_main_sequence()[1:]:
        colour, move = node.get_move()
        logged.append(f"{colour.upper()} " + ("PASS" if move is None else "ABCDEFGHJKLMNOPQRST"[move[1]] + str(move[0] + 1)))
    return logged != game["moves"] or len(game["moves"]) != len(logged)


def margin(text):
    return float(text[2:]) * (1 if text[0] == "B" else -1) if text[2:3].isdigit() else text


def report(size, games, seconds):
    errors = [g for g in games if "error" in g]
    played = [g for g in games if "error" not in g]
    desyncs = sum(desynced(g) for g in played)
    differ = [i + 1 for i, g in enumerate(games)
              if "error" not in g and not g["result"] and margin(g["score"]["B"]) != margin(g["score"]["W"])]
    corrected = refused = 0
    for g in played:
        for line in g.get("stderr", {}).get("W", []):
            if line.startswith("sim hands:"):
                words = line.split()
                corrected += int(words[2])
                refused += int(words[6])
    answers = sorted(ms for g in played for ms in g["playMs"]["W"])
    moves = sum(len(g["moves"]) for g in played)
    print(f"{size}x{size}: {len(games)} games, {moves} moves in {seconds:.0f} s; errors {len(errors)}; "
          f"desyncs {desyncs}; scores differing {len(differ)} (seeds {differ}); opponent's stones put right by the hands {corrected}; "
          f"person's stones refused {refused}")
    if answers:
        p90 = answers[int(0.9 * (len(answers) - 1))]
        print(f"  play -> answer (controller's wall time): median {statistics.median(answers):.0f} ms, "
              f"p90 {p90} ms, worst {answers[-1]} ms over {len(answers)} plays")
    for g in errors[:3]:
        print("  error:", g["error"][:200])
    return not errors and not desyncs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nine", type=int, default=100, help="9x9 games (GNU Go level 1)")
    parser.add_argument("--nineteen", type=int, default=10, help="19x19 games (GNU Go level 0)")
    parser.add_argument("--jobs", type=int, default=2, help="games at once")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # (its lines between the progress on stderr)
    if default_engine() is None or shutil.which("node") is None:
        print("engine games: needs GNU Go and node (make setup installs them)", file=sys.stderr)
        return 1
    ok = True
    for size, count, level in ((9, args.nine, 1), (19, args.nineteen, 0)):
        if not count:
            continue
        start = time.time()
        games = []
        with ThreadPoolExecutor(args.jobs) as pool:
            seeds = range(1, count + 1)
            for i, game in enumerate(pool.map(one_game, [size] * count, seeds, [level] * count)):
                games.append(game)
                print(f"\r  {size}x{size}: game {i + 1}/{count}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        ok = report(size, games, time.time() - start) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
