"""The logger's SGF from a board's lines: handicap, players, time, clock figures per move, result."""

from harness import Table
from sgfmill import sgf as sgfmill

from firmware import protocol as pr
from firmware.rules.position import BLACK, WHITE
from host_tools.logger.cli import Logger
from host_tools.logger.connection import BoardConnection
from twins.link import HostSerial


def board_lines():
    """A host's 13x13 handicap game with players, event and time control on board b2 (polarity
    sensors, its 9th power-up): White's main time set to 5 s, White thinks 12 s (byo-yomi), Black
    7 s, White 7 s; the host ends it B+R. Every line the board sent (game 1: the power-up's)."""
    table = Table("japanese", "none", cable=True, board_id="b2", boot=9, sensors="polarity")
    table.wait(20)
    table.pipe.send(pr.encode_command("new rules=chinese size=13 komi=0.5 handicap=2 pb=Ann pw=Bo%20Li ev=Cup "
                                      "ro=2 dt=2026-11-21 time=byoyomi%2010m%203x30s"))
    table.wait(40)
    table.pipe.send(pr.encode_command("time 600000 5000"))
    table.place(BLACK, "D4")  # the handicap stones: White's clock starts
    table.place(BLACK, "K10")
    for colour, v, ms in ((WHITE, "C3", 12000), (BLACK, "E5", 7000), (WHITE, "L12", 7000)):
        table.wait(ms)
        table.move(colour, v)
    table.pipe.send(pr.encode_command("end B+R"))
    table.wait(40)
    return table.pipe.take()


def test_sgf_has_every_property(tmp_path):
    logger = Logger([], str(tmp_path), quiet=True)
    board = BoardConnection("twin", logger)
    board.sync.feed(board_lines(), 0.0)
    board.flush()  # (the SGF is written at most every SAVE_S: now)
    data = (tmp_path / "b2-9-g2.sgf").read_bytes()
    game = sgfmill.Sgf_game.from_bytes(data)
    root = game.get_root()
    assert root.get("RU") == "Chinese" and root.get("SZ") == 13 and root.get("KM") == 0.5
    assert root.get("HA") == 2 and len(root.get("AB")) == 2
    assert (root.get("PB"), root.get("PW"), root.get("EV"), root.get("RO"), root.get("DT")) == (
        "Ann", "Bo Li", "Cup", "2", "2026-11-21")
    assert root.get("TM") == 600 and root.get("OT") == "3x30 byo-yomi"
    assert root.get("RE") == "B+R"
    nodes = game.get_main_sequence()[1:]
    assert [n.get_move()[0] for n in nodes] == ["w", "b", "w"]
    # White: 5 s of main time, then 12 s and the stone's settling and press, in a 30 s period
    assert 22 < nodes[0].get("WL") < 23 and nodes[0].get("OW") == 3 and 592 < nodes[1].get("BL") < 593
    assert not nodes[1].has_property("OB")  # Black is still in main time: no overtime figure
    logger.audit_file.close()


def test_snapshot_when_the_board_no_longer_has_the_lines(tmp_path):
    """A logger arriving after the board's resend window has passed (a game, then more lines
    than the board keeps, no one listening) recovers the game from a STATE snapshot (too_old,
    then state)."""
    table = Table("japanese", "none", cable=True, board_id="b3", boot=1)
    moves = ("E5", "C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5", "D4", "F6", "D6", "F4", "B4", "H6", "B6",
             "H4", "J5")
    for v in moves:
        table.play(table.game.to_move, v)
    link = table.app.link
    while link.next <= link.capacity:  # a host asking hello, hearing nothing of the game
        table.pipe.send(b"hello\n" * 50)
        table.wait(600)
    table.pipe.take()  # nobody listened
    logger = Logger([], str(tmp_path), quiet=True)
    board = BoardConnection("twin", logger)
    board.attach(HostSerial(table.pipe), table.t / 1000)
    for _ in range(200):
        table.wait(10)
        board.step(table.t / 1000)
    board.flush()
    logger.audit_file.close()
    data = (tmp_path / "b3-1-g1.sgf").read_bytes()
    nodes = sgfmill.Sgf_game.from_bytes(data).get_main_sequence()[1:]
    assert len(nodes) == len(moves)
    assert '"too_old"' in (tmp_path / "audit.jsonl").read_text()


