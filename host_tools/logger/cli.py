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
import sys
import time

from sgfmill import sgf as sgfmill

from host_tools.logger.connection import BoardConnection
from host_tools.logger.games import GameLog


class Logger:
    """Every board's connection and what they record; ``step()`` services each once."""

    def __init__(self, ports, out_dir, quiet=False, mqtt=None):
        self.out_dir = out_dir
        os.makedirs(out_dir, exist_ok=True)
        self.quiet = quiet
        self.connections = [BoardConnection(p, self) for p in ports]
        self.audit_file = open(os.path.join(out_dir, "audit.jsonl"), "a", encoding="utf-8")  # noqa: SIM115
        self.mqtt = mqtt
        self._shown = 0.0

    def audit(self, conn: BoardConnection, event, text, seq=None):
        entry = {"t": round(time.time(), 3), "port": conn.port, "board": conn.board_id, "event": event}
        if seq is not None:
            entry["seq"] = seq
        if text is not None:
            entry["line"] = text
        self.audit_file.write(json.dumps(entry) + "\n")
        self.audit_file.flush()

    def sgf_path(self, conn: BoardConnection, game: GameLog):
        name = "%s-%s-g%d.sgf" % (conn.board_id or "board", conn.boot or "0", game.gid)
        return os.path.join(self.out_dir, name)

    def save(self, conn: BoardConnection, game: GameLog):
        """Write the game's SGF whole (a reader never sees half a file) and publish its state."""
        path = self.sgf_path(conn, game)
        if game.file_moves is None:  # what an earlier run wrote of this game, read once
            game.file_moves = _moves_in(path)
        if len(game.moves) < game.file_moves and not game.undone:
            # A restarted logger hears an earlier game again (its moves resent as SKIP): the
            # file it wrote then has more, and it stays.
            self.audit(conn, "kept", "%s: %d moves on file, %d heard" % (os.path.basename(path), game.file_moves,
                                                                        len(game.moves)))
            return
        data = game.sgf_bytes(conn.board_id or "board")
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        self.publish(conn, "state", {"game": game.gid, "moves": len(game.moves), "result": game.result},
                     retain=True)

    def publish(self, conn: BoardConnection, what, payload, retain=False):
        if self.mqtt is not None:
            self.mqtt.publish(conn.board_id, what, payload, retain)

    def offline(self, conn: BoardConnection):
        """A board known by its id is lost or silent (MQTT status)."""
        if self.mqtt is not None and conn.board_id:
            self.mqtt.status(conn.board_id, "offline")

    def step(self):
        now = time.monotonic()
        for conn in self.connections:
            conn.step(now)
        if not self.quiet and now - self._shown > 0.5:
            self._shown = now
            sys.stderr.write("\x1b[2K\r" + " | ".join(c.line() for c in self.connections)[:200])
            sys.stderr.flush()

    def run(self, seconds=None):
        end = None if seconds is None else time.monotonic() + seconds
        try:
            while end is None or time.monotonic() < end:
                self.step()
                time.sleep(0.005)
        except KeyboardInterrupt:
            pass
        finally:
            self.audit_file.close()
            if self.mqtt is not None:
                self.mqtt.close()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.logger", description=__doc__.splitlines()[0])
    ap.add_argument("ports", nargs="+", help="serial ports: /dev/ttyACM0, a pty path, socket://host:port")
    ap.add_argument("--out", default="games", help="folder for the SGF files and audit.jsonl (default: games)")
    ap.add_argument("--quiet", action="store_true", help="no live status line")
    ap.add_argument("--seconds", type=float, default=None, help="stop after this long (default: run until Ctrl-C)")
    ap.add_argument("--mqtt", metavar="HOST:PORT", help="publish moves and retained state to this MQTT broker")
    args = ap.parse_args(argv)
    mqtt = None
    if args.mqtt:
        from host_tools.logger.mqtt import MqttOut

        mqtt = MqttOut(args.mqtt)
    Logger(args.ports, args.out, quiet=args.quiet, mqtt=mqtt).run(args.seconds)
    return 0


def _moves_in(path: str) -> int:
    """The moves in an SGF file written earlier (0: no file, or not one to trust)."""
    try:
        with open(path, "rb") as f:
            record = sgfmill.Sgf_game.from_bytes(f.read())
    except (OSError, ValueError):
        return 0
    return len(record.get_main_sequence()) - 1  # a node a move (a lost turn too)
