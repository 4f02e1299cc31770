"""The GTP arbiter: protocol framing, every rules case through GTP, SGF in and out."""

import json
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import sgf

from host_tools.gtp.arbiter import Arbiter

from .conftest import DATA, ROOT


def ok(answer):
    assert answer.startswith("="), answer
    return answer[1:].strip()


def test_framing_ids_comments_and_errors(gtp):
    assert gtp("protocol_version") == "= 2\n\n"
    assert gtp("17 name").startswith("=17 Smart Go Board")
    assert gtp.arbiter.handle("# only a comment") is None
    assert gtp.arbiter.handle("   \n") is None
    assert gtp("boardsize\t9 # tab and comment") == "=\n\n"
    assert gtp("3 frobnicate") == "?3 unknown command\n\n"
    assert gtp("boardsize 4") == "? unacceptable size\n\n"
    assert gtp("boardsize 20") == "? unacceptable size\n\n"
    assert gtp("boardsize nine").startswith("? syntax error")
    assert gtp("play b") .startswith("? syntax error")
    assert gtp("play purple e5").startswith("? syntax error")
    assert gtp("play b z99").startswith("? syntax error")
    assert gtp("komi x").startswith("? syntax error")
    assert gtp("komi nan").startswith("? syntax error")
    assert gtp("undo") == "? cannot undo\n\n"
    assert ok(gtp("known_command play")) == "true"
    assert ok(gtp("known_command genmove")) == "false"
    listed = ok(gtp("list_commands")).split("\n")
    for command in ("play", "undo", "kgs-rules", "rules", "list_stones", "captures", "is_legal",
                    "loadsgf", "printsgf", "fixed_handicap", "place_free_handicap", "set_free_handicap"):
        assert command in listed
    assert gtp("quit") == "=\n\n" and gtp.arbiter.done


def test_play_capture_and_illegal_reasons(gtp):
    gtp("boardsize 9")
    for move in ("b d5", "w e5", "b c4", "w d4", "b d3", "w f4", "b a9", "w e3", "b e4"):
        assert gtp("play " + move) == "=\n\n", move
    assert ok(gtp("captures black")) == "1"
    assert ok(gtp("captures white")) == "0"
    assert gtp("play w d4") == "? illegal move: ko\n\n"
    assert ok(gtp("is_legal w d4")) == "0"
    assert ok(gtp("is_legal w a1")) == "1"
    assert gtp("play w e4") == "? illegal move: occupied\n\n"
    assert ok(gtp("list_stones white")).split() == ["E5", "F4", "E3"]
    gtp("play w pass")
    gtp("play b pass")
    assert ok(gtp("is_legal w d4")) == "1"  # controllers may resume after passes
    assert gtp("play w d4") == "=\n\n"
    assert ok(gtp("captures white")) == "1"
    assert gtp("undo") == "=\n\n"
    assert ok(gtp("captures white")) == "0"


def test_handicap_commands(gtp):
    assert ok(gtp("fixed_handicap 4")) == "D4 Q16 D16 Q4"
    assert gtp("fixed_handicap 4") == "? board not empty\n\n"
    gtp("clear_board")
    assert gtp("fixed_handicap 10") == "? invalid number of stones\n\n"
    assert gtp("fixed_handicap 1") == "? invalid number of stones\n\n"
    assert len(ok(gtp("place_free_handicap 12")).split()) == 12
    gtp("clear_board")
    assert gtp("set_free_handicap d4 d4") == "? bad vertex list\n\n"
    assert gtp("set_free_handicap d4 pass") == "? bad vertex list\n\n"
    assert gtp("set_free_handicap d4 k10 q16") == "=\n\n"
    assert gtp("play b c3") .startswith("=")  # GTP allows either colour to move
    gtp("clear_board")
    gtp("boardsize 5")
    assert gtp("fixed_handicap 2") == "? invalid number of stones\n\n"


