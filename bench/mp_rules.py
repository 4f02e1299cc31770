"""Rules-core benchmarks under MicroPython (they run on CPython too).

bench/mp_bench.mjs runs each snippet of ``STEPS`` in its own runPython call;
every ``REPORT`` line printed is shown by ``make bench``.
"""

import gc
import time

from pro_games import load_games, new_game, replay  # noqa: F401  (bench/run.py uses replay)

from firmware.rules.coords import PASS
from firmware.rules.game import Game


def _games():
    here = __file__.replace("\\", "/").rsplit("/", 2)[0]
    for path in (here + "/tests/data/pro_games.txt", "/tests/data/pro_games.txt"):
        try:
            return load_games(path)
        except OSError:
            pass
    raise OSError("pro_games.txt not found")


def _emit(**fields):
    print("REPORT " + _describe(fields))


def _describe(r):
    kind = r["kind"]
    if kind == "speed":
        return "Game.play, %-18s %6.2f us/move  (target <= 40)" % (r["rules"], r["us_per_move"])
    if kind == "allocation":
        quiet = r["quiet_bytes"] / max(r["quiet_moves"], 1)
        capturing = r["capturing_bytes"] / max(r["capturing_moves"], 1)
        return ("allocated, %-18s %6.1f bytes per non-capturing move (target 0), %.1f per capturing move "
                "(%d + %d moves)" % (r["rules"], quiet, capturing, r["quiet_moves"], r["capturing_moves"]))
    if kind == "scoring":
        return ("count, %-22s %8.0f us per finished 19x19 position, %d bytes allocated in %d counts "
                "(target 0 beyond the map)" % (r["rules"], r["us_per_count"], r["bytes"], r["counts"]))
    if kind == "retained":
        return ("retained heap, 19x19 game of %d moves with full history: %d bytes (target <= 16384)"
                % (r["moves"], r["bytes"]))
    return "shared Zobrist table (module level, once per device): %d bytes" % r["bytes"]


def _replay(games, rules):
    """Play every record; returns (moves played, microseconds in play())."""
    moves = 0
    elapsed = 0
    for record in games:
        game = new_game(record, rules)
        play = game.play
        t0 = time.ticks_us()
        for colour, pt in record.moves:
            if game.phase:
                break
            try:
                play(colour, pt)
            except ValueError:
                break
            moves += 1
        elapsed += time.ticks_diff(time.ticks_us(), t0)
    return moves, elapsed


def speed(rules="japanese", rounds=1):
    games = _games()
    moves = 0
    us = 0
    for _ in range(rounds):
        m, t = _replay(games, rules)
        moves += m
        us += t
    _emit(kind="speed", rules=rules, moves=moves, us=us, us_per_move=us / moves)


def allocation(rules="japanese"):
    """Bytes allocated by play(), split by moves that capture and moves that
    do not. Run inside one runPython call: the GC then frees nothing, so a
    gc.mem_alloc() delta is exactly what was allocated. mem_alloc() scans the
    heap, so it is read around capturing moves only (found by a first replay)
    and once per game; quiet moves get the rest."""
    games = _games()
    quiet = quiet_bytes = capturing = capturing_bytes = 0
    for record in games:
        game, _illegal_at, _error = replay(record, rules)
        played = game.move_number
        captured_at = set()
        game = new_game(record, rules)
        for i in range(played):
            colour, pt = record.moves[i]
            if game.phase:
                game.resume(3 - colour)
            removed = game.captures[1] + game.captures[2]
            game.play(colour, pt)
            if game.captures[1] + game.captures[2] != removed:
                captured_at.add(i)
        game = new_game(record, rules)
        total = 0
        start = gc.mem_alloc()
        for i in range(played):
            colour, pt = record.moves[i]
            if game.phase:
                game.resume(3 - colour)
            if i in captured_at:
                before = gc.mem_alloc()
                game.play(colour, pt)
                capturing_bytes += gc.mem_alloc() - before
                capturing += 1
            else:
                game.play(colour, pt)
                quiet += 1
        total = gc.mem_alloc() - start
        quiet_bytes += total
    quiet_bytes -= capturing_bytes
    _emit(kind="allocation", rules=rules, quiet_moves=quiet, quiet_bytes=quiet_bytes,
          capturing_moves=capturing, capturing_bytes=capturing_bytes)


def longest_record():
    return max(_games(), key=lambda r: len(r.moves))


def long_game(record, moves=400):
    """A 19x19 game of ``moves`` moves with full history (the longest bundled
    record, then passes and resumptions to reach the count)."""
    game = Game(19, "japanese", strict_turns=False)
    for colour, pt in record.moves[:moves]:
        game.play(colour, pt)
    while game.move_number < moves:
        if game.phase:
            game.resume()
        game.play(game.to_move, PASS)
    return game


def scoring(rules="japanese", repeat=3):
    """Counting the final positions of the bundled games: microseconds per
    count, and bytes allocated by counts after the first (the first makes
    the game's Counter: the map and its buffers)."""
    games = _games()
    counts = 0
    us = 0
    allocated = 0
    for record in games:
        game, illegal_at, _error = replay(record, rules)
        game.count()
        before = gc.mem_alloc()
        t0 = time.ticks_us()
        for _ in range(repeat):
            game.count()
        us += time.ticks_diff(time.ticks_us(), t0)
        allocated += gc.mem_alloc() - before
        counts += repeat
    _emit(kind="scoring", rules=rules, counts=counts, us_per_count=us / counts, bytes=allocated)


# Each string runs in its own runPython call: the WebAssembly port's GC frees
# nothing inside one call, so heavy steps are kept apart, and retained memory
# is measured across calls after a collection.
STEPS = [
    "import mp_rules, gc; _base = 0; _game = None; _record = mp_rules.longest_record()",
    "gc.collect(); _base = gc.mem_alloc()",
    "_game = mp_rules.long_game(_record, 400)",
    "gc.collect(); mp_rules._emit(kind='retained', moves=_game.move_number, bytes=gc.mem_alloc() - _base)",
    "_game = None; _record = None",
    "from firmware.rules.position import ZOBRIST; mp_rules._emit(kind='tables', bytes=len(ZOBRIST) * 4)",
    "mp_rules.speed('japanese')",
    "mp_rules.allocation('japanese')",
    "mp_rules.speed('tromp-taylor')",
    "mp_rules.allocation('tromp-taylor')",
    "mp_rules.speed('op')",
    "mp_rules.allocation('op')",
    "mp_rules.scoring('japanese')",
    "mp_rules.scoring('chinese')",
    "mp_rules.scoring('op')",
]
