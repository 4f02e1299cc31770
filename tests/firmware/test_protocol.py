"""The serial protocol and the board's end of the link, on CPython and MicroPython alike."""

import gc
import hashlib
import sys
from binascii import hexlify

from diagrams import Lcg, at
from diagrams import game as diagram_game
from link_harness import GameControl, attach, link_on
from pro_games import games
from support import check, data_path, let_go, not_loaded

from firmware import protocol as pr
from firmware.host import arguments
from firmware.rules.coords import PASS, parse_vertex
from firmware.rules.game import Game
from firmware.rules.result import RESIGN, Result
from host_tools.board import protocol as ph
from twins.link import Pipe

MP = sys.implementation.name == "micropython"


def sha256(data):
    return hashlib.sha256(data).digest()


def short(digest):
    return hexlify(digest[:8]).decode()


def lines_of(data):
    return [x for x in data.split(b"\n") if x]


def decoded(data):
    return [ph.decode(x) for x in lines_of(data)]


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
            problem = arguments.check(name, args)
            name, args = (name, args) if problem is None else (None, problem)
        got = name if name is not None else args[0]
        if got != want:
            failures.append("%r: %r %r" % (line, name, args))
    name, args = pr.parse_command(pr.OVERSIZED)
    if args[0] != "oversized":
        failures.append("oversized")
    check(failures)


def board(control=True, capacity=1024):
    pipe = Pipe()
    link = link_on(pipe.board, board_id="t1", sensor="presence", boot=5, capacity=capacity)
    if control:
        link.control = GameControl(link)
    return pipe, link


def pump(pipe, link, now=0, rounds=200):
    out = bytearray()
    for _ in range(rounds):
        link.follower.follow()
        link.poll(now)
        out.extend(pipe.take())
        if link.idle() and not pipe.to_board:
            break
    return bytes(out)


def test_mem_command_reports_the_heap():
    pipe, link = board()
    pipe.send(pr.encode_command("mem"))
    lines = decoded(pump(pipe, link))
    assert [m[1] for m in lines] == ["HELLO", "MEM"], lines  # the power-up HELLO, then the reply
    fields = pr.fields_dict(lines[1][2])
    free, used = int(fields["free"]), int(fields["used"])
    if sys.implementation.name == "micropython":
        assert free > 0 and used > 0, fields
    else:  # CPython does not tell
        assert free == used == -1, fields
    pipe.send(b"mem now\n")
    assert decoded(pump(pipe, link))[0][1:3] == ("ERR", ["malformed", "mem%20takes%20no%20arguments"])


def test_commands_waiting_in_the_queue_are_answered_with_nothing_new_read():
    pipe, link = board()
    link.poll(0)
    pipe.take()  # the power-up HELLO
    pipe.send(b"mem\nhello\n")  # two commands at once: the second waits for the first's reply to go
    answers = []
    for now in range(1, 4):
        link.poll(now)
        answers.append([m[1] for m in decoded(pipe.take())])
    assert answers == [["MEM"], ["HELLO"], []], answers
    pipe.send(b"hel")  # a command in two pieces: answered once whole
    link.poll(4)
    pipe.send(b"lo\n")
    link.poll(5)
    assert [m[1] for m in decoded(pipe.take())] == ["HELLO"] and link.idle()


def test_the_commands_code_is_loaded_only_while_such_a_command_is_handled():
    not_loaded("firmware.host.arguments")
    pipe, link = board()
    pipe.send(b"mode teaching\n")
    assert [m[1] for m in decoded(pump(pipe, link))] == ["HELLO", "MODE", "OK"]
    assert let_go("firmware.host.arguments")  # let go after the command
    pipe.send(b"hello\nstate\nmem\nresend 0\nmode blitz\n")
    replies = [m[1] for m in decoded(pump(pipe, link))]
    assert replies[:3] == ["HELLO", "STATE", "MEM"] and replies[-1] == "ERR", replies
    assert let_go("firmware.host.arguments")


