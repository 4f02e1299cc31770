"""Records that can be trusted (docs/records.md): a simulated board registered with a venue's key
plays with a clock and ends its game; the venue checks its hashes and signature line by line, its
SGF carries the proof, and the proof catches an edited move, clock figure or result, a forged line,
and a record checked with another venue's key."""

import random
import re
import subprocess
import sys
import zlib

import pytest

from firmware import protocol as pr
from firmware.rules.handicap import fixed_points
from firmware.settings import Settings
from host_tools import sgf
from host_tools.board import protocol as ph
from host_tools.records import board_key, verify_sgf
from host_tools.sim.headless import Simulation
from host_tools.sim.physical import random_moves, script_lines
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


def board_lines(venue_key=VENUE_KEY, moves=40, board_id="t7", settings=None, handicap=()):
    """The lines of a simulated board (registered with ``venue_key`` unless None) that plays
    ``moves`` moves of a professional game with a byo-yomi clock (or of ``settings``, after
    the ``handicap`` stones), then resigns for White."""
    pipe = Pipe()
    settings = settings or Settings(19, "japanese", time_spec="byoyomi 1m 3x30s", players={"pb": "Ann", "pw": "Bo"})
    sim = Simulation(settings, transport=pipe.board, board_id=board_id)

    def host(command):
        pipe.send(pr.encode_command(command))
        sim.advance(sim.now + 50)
        sim.app.sync_host(sim.now)

    if venue_key is not None:
        host("key " + board_key(venue_key, board_id).hex())
    record = sgf.read(RECORD.read_bytes())
    played = legal_prefix(record.moves)[:moves] if not handicap else random_moves(19, moves, random.Random(7), 2)
    lines, _ = script_lines(19, played, handicap, seed=zlib.crc32(RECORD.name.encode()), clock=True)
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


def test_a_forged_move_line_is_kept_apart_by_the_venue(signed, tmp_path):
    """An edited MOVE line (its CRC made good) does not continue the board's chain: kept apart,
    never shown, and the board listed with what was refused; the moves after it, which no
    longer follow, are refused too (the board's own move 1 never came)."""
    forged = edited(signed, "MOVE", lambda f: f[:2] + ["aa" if f[2] != "aa" else "ab"] + f[3:])
    venue = feed(forged, tmp_path=tmp_path)
    view = venue.live["t7"]
    assert view.games.current.moves == [] and view.games.current.result is None
    summary = view.summary()
    assert summary["state"] == "problem" and summary["quarantined"] == 41  # 40 moves and the result
    assert "line 3 MOVE refused: move 1 does not continue the board's chain" in view.problems[0]
    assert {q["raw"] for q in venue.archive.quarantined("t7")} >= {raw for raw in forged if " MOVE " in raw}
    assert not any(" MOVE " in raw for *_rest, raw, _t in venue.archive.all_lines())


def test_a_forged_result_or_a_board_of_another_venue_is_kept_apart(signed, tmp_path):
    forged = edited(signed, "END", lambda f: [f[0], "re=B+R"] + f[2:])
    view = feed(forged, tmp_path=tmp_path).live["t7"]
    assert view.games.current.result is None and len(view.games.current.moves) == 40 and view.seal == "hashed"
    assert view.problems == ["line 43 END refused: the result B+R does not close the board's chain (hash=): an "
                             "edit, a forgery or a replay"]
    view = feed(signed, venue_key=bytes(32), tmp_path=tmp_path).live["t7"]
    assert view.games.current.result is None
    assert "signature does not verify" in view.problems[0] and view.summary()["state"] == "problem"


def test_an_unregistered_board_is_hashed_not_signed(tmp_path):
    view = feed(board_lines(venue_key=None, moves=6), tmp_path=tmp_path).live["t7"]
    assert view.seal == "unsigned" and view.problems == []
    ok, why = verify_sgf(game_sgf(view, {}), VENUE_KEY)
    assert not ok and "unsigned" in why


