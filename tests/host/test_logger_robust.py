"""The logger keeps recording whatever a board sends: lines with a good CRC but no sense, an
earlier game heard again after a restart, a handicap stone captured and its point played again."""

from sgfmill import sgf as sgfmill

from firmware import protocol as pr
from host_tools.logger.cli import Logger
from host_tools.logger.connection import BoardConnection
from host_tools.logger.games import Games

HELLO = b"HELLO proto=1 fw=1 board=t sensor=presence boot=5 game=0"

MALFORMED = ("GAME x", "GAME 1 size=40", "GAME 1 size=x", "GAME", "GAME 1 rules=chess", "GAME 1 komi=1e300",
             "MOVE 1 B z", "MOVE x B dd", "MOVE 1 Q dd", "MOVE 1 B", "MOVE 0 B dd", "MOVE 1 B zz",
             "MOVE 1 B dd x y", "MOVE 1 B ss", "UNDO x", "UNDO", "END x", "END", "PENALTY x B points 3 r",
             "PENALTY 1 B points x r", "PENALTY 1 B points 3 %ZZ", "PENALTY 1 B", "STATE x",
             "STATE 1 2 board=XX/OO moves=Bzz", "STATE 1 2 board=.. moves=Q", "GAME 2 size=9 ab=zz",
             "GAME 3 size=9 handicap=2 ab=ddd", "MOVE 2 W dd", "GAME 4 size=9 boot=x", "ALERT", "ALERT %ZZ",
             "END 1 re=W%2B7.5 dead=zz", "END 1 re=W%2B7.5 dead=ddd")


def lines(*bodies, start=0):
    out = b""
    for i, body in enumerate(bodies, start=start):
        line = b"%d %s" % (i, body.encode() if isinstance(body, str) else body)
        out += line + b" *" + pr.crc_hex(line) + b"\n"
    return out


def fed(logger, data, now=0.0, port="twin"):
    """A port of ``logger`` fed ``data`` at ``now``, its games' SGF written (at most every SAVE_S: now)."""
    conn = BoardConnection(port, logger)
    conn.sync.feed(data, now)
    conn.flush()
    return conn


def moves_in(path):
    return [n.get_move() for n in sgfmill.Sgf_game.from_bytes(path.read_bytes()).get_main_sequence()[1:]]


def test_lines_that_make_no_sense_are_noted_and_recording_goes_on(tmp_path):
    failures = []
    for bad in MALFORMED:
        logger = Logger([], str(tmp_path), quiet=True)
        fed(logger, lines(HELLO, "GAME 1 rules=japanese size=9 komi=6.5 handicap=0", "MOVE 1 B dd", bad,
                          "MOVE 2 W ee"))
        logger.audit_file.close()
        got = moves_in(tmp_path / "t-5-g1.sgf")
        if got[:2] != [("b", (5, 3)), ("w", (4, 4))]:
            failures.append("%s: %r" % (bad, got))
        if bad.startswith("END 1") and b"RE[" in (tmp_path / "t-5-g1.sgf").read_bytes():
            failures.append("%s: half taken (a result without its dead stones)" % bad)
    assert not failures, failures
    audit = (tmp_path / "audit.jsonl").read_text()
    assert '"rejected"' in audit and "MOVE 1 B zz" in audit


def test_a_restarted_logger_keeps_an_earlier_games_file(tmp_path):
    game1 = ["GAME 1 rules=japanese size=19 komi=6.5 handicap=0"] + ["MOVE %d %s %s" % (k, "BW"[(k - 1) % 2], p)
                                                                       for k, p in enumerate(("dd", "pp", "dp", "pd"), 1)]
    logger = Logger([], str(tmp_path), quiet=True)
    fed(logger, lines(HELLO, *game1, "END 1 re=B%2BR"))
    logger.audit_file.close()
    assert len(moves_in(tmp_path / "t-5-g1.sgf")) == 4
    # A new logger: the board resends the earlier game's header and result, its moves as SKIP.
    logger = Logger([], str(tmp_path), quiet=True)
    resent = [game1[0]] + ["SKIP"] * 4 + ["END 1 re=B%2BR", "GAME 2 rules=japanese size=9 komi=6.5 handicap=0",
                                          "MOVE 1 B ee"]
    fed(logger, lines(HELLO, *resent))
    logger.audit_file.close()
    assert len(moves_in(tmp_path / "t-5-g1.sgf")) == 4
    assert moves_in(tmp_path / "t-5-g2.sgf") == [("b", (4, 4))]
    assert '"kept"' in (tmp_path / "audit.jsonl").read_text()


