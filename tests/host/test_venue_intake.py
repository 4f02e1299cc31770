"""The venue's intake against a forger on the broker, and against honest trouble: simulated
boards, their real logger and the real venue service in one process (venue_hall.py). A
forged END, MOVE, STATE or GAME line, or one numbered far ahead, is kept apart and listed
under Needing attention, never shown as a move or a result; a board's honest resends (noise
on its cable, a power cut, a logger and a venue restart, its handicap stones told again)
pass untouched; a board whose journal was wiped is a new run of that board, its old games
kept; a forged restart from 0 is undone by the board's own numbering."""

import json

from firmware.settings import Settings
from host_tools.board import protocol as ph
from host_tools.records import digests, final, seal_header
from host_tools.venue.exports import results_csv

from .venue_hall import Hall, random_game

S9 = Settings(9, time_spec="byoyomi 10m 3x30s")


def forge(hall, kind, *fields, board="t1", ahead=1, prev=None, boot=None):
    """Publish a line as a forger would, on the board's line topic, numbered ``ahead`` of the
    last the venue applied (the CRC made good): the line."""
    venue = hall.venue
    last = venue.applied[board]
    raw = ph.encode(last + ahead, kind, fields).decode().rstrip("\n")
    payload = {"boot": venue.live[board].boot if boot is None else boot, "seq": last + ahead, "raw": raw,
               "prev": last if prev is None else prev}
    hall.deliver("goboard/%s/line" % board, json.dumps(payload).encode())
    return raw


def first_move(venue, board):
    """The fields of the board's first MOVE line as the archive kept it (a forger's copy to replay)."""
    raw = next(raw for _b, _e, _boot, _seq, raw, _t in venue.archive.all_lines(board) if " MOVE 1 " in raw)
    return ph.decode(raw.encode())[2]


def moves_of(view):
    return list(view.games.current.moves)


def board_moves(table):
    return table.sim.game.move_number


def agrees(view, table):
    """The venue shows the board's last game as the board played it: its moves and its result."""
    _board, _boot, _gid, _size, _setup, moves, result = table.played[-1]
    game = view.games.current
    return [m[:2] for m in game.moves] == moves and game.result == result


def shows(hall, board="t1"):
    view = hall.venue.live.get(board)
    return len(view.games.current.moves) if view and view.games.current else 0


def test_forged_lines_are_kept_apart_and_the_boards_own_game_goes_on(tmp_path):
    hall = Hall(tmp_path)
    venue, table = hall.venue, hall.tables[0]
    venue.know("t1", "registered")  # (at the desk: its results must be signed)
    venue.pair("t1", {"round": 1, "table_no": 1, "black": "Ann", "white": "Bo"})
    end = hall.play(table, random_game(9, 40, table.rng))
    while shows(hall) < 12:
        hall.run(hall.now + 200)
    view = venue.live["t1"]
    log = view.games.current
    gid, header = log.gid, log.header
    dn = digests(seal_header(log, "t1"), log.moves, 9)[-1]
    forged = {
        "END without a hash": forge(hall, "END", str(gid), "re=W+R"),
        "END with its hash, unsigned": forge(hall, "END", str(gid), "re=W+R", "hash=" + final(dn, "W+R").hex()),
        "MOVE without h=": forge(hall, "MOVE", str(len(log.moves) + 1), "B", "aa", "1000", "0"),
        "MOVE with a wrong h=": forge(hall, "MOVE", str(len(log.moves) + 1), "B", "aa", "1000", "0",
                                      "h=0123456789abcdef"),
        "STATE": forge(hall, "STATE", str(gid), "2", "mode=casual", "next=9", "to=B",
                       "board=" + "/".join(["." * 9] * 9), "moves=Baa,Wbb"),
        "GAME replayed": forge(hall, "GAME", str(gid), *header.split(" ")),
        "HELLO of another board": forge(hall, "HELLO", "proto=1", "board=t9", "boot=1", "game=1"),
        "MOVE 1 replayed": forge(hall, "MOVE", *first_move(venue, "t1")),
    }
    assert moves_of(view) == log.moves and log.result is None and log is view.games.current
    refused = {q["raw"]: q["why"] for q in venue.archive.quarantined("t1")}
    assert set(forged.values()) <= set(refused), set(forged) - {k for k, raw in forged.items() if raw in refused}
    summary = venue.board("live", "t1")
    assert summary["state"] == "problem" and summary["quarantined"] == len(forged)
    assert summary["attention"][-3:][0] == "3 more lines refused (kept apart)" or any(
        "refused" in why for why in summary["attention"])
    assert "W+R" not in results_csv(venue.summaries("live"))
    # A line numbered 1000 ahead waits for its logger's word; the board's own next line comes instead.
    far = forge(hall, "ALERT", "journal=failing", ahead=1000)
    before = shows(hall)
    hall.run(end)
    hall.settle()
    assert far in {q["raw"] for q in venue.archive.quarantined("t1")}
    assert shows(hall) > before and view.journal == "ok"
    assert agrees(view, table) and view.seal == "signed"
    kept = {raw for *_rest, raw, _t in venue.archive.all_lines()}
    assert not kept & (set(forged.values()) | {far})  # none of them in the record
    assert [g["result"] for g in venue.archive.games()] == [table.played[-1][6]]


