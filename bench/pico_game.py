"""The device-fit game on the emulated Pico: heap, loop passes and taps measured on the Pico itself.

    .venv/bin/python bench/pico_game.py                   # the 402-move game (make bench; ~25 min wall)
    .venv/bin/python bench/pico_game.py --moves 60        # a shorter one (the pico tier's heap check)
    .venv/bin/python bench/pico_game.py --image IMG       # a littlefs image built before (another firmware)
    .venv/bin/python bench/pico_game.py --bare-taps       # every press a bare PRESS_MS tap (no waiting for scans)
    .venv/bin/python bench/pico_game.py --remote --moves 60   # White played elsewhere (an engine: host ``play``)

The game is bench/device_fit.py's (the longest bundled record carried on
to 400 moves, two passes, move 120 taken back with MENU, the count
accepted with MENU; the power cut after move 300's press; a host starts it
with ``new`` and asks ``show``, ``state``, ``resend`` and ``mem`` on the way), played by
simulated hands (tests/pico/board.py) on stock MicroPython 1.27 on the
emulated RP2040 (tests/pico), the firmware deployed as ``make deploy``
leaves it (the make mpy bundle on littlefs) with one change: main.py calls
bench/pico/probe.py's ``install(app)`` before the loop, which times every
pass and stage with the Pico's own ``time.ticks_us()`` and finds the
heap's worst point with ``gc.mem_free()``. Before the power cut and at the
end the board is stopped (Ctrl-C) and the probe's figures read at the raw
REPL.

Emulated time: rp2040js counts cycles at 125 MHz with no XIP flash wait
states, so it runs a little ahead of silicon (published RP2040 kernels
run 1-10 % faster there). Flash program/erase time is a model added to
the clock: W25Q16JV datasheet typical times (45 ms a 4 KB sector erase,
0.4 ms a 256-byte page; tests/pico/flash.mjs). The LED chain's FIFO
drains at the wire's 800 kHz (tests/pico/parts.mjs).

Prints a table and writes build/pico/bench-<label>.json. Exit 1 when the
game did not finish as played (the host's record must hold every move).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "mp")]

from bench import device_fit  # noqa: E402
from firmware.rules.coords import PASS  # noqa: E402
from host_tools.sim.physical import script_lines  # noqa: E402
from tests.pico import fs_image  # noqa: E402
from tests.pico.board import Missing, PicoBoard, Player  # noqa: E402
from tests.pico.test_pico import moves_of  # noqa: E402

BOOT_MS = 6000  # main.py's start before the hands come (tests/pico/test_pico.py's)
NEW = "new rules=japanese size=19 komi=6.5 time=byoyomi%205m%203x30s pb=Hands%20B pw=Hands%20W"
HOOK = "try:\n    asyncio.run(app.run())"
PROBE = ROOT / "bench" / "pico" / "probe.py"
OUT = ROOT / "build" / "pico"
BUDGET_FREE = 64 * 1024  # the heap the game must leave free at its worst point


def image(mpy=ROOT / "build" / "mpy", detail=False, heap=True):
    """make deploy's layout, main.py with the probe installed before the loop: the image's bytes."""
    files = dict(fs_image.deploy_files(mpy))
    main = files["/main.py"].decode()
    if main.count(HOOK) != 1:
        raise SystemExit("firmware/main.py has no single %r line for the probe" % HOOK)
    files["/main.py"] = main.replace(HOOK, "import probe\n\nprobe.install(app, %s, %d, %s)\n%s" % (
        detail, 10 if heap else 0, heap, HOOK)).encode()
    files["/probe.py"] = PROBE.read_bytes()
    return fs_image.build(sorted(files.items()))


def game(moves=device_fit.MOVES):
    """(script lines, moves expected): device_fit's game for ``moves`` moves, its undo and cut at the
    same share of the game, on the Pico's clock (the hands come BOOT_MS after power-up)."""
    path, record = device_fit.longest_record()
    played = device_fit.game_moves(record, total=moves)
    if len(played) > moves + 2:  # (a record longer than ``moves``: its first ones, then two passes)
        colour = 3 - played[moves - 1][0]
        played = played[:moves] + [(colour, PASS), (3 - colour, PASS)]
    lines, expected = script_lines(19, played, clock=True, seed=3)
    undo_at = device_fit.UNDO_AT * moves // device_fit.MOVES
    cut_after = device_fit.CUT_AFTER * moves // device_fit.MOVES
    lines = device_fit.with_undo(lines, undo_at)
    cut = device_fit.cut_time(lines, cut_after)
    last = int(lines[-1].split()[0])
    lines.append(f"{last + 1500} button ok")  # the count accepted
    # (after the cut the hands wait for the board to come back, as people wait for a dark board)
    timed = [(int(t) + BOOT_MS * (1 + (int(t) > cut)), rest) for t, rest in (line.split(" ", 1) for line in lines)]
    timed.append((BOOT_MS - 2000, "host " + NEW))
    timed.append((cut + BOOT_MS, "power cut"))
    timed.sort(key=lambda item: item[0])  # (stable: a cut at an event's time comes after it)
    assert expected[-1][1] == PASS
    host_at = [(t + BOOT_MS * (1 + (t > cut)), command) for t, command in device_fit_host_commands() if t < last]
    return [f"{t} {rest}" for t, rest in timed], host_at, expected, path.name


