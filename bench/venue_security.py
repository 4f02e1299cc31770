"""The venue against a forger and a fuzzer (part of ``make bench``): forged lines of every kind
among boards playing, malformed MQTT messages on a real Mosquitto, and tampered signed records.

    .venv/bin/python bench/venue_security.py [--boards 6] [--forgeries 400] [--fuzz 3000] [--sgf 3000]

1. Forged lines: simulated boards (registered, paired) play two games each through the real
   logger into the real venue service (tests/host/venue_hall.py: one process, no broker), while
   a forger publishes on their line topics: results without a hash or unsigned, moves without
   or with a wrong ``h=``, replayed moves and games, snapshots, a HELLO of another board, lines
   numbered far ahead (once or twice), restarts from 0, damaged lines. Counted: lines accepted
   wrongly (a forged line in the record), results changed, honest lines refused, moves lost.
2. MQTT fuzz: malformed messages (the known killers and random mutations of good ones) on a real
   Mosquitto among a board's good lines: the venue's MQTT thread must live and archive them all.
3. Tampered records: every kind of edit of a signed SGF, then random byte edits: an edit of what
   defines the game that still verifies, or an exception, counts against.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import re
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "firmware")]

import paho.mqtt.client as mqtt  # noqa: E402
import sgfmill.sgf as sgfmill_sgf  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from firmware.settings import Settings  # noqa: E402
from host_tools.board import protocol as ph  # noqa: E402
from host_tools.records import digests, final, seal_header, verify_sgf  # noqa: E402
from host_tools.venue.archive import Archive  # noqa: E402
from host_tools.venue.broker import Access, Broker  # noqa: E402
from host_tools.venue.service import Venue  # noqa: E402
from tests.host.venue_hall import KEY, Hall, bad_messages, random_game  # noqa: E402

S9 = Settings(9, time_spec="byoyomi 10m 3x30s")


# -- 1. forged lines ---------------------------------------------------------------------------

def _line(seq, kind, *fields):
    return ph.encode(seq, kind, fields).decode().rstrip("\n")


def forgeries(venue, board, rng):
    """One forged message of a random kind for ``board`` as the venue holds it now: (kind,
    [(boot, seq, raw, prev)...]), or None when that kind has nothing to aim at yet."""
    view = venue.live[board]
    log = view.games.current
    last = venue.applied[board]
    boot = view.boot
    n = len(log.moves) if log else 0

    def one(kind, *fields, ahead=1, prev=None):
        return [(boot, last + ahead, _line(last + ahead, kind, *fields), last if prev is None else prev)]

    kinds = ["hello", "far", "far twice", "damaged", "restart"]
    if log is not None and log.header is not None:
        kinds += ["state", "move no hash", "move wrong hash", "end no hash", "end unsigned"]
        if n:  # (a game not started told again changes nothing: a board's resend may do it)
            kinds += ["move replayed", "game replayed"]
    over = [g for g in view.games.games.values() if g.result is not None and g.header is not None]
    if over:
        kinds.append("second result")
    kind = rng.choice(kinds)
    if kind == "hello":
        return kind, one("HELLO", "proto=1", "board=x" + board, "boot=%d" % boot, "game=1")
    if kind in ("far", "far twice"):
        lines = one("ALERT", "journal=failing", "missing=sensor", ahead=rng.randrange(300, 5000))
        return kind, lines * (2 if kind == "far twice" else 1)
    if kind == "damaged":
        raw = one("MODE", "teaching")[0]
        return kind, [raw[:2] + (raw[2][:-1] + ("0" if raw[2][-1] != "0" else "1"),) + raw[3:]]
    if kind == "restart":
        return kind, [(1, 0, _line(0, "HELLO", "proto=1", "board=" + board, "boot=1", "game=0", "forged=1"), -1)]
    if kind == "game replayed":
        return kind, one("GAME", str(log.gid), *log.header.split(" "))
    if kind == "state":
        return kind, one("STATE", str(log.gid), "1", "mode=casual", "next=0", "to=W", "board=" + "/".join(
            ["." * log.size] * log.size), "moves=Baa")
    move = [str(n + 1), "B" if n % 2 == 0 else "W", "aa", "1000", "0"]
    if kind == "move no hash":
        return kind, one("MOVE", *move)
    if kind == "move wrong hash":
        return kind, one("MOVE", *move, "h=%016x" % rng.getrandbits(64))
    if kind == "move replayed":
        raw = next(r for *_x, r, _t in venue.archive.all_lines(board) if " MOVE " in r)
        return kind, one("MOVE", *ph.decode(raw.encode())[2])
    if kind == "second result":  # (a finished game given another result, its hash right, unsigned)
        log = rng.choice(over)
    dn = digests(seal_header(log, board), log.moves, log.size)[-1]
    result = rng.choice(["B+R", "W+R", "B+T", "W+3.5"])
    if kind == "end no hash":
        return kind, one("END", str(log.gid), "re=" + result)
    return kind, one("END", str(log.gid), "re=" + result, "hash=" + final(dn, result).hex())  # (unsigned, second)


def forged_lines(boards: int, tries: int, seed: int = 1) -> bool:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        hall = Hall(pathlib.Path(tmp), boards=tuple("t%d" % (i + 1) for i in range(boards)), seed=seed)
        venue = hall.venue
        for i, table in enumerate(hall.tables):
            venue.know(table.board_id, "registered")
            venue.pair(table.board_id, {"round": 1, "table_no": i + 1})
        forged: set[tuple[str, str]] = set()  # (board, line)
        honest: set[tuple[str, str]] = set()  # (a forger's line may say what the board says later under that number)
        deliver = hall.wire.own.publish

        def published(topic, payload, qos=0, retain=False):
            if topic.endswith("/line"):
                honest.add((topic.split("/")[1], json.loads(payload)["raw"]))
            return deliver(topic, payload, qos, retain)

        hall.wire.own.publish = published
        kinds: dict[str, int] = {}
        tried = 0
        t0 = time.monotonic()
        for game in range(2):
            settings = None if game == 0 else S9
            end = max(hall.play(table, random_game(9, 40, table.rng), settings) for table in hall.tables)
            start = hall.now
            per_game = tries // 2
            # (the forger aims at boards still playing: a board's own next line is what undoes a forged
            # restart from 0 or a far line sent twice, and an idle board writes none)
            moments = sorted(rng.randrange(start + 1000, end) for _ in range(per_game))
            for at in moments:
                hall.run(at)
                playing = [t for t in hall.tables if len(t.events) > 8]  # (its own lines still to come)
                if not playing:
                    continue
                board = rng.choice(playing).board_id
                if board not in venue.live or venue.live[board].games.current is None:
                    continue
                kind, lines = forgeries(venue, board, rng)
                kinds[kind] = kinds.get(kind, 0) + 1
                for boot, seq, raw, prev in lines:
                    forged.add((board, raw))
                    tried += 1
                    hall.deliver("goboard/%s/line" % board, json.dumps(
                        {"boot": boot, "seq": seq, "raw": raw, "prev": prev}).encode())
            hall.run(end)
            for table in hall.tables:  # each board says one line more (a board stuck in its script says
                venue.command(table.board_id, "mem", "bench")  # nothing, and a forged far line stays until it does)
            hall.settle()
        record = {(board, raw) for board, _e, _b, _s, raw, _t in venue.archive.all_lines()} | {
            (board, raw) for name in venue.epoch for board, _e, _b, _s, raw, _t in venue.archive.all_lines(name, 1)}
        wrongly = len(record & (forged - honest))
        refused_honest = [q for q in venue.archive.quarantined() if (q["board"], q["raw"]) not in forged - honest]
        changed = lost = 0
        played = {(t.board_id, p[2]): p for t in hall.tables for p in t.played}
        for row in venue.archive.games():
            board_game = played.get((row["board"], row["gid"]))
            if board_game is None or row["result"] != board_game[6] or row["moves"] != len(board_game[5]):
                changed += 1
                print("    game changed: %s epoch %d game %d: %s %s, the board's: %s" % (
                    row["board"], row["epoch"], row["gid"], row["moves"], row["result"],
                    board_game and (len(board_game[5]), board_game[6])))
        for table in hall.tables:
            game = venue.live[table.board_id].games.current
            lost += game is None or [m[:2] for m in game.moves] != table.played[-1][5]
        print("  forged lines: %d boards, %d games, %d forged messages tried (%s)" % (
            boards, len(played), tried, ", ".join("%s %d" % item for item in sorted(kinds.items()))))
        print("    lines accepted wrongly %d (must be 0), results changed %d (0), honest lines refused %d (0), "
              "boards whose game differs %d (0); %d kept apart, %d restarts undone, %.1f s" % (
                  wrongly, changed, len(refused_honest), lost, len(venue.archive.quarantined()),
                  venue.counts["reverted"], time.monotonic() - t0))
        for board, raw in sorted(record & (forged - honest))[:5]:
            print("    forged line kept: %s %s" % (board, raw[:100]))
        for q in refused_honest[:5]:
            print("    honest line refused: %s %d %s: %s" % (q["board"], q["seq"], q["raw"][:60], q["why"]))
        return not (wrongly or changed or refused_honest or lost)


# -- 2. MQTT fuzz ------------------------------------------------------------------------------

def mutations(rng, good: dict) -> bytes:
    """A good line's payload, broken one way or another."""
    data = dict(good)
    pick = rng.random()
    if pick < 0.3:
        key = rng.choice(["boot", "seq", "prev", "raw"])
        data[key] = rng.choice([1e400, -1, 1 << 40, "x", None, True, [], {}, "\ud800", 3.5, "9" * 400])
        return json.dumps(data).encode()
    if pick < 0.5:
        data.pop(rng.choice(list(data)))
        return json.dumps(data).encode()
    payload = bytearray(json.dumps(data).encode())
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(payload))
        payload[i] = rng.randrange(256)
    return bytes(payload)


