"""The serial protocol and the board's end of the link, on CPython and MicroPython alike: the
assembled board (harness.Table: the App on twins, its real commands) with a host on its cable."""

import gc
import hashlib
import sys
from binascii import hexlify

from diagrams import Lcg
from harness import Table, said
from pro_games import games
from support import check, data_path, let_go, not_loaded

from firmware import protocol as pr
from firmware.host import commands
from firmware.rules.coords import PASS, parse_vertex, vertex
from firmware.rules.position import BLACK, WHITE
from host_tools.board import protocol as ph

MP = sys.implementation.name == "micropython"


def sha256(data):
    return hashlib.sha256(data).digest()


def short(digest):
    return hexlify(digest[:8]).decode()


def lines_of(data):
    return [x for x in data.split(b"\n") if x]


def test_encode_fixture():
    line = ph.encode(7, "MOVE", (12, "B", "pd"))
    body = b"7 MOVE 12 B pd"
    check([] if line == body + b" *" + pr.crc_hex(body) + b"\n" else [repr(line)])
    check([] if pr.crc_hex(b"123456789") == b"cbf43926" else ["crc32 check value"])
    check([] if ph.decode(line[:-1]) == (7, "MOVE", ["12", "B", "pd"]) else ["decode"])
    bad = bytearray(line[:-1])
    bad[3] ^= 2
    check([] if ph.decode(bytes(bad)) is None else ["corruption not seen"])
    check([] if ph.decode(b"7 MOVE 12 B pd") is None else ["no crc accepted"])


def test_quote_roundtrip():
    failures = []
    for text in ("Lee Sedol", "a=b*c%d", "", "plain", "Cho Hun-hyeon 9p"):
        q = pr.quote(text)
        if " " in q or "=" in q or pr.unquote(q) != text:
            failures.append(repr(text) + " -> " + q)
    check(failures)


def test_parser_chunks_oversize_garbage():
    p = pr.LineParser(32)
    data = b"hello\r\n\x00\xffstate\n" + b"x" * 50 + b"\nresend 3\n"
    got = []
    for i in range(len(data)):
        p.feed(data[i:i + 1])
        while True:
            line = p.line()
            if line is None:
                break
            got.append("<over>" if line is pr.OVERSIZED else bytes(line).decode())
    failures = []
    if got != ["hello", "state", "<over>", "resend 3"]:
        failures.append(repr(got))
    if p.garbage != 2 or p.oversized != 1:
        failures.append("garbage %d oversized %d" % (p.garbage, p.oversized))
    check(failures)


def test_command_errors_name_the_problem():
    cases = (
        (b"hello", "hello"), (b"resend 12", "resend"), (b"mode teaching", "mode"),
        (b"new rules=chinese size=9 komi=7 pb=Lee%20Sedol", "new"),
        (b"frobnicate", "unknown"), (b"resend", "malformed"), (b"resend -1", "malformed"),
        (b"mode blitz", "malformed"), (b"new colour=red", "malformed"), (b"time 1 x", "malformed"),
        (b"", "malformed"), (b"state now", "malformed"), (b"show", "malformed"),
        (b"hello *00000000", "crc"), (pr.encode_command("state")[:-1], "state"),
        (b"diag on", "diag"), (b"diag off", "diag"), (b"diag", "malformed"), (b"diag maybe", "malformed"),
        (b"clock pause", "clock"), (b"clock away W", "clock"), (b"clock late B 600", "clock"),
        (b"clock", "malformed"), (b"clock away", "malformed"), (b"clock late B -5", "malformed"),
        (b"clock pause B", "malformed"), (b"replay", "replay"), (b"replay now", "malformed"),
    )
    failures = []
    for line, want in cases:
        name, args = pr.parse_command(line)
        if name not in (None, "hello", "state", "resend", "mem", "new"):  # the link has the others checked
            try:
                commands.parse(name, args, 9)
            except ValueError as error:
                name, args = None, ("malformed", str(error))
        got = name if name is not None else args[0]
        if got != want:
            failures.append("%r: %r %r" % (line, name, args))
    name, args = pr.parse_command(pr.OVERSIZED)
    if args[0] != "oversized":
        failures.append("oversized")
    check(failures)