def test_rules_commands(gtp):
    assert ok(gtp("rules")) == "japanese"
    for name, expected in (("chinese", "chinese"), ("aga", "aga"), ("new_zealand", "nz"), ("japanese", "japanese")):
        assert gtp("kgs-rules " + name) == "=\n\n"
        assert ok(gtp("rules")) == expected
    assert gtp("kgs-rules ing").startswith("? unknown rules")
    for name in ("korean", "thai", "tromp-taylor", "op", "nz"):
        assert gtp("rules " + name) == "=\n\n"
    assert gtp("rules bogus").startswith("? unknown rule set")
    # switching rules replays the game; a game illegal under the new rules is refused
    gtp("boardsize 5")
    gtp("rules nz")
    for move in ("b a5", "w a4", "b b5", "w b4", "b e1", "w c4", "b e2", "w d5", "b c5"):
        assert gtp("play " + move) == "=\n\n", move  # C5 self-captures A5 B5 C5 (legal under NZ)
    assert ok(gtp("captures white")) == "3"
    assert gtp("rules japanese").startswith("? the game so far is not legal")
    assert ok(gtp("rules")) == "nz"


def case_sgf(case, path):
    """An SGF with the case's setup, so GTP can load it with loadsgf."""
    from sgfmill import sgf as sgfmod

    size = case["size"]
    game = sgfmod.Sgf_game(size)
    root = game.get_root()
    setup = case.get("setup", {})

    def rc(v):
        col = "ABCDEFGHJKLMNOPQRST".index(v[0])
        return int(v[1:]) - 1, col

    root.set_setup_stones([rc(v) for v in setup.get("B", [])], [rc(v) for v in setup.get("W", [])])
    if case["moves"]:
        root.set("PL", case["moves"][0][0].lower())
    path.write_bytes(game.serialise())


def test_every_rules_case_through_gtp(tmp_path):
    """Legality, captures, boards, and results through final_score (mark_dead for the dead lists)."""
    cases = [json.loads(line) for line in (DATA / "rules_cases.jsonl").read_text().splitlines() if line.strip()]
    failures = []
    for case in cases:
        arbiter = Arbiter(rules=case["rules"])

        def send(line, arbiter=arbiter):
            return arbiter.handle(line)

        send(f"boardsize {case['size']}")
        send(f"komi {case['komi']}")
        setup = case.get("setup", {})
        if case.get("handicap") and setup.get("B") and not setup.get("W"):
            assert send("set_free_handicap " + " ".join(setup["B"])) == "=\n\n"
        elif setup:
            path = tmp_path / (case["id"] + ".sgf")
            case_sgf(case, path)
            assert send(f"loadsgf {path}").startswith("=")
            send("rules " + case["rules"])
        expect = case["expect"]
        for i, (colour, where) in enumerate(case["moves"]):
            answer = send(f"play {colour} {where}")
            if i == expect.get("illegal_at"):
                if answer != f"? illegal move: {expect['reason']}\n\n":
                    failures.append(f"{case['id']}: move {i} answered {answer!r}")
                break
            if answer != "=\n\n":
                # Only a move that ends the game by a foul may be refused here (OP place-remove).
                if not (i == expect.get("game_over_at") and expect.get("result", "").endswith("+F")):
                    failures.append(f"{case['id']}: move {i} answered {answer!r}")
                break
        if case.get("dead"):
            assert send("mark_dead " + " ".join(case["dead"])) == "=\n\n"
        if "result" in expect:
            answer = send("final_score")
            if answer != f"= {expect['result']}\n\n":
                failures.append(f"{case['id']}: final_score answered {answer!r}")
        if "captures" in expect:
            got = {c: int(send(f"captures {c}")[1:].strip()) for c in ("B", "W")}
            if got != expect["captures"]:
                failures.append(f"{case['id']}: captures {got}")
        if "board" in expect:
            size = case["size"]
            rows = [["."] * size for _ in range(size)]
            for colour, mark in (("black", "X"), ("white", "O")):
                for v in send(f"list_stones {colour}")[1:].split():
                    col = "ABCDEFGHJKLMNOPQRST".index(v[0])
                    rows[size - int(v[1:])][col] = mark
            if ["".join(r) for r in rows] != expect["board"]:
                failures.append(f"{case['id']}: board differs")
    assert not failures, "\n".join(failures)
    assert len(cases) >= 42


