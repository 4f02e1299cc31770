"""Record every board's games from its serial link: ``python -m host_tools.logger PORT [PORT...]``.

One pyserial connection per board (device paths, pty paths, ``socket://``,
``loop://``). Each connection reopens by itself after a disconnect. The
logger follows the board's sequence numbers (firmware/protocol.py): a
corrupt line, a gap or a silent stretch makes it ask ``resend N``; lines it
already has are dropped. Every game is written as SGF FF[4] (through
host_tools/sgf.py, rewritten after each move, so a killed logger leaves the
game so far) and every line read or sent goes to an append-only JSON Lines
audit log. See docs/protocol.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import serial

from firmware.host import protocol as pr
from firmware.rules.coords import PASS, point
from firmware.rules.game import PLAYING, Game
from firmware.rules.position import BLACK, WHITE
from firmware.version import VERSION
from host_tools import sgf

RETRY_S = 0.5  # reopen a lost port this often
RESEND_WAIT_S = 0.3  # ask again if a resend brought nothing
SILENT_S = 5.0  # a board this long silent is reported offline (MQTT)
HOLD_MAX = 4096  # good lines kept while a gap before them is refilled
HEARTBEAT_S = 1.5  # a hello when the line is quiet (finds lost last lines)


class GameLog:
    """One game as the board announced it."""

    def __init__(self, gid: int, fields: dict):
        self.gid = gid
        self.fields = fields
        self.size = int(fields.get("size", "19"))
        self.moves: list[tuple[int, int, int, int, bool]] = []  # (colour, point, ms left, periods, lost)
        self.result: str | None = None

    def point(self, text: str) -> int:
        if text in ("pass", "lost"):
            return PASS
        return point(self.size, ord(text[0]) - 97, ord(text[1]) - 97)

    def game(self) -> Game:
        game = Game(self.size, self.fields.get("rules", "japanese"), komi=float(self.fields.get("komi", "6.5")),
                    strict_turns=False)
        ab = self.fields.get("ab", "")
        if ab:
            points = [self.point(ab[i:i + 2]) for i in range(0, len(ab), 2)]
            if int(self.fields.get("handicap", "0")):
                game.place_handicap(points)
            else:
                game.setup(points, ())
        for colour, pt, _ms, _periods, lost in self.moves:
            if game.phase != PLAYING:
                game.resume(3 - colour)
            if lost:
                game.lose_turn(colour)
            else:
                game.play(colour, pt)
        return game

    def sgf_bytes(self, board_id: str) -> bytes:
        game = self.game()
        root = {"AP": ("SmartGoBoard-logger", VERSION)}
        keys = {"pb": "PB", "pw": "PW", "ev": "EV", "ro": "RO", "dt": "DT"}
        for key, prop in keys.items():
            if self.fields.get(key):
                root[prop] = self.fields[key]
        spec = self.fields.get("time")
        if spec:
            main, _, over = spec.partition("+")
            try:
                root["TM"] = float(main)
            except ValueError:
                over = spec
            if over:
                root["OT"] = over
        if "DT" not in root:
            root["DT"] = time.strftime("%Y-%m-%d")
        if self.result is not None:
            root["RE"] = self.result
        root["GN"] = "%s game %d" % (board_id, self.gid)

        def move_props(k):
            colour, _pt, ms, periods, _lost = self.moves[k - 1]
            if ms < 0:
                return None
            side = "B" if colour == BLACK else "W"
            props = {side + "L": ms / 1000}
            if periods:
                props["O" + side] = periods
            return props

        return sgf.write(game, root, move_props)


class Board:
    """One port: connection, resync state, games."""

    def __init__(self, port: str, logger: Logger):
        self.port = port
        self.logger = logger
        self.ser = None
        self.next_open = 0.0
        self.parser = pr.LineParser(pr.MAX_LINE)
        self.board_id = None
        self.boot = None
        self.expected = 0
        self.synced = False  # a HELLO told us the boot
        self.asked = -1  # last resend asked for
        self.asked_at = 0.0
        self.asked_top = -1  # highest sequence number seen when the resend was asked
        self.top = -1  # highest sequence number seen
        self.held: dict[int, tuple] = {}  # good lines after a gap, by sequence number
        self.recover_at = 0.0
        self.recovering = False  # a snapshot was asked: the board no longer has the lines we lack
        self.last_rx = 0.0
        self.last_hello = 0.0
        self.games: dict[int, GameLog] = {}
        self.current: GameLog | None = None
        self.status = "closed"
        self.last_error = ""
        self.resyncs = 0
        self.crc_errors = 0

    # -- connection ---------------------------------------------------------

    def open(self, now):
        try:
            self.ser = serial.serial_for_url(self.port, baudrate=115200, timeout=0, write_timeout=0.05)
        except (serial.SerialException, OSError, ValueError) as e:
            self.ser = None
            self.next_open = now + RETRY_S
            self.status = "waiting"
            self.last_error = str(e)[:60]
            return
        self.status = "open"
        self.synced = False
        self.parser = pr.LineParser(pr.MAX_LINE)
        self.logger.audit(self, "connect", None)
        self.send("hello", now)

    def close(self, now, why):
        if self.ser is not None:
            try:
                self.ser.close()
            except (serial.SerialException, OSError):
                pass
        self.ser = None
        self.status = "disconnected"
        self.last_error = why[:60]
        if self.logger.mqtt is not None and self.board_id:
            self.logger.mqtt.status(self, "offline")
        self.next_open = now + RETRY_S
        self.logger.audit(self, "disconnect", why)

    def send(self, command, now):
        if self.ser is None:
            return
        try:
            self.ser.write(pr.encode_command(command))
        except serial.SerialTimeoutException:
            self.logger.audit(self, "unsent", command)  # the board is not reading: asked again later
            return
        except (serial.SerialException, OSError) as e:
            self.close(now, "write: %s" % e)
            return
        self.logger.audit(self, "out", command)
        if command == "hello":
            self.last_hello = now

    def step(self, now):
        if self.ser is None:
            if now >= self.next_open:
                self.open(now)
            return
        try:
            data = self.ser.read(self.ser.in_waiting or 1)
        except (serial.SerialException, OSError) as e:
            self.close(now, "read: %s" % e)
            return
        if data:
            self.last_rx = now
            mv = memoryview(data)
            while mv:
                taken = self.parser.feed(mv)
                mv = mv[taken:]
                self._lines(now)
        self._lines(now)
        if not self.synced:
            if now - self.last_hello > RESEND_WAIT_S:
                self.send("hello", now)
        elif self.asked >= 0 and now - self.asked_at > RESEND_WAIT_S:
            self.resend(now, again=True)
        elif now - max(self.last_rx, self.last_hello) > HEARTBEAT_S:
            self.send("hello", now)
        if self.logger.mqtt is not None and self.board_id and now - self.last_rx > SILENT_S:
            self.logger.mqtt.status(self, "offline")  # no answer to the heartbeats

    # -- messages -------------------------------------------------------------

    def _lines(self, now):
        while True:
            line = self.parser.line()
            if line is None:
                return
            if line is pr.OVERSIZED:
                self.logger.audit(self, "oversized", None)
                continue
            raw = bytes(line).decode("ascii", "replace")
            msg = pr.decode(bytes(line))
            if msg is None:
                self.crc_errors += 1
                self.logger.audit(self, "corrupt", raw)
                if self.synced:
                    self.resend(now)
                continue
            seq, kind, fields = msg
            if kind == "HELLO":
                self.logger.audit(self, "in", raw, seq)
                self.hello(seq, pr.fields_dict(fields), now)
                continue
            if not self.synced:
                self.logger.audit(self, "ignored", raw, seq)
                continue
            if kind == "ERR" and fields and fields[0] == "too_old" and seq >= self.expected:
                # The lines we lack are gone from the board: a snapshot replaces them.
                self.logger.audit(self, "too_old", raw, seq)
                if not self.recovering or now - self.recover_at > RESEND_WAIT_S:
                    self.recovering = True
                    self.recover_at = now
                    self.send("state", now)
                continue
            if kind == "STATE" and self.recovering and seq >= self.expected:
                self.recovering = False
                self.logger.audit(self, "snapshot", raw, seq)
                self.held = {k: v for k, v in self.held.items() if k > seq}
                self.accept(seq, raw, kind, fields)
                continue
            if seq < self.expected:
                self.logger.audit(self, "duplicate", raw, seq)
                continue
            if seq > self.expected:
                # Held until the gap is filled; the board resends from the gap.
                self.logger.audit(self, "gap", raw, seq)
                if len(self.held) < HOLD_MAX:
                    self.held[seq] = (raw, kind, fields)
                if self.asked == self.expected and seq <= self.asked_top:
                    self.resend(now, again=True)  # the board rewound already: the gap's line was lost again
                else:
                    self.resend(now)
                self.top = max(self.top, seq)
                continue
            self.accept(seq, raw, kind, fields)
            while self.expected in self.held:
                seq = self.expected
                raw, kind, fields = self.held.pop(seq)
                self.accept(seq, raw, kind, fields)
            for old in [k for k in self.held if k < self.expected]:
                del self.held[old]
            if self.held and self.asked < self.expected:
                self.resend(now)

    def accept(self, seq, raw, kind, fields):
        self.logger.audit(self, "in", raw, seq)
        self.expected = seq + 1
        self.top = max(self.top, seq)
        if self.asked >= 0 and self.asked < self.expected:
            self.asked = -1
        self.handle(kind, fields)

    def hello(self, seq, fields, now):
        boot = fields.get("boot")
        self.board_id = fields.get("board", self.board_id)
        if boot != self.boot:
            if self.boot is not None:
                self.logger.audit(self, "reboot", "boot %s -> %s" % (self.boot, boot))
            self.boot = boot
            self.expected = 0
            self.top = -1
            self.held = {}
            self.games = {}
            self.current = None
        self.synced = True
        if seq == self.expected:
            self.expected = seq + 1
        elif seq > self.expected:
            self.resend(now)

    def resend(self, now, again=False):
        if not again and self.asked == self.expected and now - self.asked_at < RESEND_WAIT_S:
            return
        self.asked = self.expected
        self.asked_top = self.top
        self.asked_at = now
        self.resyncs += 1
        self.logger.audit(self, "resync", "from %d" % self.expected)
        self.send("resend %d" % self.expected, now)

    def handle(self, kind, fields):
        if kind == "GAME":
            gid = int(fields[0])
            self.current = GameLog(gid, pr.fields_dict(fields[1:]))
            self.games[gid] = self.current
            self.save()
        elif kind == "MOVE" and self.current is not None:
            game = self.current
            k = int(fields[0])
            colour = BLACK if fields[1] == "B" else WHITE
            ms = int(fields[3]) if len(fields) >= 5 else -1
            periods = int(fields[4]) if len(fields) >= 5 else 0
            del game.moves[k - 1:]
            game.moves.append((colour, game.point(fields[2]), ms, periods, fields[2] == "lost"))
            self.save()
            self.logger.publish(self, "move", {"n": k, "colour": fields[1], "point": fields[2], "ms": ms})
        elif kind == "UNDO" and self.current is not None:
            del self.current.moves[int(fields[0]):]
            self.save()
        elif kind == "END":
            game = self.games.get(int(fields[0]))
            if game is not None:
                game.result = pr.fields_dict(fields[1:]).get("re")
                self.save(game)
        elif kind == "STATE" and len(fields) >= 2:
            info = pr.fields_dict(fields[2:])
            gid = int(fields[0])
            if "board" in info:
                game = self.games.get(gid)
                if game is None:  # its GAME line was lost: size from the board, defaults for the rest
                    game = GameLog(gid, {"size": str(info["board"].count("/") + 1)})
                    self.games[gid] = self.current = game
                game.moves = []
                for item in filter(None, info.get("moves", "").split(",")):
                    colour = BLACK if item[0] == "B" else WHITE
                    game.moves.append((colour, game.point("pass" if item[1:] == ".." else item[1:]), -1, 0, False))
                self.save(game)
        elif kind == "ERR":
            self.last_error = " ".join(fields)[:60]

    def save(self, game=None):
        game = game or self.current
        if game is None:
            return
        path = self.logger.sgf_path(self, game)
        data = game.sgf_bytes(self.board_id or "board")
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        self.logger.publish(self, "state", {"game": game.gid, "moves": len(game.moves), "result": game.result},
                            retain=True)

    def line(self):
        game = self.current
        moves = len(game.moves) if game else 0
        return "%s [%s] %s game %s move %d resyncs %d crc %d %s" % (
            self.port, self.status, self.board_id or "?", game.gid if game else "-", moves,
            self.resyncs, self.crc_errors, self.last_error)


class Logger:
    """Every board's connection; ``step()`` services each once."""

    def __init__(self, ports, out_dir, quiet=False, mqtt=None):
        self.out_dir = out_dir
        os.makedirs(out_dir, exist_ok=True)
        self.quiet = quiet
        self.boards = [Board(p, self) for p in ports]
        self.audit_file = open(os.path.join(out_dir, "audit.jsonl"), "a", encoding="utf-8")  # noqa: SIM115
        self.mqtt = mqtt
        self._shown = 0.0

    def audit(self, board, event, text, seq=None):
        entry = {"t": round(time.time(), 3), "port": board.port, "board": board.board_id, "event": event}
        if seq is not None:
            entry["seq"] = seq
        if text is not None:
            entry["line"] = text
        self.audit_file.write(json.dumps(entry) + "\n")
        self.audit_file.flush()

    def sgf_path(self, board, game):
        name = "%s-%s-g%d.sgf" % (board.board_id or "board", board.boot or "0", game.gid)
        return os.path.join(self.out_dir, name)

    def publish(self, board, what, payload, retain=False):
        if self.mqtt is not None:
            self.mqtt.publish(board, what, payload, retain)

    def step(self):
        now = time.monotonic()
        for board in self.boards:
            board.step(now)
        if not self.quiet and now - self._shown > 0.5:
            self._shown = now
            sys.stderr.write("\x1b[2K\r" + " | ".join(b.line() for b in self.boards)[:200])
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
        from host_tools.mqtt_out import MqttOut

        mqtt = MqttOut(args.mqtt)
    Logger(args.ports, args.out, quiet=args.quiet, mqtt=mqtt).run(args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