def test_penalties_reach_the_sgf_on_their_move_and_in_the_root(tmp_path):
    """The assembled board (App on twins) and the logger: a referee's cautions, a warning
    they make (Korean regulations 18-1-7) and a forfeit, as comments and root totals."""
    from harness import linked, point, run

    from firmware.modes import TOURNAMENT

    hw, pipe, app = linked(mode=TOURNAMENT, rules="korean", time_spec="byoyomi 10m 3x30s")
    logger = Logger([], str(tmp_path), quiet=True)
    conn = BoardConnection("twin", logger)
    t = 0

    def host(command):
        nonlocal t
        pipe.send(pr.encode_command(command))
        run(app, hw, t, t + 100)
        t += 100

    run(app, hw, 0, 100)
    t = 100
    hw.stones.place(point(app, 2, 2), 1)
    run(app, hw, t, t + 400)
    t += 400
    host("referee caution W")
    host("referee caution W")
    host("referee forfeit W")
    conn.sync.feed(pipe.take(), 0.0)
    conn.flush()  # (the SGF is written at most every SAVE_S: now)
    logger.audit_file.close()
    game = sgfmill.Sgf_game.from_bytes((tmp_path / "board-0-g1.sgf").read_bytes())
    root = game.get_root()
    assert root.get("RE") == "B+F"
    assert root.get("GC") == ("Penalties: White: 2 cautions, 1 warning, forfeit\n"
                              "Result: White loses by a foul: the referee's decision")
    move = game.get_main_sequence()[1]
    assert move.get_move() == ("b", (6, 2))
    assert move.get("C") == ("White: caution 1 (referee)\nWhite: caution 2 (referee)\nWhite: warning 1 (cautions)\n"
                             "White: forfeit (referee)")


def test_pair_go_names_who_played_each_move():
    """Thai 16: the SGF names each move's player (N[B1]...), a wrong order upheld counted."""
    from host_tools.logger.games import Games

    games = Games()
    games.apply("GAME", ["1", "rules=thai", "size=9", "komi=6.5", "handicap=0", "pair=1", "pb=Ann%20%26%20Cid"])
    for k, (side, where) in enumerate((("B", "ee"), ("W", "cc"), ("B", "gg"), ("W", "cg"), ("B", "gc")), start=1):
        games.apply("MOVE", [str(k), side, where])
        if k == 3:
            games.apply("PENALTY", ["3", "B", "points", "3", "wrong_order"])
    record = sgfmill.Sgf_game.from_bytes(games.games[1].sgf_bytes("t"))
    nodes = record.get_main_sequence()[1:]
    assert [n.get("N") for n in nodes] == ["B1", "W1", "B1", "W1", "B2"]
    assert nodes[2].get("C") == "Black: penalty of 3 points (wrong order)"
    assert record.get_root().get("PB") == "Ann & Cid"