def test_loadsgf_and_printsgf_round_trip(gtp, tmp_path):
    source = DATA / "sgf" / "176_handicap_ha2a.sgf"
    assert ok(gtp(f"loadsgf {source}")) in ("black", "white")
    original = sgf.Sgf_game.from_bytes(source.read_bytes())
    printed = sgf.Sgf_game.from_bytes(ok(gtp("printsgf")).encode())
    moves = lambda g: [n.get_move() for n in g.get_main_sequence()[1:]]  # noqa: E731
    assert moves(printed) == moves(original)
    assert printed.get_root().get("HA") == 2
    assert set(printed.get_root().get_setup_stones()[0]) == set(original.get_root().get_setup_stones()[0])
    out = tmp_path / "out.sgf"
    assert gtp(f"printsgf {out}") == "=\n\n"
    assert moves(sgf.Sgf_game.from_bytes(out.read_bytes())) == moves(original)
    # loadsgf FILE N: the position before move N
    assert ok(gtp(f"loadsgf {source} 3")) == "white"
    assert gtp.arbiter.game.move_number == 2
    assert gtp(f"loadsgf {tmp_path / 'missing.sgf'}").startswith("? cannot load file")
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;SZ[19];B[dd];W[dd])")
    before = gtp.arbiter.game
    assert gtp(f"loadsgf {bad}").startswith("? cannot load file: illegal record")
    assert gtp.arbiter.game is before
    bad.write_text("not sgf at all")
    assert gtp(f"loadsgf {bad}").startswith("? cannot load file")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=8))
def test_garbage_never_crashes_and_always_gets_an_answer(lines):
    arbiter = Arbiter()
    for line in lines:
        answer = arbiter.handle(line)
        assert answer is None or (answer[0] in "=?" and answer.endswith("\n\n") and "\n\n" not in answer[:-2])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["play b", "play w", "is_legal b", "undo", "captures w",
                                           "fixed_handicap", "boardsize", "list_stones b", "rules"]),
                          st.sampled_from(["a1", "e5", "pass", "t19", "j9", "9", "2", "op", "", "zz"])),
                max_size=30))
def test_random_command_sequences_answer_without_internal_errors(commands):
    arbiter = Arbiter()
    for command, arg in commands:
        answer = arbiter.handle(f"{command} {arg}")
        assert "internal error" not in answer, (command, arg, answer)


