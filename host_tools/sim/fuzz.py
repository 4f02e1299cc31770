"""The players' simulator's runner: many seeded games, violations counted, failing games shrunk to scripts.

    python -m host_tools.sim.fuzz [--games N] [--seed S] [--jobs J] [--out DIR] [--shrink K] [--quiet]

Plays games with seeds S, S+1, ... (players.py), every invariant checked after every loop
pass (invariants.py), in J processes; prints a progress line, then games, passes, the rate
and the violations by invariant and by kind. The first ``K`` failing games of each kind of violation (its
invariant and its words, points and numbers left out) are shrunk to short physical event
scripts (shrink.py) and written to DIR (``seed-<seed>-<invariant>.script``, the invariant
and its words in the header). Exit status 1 if any invariant was broken.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from .invariants import INVARIANTS, kind
from .players import play_game
from .replay import replay
from .shrink import shrink


def _play(seed):
    game = play_game(seed)
    return seed, game.passes, game.moves, game.violations


def run(games, seed=0, out=None, shrink_each=1, progress=None, jobs=1, keep=False):
    """Play ``games`` games from ``seed`` (in ``jobs`` processes); (summary dict, scripts written).
    The failing games to shrink are played again, then shrunk, after all the games. With
    ``keep``, the summary's ``found`` lists every (seed, violation)."""
    counts = Counter()
    kinds = Counter()
    failing = 0
    passes = moves = 0
    to_shrink = []  # (seed, violation, kind)
    found = []
    first = {}  # kind -> the first seed that showed it
    started = time.process_time()
    wall = time.monotonic()
    last = wall
    pool = None
    seeds = range(seed, seed + games)
    if jobs > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(jobs)
        results = pool.imap(_play, seeds, chunksize=4)
    else:
        results = map(_play, seeds)
    try:
        for n, (s, game_passes, game_moves, violations) in enumerate(results, 1):
            passes += game_passes
            moves += game_moves
            if violations:
                failing += 1
            for v in violations:
                if keep:
                    found.append((s, v))
                counts[v[0]] += 1
                k = kind(v)
                kinds[k] += 1
                first.setdefault(k, s)
                if out is not None and kinds[k] <= shrink_each:
                    to_shrink.append((s, v, k))
            if progress is not None and (time.monotonic() - last > 1 or n == games):
                last = time.monotonic()
                progress("games %d/%d, passes %d, failing %d: %s" % (
                    n, games, passes, failing, ", ".join("%s %d" % kv for kv in counts.items()) or "no violation")
                    + "".join(" [seed %d: %s]" % (s, k[:60]) for k, s in first.items()))
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    spent = time.process_time() - started if pool is None else (time.monotonic() - wall)
    written = []
    for s, v, k in to_shrink:
        game = play_game(s)
        lines = shrink(game.table, game.lines, v[0], same=lambda w, k=k: kind(w) == k)
        found = next((w for w in replay(game.table, lines).violations if kind(w) == k), v)
        path = Path(out) / ("seed-%d-%s-%d.script" % (s, v[0], len(written) + 1))
        game.lines = lines
        path.write_text(game.script("%s \u2014 %s" % (found[0], found[2])))
        written.append(path)
    return {"games": games, "passes": passes, "moves": moves, "failing": failing, "cpu_s": spent, "jobs": jobs,
            "games_per_s": games / spent if spent else 0.0, "passes_per_s": passes / spent if spent else 0.0,
            "violations": {name: counts[name] for name in INVARIANTS}, "kinds": dict(kinds), "first": first, "found": found}, written


def report(summary):
    """The summary in lines: games, passes, rate, violations by invariant, kinds."""
    lines = ["%d games, %d loop passes, %d moves in %.1f s (%s): %.1f games/s, %.0f passes/s" % (
        summary["games"], summary["passes"], summary["moves"], summary["cpu_s"],
        "CPU" if summary["jobs"] == 1 else "wall clock, %d processes" % summary["jobs"], summary["games_per_s"],
        summary["passes_per_s"]),
        "games with a violation: %d" % summary["failing"],
        "violations by invariant: " + ", ".join("%s %d" % kv for kv in summary["violations"].items())]
    for k, n in sorted(summary["kinds"].items(), key=lambda kv: -kv[1]):
        lines.append("  %5d  %s  [first: seed %d]" % (n, k, summary["first"][k]))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.sim.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="write the shrunk scripts of failing games here")
    parser.add_argument("--shrink", type=int, default=1, metavar="K", help="failing games shrunk per kind (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games (default 1)")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    args = parser.parse_args(argv)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)

    def progress(text):
        print("\r" + text[:150].ljust(150), end="", file=sys.stderr, flush=True)

    summary, written = run(args.games, args.seed, args.out, args.shrink, None if args.quiet else progress, args.jobs)
    if not args.quiet:
        print(file=sys.stderr)
    for line in report(summary):
        print(line)
    for path in written:
        print("shrunk:", path)
    return 1 if summary["failing"] else 0


if __name__ == "__main__":
    sys.exit(main())