def test_link_streams_moves_and_resends():
    pipe, link = board()
    pipe.send(pr.encode_command("new rules=japanese size=9 komi=6.5 pb=Black%20One"))
    first = decoded(pump(pipe, link))
    game = link.follower.game
    for v in ("E5", "C3", "G7"):
        game.play(game.to_move, parse_vertex(9, v))
    more = decoded(pump(pipe, link))
    game.undo()  # taken back and another move played between two polls
    game.play(game.to_move, parse_vertex(9, "D4"))
    more += decoded(pump(pipe, link))
    msgs = first + more
    failures = []
    kinds = [m[1] for m in msgs]
    if kinds != ["HELLO", "GAME", "OK", "MOVE", "MOVE", "MOVE", "UNDO", "MOVE"]:
        failures.append(repr(kinds))
    if [m[0] for m in msgs] != list(range(len(msgs))):
        failures.append("seqs " + repr([m[0] for m in msgs]))
    # Each MOVE carries the game's running hash (firmware/host/seal.py): d0 from the board's
    # name, the game id and the GAME fields, then each move's fields; the undone move leaves it.
    d0 = sha256(b"GB1 t1 1 " + " ".join(msgs[1][2][1:]).encode())
    d1 = sha256(d0 + b"1 B ee")
    d2 = sha256(d1 + b"2 W cg")
    d3 = sha256(d2 + b"3 B df")
    if msgs[3][2] != ["1", "B", "ee", "h=" + short(d1)] or msgs[7][2] != ["3", "B", "df", "h=" + short(d3)]:
        failures.append(repr(msgs[3]) + repr(msgs[7]))
    if msgs[4][2] != ["2", "W", "cg", "h=" + short(d2)]:
        failures.append(repr(msgs[4]))
    if "pb=Black%20One" not in msgs[1][2]:
        failures.append(repr(msgs[1]))
    pipe.send(pr.encode_command("resend 3"))
    again = decoded(pump(pipe, link))
    if again != msgs[3:5] + [(5, "SKIP", [])] + msgs[6:]:  # the move taken back is SKIP
        failures.append("resend " + repr(again))
    pipe.send(b"state\n")
    state = decoded(pump(pipe, link))
    if len(state) != 1 or state[0][1] != "STATE" or "moves=Bee,Wcg,Bdf" not in state[0][2]:
        failures.append(repr(state))
    pipe.send(b"new size=9\n")
    err = decoded(pump(pipe, link))
    if err[0][1:3] != ("ERR", ["state"] + err[0][2][1:]):
        failures.append(repr(err))
    pipe.send(b"end W+R\n")
    end = decoded(pump(pipe, link))
    final = hexlify(sha256(d3 + b"END W+R")).decode()
    if [m[1] for m in end] != ["END", "OK"] or end[0][2] != ["1", "re=W+R", "hash=" + final]:
        failures.append(repr(end))
    check(failures)


def test_the_game_line_tells_the_setup_stones_and_the_end_line_the_stones_counted_dead():
    pipe, link = board(control=False)
    game = diagram_game([".XO..",
                         ".XO..",
                         "XXO.X",
                         ".XO..",
                         ".XO.."])
    attach(link, game)
    for colour in (1, 2):
        game.play(colour, PASS)
    game.mark_dead(at(5, "E3"))
    game.finish()
    lines = decoded(pump(pipe, link))
    fields = pr.fields_dict([m for m in lines if m[1] == "GAME"][0][2])
    assert fields["ab"] == "babbacbcecbdbe" and fields["aw"] == "cacbcccdce", fields
    end = [m for m in lines if m[1] == "END"][0][2]
    assert end[1:3] == ["re=W+13.5", "dead=ec"] and end[3].startswith("hash="), end
    pipe.send(b"resend 0\n")
    assert [m for m in decoded(pump(pipe, link)) if m[1] == "END"][0][2] == end  # kept as it was


def test_a_resend_tells_the_last_four_games_and_their_results_past_game_4095():
    pipe, link = board(control=False)
    link.follower.gid = 4093  # a board's games numbered past what an index entry holds (12 bits)
    for _ in range(5):
        game = Game(9)
        attach(link, game)
        game.play(1, parse_vertex(9, "E5"))
        game.end(Result(2, RESIGN))
        pump(pipe, link)
    pipe.take()
    pipe.send(b"resend 0\n")
    lines = [m[1:] for m in decoded(pump(pipe, link)) if m[1] in ("GAME", "END", "SKIP")]
    told = [(kind, fields[0]) for kind, fields in lines if kind != "SKIP"]
    assert told == [(kind, str(gid)) for gid in (4095, 4096, 4097, 4098) for kind in ("GAME", "END")], lines
    assert [kind for kind, _ in lines[:2]] == ["SKIP", "SKIP"]  # game 4094's: older than the last four


