"""A power cut in the simulator: the simulated board's process is killed mid-game (SIGKILL:
nothing is saved on the way down), started again on the same flash and stones, recovers the
game, and the game is finished. A logger that ran all along holds the whole game in one SGF,
every move once."""

import os
import signal
import subprocess
import sys
import time

from tests.host.sim_page import post, recorded_game, start_sim, stop_sim, wait_for

from .conftest import ROOT

SIM_ARGS = ("--size", "9", "--time", "byoyomi 10m 3x30s", "--no-logger")


def play(url, moves, first):
    """Place each stone, wait for the board to record it, press the mover's clock."""
    for n, p in enumerate(moves, first):
        assert post(url + "api/point", {"p": p}) == (200, {"ok": True, "error": None})
        wait_for(lambda s, n=n: s["moves"] == n, url)
        colour = "black" if n % 2 else "white"
        post(url + "api/button", {"name": colour})
        wait_for(lambda s, colour=colour: s["clock"]["running"] != colour, url)


def test_power_cut_mid_game_loses_nothing(tmp_path):
    port = tmp_path / "board.tty"
    state = tmp_path / "flash"
    games = tmp_path / "host"
    proc = None
    logger = subprocess.Popen([sys.executable, "-m", "host_tools.logger", str(port), "--out", str(games), "--quiet"],
                              cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        args = (*SIM_ARGS, "--state", str(state), "--tty-link", str(port))
        proc, url = start_sim(tmp_path, *args)
        centre = 9 * 19 + 9  # physical points of the 9x9 region in the middle of the board
        first = [centre, centre + 1, centre + 19, centre - 19, centre - 1]
        play(url, first, 1)
        time.sleep(1.0)  # Black thinks for a second
        proc.send_signal(signal.SIGKILL)  # the plug is pulled
        proc.wait(10)
        before = {f.name for f in games.glob("*.sgf")}

        proc, url = start_sim(tmp_path, *args)
        s = wait_for(lambda s: s["moves"] == 5 and s["message"] == "white to play", url)  # the stones match
        assert any("power back: game recovered at move 5" in line for line in s["log"])
        white_face = s["clock"]["white"]
        time.sleep(1.2)  # the clock runs again once the stones match: the stones never moved
        s = wait_for(lambda s: s["clock"]["white"] != white_face, url)
        assert s["clock"]["running"] == "white"
        play(url, [centre + 20, centre - 20, centre + 18], 6)
        for _ in range(2):  # a resignation is pressed twice
            assert post(url + "api/control", {"name": "resign_white"}) == (200, {"ok": True, "error": None})
        wait_for(lambda s: s["result"] == "B+R", url)

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(b"RE[B+R]" in r.read_bytes() for r in games.glob("*.sgf")):
            time.sleep(0.1)
        game, moves = recorded_game(games)  # one game, one file
        assert {r.name for r in games.glob("*.sgf")} == before  # the file of before the cut
        points = [*first, centre + 20, centre - 20, centre + 18]
        expected = [("b" if i % 2 == 0 else "w", (18 - p // 19 - 5, p % 19 - 5)) for i, p in enumerate(points)]
        assert moves == expected  # complete, in order, nothing twice
        assert game.get_root().get("RE") == "B+R"
        stop_sim(proc)
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
        logger.send_signal(signal.SIGINT)
        logger.wait(10)
    assert "Traceback" not in logger.stderr.read()
    assert os.path.exists(state / "journal.bin")