def board(size=9, rules="japanese"):
    """A board named t1 in its 5th power-up, no clock, a host on its cable (harness.Table)."""
    table = Table(rules, "none", size=size, cable=True, board_id="t1", boot=5)
    table.wait(20)
    return table


def kinds(lines):
    return [line[-2] for line in lines]


def answered(table):
    """Step the board until it has answered every command sent (a host stage answers one)."""
    link = table.app.link
    for _ in range(200):
        table.wait(10)
        if link.idle() and not table.pipe.to_board:
            return


def test_mem_command_reports_the_heap():
    table = board()
    lines = table.says("mem")
    assert kinds(lines) == ["MEM"], lines
    fields = pr.fields_dict(lines[0][1])
    free, used = int(fields["free"]), int(fields["used"])
    if sys.implementation.name == "micropython":
        assert free > 0 and used > 0, fields
    else:  # CPython does not tell
        assert free == used == -1, fields
    assert table.says("mem now")[0] == ("ERR", ["malformed", "mem%20takes%20no%20arguments"])


def test_commands_waiting_in_the_queue_are_answered_with_nothing_new_read():
    table = board()
    table.pipe.take()  # the power-up HELLO and GAME
    table.pipe.send(b"mem\nhello\n")  # two commands at once: the second waits for the first's reply to go
    answers = []
    for _ in range(3):
        table.wait(10)  # one host stage
        answers.append(kinds(said(table.pipe)))
    assert answers == [["MEM"], ["HELLO"], []], answers
    table.pipe.send(b"hel")  # a command in two pieces: answered once whole
    table.wait(10)
    table.pipe.send(b"lo\n")
    table.wait(10)
    assert kinds(said(table.pipe)) == ["HELLO"] and table.app.link.idle()


def test_the_commands_code_is_loaded_only_while_such_a_command_is_handled():
    not_loaded("firmware.host.commands")
    table = board()
    assert kinds(table.says("mode teaching")) == ["MODE", "OK"]
    assert let_go("firmware.host.commands")  # let go after the command
    table.pipe.send(b"hello\nstate\nmem\nresend 0\nmode blitz\n")
    answered(table)
    replies = kinds(said(table.pipe))
    assert replies[:3] == ["HELLO", "STATE", "MEM"] and replies[-1] == "ERR", replies
    assert let_go("firmware.host.commands")


def test_link_streams_moves_and_resends():
    table = board()
    msgs = table.says("new rules=japanese size=9 komi=6.5 pb=Black%20One", numbered=True)
    for colour, v in ((BLACK, "E5"), (WHITE, "C3"), (BLACK, "G7")):
        table.place(colour, v)
    table.lift("G7")  # taken back (casual), and another move played
    table.place(BLACK, "D4")
    msgs += said(table.pipe, True)
    failures = []
    if kinds(msgs) != ["GAME", "OK", "MOVE", "MOVE", "MOVE", "UNDO", "MOVE"]:
        failures.append(repr(kinds(msgs)))
    first = msgs[0][0]
    if [m[0] for m in msgs] != list(range(first, first + len(msgs))):
        failures.append("seqs " + repr([m[0] for m in msgs]))
    # Each MOVE carries the game's running hash (firmware/host/seal.py): d0 from the board's
    # name, the game id and the GAME fields, then each move's fields; the undone move leaves it.
    game = msgs[0][2]
    d0 = sha256(b"GB1 t1 " + " ".join(game).encode())
    d1 = sha256(d0 + b"1 B ee")
    d2 = sha256(d1 + b"2 W cg")
    d3 = sha256(d2 + b"3 B df")
    if msgs[2][2] != ["1", "B", "ee", "h=" + short(d1)] or msgs[6][2] != ["3", "B", "df", "h=" + short(d3)]:
        failures.append(repr(msgs[2]) + repr(msgs[6]))
    if msgs[3][2] != ["2", "W", "cg", "h=" + short(d2)]:
        failures.append(repr(msgs[3]))
    if "pb=Black%20One" not in game or game[0] != "2":  # (game 1: the one the board began at power-up)
        failures.append(repr(msgs[0]))
    again = table.says("resend %d" % msgs[2][0], numbered=True)
    if again != msgs[2:4] + [(msgs[4][0], "SKIP", [])] + msgs[5:]:  # the move taken back is SKIP
        failures.append("resend " + repr(again))
    state = table.says("state")
    if len(state) != 1 or state[0][0] != "STATE" or "moves=Bee,Wcg,Bdf" not in state[0][1]:
        failures.append(repr(state))
    err = table.says("new size=9")
    if err[0][0] != "ERR" or err[0][1][0] != "state":
        failures.append(repr(err))
    end = table.says("end W+R")
    final = hexlify(sha256(d3 + b"END W+R")).decode()
    if kinds(end) != ["END", "OK"] or end[0][1] != ["2", "re=W+R", "why=host", "hash=" + final]:
        failures.append(repr(end))
    check(failures)