def test_a_far_line_sent_twice_is_undone_by_the_boards_own_line(tmp_path):
    """A forger who sends its far line again when the venue asks gets it taken: the board's own
    next line then shows it was not the board's (out of the record, the view as it was)."""
    hall = Hall(tmp_path)
    venue, table = hall.venue, hall.tables[0]
    end = hall.play(table, random_game(9, 30, table.rng))
    while shows(hall) < 10:
        hall.run(hall.now + 200)
    last = venue.applied["t1"]
    far = forge(hall, "ALERT", "journal=failing", ahead=1000)
    hall.deliver("goboard/t1/line", json.dumps({"boot": 1, "seq": last + 1000, "raw": far, "prev": last}).encode())
    assert venue.applied["t1"] == last + 1000 and venue.live["t1"].journal == "failing"  # (taken: vouched twice)
    hall.run(end)
    hall.settle()
    view = venue.live["t1"]
    assert view.journal == "ok" and agrees(view, table)
    assert far in {q["raw"] for q in venue.archive.quarantined("t1")}
    assert far not in {raw for *_rest, raw, _t in venue.archive.all_lines()}


def test_honest_resends_noise_power_cuts_and_restarts_pass_untouched(tmp_path):
    hall = Hall(tmp_path, boards=("t1", "t2"), noise=0.002)
    venue = hall.venue
    for table in hall.tables:
        venue.pair(table.board_id, {"round": 1, "table_no": int(table.board_id[1])})
    end = max(hall.play(table, random_game(9, 30, table.rng)) for table in hall.tables)
    hall.run(end // 2)
    hall.tables[0].sim.power_cut()  # the game goes on from the journal, told again
    hall.run(end * 3 // 4)
    hall.start_logger()  # a restarted logger: every board's lines again from 0
    hall.run(end)
    hall.settle()
    handicap = Settings(9, handicap=2, time_spec="byoyomi 10m 3x30s")  # its GAME told again with ab=
    end = max(hall.play(table, random_game(9, 20, table.rng, 2), handicap) for table in hall.tables)
    hall.run(end // 2)
    hall.start_venue()  # a restarted venue: from its archive, then the feed
    hall.run(end)
    hall.settle()
    venue = hall.venue
    assert [(q["seq"], q["raw"], q["why"]) for q in venue.archive.quarantined()] == []
    assert venue.counts["conflict"] == 0
    for table in hall.tables:
        view = venue.live[table.board_id]
        assert view.problems == [] and view.seal == "signed" and agrees(view, table)
    games = venue.archive.games()
    assert len(games) == 4 and {g["seal"] for g in games} == {"signed"} and all(g["result"] for g in games)
    duplicates = hall.venue.counts["duplicate"]
    assert duplicates == 0  # (the restarted venue's counts: a resend after it is a duplicate, nothing else)


def test_a_board_whose_journal_was_wiped_is_a_new_run_and_its_old_games_stay(tmp_path):
    hall = Hall(tmp_path)
    venue, table = hall.venue, hall.tables[0]
    venue.pair("t1", {"round": 1, "table_no": 1})
    hall.run(hall.play(table, random_game(9, 12, table.rng)))
    hall.settle()
    first = venue.live["t1"].games.current
    assert first.result is not None and len(first.moves) == 12
    hall.wipe(table, S9)  # a new flash, the same name: lines from 0, game 1 of power-up 1 again
    hall.run(hall.play(table, random_game(9, 8, table.rng)))
    hall.settle()
    view = venue.live["t1"]
    game = view.games.current
    assert len(game.moves) == 8 and game.result is not None and view.seal == "signed"
    assert venue.epoch["t1"] == 2 and venue.archive.quarantined() == [] and venue.counts["conflict"] == 0
    games = {(g["epoch"], g["gid"]): (g["moves"], g["result"]) for g in venue.archive.games()}
    assert games == {(1, 1): (12, first.result), (2, 1): (8, game.result)}
    assert any("numbers its lines from 0 again" in why for why in view.problems)
    again = hall.venue.__class__(hall.venue.archive, "127.0.0.1:1", key=hall.venue.key)  # a venue restart
    assert len(again.live["t1"].games.current.moves) == 8 and again.epoch["t1"] == 2


def test_a_forged_restart_from_0_is_undone_by_the_boards_own_numbering(tmp_path):
    hall = Hall(tmp_path)
    venue, table = hall.venue, hall.tables[0]
    end = hall.play(table, random_game(9, 30, table.rng))
    while shows(hall) < 10:
        hall.run(hall.now + 200)
    moves = moves_of(venue.live["t1"])
    forge(hall, "HELLO", "proto=1", "board=t1", "boot=1", "game=0", ahead=-venue.applied["t1"], prev=-1)
    forge(hall, "GAME", "1", "rules=japanese", "size=9", "komi=6.5", "handicap=0", "boot=1", ahead=-venue.applied["t1"]
          + 1, prev=0)
    assert venue.epoch["t1"] == 2 and venue.live["t1"].games.current.moves == []  # (it looked like a wiped board)
    hall.run(end)
    hall.settle()
    view = venue.live["t1"]
    assert venue.epoch["t1"] == 1 and moves_of(view)[:len(moves)] == moves
    assert agrees(view, table)
    assert len(venue.archive.quarantined("t1")) == 2 and venue.counts["reverted"] == 1
    assert [g["epoch"] for g in venue.archive.games()] == [1]