def test_host_arrives_late():
    pipe, link = board(control=False)
    game = Game(9)
    attach(link, game)
    game.play(1, parse_vertex(9, "E5"))
    pump(pipe, link)
    pipe.take()  # a host opening the port flushes everything sent before
    pipe.send(b"hello\n")
    hello = decoded(pump(pipe, link))
    fields = pr.fields_dict(hello[0][2])
    failures = []
    if hello[0][1] != "HELLO" or fields.get("proto") != "1":
        failures.append(repr(hello))
    for key in ("fw", "board", "sensor", "size", "boot"):
        if key not in fields:
            failures.append("hello lacks " + key)
    pipe.send(b"resend 0\n")
    replay = decoded(pump(pipe, link))
    if [m[1] for m in replay] != ["SKIP", "GAME", "MOVE", "HELLO"]:  # the power-up HELLO is not the last one
        failures.append(repr(replay))
    pipe.send(b"mode tournament\n")
    if decoded(pump(pipe, link))[0][1:3] != ("ERR", ["state", "mode:%20this%20board%20takes%20no%20commands"]):
        failures.append("no control")
    check(failures)


def test_resend_too_old():
    pipe, link = board(capacity=16)
    game = Game(9, komi=7)
    attach(link, game)
    for v in ("A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "J1", "A2", "B2", "C2", "D2", "E2", "F2", "G2"):
        game.play(game.to_move, parse_vertex(9, v))
    pump(pipe, link)
    pipe.send(b"resend 0\n")
    got = decoded(pump(pipe, link))
    check([] if got[0][1] == "ERR" and got[0][2][0] == "too_old" else [repr(got)])


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
    pipe, link = board(capacity=64)
    game = Game(9)
    attach(link, game)
    link.poll(0)
    pipe.take()
    rng = Lcg(1234)
    sent = answers = 0
    failures = []
    biggest = 0
    for i in range(2000 if not MP else 600):
        cmd = _random_command(rng).replace(b"\n", b" ").replace(b"\r", b" ")
        if b"new" in cmd or b"end" in cmd:
            cmd = b"x" + cmd  # keep the game: those commands are unknown now
        pipe.send(cmd + b"\n")
        sent += 1
        if MP:
            before = gc.mem_alloc()
        out = pump(pipe, link, now=i)
        if MP:
            biggest = max(biggest, gc.mem_alloc() - before)
        for m in decoded(out):
            if m is None:
                failures.append("bad line")
            elif m[1] in ("OK", "ERR", "STATE", "HELLO"):
                answers += 1
            elif m[1] in ("MOVE", "GAME", "SKIP", "MODE", "UNDO", "END"):
                pass  # resend of earlier lines
            else:
                failures.append(repr(m))
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
    pipe, link = board(control=False)
    game = Game(19)
    attach(link, game)
    pump(pipe, link)
    sink = []
    link.transport.write = lambda data: sink.append(len(data)) or 0
    sink.append(0)
    sink.pop()
    game.play(1, parse_vertex(19, "Q16"))
    link.follower.follow()
    before = gc.mem_alloc()
    link._write(link.cursor)
    used = gc.mem_alloc() - before
    check([] if used <= 400 else ["a move line allocated %d bytes" % used])


class _Pieces:
    """A transport that keeps each write apart (the link's are pieces of its lines)."""

    def __init__(self):
        self.writes = []
        self.inbox = bytearray()

    def read_into(self, buf):
        n = min(len(buf), len(self.inbox))
        buf[:n] = self.inbox[:n]
        self.inbox[:n] = b""
        return n

    def write(self, data):
        self.writes.append(bytes(data))
        return len(data)


def test_long_lines_go_out_in_pieces_with_one_crc():
    """A STATE line of a 19x19 game and a GAME line with long names are longer than the link's
    buffer: they go out a piece at a time, and each is one line with a good CRC."""
    out = _Pieces()
    link = link_on(out, board_id="t1")
    game = Game(19)
    name = "Very Long Name " * 8
    attach(link, game, {"pb": name, "pw": name, "ev": name})
    rng = Lcg(99)
    played = 0
    while played < 250:
        pt = parse_vertex(19, "ABCDEFGHJKLMNOPQRST"[rng.below(19)] + str(1 + rng.below(19)))
        if game.is_legal(game.to_move, pt):
            game.play(game.to_move, pt)
            played += 1
    link.follower.follow()
    out.inbox.extend(b"state\n")
    for now in range(100):
        link.poll(now)
    lines = lines_of(b"".join(out.writes))
    got = [ph.decode(x) for x in lines]
    assert None not in got and [m[1] for m in got[-2:]] == ["MOVE", "STATE"], got[-2:]
    assert pr.fields_dict(got[1][2])["pb"] == name
    state = pr.fields_dict(got[-1][2])
    assert got[-1][2][1] == "250" and len(state["moves"].split(",")) == 250
    assert len(state["board"].split("/")) == 19
    assert len(lines[-1]) > 10 * len(link.writer.buf) and len(out.writes) > len(lines) + 10


def test_a_command_that_runs_out_of_memory_is_answered_memory_and_the_link_goes_on():
    pipe, link = board()

    class Full:
        def command(self, name, args, now_ms):
            raise MemoryError("memory allocation failed, allocating 2048 bytes")

    link.control = Full()
    pipe.send(pr.encode_command("new rules=japanese"))
    lines = decoded(pump(pipe, link))
    assert [m[1:3] for m in lines[1:]] == [("ERR", ["memory", "not%20enough%20memory"])], lines
    pipe.send(pr.encode_command("hello"))
    assert decoded(pump(pipe, link))[-1][1] == "HELLO"


def test_the_running_hash_steps_back_on_an_undo_and_a_long_catch_up_is_sliced():
    # The seal keeps the last few digests (an undo is one step back, nothing folded again) and
    # folds a chain started again a slice a poll (firmware/host/seal.py reaches): every MOVE's h=
    # is the chain of the game as it stands, as a host checks it line by line.
    pipe, link = board()
    pipe.send(pr.encode_command("new rules=japanese size=19"))
    lines = decoded(pump(pipe, link))
    game = link.follower.game
    moves = [m for m in next(games(data_path("pro_games.txt"))).moves if m[1] != PASS][:160]
    folds = [0]
    fields_of = link.seal.fields_of

    def counted(w, k):
        folds[0] += 1
        fields_of(w, k)

    def another():  # a move in place of the one taken back
        game.play(game.to_move, next(p for _, p in moves[game.move_number + 1:] if game.is_legal(game.to_move, p)))

    link.seal.fields_of = counted
    for colour, pt in moves[:100]:
        game.play(colour, pt)
    lines += decoded(pump(pipe, link))
    failures = []
    for back in (1, 3):  # within the digests kept: the next line folds its own move only
        for _ in range(back):
            game.undo()
        lines += decoded(pump(pipe, link))
        folds[0] = 0
        for _ in range(back):
            another()
        lines += decoded(pump(pipe, link))
        if folds[0]:
            failures.append("%d moves back: %d moves folded again" % (back, folds[0]))
    for _ in range(10):  # beyond them: the chain from d0, a slice of its 90 folds a poll
        game.undo()
    lines += decoded(pump(pipe, link))
    another()
    polls, start = 0, len(lines)
    while polls < 20 and not [m for m in lines[start:] if m[1] == "MOVE" and m[2][0] == "91"]:
        link.follower.follow()
        link.poll(0)
        lines += decoded(pipe.take())
        polls += 1
    if not 3 <= polls < 20:
        failures.append("90 folds in %d polls" % polls)
    chain = [sha256(b"GB1 t1 1 " + " ".join(lines[1][2][1:]).encode())]
    for _seq, kind, fields in lines:
        if kind == "UNDO":
            del chain[int(fields[0]) + 1:]
        elif kind == "MOVE":
            d = sha256(chain[-1] + " ".join(fields[:-1]).encode())
            if int(fields[0]) != len(chain) or fields[-1] != "h=" + short(d):
                failures.append("move %s: %s" % (fields[0], fields[-1]))
            chain.append(d)
    check(failures)