def test_the_game_line_tells_the_handicap_stones_once_down_and_the_end_line_the_stones_counted_dead():
    table = board(rules="chinese")
    lines = table.says("new rules=chinese size=9 handicap=2")
    assert kinds(lines) == ["GAME", "OK"] and "ab" not in pr.fields_dict(lines[0][1]), lines
    table.place(BLACK, "D8")  # (free placement)
    table.place(BLACK, "D2")
    game = [fields for kind, fields in said(table.pipe) if kind == "GAME"]  # told again, with them
    assert len(game) == 1 and game[0][0] == "2", game
    fields = pr.fields_dict(game[0][1:])
    assert fields["handicap"] == "2" and fields["ab"] == "dbdh", fields
    for v in ("F1", "D1", "F2", "D3", "F3", "D4", "F4", "D5", "F5", "D6", "F6", "D7", "F7", "D9", "F8"):
        table.place(table.game.to_move, v)  # White's wall on F, Black's on D
    table.place(BLACK, "H5")  # in White's area: dead
    table.place(WHITE, "F9")
    table.control("pass")
    table.control("pass")
    table.wait(200)  # (the board counts over a few loop passes)
    table.lift("H5")
    table.control("ok")
    table.wait(100)
    end = [fields for kind, fields in said(table.pipe) if kind == "END"]
    assert len(end) == 1 and end[0][:3] == ["2", "re=W+2.5", "dead=he"] and end[0][3].startswith("hash="), end
    assert [fields for kind, fields in table.says("resend 0") if kind == "END"] == end  # kept as it was


def test_a_resend_tells_the_last_four_games_and_their_results_past_game_4095():
    table = board()
    table.app.follower.gid = 4093  # a board's games numbered past what an index entry holds (12 bits)
    first = None
    for _ in range(5):
        lines = table.says("new size=9", numbered=True)
        assert kinds(lines) == ["GAME", "OK"]
        first = first or lines[0][0]
        table.place(BLACK, "E5")
        assert kinds(table.says("end W+R")) == ["END", "OK"]
        table.lift("E5")
    # (from game 4094's GAME line: the power-up's game 1 before it, 4096 games back, has the
    # same 12 bits as game 4097, and no board plays 4096 games within the lines it keeps)
    lines = [m for m in table.says("resend %d" % first) if m[0] in ("GAME", "END", "SKIP")]
    told = [(kind, fields[0]) for kind, fields in lines if kind != "SKIP"]
    assert told == [(kind, str(gid)) for gid in (4095, 4096, 4097, 4098) for kind in ("GAME", "END")], lines
    assert kinds(lines[:2]) == ["SKIP", "SKIP"]  # game 4094's: older than the last four


def test_host_arrives_late():
    table = board()
    table.place(BLACK, "E5")
    table.pipe.take()  # a host opening the port flushes everything sent before
    hello = table.says("hello")
    fields = pr.fields_dict(hello[0][1])
    failures = []
    if hello[0][0] != "HELLO" or fields.get("proto") != "1":
        failures.append(repr(hello))
    for key in ("fw", "board", "sensor", "size", "boot"):
        if key not in fields:
            failures.append("hello lacks " + key)
    replay = kinds(table.says("resend 0"))
    if replay != ["SKIP", "GAME", "MOVE", "HELLO"]:  # the power-up HELLO is not the last one
        failures.append(repr(replay))
    if table.says("mode tournament")[0] != ("ERR", ["state", pr.quote(
            "mode: a game is in progress: both players agree first (mode tournament agreed)")]):
        failures.append("a mode changed mid-game")
    check(failures)