def counted_game(tmp_path, rules="japanese", warn=None):
    """The assembled board and the logger: Black's wall on D, White's on F (E open: dame; under
    the Korean rules, which fill them, White's wall on E), Black's dead stone H5, two passes by
    clock presses, the board's proposal agreed by both clock buttons (``warn``: a referee's
    warning for that side first). The SGF's root and its last node."""
    from harness import linked, point, press, run

    hw, pipe, app = linked(size=9, rules=rules)
    logger = Logger([], str(tmp_path), quiet=True)
    conn = BoardConnection("twin", logger)
    t = 0
    wall = 4 if rules == "korean" else 5
    for row in range(9):
        for col, colour in ((3, 1), (wall, 2)):
            hw.stones.place(point(app, col, row), colour)
            run(app, hw, t, t + 300)
            t += 300
    hw.stones.place(point(app, 7, 4), 1)  # Black H5, inside White's area
    run(app, hw, t, t + 300)
    if warn:
        assert app.command("referee", ["warning", warn], t) is None
    for i in (1, 0, 1, 0):  # White passes, Black passes; then both agree to the count
        t += 300
        press(app, hw, i, t)
    run(app, hw, t + 200, t + 600)
    conn.sync.feed(pipe.take(), 0.0)
    conn.flush()  # (the SGF is written at most every SAVE_S: now)
    logger.audit_file.close()
    game = sgfmill.Sgf_game.from_bytes((tmp_path / "board-0-g1.sgf").read_bytes())
    return game.get_root(), game.get_main_sequence()[-1]


def test_a_counted_game_has_its_territory_and_the_count_in_words(tmp_path):
    root, last = counted_game(tmp_path)
    assert root.get("RE") == "W+7.5" and root.get("GC") == "Result: White wins by 7.5 points"
    black, white = last.get("TB"), last.get("TW")
    assert len(black) == 27 and all(col < 3 for _row, col in black)
    assert len(white) == 27 and (4, 7) in white and all(col > 5 for _row, col in white)  # H5: dead, White's
    assert last.get("C") == ("Count (Japanese rules): Black 27 territory + 0 prisoners = 27; White 27 territory "
                             "+ 1 prisoners = 28; komi 6.5: White wins by 7.5 points. Dead stones: H5.")


def test_the_count_in_words_adds_the_penalty_points_the_result_counts(tmp_path):
    root, last = counted_game(tmp_path, "korean", warn="B")  # Korean Art.18: a warning, 2 points
    said = last.get("C")
    assert root.get("RE") == "W+18.5", said
    assert said.startswith(
        "Count (Korean rules): Black 27 territory + 0 prisoners = 27; White 36 territory + 1 prisoners"
        " + 2 penalty = 39; komi 6.5: White wins by 18.5 points."), said


def test_capture_go_and_a_set_up_position_reach_the_record():
    """Capture Go's result (RE B+, the rule in words) and a problem's position (AB/AW) as the
    board's lines give them (firmware: tests/firmware/test_capture_go.py)."""
    table = Table("japanese", "none", size=7, cable=True)
    table.wait(100)
    table.pipe.take()
    table.pipe.send(pr.encode_command("new size=7 captures=2 setup=dd/cd"))  # Black D4, White C4
    table.wait(100)
    lines = table.pipe.take()
    table.place(BLACK, "D4")
    table.place(WHITE, "C4")
    for colour, vertex in ((BLACK, "B4"), (WHITE, "G1"), (BLACK, "C5"), (WHITE, "G2"), (BLACK, "C3")):
        table.play(colour, vertex)  # Black's C3 takes C4: one stone, the goal is two
    assert table.game.result is None and table.game.captures[BLACK] == 1
    for colour, vertex in ((WHITE, "A1"), (BLACK, "A2"), (WHITE, "G7"), (BLACK, "B1")):
        table.play(colour, vertex)  # Black's B1 takes A1: the second stone
    lines += table.pipe.take()
    from host_tools.board.protocol import decode
    from host_tools.logger.games import Games

    games = Games()
    for raw in lines.split(b"\n"):
        if raw.strip():
            _seq, kind, fields = decode(raw)
            games.apply(kind, fields)
    record = sgfmill.Sgf_game.from_bytes(games.games[max(games.games)].sgf_bytes("t"))
    root = record.get_root()
    assert root.get("RE") == "B+"
    assert root.get("GC") == "Result: Black wins at capture Go, the first to capture 2 stones"
    assert root.get("AB") == {(3, 3)} and root.get("AW") == {(3, 2)}
    assert len(record.get_main_sequence()) == 1 + 9
