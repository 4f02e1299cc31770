"""make bench: the rules-core figures on CPython (beside sgfmill) and under real MicroPython, then the
device fit (bench/device_fit.py: the smallest heap, from .mpy files and from ROMFS, a fast 64-bit proxy), the
device-fit game on the emulated Pico (bench/pico_game.py: heap and loop passes measured on the chip), what each
module loaded for a moment would keep (bench/brief_loads.py), and the
whole-product runs of BENCHES below (each a script under bench/).

    .venv/bin/python bench/run.py
"""

import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "firmware"), str(ROOT / "bench")]

import mp_rules  # noqa: E402
from sgfmill import boards  # noqa: E402

from firmware.rules.coords import PASS, col_row  # noqa: E402

# The whole-product runs, in order: (what it shows, its script in bench/).
BENCHES = (
    ("The players' simulator's long run (simulated players on the whole board, invariants after every pass)",
     "players.py"),
    ("The logger with a flooding port", "logger_flood.py"),
    ("Ten boards on one logger through unplugs and power cuts", "logger_soak.py"),
    ("An MQTT fuzz of the logger", "logger_fuzz.py"),
    ("The venue at scale (simulated boards, real loggers, Mosquitto and the venue service)", "venue_scale.py"),
    ("The venue against a forger and a fuzzer (forged lines, MQTT fuzz on Mosquitto, tampered records)",
     "venue_security.py"),
    ("Commands replayed, forged and sent unsigned to a registered board", "replayed_commands.py"),
    ("The venue's pages under malformed requests (HTTP fuzz)", "venue_http_fuzz.py"),
    ("Password guessing at the referee console", "venue_logins.py"),
    ("GNU Go against the board as a GTP engine, through Sabaki's GTP controller (100 9x9, 10 19x19)",
     "engine_games.py"),
)


def playable(games, rules):
    """Each record's moves up to where ``rules`` stop it (the illegal ko retake of the 1980 Meijin
    game, a superko, an OP game ended): the moves its replay played. Both engines play exactly these."""
    out = []
    for record in games:
        game, _illegal_at, _error = mp_rules.replay(record, rules)
        out.append((record, record.moves[:game.move_number]))
    return out


def sgfmill_point(size, pt):
    col, row = col_row(size, pt)
    return size - 1 - row, col


def sgfmill_speed(sequences):
    """sgfmill Board.play on the same moves (a pass is a no-op): (moves, microseconds)."""
    converted = []
    for record, moves in sequences:
        setup = ([sgfmill_point(record.size, p) for p in record.black],
                 [sgfmill_point(record.size, p) for p in record.white])
        sequence = [("b" if colour == 1 else "w", pt != PASS) + (sgfmill_point(record.size, pt) if pt else (0, 0))
                    for colour, pt in moves]
        converted.append((record.size, setup, sequence))
    moves = 0
    t0 = time.perf_counter()
    for size, (black, white), sequence in converted:
        board = boards.Board(size)
        board.apply_setup(black, white, [])
        for colour, stone, row, col in sequence:
            if stone:
                board.play(row, col, colour)
            moves += 1
    return moves, (time.perf_counter() - t0) * 1e6


def ours_speed(sequences, rules):
    """Game.play on the same moves: (moves, microseconds)."""
    moves = 0
    t0 = time.perf_counter()
    for record, sequence in sequences:
        game = mp_rules.new_game(record, rules)
        play = game.play
        for colour, pt in sequence:
            if game.phase:
                game.resume(3 - colour)
            play(colour, pt)
            moves += 1
    return moves, (time.perf_counter() - t0) * 1e6


def best_of(n, fn, *args):
    runs = [fn(*args) for _ in range(n)]
    return min(runs, key=lambda r: r[1] / r[0])


def main():
    games = mp_rules._games()
    print(f"Rules core, {len(games)} bundled professional games (tests/data/pro_games.txt)\n")
    print("CPython " + sys.version.split()[0] + " (best of 5 runs, µs per move):")
    for rules in ("japanese", "tromp-taylor", "op"):
        sequences = playable(games, rules)
        theirs = best_of(5, sgfmill_speed, sequences)
        ours = best_of(5, ours_speed, sequences, rules)
        assert ours[0] == theirs[0]
        mine, other = ours[1] / ours[0], theirs[1] / theirs[0]
        print(f"  {rules:<13} Game.play {mine:5.2f}   sgfmill Board.play {other:5.2f}   "
              f"{other / mine:.1f}x faster (target >= 3x; tests/host/test_rules_speed.py fails below 1.5x), {ours[0]} moves")
    print("  (Game.play also checks legality, keeps ko/superko hashes and the full history)")
    print("\nMicroPython 1.27 (WebAssembly port under node; an RP2040 is slower still):", flush=True)
    run = subprocess.run(["node", str(ROOT / "bench" / "mp_bench.mjs")], capture_output=True, text=True, cwd=ROOT)
    for line in run.stdout.splitlines():
        if line.startswith("BENCH "):
            print(f"  [{line[6:]}]", flush=True)
        elif line.startswith("REPORT "):
            print("  " + line[7:], flush=True)
    if run.returncode != 0:
        print(run.stdout[-3000:] + run.stderr[-3000:])
        raise SystemExit("MicroPython benchmark failed")
    print("\nThe device as a Pico runs it (MicroPython's unix port, fixed heap, the make mpy bundle):", flush=True)
    for script, args in (("device_fit.py", ["--find"]), ("device_fit.py", ["--find", "--romfs"])):
        subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], cwd=ROOT, check=True)
    # The loop's time and the heap measured on the emulated Pico itself.
    print("\nThe device on the emulated Pico (bench/pico_game.py: the 402-move game, measured on the chip):",
          flush=True)
    subprocess.run([sys.executable, str(ROOT / "bench" / "pico_game.py"), "--bare-taps", "--tap-ms", "30",
                    "--label", "bench"], cwd=ROOT, check=True)
    print("\nCode loaded for a moment, on the emulated Pico (bench/brief_loads.py):", flush=True)
    subprocess.run([sys.executable, str(ROOT / "bench" / "brief_loads.py")], cwd=ROOT, check=True)
    for title, script in BENCHES:
        print("\n%s (bench/%s):" % (title, script), flush=True)
        subprocess.run([sys.executable, str(ROOT / "bench" / script)], cwd=ROOT, check=True)

if __name__ == "__main__":
    main()