def test_a_captured_handicap_stone_and_its_point_played_again():
    games = Games()
    games.apply("GAME", ["1", "rules=japanese", "size=9", "komi=0.5", "handicap=2", "ab=ccgg"])
    plays = (("W", "bc"), ("B", "ee"), ("W", "cb"), ("B", "ef"), ("W", "dc"), ("B", "eg"), ("W", "cd"),
             ("B", "hh"), ("W", "cc"))  # White captures C7 (cc), then plays there
    for k, (side, where) in enumerate(plays, start=1):
        games.apply("MOVE", [str(k), side, where])
    record = sgfmill.Sgf_game.from_bytes(games.games[1].sgf_bytes("t"))
    root = record.get_root()
    assert root.get("HA") == 2 and len(root.get("AB")) == 2 and not root.has_property("GC")
    assert len(record.get_main_sequence()) == 10 and record.get_main_sequence()[-1].get_move() == ("w", (6, 2))


def test_a_board_whose_journal_fails_is_flagged_until_it_writes_again(tmp_path):
    logger = Logger([], str(tmp_path), quiet=True)
    conn = fed(logger, lines(HELLO, "GAME 1 rules=japanese size=9 komi=6.5 handicap=0", "ALERT journal=failing",
                             "MOVE 1 B dd"))
    assert conn.journal == "failing" and "JOURNAL FAILING" in conn.line()
    assert moves_in(tmp_path / "t-5-g1.sgf") == [("b", (5, 3))]  # recording goes on
    conn.sync.feed(lines("ALERT journal=ok", start=4), 0.1)
    assert conn.journal == "ok" and "JOURNAL" not in conn.line()
    logger.audit_file.close()
    assert (tmp_path / "audit.jsonl").read_text().count('"alert"') == 2


def test_a_result_heard_only_after_a_restart_completes_the_file_written_before(tmp_path):
    game1 = ["GAME 1 rules=japanese size=9 komi=6.5 handicap=0 boot=5", "MOVE 1 B dd", "MOVE 2 W ee"]
    logger = Logger([], str(tmp_path), quiet=True)
    fed(logger, lines(HELLO, *game1))  # then the logger is killed
    logger.audit_file.close()
    logger = Logger([], str(tmp_path), quiet=True)  # game 1 ended while it was down; game 2 began
    fed(logger, lines(HELLO, game1[0], "SKIP", "SKIP", "END 1 re=B%2BR",
                      "GAME 2 rules=japanese size=9 komi=6.5 handicap=0 boot=5"))
    logger.audit_file.close()
    record = sgfmill.Sgf_game.from_bytes((tmp_path / "t-5-g1.sgf").read_bytes())
    assert record.get_root().get("RE") == "B+R" and len(record.get_main_sequence()) == 3
    assert '"completed"' in (tmp_path / "audit.jsonl").read_text()


def test_an_abandoned_game_leaves_no_file(tmp_path):
    logger = Logger([], str(tmp_path), quiet=True)
    fed(logger, lines(
        HELLO, "GAME 1 rules=japanese size=19 komi=6.5 handicap=0", "GAME 2 rules=japanese size=9 komi=6.5 handicap=0",
        "MOVE 1 B dd", "GAME 3 rules=japanese size=9 komi=6.5 handicap=0", "END 3 re=Void"))
    logger.audit_file.close()
    assert sorted(p.name for p in tmp_path.glob("*.sgf")) == ["t-5-g2.sgf", "t-5-g3.sgf"]  # (3: its result)


