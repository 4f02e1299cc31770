"""Record every board's games from its serial link: ``python -m host_tools.logger PORT [PORT...]``.

One connection per port (host_tools/logger/connection.py), each reopened by
itself after a disconnect and kept in step with the board's sequence numbers
(sync.py). Every game is written as SGF FF[4] (through host_tools/sgf.py,
rewritten after each change, so a killed logger leaves the game so far) and
every line read or sent goes to an append-only JSON Lines audit log. See
docs/protocol.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time

from sgfmill import sgf as sgfmill

from firmware import protocol as pr
from host_tools.board.protocol import decode
from host_tools.logger.connection import BoardConnection
from host_tools.logger.games import GameLog

HEALTH_S = 1.0  # the logger's health is published at most this often (when it changed)
PASSWORD_LINE = re.compile(r"^(\d+ OK mqtt )[0-9a-f]+")  # a board's reply with its broker password


class Logger:
    """Every board's connection and what they record; ``step()`` services each once."""

    def __init__(self, ports, out_dir, quiet=False, mqtt=None):
        self.out_dir = out_dir
        os.makedirs(out_dir, exist_ok=True)
        self.quiet = quiet
        self.connections = [BoardConnection(p, self) for p in ports]
        audit_path = os.path.join(out_dir, "audit.jsonl")
        self.mqtt = mqtt
        if mqtt is not None:
            _remember(audit_path, mqtt)
        self.audit_file = open(audit_path, "a", encoding="utf-8")  # noqa: SIM115
        self.writers: dict[str, str] = {}  # SGF path -> the port whose board's game it holds
        self._shown = 0.0
        self._health: tuple = ()  # what the logger's health said last (MQTT), and when
        self._health_at = -HEALTH_S

    def audit(self, conn: BoardConnection | None, event, text, seq=None, board=None):
        """One audit entry (``conn`` None: not about a port, e.g. a message dropped from the broker)."""
        board = conn.board_id if conn is not None else board
        if event == "in" and text is not None and PASSWORD_LINE.match(text):
            event, text = "password", PASSWORD_LINE.sub(r"\1(not kept)", text)  # (never published either)
        entry = {"t": round(time.time(), 3), "port": conn.port if conn is not None else None, "board": board,
                 "event": event}
        if seq is not None:
            entry["seq"] = seq
        if text is not None:
            entry["line"] = text
        self.audit_file.write(json.dumps(entry) + "\n")
        self.audit_file.flush()
        if event == "in" and self.mqtt is not None and board and seq is not None:
            self.mqtt.line(board, int(conn.boot or 0), seq, text)

    def place(self, conn: BoardConnection, game: GameLog) -> tuple[str, sgfmill.Sgf_game | None]:
        """Where the game goes: named after the board, the power-up the game began in and its
        number; another game already in that file (a board whose journal was lost numbers
        its games again), or a board of the same name on another port, moves it to the next
        ``-2``, ``-3``... With the path, the game in that file when it holds more of this game
        than was heard (a restarted logger hears it again; an earlier game's moves come as SKIP)."""
        if game.path is not None:
            return game.path, None
        base = os.path.join(self.out_dir, "%s-%s-g%d" % (conn.board_id or "board", game.boot or conn.boot or "0",
                                                         game.gid))
        n = 0
        while True:
            n += 1
            path = base + (".sgf" if n == 1 else "-%d.sgf" % n)
            if self.writers.get(path, conn.port) != conn.port:
                continue
            if path not in game.on_file:
                game.on_file[path] = _record_in(path)
            record = game.on_file[path]
            if record is None:
                if n > 1:
                    self.audit(conn, "renamed", "%s.sgf holds another game: %s" % (
                        os.path.basename(base), os.path.basename(path)))
                return path, None
            if isinstance(record, sgfmill.Sgf_game) and game.agrees_with(record):
                more = len(record.get_main_sequence()) - 1 > len(game.played) and not game.undone
                return path, record if more else None

    def save(self, conn: BoardConnection, game: GameLog):
        """Write the game's SGF whole (a reader never sees half a file) and publish its state.
        A game with nothing in it yet (no stone, no result, no penalty) has no file: an
        abandoned game leaves none."""
        if game.path is None and not (game.moves or game.result or any(game.setup) or game.penalties):
            return
        path, on_file = self.place(conn, game)
        if on_file is not None:  # the file has more of the game: it stays, given a result it lacks
            root = on_file.get_root()
            if game.result is None or root.has_property("RE"):
                if not game.kept:  # said once a game, not at every line heard again
                    game.kept = True
                    self.audit(conn, "kept", "%s: %d moves on file, %d heard" % (
                        os.path.basename(path), len(on_file.get_main_sequence()) - 1, len(game.played)))
                return
            root.set("RE", game.result)
            self.audit(conn, "completed", "%s: RE[%s]" % (os.path.basename(path), game.result))
            data = on_file.serialise()
        else:
            data = game.sgf_bytes(conn.board_id or "board")
            game.path = path
            self.writers[path] = conn.port
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        self.publish(conn, "state", {"game": game.gid, "moves": len(game.moves), "result": game.result,
                                     "boot": int(conn.boot or 0), "seq": conn.sync.expected - 1}, retain=True)

    def publish(self, conn: BoardConnection, what, payload, retain=False):
        if self.mqtt is not None:
            self.mqtt.publish(conn.board_id, what, payload, retain)

    def offline(self, conn: BoardConnection):
        """A board known by its id is lost or silent (MQTT status)."""
        if self.mqtt is not None and conn.board_id:
            self.mqtt.status(conn.board_id, "offline")

    def step(self):
        now = time.monotonic()
        if self.mqtt is not None:
            self._venue(now)
        for conn in self.connections:
            conn.step(now)
        if not self.quiet and now - self._shown > 0.5:
            self._shown = now
            sys.stderr.write("\x1b[2K\r" + " | ".join(c.line() for c in self.connections)[:200])
            sys.stderr.flush()

    def _venue(self, now):
        """What came from the broker: a resync or a host command for a board, a message dropped,
        a board's client on the broker or refused."""
        mqtt = self.mqtt
        while not mqtt.inbox.empty():
            board, what, payload = mqtt.inbox.get()
            conn = next((c for c in self.connections if board and c.board_id == board), None)
            if what == "resync":
                mqtt.resend(board, payload["from"])
            elif what == "command" and conn is not None:
                self.audit(conn, "venue", "%s (by %s)" % (payload["text"], payload["by"]))
                conn.command(payload["text"], now)
            elif what == "dropped":
                mqtt.dropped += 1
                self.audit(conn, "dropped", "%s: %s %s" % (payload["topic"], payload["why"], payload["detail"]),
                           board=board)
            elif what == "connected" and board:
                mqtt.connected(board)
                self.audit(conn, "broker", "on the broker as %s" % board, board=board)
            elif what == "refused":
                why = "refused by the broker (%s)" % payload["why"]
                if board:
                    mqtt.where[board] = why
                self.audit(conn, "broker", why if board else "the logger's own login " + why, board=board)
        boards = sorted({c.board_id for c in self.connections if c.board_id})
        health = (boards, [mqtt.where.get(b) for b in boards], mqtt.dropped)
        if health != self._health and now - self._health_at >= HEALTH_S:
            self._health, self._health_at = health, now
            mqtt.health(boards)

    def flush(self):
        """Every port's games that changed, written now."""
        for conn in self.connections:
            conn.flush()

    def run(self, seconds=None):
        end = None if seconds is None else time.monotonic() + seconds
        try:
            while end is None or time.monotonic() < end:
                self.step()
                time.sleep(0.005)
        except KeyboardInterrupt:
            pass
        finally:
            self.flush()
            self.audit_file.close()
            if self.mqtt is not None:
                self.mqtt.close(sorted({c.board_id for c in self.connections if c.board_id}))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.logger", description=__doc__.splitlines()[0])
    ap.add_argument("ports", nargs="+", help="serial ports: /dev/ttyACM0, a pty path, socket://host:port")
    ap.add_argument("--out", default="games", help="folder for the SGF files and audit.jsonl (default: games)")
    ap.add_argument("--quiet", action="store_true", help="no live status line")
    ap.add_argument("--seconds", type=float, default=None, help="stop after this long (default: run until Ctrl-C)")
    ap.add_argument("--mqtt", metavar="HOST:PORT", help="publish the boards' lines, moves and retained state to "
                    "this MQTT broker, each registered board as itself (its password from the board)")
    ap.add_argument("--mqtt-login", metavar="FILE", help="the logger's own login on the broker (a file holding "
                    "user:password; the venue makes venue/mqtt-logger.login): for its status and health only")
    ap.add_argument("--mqtt-ca", metavar="FILE", help="TLS to the broker, checked against this CA certificate (the "
                    "venue's, made with --tls: venue/broker/ca.crt)")
    ap.add_argument("--name", help="this logger's name in its health topic (default: this machine's name)")
    args = ap.parse_args(argv)
    mqtt = None
    if args.mqtt:
        from host_tools.logger.mqtt import MqttOut
        from host_tools.venue.broker import read_login

        try:
            login = read_login(args.mqtt_login) if args.mqtt_login else None
        except (OSError, ValueError) as error:
            ap.error(str(error))
        mqtt = MqttOut(args.mqtt, login=login, ca=args.mqtt_ca, name=args.name)
    Logger(args.ports, args.out, quiet=args.quiet, mqtt=mqtt).run(args.seconds)
    return 0


def _remember(audit_path: str, mqtt) -> None:
    """The lines an earlier run took (its audit log), so a resync after a restart has them."""
    boot: dict[str, int] = {}
    try:
        with open(audit_path, encoding="utf-8") as f:
            for text in f:
                try:
                    entry = json.loads(text)
                except ValueError:
                    continue  # a line cut by a crash
                board, raw, seq = entry.get("board"), entry.get("line"), entry.get("seq")
                if entry.get("event") != "in" or not board or raw is None or seq is None:
                    continue
                msg = decode(raw.encode())
                if msg is not None and msg[1] == "HELLO":
                    boot[board] = int(pr.fields_dict(msg[2]).get("boot", 0))
                mqtt.remember(board, boot.get(board, 0), seq, raw)
    except FileNotFoundError:
        pass


def _record_in(path: str) -> sgfmill.Sgf_game | str | None:
    """An SGF file written earlier: the game in it, "unreadable" (kept, never written over),
    or None (no file)."""
    try:
        with open(path, "rb") as f:
            return sgfmill.Sgf_game.from_bytes(f.read())
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return "unreadable"