def test_resend_too_old():
    table = board()
    link = table.app.link
    while link.next <= link.capacity:  # more lines than the board keeps: the first is gone
        table.pipe.send(b"hello\n" * 50)  # (what fits the board's queue: it drops the rest)
        answered(table)
    got = table.says("resend 0")
    check([] if got[0][0] == "ERR" and got[0][1][0] == "too_old" else [repr(got)])


def _random_command(rng):
    pick = rng.below(6)
    if pick == 0:  # random bytes
        return bytes(rng.below(256) for _ in range(rng.below(80)))
    if pick == 1:  # a very long line
        return b"new pb=" + b"x" * (200 + rng.below(400))
    words = (b"hello", b"state", b"resend", b"mode", b"new", b"show", b"end", b"time", b"zap",
             b"-1", b"99999999999", b"size=abc", b"komi=x", b"rules=nope", b"handicap=99", b"%",
             b"size=400", b"hint", b"tournament", b"*", b"=", b"A1", b"Z99", b"size=9")
    parts = [words[rng.below(len(words))] for _ in range(rng.below(6))]
    return b" ".join(parts)


def test_fuzz_commands():
    """Thousands of random and malformed commands: the board never raises,
    answers every command line, and its allocation stays bounded."""
    table = board()
    table.pipe.take()
    rng = Lcg(1234)
    sent = answers = 0
    failures = []
    biggest = 0
    for _ in range(2000 if not MP else 600):
        cmd = _random_command(rng).replace(b"\n", b" ").replace(b"\r", b" ")
        if b"new" in cmd or b"end" in cmd:
            cmd = b"x" + cmd  # keep the game: those commands are unknown now
        table.pipe.send(cmd + b"\n")
        sent += 1
        if MP:
            before = gc.mem_alloc()
        answered(table)
        if MP:
            biggest = max(biggest, gc.mem_alloc() - before)
        for kind, _fields in said(table.pipe):
            if kind in ("OK", "ERR", "STATE", "HELLO"):
                answers += 1
            elif kind not in ("MOVE", "GAME", "SKIP", "MODE", "UNDO", "END"):  # (those: resent)
                failures.append(kind)
    if answers < sent:
        failures.append("%d commands, %d answers" % (sent, answers))
    if MP and biggest > 20000:
        failures.append("allocation per command up to %d bytes" % biggest)
    check(failures[:5])


def test_move_line_allocation():
    """Writing a move line allocates little (MicroPython: exact count): the CRC-32 is a big int
    there (about 120 bytes), the running hash one SHA-256 object and its digest (about 260)."""
    if not MP:
        return
    table = board(size=19)
    link = table.app.link
    link.poll = lambda now_ms: None  # (the board's host stage writes nothing while the stone goes down)
    table.place(BLACK, "Q16")
    del link.poll
    assert table.game.move_number == 1
    sink = []
    link.transport.write = lambda data: sink.append(len(data)) or 0
    sink.append(0)
    sink.pop()
    before = gc.mem_alloc()
    link._write(link.cursor)
    used = gc.mem_alloc() - before
    check([] if used <= 400 else ["a move line allocated %d bytes" % used])