def test_a_board_running_without_a_part_is_flagged_from_its_alert_or_its_hello(tmp_path):
    """A board that started without its display (firmware/faults.py) says so in an ALERT line and in
    every HELLO: the status line, the audit and the retained MQTT alert show it; an older board's
    ALERT (no missing=) and a new boot clear it."""
    logger = Logger([], str(tmp_path), quiet=True)
    published = []
    logger.publish = lambda conn, topic, payload, retain=False: published.append((topic, payload))
    conn = fed(logger, lines(HELLO + b" missing=display", "GAME 1 rules=japanese size=9 komi=6.5 handicap=0",
                             "ALERT journal=ok missing=display", "MOVE 1 B dd"))
    assert conn.missing == "display" and conn.parts_missing == "display"
    assert "MISSING DISPLAY" in conn.line() and "JOURNAL" not in conn.line()
    assert ("alert", {"journal": "ok", "missing": "display"}) in published
    assert moves_in(tmp_path / "t-5-g1.sgf") == [("b", (5, 3))]  # recording goes on
    conn.sync.feed(lines("ALERT journal=failing missing=display,buzzer", start=4), 0.1)
    assert conn.journal == "failing" and "JOURNAL FAILING MISSING DISPLAY,BUZZER" in conn.line()
    logger.audit_file.close()
    assert '"alert"' in (tmp_path / "audit.jsonl").read_text()
    # A logger that came too late for the ALERT: the HELLO says it.
    late = BoardConnection("twin2", Logger([], str(tmp_path / "late"), quiet=True))
    late.sync.feed(lines(HELLO + b" missing=buzzer"), 0.0)
    assert late.missing == "" and late.parts_missing == "buzzer" and "MISSING BUZZER" in late.line()
    # A board that does not know of parts missing (its ALERT has no missing=): none.
    old = BoardConnection("twin3", Logger([], str(tmp_path / "old"), quiet=True))
    old.sync.feed(lines(HELLO, "ALERT journal=failing"), 0.0)
    assert old.parts_missing == "" and "MISSING" not in old.line()


def test_a_flood_of_lines_costs_the_logger_no_more_a_move_late_in_a_game_than_early(tmp_path, monkeypatch):
    """A board's 300 moves arrive at once (it was unplugged, or its logger down): the logger plays
    each move once (it keeps the game it replayed), writes the SGF a few times, not once a move,
    and the port's first read leaves the other ports their turn (bench/logger_flood.py times it)."""
    import random

    from firmware.rules.coords import PASS
    from firmware.rules.game import Game
    from host_tools.sim.physical import random_moves

    moves = random_moves(19, 300, random.Random(1))
    bodies = [HELLO, "GAME 1 rules=japanese size=19 komi=6.5 handicap=0"] + [
        "MOVE %d %s %s" % (k, "BW"[c - 1], "pass" if p == PASS else "%s%s" % (chr(96 + p % 21), chr(96 + p // 21)))
        for k, (c, p) in enumerate(moves, start=1)]
    plays = []
    real_play = Game.play
    monkeypatch.setattr(Game, "play", lambda game, *args: plays.append(1) or real_play(game, *args))
    logger = Logger([], str(tmp_path), quiet=True)
    writes = []
    real_save = logger.save
    logger.save = lambda conn, game: writes.append(len(game.moves)) or real_save(conn, game)

    class Flood:  # the board's lines all waiting on the port
        pending = bytearray(lines(*bodies))
        in_waiting = property(lambda self: len(self.pending))

        def read(self, n):
            data = bytes(self.pending[:n])
            del self.pending[:n]
            return data

        def write(self, data):
            return len(data)

    conn = BoardConnection("flood", logger)
    conn.attach(Flood(), 0.0)
    conn.step(0.0)
    assert 0 < conn.sync.expected < len(bodies)  # (a read is 4 KB at most: the other ports' turn comes)
    for i in range(1, 200):  # a second of the logger's 5 ms steps
        conn.step(i * 0.005)
    logger.audit_file.close()
    assert len(moves_in(tmp_path / "t-5-g1.sgf")) == 300
    assert len(plays) <= 300 + 5, len(plays)  # each move once (a replay a move: 45,150)
    assert len(writes) <= 5, writes  # the SGF at most every SAVE_S (a write a move: 300)
