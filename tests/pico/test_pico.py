"""The deploy path on a real Pico's firmware: main.py booted on an emulated RP2040 and a game played.

Stock MicroPython 1.27 on rp2040js (tests/pico/board.mjs), its flash holding exactly what
``make deploy`` writes (tests/pico/fs_image.py), boots firmware/main.py, which builds the real
drivers from board_config.py on models of the board's parts. A professional game's first 56
moves (captures among them) are played by simulated hands from a physical event script
(host_tools/sim/physical.py), with a clock, one move taken back (MENU), a power cut at an
arbitrary instant after move 40 (the flash kept, a fresh Pico booted from it, the game
recovered from the journal), two passes and the count accepted (MENU). The host on the USB
serial port is the logger's own sync and game model; the SGF it builds must hold the game
played, and agree with the headless simulator's record of the same script.

    make test-pico            # (or: .venv/bin/python -m pytest tests/pico -s)

The test prints the figures: heap free at boot and after the game, flash sectors erased and
pages programmed per power-up, emulated and wall time; build/pico/game-figures.json keeps them
(and build/pico/game.log the lines the host read, and the display's last frame).
"""

from __future__ import annotations

import json
import pathlib
import re
import time

import pytest
from sgfmill import sgf as sgfmill

from bench.device_fit import with_undo
from firmware import board_config as cfg
from firmware.rules.coords import PASS, col_row
from firmware.settings import Settings
from host_tools import sgf
from host_tools.sim.headless import Simulation
from host_tools.sim.physical import script_lines
from host_tools.sim.script import parse
from tests.pico import fs_image
from tests.pico.board import Missing, PicoBoard, Player
from twins.storage import SimStorage

ROOT = pathlib.Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "data" / "sgf" / "123_SGW_06_P12.sgf"  # captures at moves 28, 53, 56
MOVES = 56
UNDO_AT = 30  # the move taken back (MENU), lifted and played again
CUT_AFTER = 40  # the power is cut a while after this move's clock press
CUT_DELAY_MS = 731  # ... this long after: an arbitrary instant, the board busy scanning
BOOT_MS = 6000  # the board's start (MicroPython, the code loading from littlefs) before the hands come
LOG = ROOT / "build" / "pico" / "game.log"  # the board's lines as the host read them (kept after a run)
FIGURES = LOG.with_name("game-figures.json")  # each power-up's figures: flash counters, scans, frames, heap
NEW = "new rules=japanese size=19 komi=6.5 time=byoyomi%205m%203x30s pb=Hands%20B pw=Hands%20W"


def game_script():
    """(script lines, the moves the record must hold as (colour, point))."""
    record = sgf.read(RECORD.read_bytes())
    moves = list(record.moves[:MOVES])
    colour = 3 - moves[-1][0]
    moves += [(colour, PASS), (3 - colour, PASS)]
    lines, expected = script_lines(19, moves, clock=True, seed=3)
    lines = with_undo(lines, UNDO_AT)
    lines = [f"{int(t) + BOOT_MS} {rest}" for t, rest in (line.split(" ", 1) for line in lines)]
    places = 0
    for i, line in enumerate(lines):
        places += line.split()[1] == "place"
        if places > CUT_AFTER:  # the next move's first event: the cut comes before it, the hands wait
            prev = int(lines[i - 1].split()[0])
            cut = prev + CUT_DELAY_MS
            lines = lines[:i] + [f"{cut} power cut"] + [
                f"{int(t) + BOOT_MS} {rest}" for t, rest in (x.split(" ", 1) for x in lines[i:])]
            break
    last = int(lines[-1].split()[0])
    lines = [f"{BOOT_MS - 2000} host {NEW}"] + lines + [f"{last + 1500} button ok"]  # the count accepted
    return lines, expected


def moves_of(sgf_bytes):
    game = sgfmill.Sgf_game.from_bytes(sgf_bytes)
    out = []
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        if colour is None:
            continue
        out.append((1 if colour == "b" else 2, move))
    return game.get_root().get("RE"), out


def sgf_move(pt):
    """A game point as sgfmill's (row from the bottom, column), None for a pass."""
    if pt == PASS:
        return None
    col, row = col_row(19, pt)
    return (18 - row, col)


def simulated_record(lines):
    """The same script on the headless simulator (the firmware's app on its twins): its SGF."""
    events, errors = parse(lines, 19)
    assert not errors
    sim = Simulation(Settings(), storage=SimStorage(), record=True)
    sim.run(events)
    return sim.sgf()


@pytest.fixture(scope="module")
def boot_image(tmp_path_factory):
    """make deploy's layout as a littlefs image (the make mpy bundle built first)."""
    import subprocess

    subprocess.run(["make", "--no-print-directory", "-s", "mpy"], cwd=ROOT, check=True)
    image = tmp_path_factory.mktemp("pico") / "deploy.img"
    image.write_bytes(fs_image.build(fs_image.deploy_files()))
    return image