def remote_game(moves):
    """(script lines, host commands, moves expected, record): ``game``'s moves with White played
    elsewhere (``new ... remote=W``): each White move the host's ``play`` 300 ms after Black's
    press, its stone then placed where the board lights it, no White press; no take-back, no cut."""
    path, record = device_fit.longest_record()
    played = device_fit.game_moves(record, total=moves)
    if len(played) > moves + 2:
        colour = 3 - played[moves - 1][0]
        played = played[:moves] + [(colour, PASS), (3 - colour, PASS)]
    lines, expected = script_lines(19, played, clock=True, seed=3)
    timed = [(BOOT_MS - 2000, "host " + NEW + " remote=W")]
    k, placed, pressed_at = 0, False, 0
    for line in lines + [f"{int(lines[-1].split()[0]) + 1500} button ok"]:
        t, rest = line.split(" ", 1)
        t, words = int(t) + BOOT_MS, rest.split()
        if words[0] == "place":
            if expected[k][0] == 2:
                timed.append((pressed_at + 300, "host play W " + words[1]))
            k, placed = k + 1, True
        elif words[0] == "press" and words[1] in ("black", "white"):
            if not placed:
                k += 1  # (a pass)
                if words[1] == "white":
                    timed.append((t, "host play W pass"))
            placed = False
            if words[1] == "white":
                continue  # (the remote side's clock is the board's to switch)
            pressed_at = t
        timed.append((t, rest))
    timed.sort(key=lambda item: item[0])
    last = timed[-1][0] - BOOT_MS
    host_at = [(t + BOOT_MS, command) for t, command in device_fit_host_commands() if t < last]
    return [f"{t} {rest}" for t, rest in timed], host_at, expected, path.name


def device_fit_host_commands():
    """bench/device/play.py's host commands after ``new`` (ms, text)."""
    return [(200_000, "show hint D4 Q16"), (200_100, "show clear"), (700_000, "state"), (700_050, "resend 3"),
            (850_000, "mem")]


def probe_figures(board):
    """Stop the board and read the probe's figures: {name: value or [values]}."""
    reply = board.request("exec", code="import probe\nprobe.report()\n")
    if reply["err"] or "PROBE heap" not in reply["out"]:
        raise RuntimeError("the probe failed: %r %r" % (reply["out"][-2000:], reply["err"]))
    figures = {"long": [], "out": reply["out"][-2000:]}
    for line in reply["out"].splitlines():
        if not line.startswith("PROBE "):
            continue
        kind, _, rest = line[6:].partition(" ")
        if kind == "long":
            figures["long"].append(rest)
        elif kind == "part":
            figures.setdefault("parts", []).append(rest)
        elif kind == "passes":
            figures["passes"] = int(rest)
        else:
            figures[kind] = dict(item.split("=") for item in rest.split())
    return figures


