"""python -m host_tools.sim --headless: scripts in, SGF out, bad lines reported by number."""

import subprocess
import sys

from sgfmill import sgf

from host_tools.sim.script import ScriptError, parse, parse_line

from .conftest import ROOT

SCRIPT = """# a short game on 9x9
100 place E5
900 hover D4 40          # a hand passing over D4
1000 place C3
2000 press white         # not White's turn: ignored
2500 frob
2600 place Z9
3000 press black         # Black presses without a stone: a pass
4000 place G7
"""


def run(*args, script=SCRIPT, tmp_path=None):
    path = tmp_path / "game.script"
    path.write_text(script)
    return subprocess.run([sys.executable, "-m", "host_tools.sim", "--headless", "--script", str(path), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_a_script_with_bad_lines_names_them_all_and_plays_nothing(tmp_path):
    out = tmp_path / "kept.sgf"
    out.write_text("(;FF[4]SZ[9])")  # an earlier record: a bad script must not overwrite it
    done = run("--size", "9", "--sgf", str(out), tmp_path=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert "game.script:line 6: unknown action 'frob'" in done.stderr
    assert "game.script:line 7: bad vertex 'Z9'" in done.stderr
    assert "2 bad lines: nothing played" in done.stderr and "Traceback" not in done.stderr
    assert out.read_text() == "(;FF[4]SZ[9])"


def test_headless_writes_the_recorded_game(tmp_path):
    clean = "".join(line + "\n" for line in SCRIPT.splitlines() if "frob" not in line and "Z9" not in line)
    done = run("--size", "9", "--rules", "korean", script=clean, tmp_path=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    game = sgf.Sgf_game.from_string(done.stdout)
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    assert moves == [("b", (4, 4)), ("w", (2, 2)), ("b", None), ("w", (6, 6))]
    assert game.get_root().get("RU") == "Korean" and game.get_size() == 9


def test_sgf_file_polarity_and_a_clean_script(tmp_path):
    script = "100 place E5 black\n1000 place C3 black\n1500 lift C3\n2000 place C3 white\n"
    out = tmp_path / "out.sgf"
    done = run("--size", "9", "--sensors", "polarity", "--sgf", str(out), script=script, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    game = sgf.Sgf_game.from_bytes(out.read_bytes())
    assert [n.get_move() for n in game.get_main_sequence()[1:]] == [("b", (4, 4)), ("w", (2, 2))]


def test_errors_are_messages_not_tracebacks(tmp_path):
    done = subprocess.run([sys.executable, "-m", "host_tools.sim", "--headless", "--script",
                           str(tmp_path / "missing")], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 1 and "cannot read the script" in done.stderr
    done = run("--rules", "op", "--handicap", "2", tmp_path=tmp_path)
    assert done.returncode == 1 and "no handicap" in done.stderr and "Traceback" not in done.stderr
    done = run("--sensors", "presence", "--hardware", "hall", tmp_path=tmp_path)
    assert done.returncode == 1 and "hall sensors cannot ignore colours" in done.stderr
    done = subprocess.run([sys.executable, "-m", "host_tools.sim", "--headless"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 2 and "--headless needs --script FILE" in done.stderr


def test_script_grammar():
    events, errors = parse(["10 place a1 white", "20 hover T19 30 black", "30 lift A1", "40 press b",
                            "50 button pass", "# comment", "", "60 button resign_white"], 19)
    assert not errors and [e.action for e in events] == ["place", "hover", "lift", "press", "button", "button"]
    assert events[0].colour == 2 and events[1].duration_ms == 30
    bad = {"x place A1": "time", "10": "missing action", "10 place": "needs a vertex",
           "10 place A1 red": "bad colour", "10 hover A1": "hover takes", "10 hover A1 -5": "positive",
           "10 hover A1 x": "whole number", "10 press": "press takes", "10 button dance": "button takes",
           "10 lift A1 B2": "lift takes one"}
    for text, words in bad.items():
        try:
            parse_line(text, 3, 19, 0)
        except ScriptError as error:
            assert error.line == 3 and words in str(error), (text, str(error))
        else:
            raise AssertionError(text)
    _events, errors = parse(["100 place A1", "50 lift A1"], 19)
    assert errors and "time only moves forward" in str(errors[0])


def test_make_sim_pipeline_records_the_example_game(tmp_path):
    """What `make sim` runs: a record turned into hands, played, recorded identical."""
    record = ROOT / "examples" / "handicap-game.sgf"
    script = subprocess.run([sys.executable, "-m", "host_tools.sim.physical", str(record)], capture_output=True,
                            text=True, cwd=ROOT, timeout=120)
    assert script.returncode == 0, script.stderr
    out = tmp_path / "demo.sgf"
    done = run("--handicap", "2", "--sgf", str(out), script=script.stdout, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    moves = lambda g: [n.get_move() for n in g.get_main_sequence()[1:]]  # noqa: E731
    original = sgf.Sgf_game.from_bytes(record.read_bytes())
    recorded = sgf.Sgf_game.from_bytes(out.read_bytes())
    assert moves(recorded) == moves(original) and recorded.get_root().get("HA") == 2
    assert recorded.get_root().get("KM") == 0.5


def test_the_live_board_refuses_bad_options_with_a_message(tmp_path):
    import socket

    def live(*args):
        return subprocess.run([sys.executable, "-m", "host_tools.sim", "--no-browser", "--games",
                               str(tmp_path / "games"), *args], capture_output=True, text=True, cwd=ROOT, timeout=60)

    done = live("--port", "99999")
    assert done.returncode == 2 and "--port must be 0..65535" in done.stderr
    done = subprocess.run([sys.executable, "-m", "host_tools.sim", "--no-browser", "--games", "/proc/nope"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 1 and "cannot write games to /proc/nope" in done.stderr
    bad = tmp_path / "bad.script"
    bad.write_text("100 place E5\n200 frob\n")
    done = live("--port", "0", "--script", str(bad))
    assert done.returncode == 1 and "line 2" in done.stderr and "http://" not in done.stdout
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = live("--port", str(port))  # asked for this one: an error, never another port silently
    assert done.returncode == 1 and "cannot listen on 127.0.0.1:%d:" % port in done.stderr
    assert "Traceback" not in done.stderr


def test_a_binary_script_is_named_and_nothing_is_played(tmp_path):
    """Issue 36, item 16: not a UnicodeDecodeError's text, but the file named; exit status 2."""
    path = tmp_path / "game.sgf.gz"
    path.write_bytes(b"\x1f\x8b\x08\x00\xff\xfe binary \x00\x81")
    out = tmp_path / "kept.sgf"
    out.write_text("(;FF[4]SZ[9])")
    done = subprocess.run([sys.executable, "-m", "host_tools.sim", "--headless", "--script", str(path), "--sgf",
                           str(out)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr, done.stderr
    assert str(path) in done.stderr and "not a text file" in done.stderr and "codec" not in done.stderr
    assert out.read_text() == "(;FF[4]SZ[9])"
