"""Rules-core benchmarks that run unchanged on MicroPython and CPython.

Each function prints one line ``RESULT {json}`` that bench/run.py collects.
"""

import gc
import json
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
    print("RESULT " + json.dumps(fields))


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
    do not. Run inside one runPython call: the GC then frees nothing, so the
    gc.mem_alloc() delta is exactly what was allocated."""
    games = _games()
    quiet = quiet_bytes = capturing = capturing_bytes = 0
    for record in games:
        game = new_game(record, rules)
        for colour, pt in record.moves:
            if game.phase:
                break
            removed = game.captures[1] + game.captures[2]
            before = gc.mem_alloc()
            try:
                game.play(colour, pt)
            except ValueError:
                break
            used = gc.mem_alloc() - before
            if pt == PASS or game.captures[1] + game.captures[2] == removed:
                quiet += 1
                quiet_bytes += used
            else:
                capturing += 1
                capturing_bytes += used
    _emit(kind="allocation", rules=rules, quiet_moves=quiet, quiet_bytes=quiet_bytes,
          capturing_moves=capturing, capturing_bytes=capturing_bytes)


def long_game(moves=400):
    """A 19x19 game of ``moves`` moves with full history (the longest bundled
    record, then passes and resumptions to reach the count)."""
    record = max(_games(), key=lambda r: len(r.moves))
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
