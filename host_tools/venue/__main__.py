"""The venue service: every board of a tournament live, archived and verifiable.

    python -m host_tools.venue --broker HOST:PORT [--db URL] [--pairings FILE] [--delay MIN] ...
    python -m host_tools.venue --demo-boards 24      # all on this machine, simulated boards playing

It subscribes to the boards' loggers on an MQTT broker (never to serial ports),
keeps every line in the archive (SQLite by default; PostgreSQL with
``--db postgresql+psycopg://user@host/db``), and serves the live page, the
referee console and the exports (docs/venue.md).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import signal
import sys
import threading
import time

from host_tools.venue import pairings as pairing_file
from host_tools.venue.archive import Archive
from host_tools.venue.broker import Access, Broker, Keeper, listening, registered
from host_tools.venue.keys import DEFAULT_KEY_FILE, load_key
from host_tools.venue.service import Venue
from host_tools.venue.web import Site, serve

DEMO_DB = "venue/demo.db"
DEMO_BROKER = "venue/demo-broker"
OWN_BROKER = "venue/broker"


def parse_args(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.venue", description=__doc__.splitlines()[0])
    ap.add_argument("--broker", metavar="HOST:PORT", help="the MQTT broker the loggers publish to (default: the "
                    "one on port 1883 of this machine; with none there, a Mosquitto of its own on port 1883, "
                    "listening where the pages do, --host; with --demo-boards, always one of its own on a free "
                    "port). Its users and rules: the files the venue writes in venue/broker/ (docs/venue.md)")
    ap.add_argument("--tls", action="store_true", help="its own broker speaks TLS only, with a certificate from the "
                    "venue's own CA (venue/broker/ca.crt: give it to the loggers, --mqtt-ca)")
    ap.add_argument("--broker-ca", metavar="FILE", help="with --broker: TLS to it, checked against this CA certificate")
    ap.add_argument("--db", help="the archive: an SQLAlchemy URL (default: sqlite:///venue/venue.db; with "
                    "--demo-boards, a new sqlite:///venue/demo.db each run; PostgreSQL: "
                    "postgresql+psycopg://user@host/dbname)")
    ap.add_argument("--host", default="127.0.0.1", help="address the web pages listen on (default: %(default)s; "
                    "0.0.0.0 for the whole network)")
    ap.add_argument("--port", type=int, default=8090, help="web port (default: %(default)s; 0: any free one)")
    ap.add_argument("--delay", type=float, default=0.0, metavar="MINUTES",
                    help="broadcast delay of the public page and feeds, in minutes (default: 0; referees see live)")
    ap.add_argument("--event", default="", help="the event's name (SGF EV)")
    ap.add_argument("--place", default="", help="where it is played (SGF PC)")
    ap.add_argument("--date", default=time.strftime("%Y-%m-%d"), help="its date (SGF DT; default: today)")
    ap.add_argument("--pairings", metavar="CSV", help="import the rounds' pairings from this CSV (docs/venue.md)")
    ap.add_argument("--referee", action="append", default=[], metavar="NAME:PASSWORD",
                    help="a referee's login (repeat for more; default: from VENUE_REFEREES=name:pw,name:pw)")
    ap.add_argument("--key-file", default=DEFAULT_KEY_FILE,
                    help="the venue's secret, made at the first start: boards registered with it sign their "
                    "results, and it checks them (default: %(default)s; docs/records.md)")
    ap.add_argument("--root", default="goboard", help="the MQTT topic root the loggers use (default: %(default)s)")
    ap.add_argument("--demo-boards", type=int, default=0, metavar="N",
                    help="also run a broker, N simulated boards playing professional games and their logger")
    ap.add_argument("--demo-speed", type=float, default=1.0, help="demo boards play this much faster (default: 1)")
    ap.add_argument("--seconds", type=float, help="stop after this long (default: run until Ctrl-C)")
    return ap.parse_args(argv)


def referees(args) -> dict[str, str]:
    found = {}
    for item in args.referee + [x for x in os.environ.get("VENUE_REFEREES", "").split(",") if x]:
        name, sep, password = item.partition(":")
        if not sep or not name or not password:
            raise SystemExit("error: --referee takes NAME:PASSWORD, not %r" % item)
        found[name] = password
    return found


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.db is None and args.demo_boards:  # a demo starts afresh: its boards number their lines from 0
        pathlib.Path(DEMO_DB).unlink(missing_ok=True)
    args.db = args.db or ("sqlite:///" + DEMO_DB if args.demo_boards else "sqlite:///venue/venue.db")
    if args.db.startswith("sqlite:///"):
        pathlib.Path(args.db[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
    logins = referees(args)
    key = load_key(args.key_file)
    if args.demo_boards and args.broker is None:
        # A broker of its own on a free port, emptied: the demo's boards and its venue (client id
        # "venue") never join a tournament's broker on 1883, nor meet what an earlier demo left queued.
        shutil.rmtree(DEMO_BROKER, ignore_errors=True)
    # The broker's users and rules, for the venue's boards; the venue's and the loggers' logins beside its key.
    access = Access(DEMO_BROKER if args.demo_boards else OWN_BROKER, key, str(pathlib.Path(args.key_file).parent))
    broker = None
    if args.broker is None:
        if args.demo_boards:
            broker = Broker(access, folder=_folder(DEMO_BROKER), listen=args.host, tls=args.tls)
        elif not listening(1883):
            broker = Broker(access, 1883, folder=_folder(OWN_BROKER), listen=args.host, tls=args.tls)
        args.broker = broker.address if broker is not None else "127.0.0.1:1883"
    if args.tls and broker is None:
        raise SystemExit("error: --tls is for the venue's own broker; with another one (%s), pass --broker-ca FILE"
                         % args.broker)
    ca = broker.ca if broker is not None else args.broker_ca
    if args.demo_boards:
        if not logins:
            logins = {"referee": "demo"}
        args.event = args.event or "Demo Cup"
    try:
        return _run(args, logins, key, access, broker, ca)
    finally:
        if broker is not None:
            broker.stop()


def _run(args, logins, key, access, broker, ca) -> int:
    demo = None
    archive = Archive(args.db)
    event_info = {"name": args.event, "place": args.place, "date": args.date}
    event_id = archive.event(args.event or "Tournament", args.place, args.date)
    venue = Venue(archive, args.broker or "127.0.0.1:1883", root=args.root, delay=args.delay * 60, key=key,
                  login=access.venue, ca=ca)
    rounds = {}
    if args.demo_boards:
        from host_tools.venue.demo import DemoBoards

        demo = DemoBoards(args.demo_boards, args.demo_speed, key)
        rounds = pairing_file.read(demo.pairings_csv())
    if args.pairings:
        try:
            rounds = pairing_file.read(pathlib.Path(args.pairings).read_text(encoding="utf-8"))
        except (OSError, pairing_file.PairingError) as error:
            raise SystemExit("error: %s: %s" % (args.pairings, error)) from None
    for round_no, rows in rounds.items():
        archive.set_pairings(event_id, round_no, rows)
    for row in rounds.get(min(rounds), []) if rounds else []:
        venue.pair(row["board"], _pairing(row, min(rounds)))

    def known() -> set[str]:
        """The boards the venue knows: registered at the desk, or named in a round's pairings."""
        return registered(str(pathlib.Path(args.key_file).parent)) | {
            row["board"] for r in archive.rounds(event_id) for row in archive.pairings(event_id, r)}

    keeper = Keeper(access, known, broker)  # (the files list them before any logger is let in)
    keeper.start()
    if demo is not None:
        out = pathlib.Path("games", "venue-demo", time.strftime("%Y%m%d-%H%M%S"))  # (this run's: a logger
        # reads its folder's audit at start and publishes it again, which a demo's new boards must not meet)
        demo.start_logger(args.broker, out, access.logger_file, ca)

    def round_action(round_no: int, action: str, who: str) -> int:
        """start: each board of the round gets its settings; lock/unlock: its board takes the
        venue's signed commands only (docs/records.md), or anyone's again."""
        rows = archive.pairings(event_id, round_no)
        if not rows:
            raise ValueError("no pairings for round %d" % round_no)
        if action not in ("start", "lock", "unlock"):
            raise ValueError("no round action %r" % action[:20])
        if action != "start":
            archive.lock(event_id, round_no, action == "lock")
        for row in rows:
            if action == "start":
                venue.pair(row["board"], _pairing(row, round_no))
                venue.command(row["board"], pairing_file.new_command(row, event_info, round_no), who)
            else:
                venue.command(row["board"], "lock on" if action == "lock" else "lock off", who)
        archive.act(who, action + " round", "", "round %d: %d boards" % (round_no, len(rows)))
        return len(rows)

    site = Site(venue, logins, event_info, round_action, locked=lambda round_no: archive.locked(event_id, round_no))
    server = serve(site, args.host, args.port)
    venue.start()
    threading.Thread(target=server.serve_forever, name="venue-web", daemon=True).start()
    url = "http://%s:%d" % ("127.0.0.1" if args.host in ("0.0.0.0", "") else args.host, server.server_port)
    print("Venue: live boards %s/  referee console %s/referee  results %s/results.csv" % (url, url, url))
    print("       archive %s, broker %s, broadcast delay %g min%s" % (
        args.db, args.broker or "127.0.0.1:1883", args.delay,
        ", demo referee login referee / demo" if args.demo_boards and not args.referee else ""))
    print("       broker users: %d boards known (%s); loggers: --mqtt %s --mqtt-login %s%s%s" % (
        len(access.boards or ()), access.folder, args.broker, access.logger_file,
        " --mqtt-ca %s" % ca if ca else "", "" if broker is not None else
        " (a broker not started here: point it at those files, then reload it)"))
    print("Ctrl-C stops it.", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait(args.seconds)
    except KeyboardInterrupt:
        pass
    print("\nStopping ...", file=sys.stderr)
    server.shutdown()
    keeper.stop()
    venue.stop()
    if demo is not None:
        demo.stop()
    archive.close()
    return 0


def _pairing(row: dict, round_no: int) -> dict:
    return {"round": round_no, "table_no": row["table_no"], "black": row["black"], "black_rank": row["black_rank"],
            "white": row["white"], "white_rank": row["white_rank"]}


def _folder(path: str) -> str:
    pathlib.Path(path).mkdir(parents=True, exist_ok=True)
    return path


if __name__ == "__main__":
    sys.exit(main())
