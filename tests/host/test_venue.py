"""The venue's parts without a broker: the archive on SQLite and on a real PostgreSQL, the
order of lines (held, resynced, doubled, edited), the pairing file, the referee's actions."""

import pytest

from firmware import protocol as pr
from host_tools.board import protocol as ph
from host_tools.venue import pairings
from host_tools.venue.archive import Archive
from host_tools.venue.service import Venue
from host_tools.venue.web import referee_command

from .pg_server import postgres_url  # noqa: F401  (the fixture)


def line(seq, kind, *fields):
    return ph.encode(seq, kind, fields).decode().rstrip("\n")


GAME = [line(1, "GAME", "1", "rules=japanese", "size=9", "komi=6.5", "handicap=0", "boot=1", "pb=Ann", "pw=Bo"),
        line(2, "MOVE", "1", "B", "ee", "60000", "0"),
        line(3, "MOVE", "2", "W", "cc", "59000", "0"),
        line(4, "MOVE", "3", "B", "gg", "58000", "0"),
        line(5, "END", "1", "re=B+R")]


def check_archive(url):
    archive = Archive(url)
    try:
        assert archive.add_line("t1", 1, 2, GAME[1]) == "new"
        assert archive.add_line("t1", 1, 2, GAME[1]) == "duplicate"
        assert archive.add_line("t1", 1, 2, GAME[2]) == "conflict"
        assert archive.last_seq() == {"t1": 2}
        event = archive.event("Club Cup", "Hall", "2026-11-23")
        archive.set_pairings(event, 1, [dict(table_no=1, board="t1", black="Ann", white="Bo", settings="size=9")])
        archive.set_pairings(event, 1, [dict(table_no=2, board="t2", black="Cy", white="Di", settings="")])
        assert [p["board"] for p in archive.pairings(event, 1)] == ["t2"]  # imported again: replaced
        archive.save_game("t1", 1, 1, moves=3, black="Ann", white="Bo")
        archive.save_game("t1", 1, 1, moves=4, result="B+R")
        assert [(g["moves"], g["result"]) for g in archive.games()] == [(4, "B+R")]
        archive.act("kim", "referee warning B", "t1", "referee warning B")
        assert archive.actions()[0]["who"] == "kim"
        assert archive.add_line("t1", 1, 2, GAME[2], epoch=2) == "new"  # (a wiped board's new run)
        assert archive.add_line("t1", 2, 2, "2 SKIP *00000000", epoch=2) == "duplicate"  # (a resend, any boot)
        assert archive.epochs() == {"t1": 2} and [row[4] for row in archive.all_lines()] == [GAME[2]]
        assert archive.quarantine("t1", 2, 1, 3, GAME[3], "a forgery") and not archive.quarantine(
            "t1", 2, 1, 3, GAME[3], "again")
        assert [q["why"] for q in archive.quarantined("t1")] == ["a forgery"]
        archive.know("t1", "paired")
        archive.know("t1", "hashed")  # (never made less known)
        archive.know("t1", "registered", signs=True)
        assert archive.boards()["t1"]["how"] == "registered" and archive.boards()["t1"]["signs"]
        archive.probe()
    finally:
        archive.close()
    Archive(url).close()  # opened again: the migrations find it up to date


def test_the_archive_on_sqlite(tmp_path):
    check_archive("sqlite:///%s" % (tmp_path / "venue.db"))


def test_the_archive_on_postgresql(postgres_url):  # noqa: F811
    check_archive(postgres_url)


@pytest.fixture
def venue(tmp_path):
    v = Venue(Archive("sqlite:///%s" % (tmp_path / "venue.db")), "127.0.0.1:1", delay=0)
    asked = []
    v.client.publish = lambda topic, payload, qos=0: asked.append((topic, payload))
    v.asked_resyncs = asked
    return v