def test_long_lines_go_out_in_pieces_with_one_crc():
    """A STATE line of a 19x19 game and a GAME line with long names are longer than the link's
    buffer: they go out a piece at a time, and each is one line with a good CRC."""
    table = board(size=19)
    writes = []
    end = table.pipe.board
    carry = end.write

    def write(data):
        writes.append(bytes(data))
        return carry(data)

    end.write = write
    name = " ".join(["Very Long Name"] * 3)  # (the three fit a command: 240 bytes)
    table.says("new size=19 pb=%s pw=%s ev=%s" % (pr.quote(name), pr.quote(name), pr.quote(name)))
    rng = Lcg(99)
    while table.game.move_number < 250:
        v = "ABCDEFGHJKLMNOPQRST"[rng.below(19)] + str(1 + rng.below(19))
        game = table.game
        if game.is_legal(game.to_move, parse_vertex(19, v)):
            table.play(game.to_move, v)
    table.says("state")
    lines = lines_of(b"".join(writes))
    got = [ph.decode(x) for x in lines]
    assert None not in got and [m[1] for m in got[-2:]] == ["MOVE", "STATE"], got[-2:]
    assert pr.fields_dict([m for m in got if m[1] == "GAME"][-1][2])["pb"] == name
    state = pr.fields_dict(got[-1][2])
    assert got[-1][2][1] == "250" and len(state["moves"].split(",")) == 250
    assert len(state["board"].split("/")) == 19
    assert len(lines[-1]) > 10 * len(table.app.link.writer.buf) and len(writes) > len(lines) + 10


def test_a_command_that_runs_out_of_memory_is_answered_memory_and_the_link_goes_on():
    table = board()

    def full(settings, mode=None, now_ms=0):  # the next game does not fit the heap
        raise MemoryError("memory allocation failed, allocating 2048 bytes")

    table.app.new_game = full
    assert table.says("new rules=japanese") == [("ERR", ["memory", "not%20enough%20memory"])]
    assert kinds(table.says("hello")) == ["HELLO"]


def test_the_running_hash_steps_back_on_an_undo_and_a_long_catch_up_is_sliced():
    # The seal keeps the last few digests (an undo is one step back, nothing folded again) and
    # folds a chain started again a slice a poll (firmware/host/seal.py reaches): every MOVE's h=
    # is the chain of the game as it stands, as a host checks it line by line.
    table = board(size=19)
    lines = table.says("new rules=japanese size=19", numbered=True)
    link = table.app.link
    moves = [m for m in next(games(data_path("pro_games.txt"))).moves if m[1] != PASS][:160]
    folds = [0]
    fields_of = link.seal.fields_of

    def counted(w, k):
        folds[0] += 1
        fields_of(w, k)

    def another():  # a move in place of the one taken back
        game = table.game
        pt = next(p for _, p in moves[game.move_number + 1:] if game.is_legal(game.to_move, p))
        table.play(game.to_move, vertex(19, pt))

    def undo(times):  # the page's Undo, then the hands put the stones as the game says
        for _ in range(times):
            assert table.app.control("undo", table.t)
        table.tidy()

    link.seal.fields_of = counted
    for colour, pt in moves[:100]:
        table.play(colour, vertex(19, pt))
    lines += said(table.pipe, True)
    failures = []
    for back in (1, 3):  # within the digests kept: the next line folds its own move only
        undo(back)
        lines += said(table.pipe, True)
        folds[0] = 0
        for _ in range(back):
            another()
        lines += said(table.pipe, True)
        if folds[0]:
            failures.append("%d moves back: %d moves folded again" % (back, folds[0]))
    undo(10)  # beyond them: the chain from d0, a slice of its 90 folds a poll
    lines += said(table.pipe, True)
    game = table.game
    pt = next(p for _, p in moves[91:] if game.is_legal(game.to_move, p))
    table.hw.stones.place(table.at(pt), game.to_move)
    while game.move_number < 91:
        table.wait(10)
    polls, start = 0, len(lines)
    while polls < 20 and not [m for m in lines[start:] if m[1] == "MOVE" and m[2][0] == "91"]:
        table.wait(10)  # (a host stage each)
        lines += said(table.pipe, True)
        polls += 1
    if not 3 <= polls < 20:
        failures.append("90 folds in %d polls" % polls)
    chain = [sha256(b"GB1 t1 " + " ".join(lines[0][2]).encode())]
    for _seq, kind, fields in lines:
        if kind == "UNDO":
            del chain[int(fields[0]) + 1:]
        elif kind == "MOVE":
            d = sha256(chain[-1] + " ".join(fields[:-1]).encode())
            if int(fields[0]) != len(chain) or fields[-1] != "h=" + short(d):
                failures.append("move %s: %s" % (fields[0], fields[-1]))
            chain.append(d)
    check(failures)
