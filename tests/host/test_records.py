"""Records that can be trusted (docs/records.md): a simulated board registered with a venue's key
plays with a clock and ends its game; the venue checks its hashes and signature line by line, its
SGF carries the proof, and the proof catches an edited move, clock figure or result, a forged line,
and a record checked with another venue's key."""

import subprocess
import sys
import zlib

import pytest

from firmware import protocol as pr
from firmware import protocol_host as ph
from firmware.settings import Settings
from host_tools import sgf
from host_tools.records import board_key, verify_sgf
from host_tools.sim.headless import Simulation
from host_tools.sim.physical import script_lines
from host_tools.sim.script import parse
from host_tools.venue.archive import Archive
from host_tools.venue.demo import GAMES, legal_prefix
from host_tools.venue.exports import game_sgf
from host_tools.venue.keys import signed_command
from host_tools.venue.service import Venue
from twins.link import Pipe

from .conftest import ROOT

VENUE_KEY = bytes(range(32))
RECORD = sorted(GAMES.glob("*.sgf"))[1]


def board_lines(venue_key=VENUE_KEY, moves=40, board_id="t7"):
    """The lines of a simulated board (registered with ``venue_key`` unless None) that plays
    ``moves`` moves of a professional game with a byo-yomi clock, then resigns for White."""
    pipe = Pipe()
    sim = Simulation(Settings(19, "japanese", time_spec="byoyomi 1m 3x30s", players={"pb": "Ann", "pw": "Bo"}),
                     transport=pipe.board, board_id=board_id)

    def host(command):
        pipe.send(pr.encode_command(command))
        sim.advance(sim.now + 50)
        sim.app.sync_host(sim.now)

    if venue_key is not None:
        host("key " + board_key(venue_key, board_id).hex())
    record = sgf.read(RECORD.read_bytes())
    lines, _ = script_lines(19, legal_prefix(record.moves)[:moves], seed=zlib.crc32(RECORD.name.encode()), clock=True)
    events, _ = parse(lines, 19)
    for event in events:
        sim.advance(event.t_ms)
        sim.apply(event)
        sim.app.sync_host(sim.now)
    host("end W+R" if venue_key is None else signed_command(board_key(venue_key, board_id), "end W+R", 1))
    return [raw.decode() for raw in pipe.take().split(b"\n") if raw]


def feed(lines, venue_key=VENUE_KEY, tmp_path=None):
    venue = Venue(Archive("sqlite:///%s" % (tmp_path / ("v%d.db" % id(lines)))), "127.0.0.1:1", key=venue_key)
    venue.client.publish = lambda *args, **kwargs: None
    for i, raw in enumerate(lines):
        seq = ph.decode(raw.encode())[0]
        venue.line("t7", 1, seq, raw, ph.decode(lines[i - 1].encode())[0] if i else -1)
    return venue


def edited(lines, kind, change):
    """The lines with the first ``kind`` line changed by ``change(fields)`` and its CRC made good
    again (a forger's edit, not line noise)."""
    out = list(lines)
    for i, raw in enumerate(out):
        seq, k, fields = ph.decode(raw.encode())
        if k == kind:
            out[i] = ph.encode(seq, k, change(list(fields))).decode().rstrip("\n")
            return out
    raise AssertionError("no %s line" % kind)


@pytest.fixture(scope="module")
def signed():
    return board_lines()


def test_the_venue_checks_a_signed_game_and_its_sgf_carries_the_proof(signed, tmp_path):
    assert any(" sign=1 " in raw for raw in signed if " HELLO " in raw)
    venue = feed(signed, tmp_path=tmp_path)
    view = venue.live["t7"]
    assert view.seal == "signed" and view.problems == [] and view.games.current.result == "W+R"
    assert [g["seal"] for g in venue.archive.games()] == ["signed"]
    data = game_sgf(view, {"name": "Club Cup"})
    ok, why = verify_sgf(data, VENUE_KEY)
    assert ok, why
    assert why.startswith("signed by board t7 (40 moves")
    path = tmp_path / "t7.sgf"
    path.write_bytes(data)
    key_file = tmp_path / "venue.key"

    def verify_command():
        return subprocess.run([sys.executable, "-m", "host_tools.venue.keys", "--key-file", str(key_file), "verify",
                               str(path)], cwd=ROOT, capture_output=True, text=True)

    run = verify_command()
    assert run.returncode == 1 and "no venue key at" in run.stderr  # checking never makes a key
    key_file.write_text(bytes(32).hex() + "\n")  # another venue's
    run = verify_command()
    assert run.returncode == 1 and ": FAILED: bad signature" in run.stdout, run.stdout + run.stderr
    key_file.write_text(VENUE_KEY.hex() + "\n")
    run = verify_command()
    assert run.returncode == 0 and ": OK: signed by board t7" in run.stdout, run.stdout + run.stderr


def test_an_edited_record_fails_its_check(signed, tmp_path):
    data = game_sgf(feed(signed, tmp_path=tmp_path).live["t7"], {}).decode()
    node = data.index(";W[")  # White's first move: its clock figure, its point
    clock = data.index("WL[", node)
    tampered = {
        "clock figure": data[:clock + 3] + "1" + data[clock + 3:],
        "move": data[:node + 3] + ("a" if data[node + 3] != "a" else "b") + data[node + 4:],
        "result": data.replace("RE[W+R]", "RE[B+R]"),
    }
    for what, text in tampered.items():
        ok, why = verify_sgf(text.encode(), VENUE_KEY)
        assert not ok and "differs from what the board hashed" in why, what
    ok, why = verify_sgf(data.encode(), bytes(32))
    assert not ok and "bad signature" in why
    ok, why = verify_sgf(data.encode(), None)
    assert ok and "no key given" in why


def test_a_forged_move_line_is_flagged_by_the_venue(signed, tmp_path):
    forged = edited(signed, "MOVE", lambda f: f[:2] + ["aa" if f[2] != "aa" else "ab"] + f[3:])
    view = feed(forged, tmp_path=tmp_path).live["t7"]
    assert view.seal == "broken"
    assert view.problems[0].startswith("move 1 differs from the board's record")
    assert "problem" == view.summary()["state"]


def test_a_forged_result_or_a_board_of_another_venue_is_flagged(signed, tmp_path):
    forged = edited(signed, "END", lambda f: [f[0], "re=B+R"] + f[2:])
    view = feed(forged, tmp_path=tmp_path).live["t7"]
    assert view.seal == "broken" and view.problems == ["the result differs from the board's record (its hash)"]
    view = feed(signed, venue_key=bytes(32), tmp_path=tmp_path).live["t7"]
    assert view.seal == "broken" and "signature does not verify" in view.problems[0]


def test_an_unregistered_board_is_hashed_not_signed(tmp_path):
    view = feed(board_lines(venue_key=None, moves=6), tmp_path=tmp_path).live["t7"]
    assert view.seal == "unsigned" and view.problems == []
    ok, why = verify_sgf(game_sgf(view, {}), VENUE_KEY)
    assert not ok and "unsigned" in why