# Every edit of a property that defines the game, or of the nodes, in a signed record. Each is
# (what, a regular expression, its replacement): applied once to the record's text.
TAMPER = [
    ("SZ", r"SZ\[19\]", "SZ[18]"),
    ("KM", r"KM\[[^]]*\]", "KM[6.5]"),
    ("RU", r"RU\[[^]]*\]", "RU[Chinese]"),
    ("HA", r"HA\[2\]", "HA[3]"),
    ("HA added", r"KM\[", "HA[2]KM["),
    ("AB moved", r"AB\[(\w\w)\]", "AB[aa]"),
    ("AB added", r"KM\[", "AB[aa]KM["),
    ("AW added", r"KM\[", "AW[ss]KM["),
    ("AE added", r"AB\[", "AE[ab]AB["),
    ("PB", r"PB\[Ann\]", "PB[Mallory]"),
    ("PW", r"PW\[Bo\]", "PW[Mallory]"),
    ("PB removed", r"PB\[Ann\]", ""),
    ("EV", r"EV\[Club Cup\]", "EV[Other Cup]"),
    ("RO", r"RO\[3\]", "RO[4]"),
    ("DT", r"DT\[2026-11-23\]", "DT[2026-11-24]"),
    ("TM", r"TM\[60\]", "TM[600]"),
    ("OT", r"OT\[[^]]*\]", "OT[5x30 byo-yomi]"),
    ("AB in a move node", r";W\[", ";AB[aa]W["),
    ("AE in a move node", r";W\[", ";AE[dp]W["),
    ("AW in a move node", r";B\[", ";AW[aa]B["),
    ("PL in a move node", r";W\[", ";PL[B]W["),
    ("a node with no move", r";W\[", ";C[hello];W["),
    ("a variation", r"\)\s*$", "(;B[aa]))"),
    ("a move in the root", r"KM\[", "B[aa]KM["),
    ("a second move in a node", r";W\[(\w\w)\]", ";W[\\1]B[aa]"),
    ("the result", r"RE\[W\+R\]", "RE[B+R]"),
    ("a move", r";W\[(\w)(\w)\]", lambda m: ";W[%s%s]" % (m.group(1), "a" if m.group(2) != "a" else "b")),
    ("a clock figure", r"WL\[(\d)", "WL[1\\1"),
    ("the signature", r"GBSIG\[(\w)", lambda m: "GBSIG[" + ("0" if m.group(1) != "0" else "1")),
    ("the game header", r"komi=0.5", "komi=6.5"),
]


@pytest.fixture(scope="module")
def handicap_record(tmp_path_factory):
    """A signed handicap game with every defining property signed: players, event, round, date."""
    settings = Settings(19, "japanese", handicap=2, time_spec="byoyomi 1m 3x30s",
                        players={"pb": "Ann", "pw": "Bo", "ev": "Club Cup", "ro": "3", "dt": "2026-11-23"})
    lines = board_lines(moves=12, settings=settings, handicap=fixed_points(19, 2))
    view = feed(lines, tmp_path=tmp_path_factory.mktemp("h")).live["t7"]
    assert view.problems == [] and view.seal == "signed", view.problems
    return game_sgf(view, {"name": "Venue Cup", "date": "2026-01-01", "place": "Hall"}).decode()


def test_every_edit_of_a_signed_record_fails_its_check(handicap_record):
    """The signature covers every property that defines the game and every node: 30 edits, each
    caught; the untouched record passes (and carries the board's event, not the venue's)."""
    data = handicap_record
    ok, why = verify_sgf(data.encode(), VENUE_KEY)
    assert ok and why.startswith("signed by board t7 (12 moves"), why
    assert "EV[Club Cup]" in data and "PC[Hall]" in data and "Venue Cup" not in data
    passed = []
    for what, pattern, replacement in TAMPER:
        text, n = re.subn(pattern, replacement, data, count=1)
        assert n == 1 and text != data, "the %s edit found nothing to change" % what
        ok, why = verify_sgf(text.encode(), VENUE_KEY)
        if ok:
            passed.append(what)
    assert passed == []


def test_a_record_whose_board_signed_no_players_carries_none(tmp_path):
    """A board given no players (no ``new`` from the venue) signs none: the venue's pairing
    names stay out of its sealed record rather than ride along unsigned."""
    venue = feed(board_lines(moves=4, settings=Settings(19, "japanese")), tmp_path=tmp_path)
    venue.pair("t7", {"round": 1, "table_no": 1, "black": "Ann", "white": "Bo", "black_rank": "3k"})
    data = game_sgf(venue.live["t7"], {"name": "Club Cup", "date": "2026-11-23", "place": "Hall"}).decode()
    assert "PB[" not in data and "EV[" not in data and "DT[" not in data and "RO[" not in data
    assert "BR[3k]" in data and "PC[Hall]" in data  # (ranks and the place are the venue's word, not the game)
    ok, why = verify_sgf(data.encode(), VENUE_KEY)
    assert ok, why


def test_registering_at_the_desk_notes_the_board_in_the_venues_registry(tmp_path):
    """``keys register PORT --db URL``: the board gets its secret over its cable, and the venue's
    registry says it is registered, so the venue refuses a result of it that is not signed."""
    import threading
    import time

    from host_tools.sim.pty_link import PtyLink
    from host_tools.venue import keys

    link = PtyLink()
    sim = Simulation(Settings(9), transport=link, board_id="t8")
    key_file = tmp_path / "venue.key"
    key_file.write_text(VENUE_KEY.hex() + "\n")
    url = "sqlite:///%s" % (tmp_path / "venue.db")
    done = []
    worker = threading.Thread(target=lambda: done.append(keys.main(
        ["--key-file", str(key_file), "register", link.path, "--db", url])))
    worker.start()
    while worker.is_alive():
        sim.advance(sim.now + 20)
        sim.app.sync_host(sim.now)
        time.sleep(0.01)
    link.close()
    assert done == [0]
    entry = Archive(url).boards()["t8"]
    assert entry["how"] == "registered" and entry["signs"]
    assert sim.app.link.seal.key == board_key(VENUE_KEY, "t8")