def test_process_talks_gtp_over_stdin(tmp_path):
    script = "1 protocol_version\n2 boardsize 9\n3 play b e5\n4 play w e5\n5 rules\n6 quit\n7 name\n"
    run = subprocess.run([sys.executable, "-m", "host_tools.gtp", "--rules", "korean"], input=script,
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "=1 2\n\n=2\n\n=3\n\n?4 illegal move: occupied\n\n=5 korean\n\n=6\n\n"
    bad = subprocess.run([sys.executable, "-m", "host_tools.gtp", "--rules", "ing"], capture_output=True,
                         text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "unknown rule set" in bad.stderr


def load_diagram(send, rows, tmp_path, rules):
    """Load a diagram (X black, O white) into the arbiter through an SGF file."""
    size = len(rows)
    record = sgf.Sgf_game(size)
    black = [(size - 1 - r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"]
    white = [(size - 1 - r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "O"]
    record.get_root().set_setup_stones(black, white)
    path = tmp_path / "diagram.sgf"
    path.write_bytes(record.serialise())
    assert send(f"loadsgf {path}").startswith("=")
    assert send(f"rules {rules}") == "=\n\n"


def test_final_status_lists_and_marks(gtp, tmp_path):
    seki = ["..OX...", "..OX...", "..OX...", "..OX...", "OOOXXXX", "XXXOOOX", ".X.O.OX"]
    load_diagram(gtp, seki, tmp_path, "japanese")
    gtp("play b pass")
    gtp("play w pass")
    assert set(ok(gtp("final_status_list seki")).split()) == {"A2", "B2", "C2", "B1", "D2", "E2", "F2", "D1", "F1"}
    assert ok(gtp("final_status_list dame")) == "C1"
    assert ok(gtp("final_status_list dead")) == ""
    assert len(ok(gtp("final_status_list alive")).split()) == 26 - 9
    assert len(ok(gtp("final_status_list black_territory")).split()) == 12
    assert ok(gtp("final_score")) == "W+2.5"
    assert gtp("mark_dead b1") == "=\n\n"
    assert set(ok(gtp("final_status_list dead")).split()) == {"A2", "B2", "C2", "B1"}
    assert gtp("mark_alive c2") == "=\n\n"
    assert ok(gtp("final_status_list dead")) == ""
    assert gtp("mark_dead c1") == "? no stone at c1\n\n"
    assert gtp("mark_dead") .startswith("? syntax error")
    assert gtp("final_status_list everything").startswith("? syntax error")


def test_tournament_mode_applies_penalties():
    moves = ("b d5", "w e5", "b c4", "w d4", "b d3", "w f4", "b a9", "w e3", "b e4")

    def after_ko_retake(rules, tournament):
        arbiter = Arbiter(rules=rules, size=9, tournament=tournament)
        for move in moves:
            assert arbiter.handle("play " + move) == "=\n\n"
        assert arbiter.handle("play w d4") == "? illegal move: ko\n\n"
        return arbiter

    casual = after_ko_retake("korean", False)
    assert casual.game.result is None and casual.game.to_move == 2  # refused, White still to play
    korean = after_ko_retake("korean", True)
    assert korean.handle("final_score") == "= B+F\n\n"
    assert korean.handle("play b a1") == "? illegal move: game_over\n\n"
    thai = after_ko_retake("thai", True)
    assert thai.game.warnings[2] == 1 and thai.game.to_move == 1  # warned, and the turn is lost
    assert thai.handle("play b a1") == "=\n\n"


def test_op_white_moving_first_loses_by_foul(gtp):
    """OP, commentary to Art.2: Black moves first; a White first move is a foul."""
    gtp("boardsize 9")
    gtp("rules op")
    assert gtp("play white d4") == "=\n\n"  # recorded as the foul it is
    assert ok(gtp("final_score")) == "B+F"
    assert gtp("play black e5").startswith("? illegal move")
    gtp("clear_board")
    assert gtp("play black e5") == "=\n\n" and gtp("play white d4") == "=\n\n"
    assert gtp.arbiter.game.result is None and gtp.arbiter.game.move_number == 2


def test_a_bad_record_or_vertex_is_named_briefly(gtp, tmp_path):
    cases = [("(;FF[4]SZ[19];B[dd];W[%s])" % ("z" * 6_000_000), "node 2: W[zzzzzzzzzzzz...] is not a point"),
             ("(;FF[4]SZ[9]AB[jj])", "node 0: AB[jj] is not a point of a 9x9 board"),
             ("(;FF[4]SZ[19];B[zz])", "node 1: B[zz] is not a point")]
    for i, (text, words) in enumerate(cases):
        path = tmp_path / ("bad%d.sgf" % i)
        path.write_text(text)
        answer = gtp("loadsgf %s" % path)
        assert answer.startswith("? cannot load file: " + words) and len(answer) < 200, answer[:300]
    answer = gtp("play B " + "a" * 100_000)
    assert answer.startswith("? syntax error, bad vertex") and len(answer) < 200