def mem_free(host):
    """The heap free at each of the board's MEM answers, in order (the first may come late: a
    first boot makes the journal's flash region)."""
    return [int(m.group(1)) for line in host.lines if (m := re.search(rb" MEM free=(\d+) ", line))]


def test_the_board_config_is_the_one_the_parts_model():
    """parts.mjs wires its models to board_config's pins: the two must agree."""
    text = (ROOT / "tests" / "pico" / "parts.mjs").read_text()
    for name in ("SR_SPI_ID", "SR_LOAD", "SR_CHIPS", "DISPLAY_I2C_ID", "LED_COUNT"):
        assert re.search(r"\b%s: %d\b" % (name, getattr(cfg, name)), text), name
    buttons = (cfg.BUTTON_BLACK, cfg.BUTTON_WHITE, cfg.BUTTON_PAUSE, cfg.BUTTON_MENU)
    assert "BUTTONS: [%s]" % ", ".join(map(str, buttons)) in text
    assert cfg.SENSORS == "shift" and cfg.LINK == "usb" and cfg.DISPLAY == "ssd1306"


def test_main_boots_on_a_pico_and_a_game_is_recorded_through_a_power_cut(boot_image, capsys):
    wall = time.monotonic()
    lines, expected = game_script()
    try:
        board = PicoBoard()
    except Missing as missing:
        pytest.skip(str(missing))
    figures = {}
    try:
        player = Player(board, boot_image)
        player.on_cut = lambda b: figures.setdefault("first", b.request("stats"))
        player.boot()
        player.run_to(BOOT_MS - 2500)
        player.host.send("mem", player.now / 1000)  # the heap once booted, before the game
        player.run_to(BOOT_MS - 2200)
        player.play(lines)
        player.host.send("mem", player.now / 1000)
        player.run_to(player.now + 1000)
        answers = mem_free(player.host)
        boot_free, end_free = (answers[0], answers[-1]) if len(answers) >= 2 else (None, None)
        figures["second"] = board.request("stats")
    finally:
        board.close()
    host = player.host
    LOG.parent.mkdir(parents=True, exist_ok=True)  # for a person reading a failure: what the host read
    LOG.write_bytes(b"\n".join(host.lines) + b"\n\n" + figures["second"]["display"].encode() + b"\n")
    FIGURES.write_text(json.dumps(dict(figures, heap_free_boot=boot_free, heap_free_end=end_free,
                                       held_longer=player.held_longer), indent=1) + "\n")
    gid = max(host.games.games)
    log = host.games.games[gid]
    record = log.sgf_bytes(host.sync.board_id)
    result, played = moves_of(record)

    kinds = [line.split(b" ", 2)[1] for line in host.lines if line[:1].isdigit()]
    with capsys.disabled():
        first, second = figures["first"], figures["second"]
        print(f"\n[pico] heap free: {boot_free} bytes after boot, {end_free} after the game")
        for name, f in (("before the cut", first), ("after the cut", second)):
            fl = f["flash"]
            print(f"[pico] {name}: {f['ms'] / 1000:.1f} s emulated, {f['instructions'] / 1e6:.0f} M instructions, "
                  f"{fl['sectorsErased']} sectors erased ({fl['eraseCalls']} calls), {fl['pagesProgrammed']} pages "
                  f"programmed, {fl['chipMs']:.0f} ms of flash chip time; LED frames {f['ledFrames']}, "
                  f"display frames {f['displayFrames']}")
        print(f"[pico] longest gaps between scans (ms): "
              f"{sorted((round(g[1]) for g in first['scanGaps'] + second['scanGaps']), reverse=True)[:5]}; "
              f"fingers held past 60 ms for the board to scan: {player.held_longer} x 10 ms")
        print(f"[pico] result {result}; {len(played)} moves recorded; wall {time.monotonic() - wall:.0f} s")

    assert boot_free and end_free, "the board answered no mem"
    assert b"ERR" not in kinds, [line for line in host.lines if b" ERR " in line]
    assert kinds.count(b"UNDO") == 1  # the move taken back
    hellos = [line for line in host.lines if b" HELLO " in line]
    assert any(b" boot=1 " in line for line in hellos) and any(b" boot=2 " in line for line in hellos)
    assert played == [(c, sgf_move(p)) for c, p in expected], "the SGF does not hold the game played"
    assert result and log.result == result
    assert b" END " in b"\n".join(host.lines)
    assert first["flash"]["pagesProgrammed"] > 0 and second["flash"]["pagesProgrammed"] > 0  # the journal wrote
    assert second["displayFrames"] > 0 and second["ledFrames"] > 0  # display and LEDs driven by the real drivers
    assert "#" in second["display"] and second["ledsLit"] > 0  # ... and showing something (the result, the count)

    reference = simulated_record(lines)
    assert moves_of(reference) == (result, played), "the Pico and the simulator disagree on the game"
