"""``make sim ARGS="--engine ..."`` and the page's new game against GNU Go: the live simulator with an
engine on the other side. The person plays
on the page's board; the engine's moves come lit to place (``put_back``) and are placed from the page;
its pass, the count it proposes and the person's OK end the game, and its record names the engine.
"""

import json
import time

import pytest

from host_tools.gtp.engine import default_engine

from .sim_page import get, post, start_sim, stop_sim, wait_for


def _phys(state, vertex):
    top, left, size = state["region"]
    col = "ABCDEFGHJKLMNOPQRST".index(vertex[0])
    return (top + size - int(vertex[1:])) * 19 + left + col


def test_an_engine_plays_the_person_on_the_page(tmp_path, fake):
    proc, url = start_sim(tmp_path, "--size", "9", "--engine", " ".join(fake("ok")))
    try:
        for line in proc.stdout:  # host_tools.play says so once the board's game is started
            if "plays White" in line:
                break
        state = json.loads(get(url + "state"))
        for mine, theirs in (("D4", "E5"), ("D6", "C3")):
            assert post(url + "api/point", {"p": _phys(state, mine), "colour": 1})[0] == 200
            state = wait_for(lambda s: "put_back" in s["marks"], url)
            assert state["marks"].index("put_back") == _phys(state, theirs)
            post(url + "api/point", {"p": _phys(state, theirs), "colour": 2})
            state = wait_for(lambda s: s["state"] == "play" and s["to_move"] == "black", url)
        post(url + "api/point", {"p": _phys(state, "F6"), "colour": 1})
        wait_for(lambda s: s["moves"] == 6, url)  # (its third move)
        post(url + "api/control", {"name": "pass"})
        wait_for(lambda s: s["state"] == "counting", url)
        time.sleep(1.0)  # (the engine's proposal: nothing dead)
        post(url + "api/control", {"name": "ok"})
        state = wait_for(lambda s: s["result"], url)
        record = _wait_file(tmp_path / "games")
        assert "PW[fake_engine.py]" in record and ";B[df];W[ee];B[dd];W[cg];B[fd];W[tt];B[tt]" in record.replace("\n", "")
        assert f"RE[{state['result']}]" in record
    finally:
        stop_sim(proc)


def _wait_file(folder, seconds=10.0):
    end = time.time() + seconds
    while time.time() < end:
        files = list(folder.glob("*.sgf"))
        if files:
            return files[0].read_text()
        time.sleep(0.1)
    raise AssertionError("host_tools.play wrote no SGF")


def test_a_game_against_gnugo_started_from_the_page(tmp_path):
    if default_engine() is None:
        pytest.skip("GNU Go is not installed (make test installs it)")
    proc, url = start_sim(tmp_path, "--size", "9")
    try:
        assert json.loads(get(url + "options"))["engine"] is True
        new = {"rules": "japanese", "size": 9, "handicap": 0, "time": "none", "opponent": "gnugo", "colour": "W",
               "level": 0}
        assert post(url + "api/new", dict(new, level=11))[0] == 400  # (no such level: nothing started)
        assert post(url + "api/new", new)[0] == 200
        state = wait_for(lambda s: "put_back" in s["marks"] and s["logger"] == "engine", url)
        post(url + "api/point", {"p": state["marks"].index("put_back"), "colour": 1})  # GNU Go's first stone
        wait_for(lambda s: s["state"] == "play" and s["to_move"] == "white", url)
        for _ in range(2):  # (the page asks once more)
            post(url + "api/control", {"name": "resign_white"})
        wait_for(lambda s: s["result"] == "B+R" and s["logger"] == "running", url)  # the logger back
        record = _wait_file(tmp_path / "games")
        assert "PB[GNU Go" in record and "RE[B+R]" in record
    finally:
        stop_sim(proc)


def test_a_lesson_started_from_the_page_runs_on_the_board_and_gives_the_port_back(tmp_path):
    """The page's Teaching: lesson 2, capture Go on 7x7, run by host_tools.teach on the board's port
    in the logger's place; the person plays both sides on the page; at the first capture the lesson
    ends and the logger has the port again."""
    proc, url = start_sim(tmp_path, "--size", "9")
    try:
        options = json.loads(get(url + "options"))
        assert options["lessons"][1] == "Capture Go"
        assert post(url + "api/teach", {"what": "lesson", "lesson": 2})[0] == 200
        state = wait_for(lambda s: s["size"] == 7 and s["logger"] == "teaching", url)
        for k, vertex in enumerate(("C4", "D4", "E4", "A1", "D5", "A2", "D3"), 1):
            post(url + "api/point", {"p": _phys(state, vertex), "colour": 0})
            state = wait_for(lambda s, k=k: s["moves"] == k, url)
        state = wait_for(lambda s: s["result"] == "B+", url)
        assert any("The first to capture a stone wins" in str(entry) for entry in state["log"]), state["log"]
        assert state["result_words"] == "Black wins at capture Go, the first to capture 1 stone"
        wait_for(lambda s: s["logger"] == "running", url, timeout=30)  # the lesson done: the logger is back
        assert post(url + "api/teach", {"what": "lesson", "lesson": 9})[0] == 400
    finally:
        stop_sim(proc)