def play(img, lines, host_at, bare_taps=False, tap_ms=None):
    """The game on the emulated board: (host, [figures of each power-up])."""
    board = PicoBoard()
    powerups = []
    try:
        player = Player(board, img)
        if bare_taps:
            player.seen_scans = 0
        if tap_ms:
            player.press_ms = tap_ms

        def cut(b):
            stats = b.request("stats")
            powerups.append({"stats": stats, "probe": probe_figures(b)})

        player.on_cut = cut
        player.host_at = list(host_at)
        player.boot()
        player.play(lines)
        cut(board)
    finally:
        board.close()
    return player, powerups


def recorded_moves(host):
    """The moves in the host's record of the last game (None: no game)."""
    if not host.games.games:
        return None
    log = host.games.games[max(host.games.games)]
    try:
        return len(moves_of(log.sgf_bytes(host.sync.board_id))[1])
    except KeyError:  # (no result: sgfmill finds no RE)
        return sum(1 for line in host.lines if b" MOVE " in line)


def summary(powerups):
    """The figures of the whole game (both power-ups)."""
    probes = [p["probe"] for p in powerups]
    idle = [p["idle"] for p in probes]
    longs = sorted((line for p in probes for line in p["long"]), key=lambda x: -int(x.split()[0][3:]))
    stats = [p["stats"] for p in powerups]
    gaps = sorted((g[1] for s in stats for g in s["scanGaps"]), reverse=True)
    return {
        "least_free": min(int(p["heap"]["least_free"]) for p in probes) if int(probes[0]["heap"]["looks"]) else None,
        "idle_median_us": max(int(i["median_us"]) for i in idle),
        "idle_p90_us": max(int(i["p90_us"]) for i in idle),
        "idle_max_us": max(int(i["max_us"]) for i in idle),
        "passes": sum(p["passes"] for p in probes),
        "over_ms": {int(k) // 1000: sum(int(p["buckets"][k]) for p in probes) for k in probes[0]["buckets"]},
        "stage_max_ms": {k: max(int(p["stage_max"][k]) for p in probes) / 1000 for k in probes[0]["stage_max"]},
        "longest": longs[:8],
        "scan_gaps_ms": [round(g) for g in gaps[:8]],
        "scan_gaps_over_50": sum(g > 50 for g in gaps),
        "emulated_s": sum(s["ms"] for s in stats) / 1000,
        "instructions_m": sum(s["instructions"] for s in stats) / 1e6,
        "flash_ms": sum(s["flash"]["chipMs"] for s in stats),
        "sectors_erased": sum(s["flash"]["sectorsErased"] for s in stats),
        "led_frames": sum(s["ledFrames"] for s in stats),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=device_fit.MOVES)
    parser.add_argument("--image", help="a littlefs image (bench/pico_game.py --save-image made it)")
    parser.add_argument("--save-image", help="write the image built from this tree here, and stop")
    parser.add_argument("--bare-taps", action="store_true", help="presses are bare taps: never held for scans")
    parser.add_argument("--tap-ms", type=int, help="how long a finger presses (default tests/pico/board.py's)")
    parser.add_argument("--label", default="game")
    parser.add_argument("--remote", action="store_true", help="White played elsewhere (host play), no undo or cut")
    parser.add_argument("--detail", action="store_true", help="time the stages' parts too (a diagnostic: slower)")
    parser.add_argument("--timing", action="store_true",
                        help="no heap looks and no stage timers (bench/pico/probe.py): the loop's times only")
    args = parser.parse_args(argv)
    if args.image:
        img = pathlib.Path(args.image)
    else:
        subprocess.run(["make", "--no-print-directory", "-s", "mpy"], cwd=ROOT, check=True)
        OUT.mkdir(parents=True, exist_ok=True)
        img = pathlib.Path(args.save_image or OUT / ("bench-%s.img" % args.label))
        img.write_bytes(image(detail=args.detail, heap=not args.timing))
        if args.save_image:
            print("image: %s" % img)
            return 0
    lines, host_at, expected, name = remote_game(args.moves) if args.remote else game(args.moves)
    wall = time.monotonic()
    try:
        player, powerups = play(img, lines, host_at, args.bare_taps, args.tap_ms)
    except Missing as missing:
        print("pico: skipped, images missing:\n" + str(missing))
        return 0
    host = player.host
    moves = recorded_moves(host)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / ("bench-%s.log" % args.label)).write_bytes(b"\n".join(host.lines) + b"\n")
    ended = any(b" END " in line for line in host.lines)
    s = summary(powerups)
    s.update(label=args.label, moves=len(expected), record=name, wall_s=round(time.monotonic() - wall),
             ended=ended, held_longer=player.held_longer, bare_taps=args.bare_taps,
             tap_ms=args.tap_ms or player.press_ms)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / ("bench-%s.json" % args.label)).write_text(json.dumps(dict(s, powerups=powerups), indent=1) + "\n")
    print("emulated Pico (stock MicroPython 1.27 on rp2040js 1.4.1, 125 MHz, no XIP wait states: a little ahead"
          " of silicon; flash erase/program at W25Q16JV typical times, a model): %s carried on to %d moves,"
          " power cut after move %d" % (name, len(expected), device_fit.CUT_AFTER * args.moves // device_fit.MOVES))
    rows = [
        ("heap free at the worst point (after a collection)", "%s bytes" % s["least_free"],
         ">= %d" % BUDGET_FREE, None if s["least_free"] is None else s["least_free"] >= BUDGET_FREE),
        ("idle pass (sense + tick + host) median / p90 / max", "%.2f / %.2f / %.2f ms" % (
            s["idle_median_us"] / 1000, s["idle_p90_us"] / 1000, s["idle_max_us"] / 1000), "<= 1 ms (median)",
         s["idle_median_us"] <= 1000),
        ("loop passes (all) / over 10, 20, 50, 100 ms", "%d / %d, %d, %d, %d" % (
            s["passes"], s["over_ms"][10], s["over_ms"][20], s["over_ms"][50], s["over_ms"][100]),
         "none over 50 ms", s["over_ms"][50] == 0),
        ("longest stage in a pass (ms)", " ".join("%s %.1f" % kv for kv in s["stage_max_ms"].items())
         if any(s["stage_max_ms"][k] for k in ("sense", "tick", "sync_host")) else "(no stage timers: --timing)", "", None),
        ("gaps between two scans over 50 ms (longest, ms)", "%d %s" % (s["scan_gaps_over_50"], s["scan_gaps_ms"][:5]),
         "", None),
        ("presses held past %d ms for the board to scan" % s["tap_ms"],
         "bare taps" if args.bare_taps else "%d x 10 ms" % s["held_longer"], "0", s["held_longer"] == 0),
        ("emulated time / instructions / flash chip time / sectors erased", "%.0f s / %.0f M / %.1f s / %d" % (
            s["emulated_s"], s["instructions_m"], s["flash_ms"] / 1000, s["sectors_erased"]), "", None),
        ("LED frames / game ended (END) / wall", "%d / %s / %d s" % (s["led_frames"], ended, s["wall_s"]), "", None),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value, target, ok in rows:
        print("%-*s | %s%s" % (width, name, value, "" if ok is None else " | %s %s" % (
            target, "OK" if ok else "OVER")))
    print("longest passes (us, the Pico's ms clock at their end, stages run and their us):")
    for line in s["longest"]:
        print("  " + line)
    for i, p in enumerate(powerups):
        for line in p["probe"].get("parts", []):
            print("  power-up %d: %s" % (i + 1, line))
        if not args.timing:
            print("  power-up %d idle passes' stages (mean us): %s" % (i + 1, p["probe"].get("idle_stage_mean_us")))
    print("host record: %s moves of %d; END %s" % (moves, len(expected), ended))
    return 0 if ended and moves == len(expected) else 1


if __name__ == "__main__":
    sys.exit(main())