def mqtt_fuzz(messages: int, seed: int = 2) -> bool:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        # (the fuzzer holds the venue's own login: the broker's rules keep everyone else off these
        # topics, so this is a venue or logger gone wrong)
        access = Access(tmp + "/broker", bytes(32), tmp)
        broker = Broker(access, folder=tmp)
        venue = Venue(Archive("sqlite:///%s/fuzz.db" % tmp), broker.address, client_id="venue-fuzz", login=access.venue)
        venue.start()
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="fuzzer")
        client.username_pw_set(*access.venue)
        client.max_inflight_messages_set(100)
        try:
            client.connect("127.0.0.1", broker.port)
            client.loop_start()
            while not venue.health()["mqtt"]["connected"]:
                time.sleep(0.05)
            bad = bad_messages("fz")
            good_sent = bad_sent = 0
            seq = 0
            t0 = time.monotonic()
            for i in range(messages):
                if i % 10 == 0:  # a good line among the bad
                    raw = _line(seq, "SKIP")
                    payload = json.dumps({"boot": 1, "seq": seq, "raw": raw, "prev": seq - 1}).encode()
                    topic, seq, good_sent = "goboard/fz/line", seq + 1, good_sent + 1
                elif i < len(bad) * 10:
                    topic, payload = bad[(i // 10) % len(bad) if i % 10 == 1 else rng.randrange(len(bad))]
                    bad_sent += 1
                else:
                    last = {"boot": 1, "seq": seq, "raw": _line(seq, "SKIP"), "prev": seq - 1}
                    topic, payload = "goboard/fz/line", mutations(rng, last)
                    bad_sent += 1
                client.publish(topic, payload, qos=1).wait_for_publish(10)
            deadline = time.monotonic() + 30
            while len(venue.archive.all_lines()) < good_sent and time.monotonic() < deadline:
                time.sleep(0.1)
            archived = len(venue.archive.all_lines())
            alive = venue.client._thread is not None and venue.client._thread.is_alive()
            health = venue.health()
            print("  MQTT fuzz on Mosquitto: %d messages tried (%d malformed), %d good lines among them" % (
                messages, bad_sent, good_sent))
            print("    good lines archived %d of %d, lines lost %d (must be 0); dropped %d, damaged (CRC) %d; venue's "
                  "MQTT thread alive: %s; health ok: %s; %.1f s" % (
                      archived, good_sent, good_sent - archived, health["mqtt"]["dropped"],
                      health["lines"]["damaged"], alive, health["ok"], time.monotonic() - t0))
            return archived == good_sent and alive and health["ok"]
        finally:
            client.loop_stop()
            venue.stop()
            broker.stop()


# -- 3. tampered records -----------------------------------------------------------------------

DEFINING_NODE = ("B", "W", "BL", "WL", "OB", "OW", "AB", "AW", "AE", "PL")
DEFINING_ROOT = ("KM", "RU", "HA", "AB", "AW", "AE", "PB", "PW", "EV", "RO", "DT", "TM", "OT", "RE", "GBGAME",
                 "GBHASH", "GBSIG", "PL", "B", "W")


def _diff(a: bytes, b: bytes) -> str:
    i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    return "%r -> %r" % (a[max(0, i - 30):i + 30], b[max(0, i - 30):i + 30])


def defining(data: bytes):
    """What defines the game in a record (its size, and the properties of each node that define
    it, as SGF reads them), or None if it does not parse."""
    try:
        record = sgfmill_sgf.Sgf_game.from_bytes(data)
        nodes, stack = [], [record.get_root()]
        while stack:
            node = stack.pop()
            keys = DEFINING_ROOT if not nodes else DEFINING_NODE
            nodes.append(tuple((k, _value(node, k)) for k in keys if node.has_property(k)))
            stack.extend(node)
        return record.get_size(), nodes
    except (ValueError, KeyError):
        return None


def _value(node, key):
    """A property's value as SGF means it (escapes and line breaks undone), else its raw text."""
    try:
        value = node.get(key)
    except ValueError:
        return tuple(node.get_raw_list(key))
    if key in ("BL", "WL") and isinstance(value, float):
        return round(value * 1000)  # (the board signs time left in ms: 51.4367 is 51.437)
    return tuple(sorted(value)) if isinstance(value, (set, frozenset)) else value


def tampered_records(count: int, seed: int = 3) -> bool:
    from firmware.rules.handicap import fixed_points
    from host_tools.venue.exports import game_sgf
    from tests.host.test_records import TAMPER, board_lines, feed  # (the suite's own edits and board)

    settings = Settings(19, "japanese", handicap=2, time_spec="byoyomi 1m 3x30s",
                        players={"pb": "Ann", "pw": "Bo", "ev": "Club Cup", "ro": "3", "dt": "2026-11-23"})
    with tempfile.TemporaryDirectory() as tmp:
        view = feed(board_lines(moves=12, settings=settings, handicap=fixed_points(19, 2)),
                    tmp_path=pathlib.Path(tmp)).live["t7"]
        data = game_sgf(view, {"name": "Club Cup"})
    assert verify_sgf(data, KEY)[0]
    text = data.decode()
    edits = wrong = 0
    for _what, pattern, replacement in TAMPER:
        edited = re.sub(pattern, replacement, text, count=1).encode()
        edits += 1
        if verify_sgf(edited, KEY)[0]:
            wrong += 1
            print("    an edit that still verifies: %s" % _what)
    rng = random.Random(seed)
    base = defining(data)
    errors = benign = rejected = 0
    for _ in range(count):
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            i, op = rng.randrange(len(b)), rng.random()
            if op < 0.4:
                b[i] = rng.randrange(256)
            elif op < 0.7:
                del b[i]
            else:
                b.insert(i, rng.choice(b"[]();\\ABWLEKMSZHPO0123456789"))
        try:
            ok, _why = verify_sgf(bytes(b), KEY)
        except Exception:  # noqa: BLE001  (counted: verify must answer every file)
            errors += 1
            continue
        if not ok:
            rejected += 1
        elif defining(bytes(b)) == base:
            benign += 1  # (a comment, the application's name, white space: not what the board signed)
        else:
            wrong += 1
            print("    a random edit that still verifies, its defining properties changed:", _diff(data, bytes(b)))
    print("  tampered records: %d kinds of edit of a signed SGF, %d random byte edits" % (edits, count))
    print("    edits that still verify %d (must be 0), exceptions %d (0); random edits refused %d, "
          "edits of commentary only that verify %d" % (wrong, errors, rejected, benign))
    return not wrong and not errors


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=6)
    ap.add_argument("--forgeries", type=int, default=400)
    ap.add_argument("--fuzz", type=int, default=3000)
    ap.add_argument("--sgf", type=int, default=3000)
    args = ap.parse_args(argv)
    ok = forged_lines(args.boards, args.forgeries)
    ok = mqtt_fuzz(args.fuzz) and ok
    ok = tampered_records(args.sgf) and ok
    if not ok:
        raise SystemExit("the venue let something through (see above)")


if __name__ == "__main__":
    main()