def test_lines_out_of_order_wait_for_the_gap_and_a_resync_fills_it(venue):
    venue.status("t1", "online")
    venue.line("t1", 1, 1, GAME[0], -1)
    venue.line("t1", 1, 3, GAME[2], 2)  # line 2 lost on the way
    assert venue.applied["t1"] == 1
    assert venue.asked_resyncs == [("goboard/t1/resync", '{"from": 2}')]
    venue.line("t1", 1, 4, GAME[3], 3)
    venue.line("t1", 1, 2, GAME[1], 1)  # the resync
    assert venue.applied["t1"] == 4
    summary = venue.board("live", "t1")
    assert summary["moves"] == 3 and summary["black"] == "Ann" and summary["state"] == "playing"
    venue.line("t1", 1, 2, GAME[1], 1)  # again: nothing changes
    venue.line("t1", 1, 5, GAME[4], 4)
    assert venue.board("live", "t1")["result"] == "B+R"
    assert venue.counts["new"] == 5 and venue.counts["duplicate"] == 1
    assert [g["result"] for g in venue.archive.games()] == ["B+R"]


def test_an_edited_line_is_flagged_and_not_kept(venue):
    venue.status("t1", "online")
    for seq, raw in enumerate(GAME[:3], start=1):
        venue.line("t1", 1, seq, raw, seq - 1 if seq > 1 else -1)
    forged = line(2, "MOVE", "1", "B", "aa", "60000", "0")
    venue.line("t1", 1, 2, forged, 1)
    summary = venue.board("live", "t1")
    assert summary["state"] == "problem"
    assert any("differs from the line kept" in why for why in summary["attention"])
    assert [q["raw"] for q in venue.archive.quarantined("t1")] == [forged]  # kept apart, not in the record
    assert venue.board("live", "t1")["moves_list"][0]["at"] == (4, 4)  # E5 (ee) stays
    damaged = GAME[3].replace("gg", "gh")  # the CRC no longer matches
    venue.line("t1", 1, 4, damaged, 3)
    assert "CRC" in " ".join(venue.board("live", "t1")["problems"])


def test_a_restarted_venue_rebuilds_its_views_from_the_archive(tmp_path, venue):
    for seq, raw in enumerate(GAME, start=1):
        venue.line("t1", 1, seq, raw, seq - 1 if seq > 1 else -1)
    again = Venue(Archive("sqlite:///%s" % (tmp_path / "venue.db")), "127.0.0.1:1", delay=60)
    assert again.board("live", "t1")["result"] == "B+R"
    assert again.board("public", "t1") is None  # still inside the broadcast delay
    again.tick(again.pending[-1][0])
    assert again.board("public", "t1")["result"] == "B+R"


def test_the_delayed_view_shows_a_move_only_after_the_delay(tmp_path):
    v = Venue(Archive("sqlite:///%s" % (tmp_path / "d.db")), "127.0.0.1:1", delay=900)
    v.client.publish = lambda *a, **k: None
    v.line("t1", 1, 1, GAME[0], -1)
    v.line("t1", 1, 2, GAME[1], 1)
    assert v.board("live", "t1")["moves"] == 1
    assert v.board("public", "t1") is None
    release = v.pending[-1][0]
    v.tick(release - 1)  # a second short of the delay
    assert v.board("public", "t1") is None
    v.tick(release)
    assert v.board("public", "t1")["moves"] == 1


def test_a_pairing_file_gives_each_board_its_new_command():
    text = ("Round,Table,Board,Black,Black_rank,White,White_rank,Handicap,Komi,Rules,Time\n"
            "1,1,t1,Lee Sedol,9p,Gu Li,9p,0,6.5,korean,byoyomi 1h 3x30s\n"
            "1,2,t2,Ann,3k,Bo,1k,2,0.5,japanese,\n")
    rounds = pairings.read(text)
    first = rounds[1][0]
    command = pairings.new_command(first, {"name": "Club Cup", "date": "2026-11-23"}, 1)
    assert command == ("new rules=korean komi=6.5 handicap=0 time=byoyomi%201h%203x30s pb=Lee%20Sedol pw=Gu%20Li "
                       "ev=Club%20Cup ro=1 dt=2026-11-23")
    parsed = pr.parse_command(pr.encode_command(command)[:-1])
    assert parsed is not None
    with pytest.raises(pairings.PairingError, match="row 2: .*bad"):
        pairings.read("round,table,board,black,white,time\n1,1,t1,A,B,bad 5m\n")
    with pytest.raises(pairings.PairingError, match="lacks the column.*board"):
        pairings.read("round,table,black,white\n1,1,A,B\n")
    with pytest.raises(pairings.PairingError, match="paired twice"):
        pairings.read("round,table,board,black,white\n1,1,t1,A,B\n1,1,t2,C,D\n")


def test_referee_actions_become_the_boards_host_commands():
    assert referee_command({"action": "warning", "colour": "W"}) == "referee warning W"
    assert referee_command({"action": "points", "colour": "B", "value": "2"}) == "referee points B 2"
    assert referee_command({"action": "result", "value": "W+3.5"}) == "end W+3.5"
    for bad in ({"action": "warning"}, {"action": "points", "colour": "B", "value": "x"},
                {"action": "result", "value": "nobody"}, {"action": "reboot"}):
        with pytest.raises(ValueError):
            referee_command(bad)


def test_a_board_running_without_a_part_asks_for_a_referees_attention():
    """A board's HELLO and ALERT name the parts it runs without (firmware/faults.py): the referee's
    page lists them; a board without its sensor, which cannot be played on, is a problem."""
    from host_tools.venue.boards import BoardView

    board = BoardView("t1")
    board.set_status("online")
    board.take(0, line(0, "HELLO", "proto=1", "board=t1", "boot=1", "game=0", "missing=display"), 0.0)
    for seq, raw in enumerate(GAME[:3], start=1):
        board.take(seq, raw, 0.0)
    summary = board.summary()
    assert summary["missing"] == "display" and "missing: display" in summary["attention"]
    assert summary["state"] == "playing"  # (a board without its display plays)
    board.take(4, line(4, "ALERT", "journal=ok", "missing=display,sensor"), 0.0)
    summary = board.summary()
    assert "missing: display, sensor" in summary["attention"] and summary["state"] == "problem"
    board.take(5, line(5, "HELLO", "proto=1", "board=t1", "boot=2", "game=1"), 0.0)  # repaired, powered up again
    assert board.summary()["missing"] == "" and not any("missing" in why for why in board.summary()["attention"])


def clocked_game(moves=20):
    """A 9x9 game with a clock, ``moves`` moves in, as its board's lines."""
    out = [line(1, "GAME", "1", "rules=japanese", "size=9", "komi=6.5", "handicap=0", "boot=1",
                "time=byoyomi%2010m%203x30s")]
    points = [a + b for a in "abcdefghi" for b in "abcdefghi"]
    for k in range(1, moves + 1):
        out.append(line(k + 1, "MOVE", str(k), "B" if k % 2 else "W", points[k * 2], str(600000 - k * 1000), "0"))
    return out


def test_a_board_stuck_with_its_clock_running_needs_a_referee(tmp_path):
    """The demo table frozen at move 20 while Black's clock ran: the venue sees it by itself after
    ``stall_s`` with no move, and at once when the board says it waits for the players."""
    v = Venue(Archive("sqlite:///%s" % (tmp_path / "s.db")), "127.0.0.1:1", stall_s=600)
    v.client.publish = lambda *a, **k: None
    v.status("t1", "online")
    for seq, raw in enumerate(clocked_game(20), start=1):
        v.line("t1", 1, seq, raw, seq - 1 if seq > 1 else -1)
    heard = v.live["t1"].progress_at
    v.tick(heard + 599)
    assert v.board("live", "t1")["attention"] == [] and v.board("live", "t1")["state"] == "playing"
    v.tick(heard + 601)
    assert v.board("live", "t1")["attention"] == ["stuck: no move for 10 min while Black's clock runs (move 20)"]
    v.line("t1", 1, 22, line(22, "MOVE", "21", "B", "ii", "570000", "0"), 21)
    v.tick(v.live["t1"].progress_at + 2)
    assert v.board("live", "t1")["attention"] == []  # a move: going on
    v.line("t1", 1, 23, line(23, "ALERT", "journal=ok", "waiting=75", "what=lift%20D4,%20put%20back%20C3%20E3"), 22)
    summary = v.board("live", "t1")
    assert summary["attention"] == ["stuck: waiting 75 s for the players: lift D4, put back C3 E3"]
    assert summary["state"] == "problem"
    v.line("t1", 1, 24, line(24, "ALERT", "waiting=0"), 23)  # fixed (its other fields kept as they were)
    summary = v.board("live", "t1")
    assert summary["attention"] == [] and summary["state"] == "playing" and summary["journal"] == "ok"
