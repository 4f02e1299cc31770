"""One port of the logger: its serial connection, the link's sync and the board's games, wired together.

What it records goes to the ``Logger`` (host_tools/logger/cli.py): audit entries,
the SGF of a game that changed, MQTT messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware import protocol as pr
from host_tools.logger.games import GameLog, Games
from host_tools.logger.serial_port import PortError, SerialPort
from host_tools.logger.sync import LinkSync

if TYPE_CHECKING:
    from host_tools.logger.cli import Logger

ASK_S = 2.0  # a board's broker password is asked again after this long without its answer
SAVE_S = 0.2  # a game's SGF is written at most this often (a flood of lines costs one write a while)
COMMANDS_MAX = 16  # a venue's commands waiting for the logger to catch up with the board


class BoardConnection:
    """Whatever board answers on one port; ``step(now)`` services it once."""

    def __init__(self, port: str, logger: Logger):
        self.port = port
        self.logger = logger
        self.serial = SerialPort(port)
        self.sync = LinkSync(self)
        self.games = Games()
        self.status = "closed"
        self.last_error = ""
        self.journal = "ok"  # the board's journal, as its ALERT lines say ("failing": it cannot write)
        self.missing = ""  # the parts it runs without, as its last ALERT line says ("display,buzzer")
        self.missing_seq = -1  # that line's sequence number
        self.password_asked = (None, -1e9)  # (board, when) the board was last asked its broker password
        self.password_refused: str | None = None  # the board that answered it has none (not registered)
        self.unsaved: list[GameLog] = []  # games changed since their SGF was written
        self.commands: list[tuple[str, float]] = []  # a venue's commands, and when they came, not sent yet

    @property
    def board_id(self) -> str | None:
        return self.sync.board_id

    @property
    def boot(self) -> str | None:
        return self.sync.boot

    def attach(self, ser, now: float) -> None:
        """Talk through an object already open that reads and writes like pyserial (tests)."""
        self.serial.attach(ser)
        self._connected(now)

    def step(self, now: float) -> None:
        if not self.serial.is_open:
            if self.serial.open_due(now):
                self._open(now)
            return
        try:
            data = self.serial.read()
        except PortError as e:
            self._lost(now, "read: %s" % e)
            return
        self.sync.feed(data, now)
        self.sync.step(now)
        self._save(now)
        if self.commands:
            self._venue_commands(now)
        if self.sync.silent(now):
            self.logger.offline(self)  # no answer to the heartbeats
        elif self.logger.mqtt is not None:
            self._ask_password(now)

    def _save(self, now):
        """Write the SGF of each game that changed, if it was not written in the last SAVE_S (its
        first change after a quiet while at once, a flood's once a while: what a move costs does
        not grow with the game)."""
        for game in [g for g in self.unsaved if now - g.saved_at >= SAVE_S]:
            game.saved_at = now
            self.unsaved.remove(game)
            self.logger.save(self, game)

    def flush(self) -> None:
        """Every game that changed, written now (the logger stops; the board's games are forgotten)."""
        unsaved, self.unsaved = self.unsaved, []
        for game in unsaved:
            self.logger.save(self, game)

    def command(self, text: str, now: float) -> None:
        """A venue's host command for the board: sent once the logger holds every line the board
        wrote (a HELLO in its place after the command came). A ``new`` sent earlier would leave the
        game before it with lines the board can only resend as SKIP (its last moves, its result)."""
        if len(self.commands) >= COMMANDS_MAX:
            self.audit("unsent", "%s (the board is not caught up with: too many commands waiting)"
                       % self.commands.pop(0)[0])
        self.commands.append((text, now))

    def _venue_commands(self, now):
        if self.sync.current_at >= self.commands[0][1]:
            for text, _at in self.commands:
                self.send(text, now)
            self.commands = []
        else:
            self.sync.ask(now)

    def _ask_password(self, now):
        """A registered board (``sign=1`` in its HELLO) is asked its broker password (``mqtt``),
        again every ASK_S until it answers (its reply is written once: a lost one is not resent;
        audited the first time); one not registered stays off the broker."""
        board, mqtt = self.board_id, self.logger.mqtt
        if not self.sync.synced or not board or board in mqtt.boards or board == self.password_refused:
            return
        if self.sync.hello.get("sign") != "1":
            mqtt.deny(board, "not registered with a venue")
            return
        asked, at = self.password_asked
        if now - at >= ASK_S or asked != board:
            if self.send("mqtt", now, heartbeat=asked == board):
                self.password_asked = (board, now)

    def _open(self, now):
        try:
            self.serial.open(now)
        except PortError as e:
            self.status = "waiting"
            self.last_error = str(e)[:60]
            return
        self._connected(now)

    def _connected(self, now):
        self.status = "open"
        self.password_asked, self.password_refused = (None, -1e9), None  # (registered at the desk meanwhile?)
        self.audit("connect", None)
        self.sync.connect(now)

    def _lost(self, now, why):
        self.serial.close(now)
        self.status = "disconnected"
        self.last_error = why[:60]
        self.logger.offline(self)
        self.audit("disconnect", why)

    # -- LinkSync's owner -------------------------------------------------------

    def send(self, command: str, now: float, heartbeat: bool = False) -> bool:
        if not self.serial.is_open:
            return False
        try:
            written = self.serial.write(pr.encode_command(command))
        except PortError as e:
            self._lost(now, "write: %s" % e)
            return False
        if not written or not heartbeat:
            self.audit("out" if written else "unsent", command)  # unsent: the board is not reading, asked again later
        return written

    def audit(self, event: str, text: str | None, seq: int | None = None) -> None:
        self.logger.audit(self, event, text, seq)

    def accept(self, seq: int, kind: str, fields: list[str]) -> None:
        if kind == "OK" and fields[:1] == ["mqtt"] and len(fields) > 1 and self.logger.mqtt is not None:
            self.logger.mqtt.allow(self.board_id, fields[1])
            return
        if kind == "ERR":
            detail = pr.unquote(fields[1]) if len(fields) > 1 else ""
            if "mqtt" in detail and self.logger.mqtt is not None:  # (its own word on why, or an older board's)
                self.logger.mqtt.deny(self.board_id, detail[:60])
                self.password_refused = self.board_id
            self.last_error = " ".join(fields)[:60]
            return
        if kind == "ALERT":  # the board has something wrong to tell (its journal cannot write, a part is missing)
            alerts = pr.fields_dict(fields)
            self.journal = alerts.get("journal", self.journal)
            self.missing = alerts.get("missing", "")  # (an ALERT names every part missing; none: none)
            self.missing_seq = seq
            self.audit("alert", " ".join(fields), seq)
            self.logger.publish(self, "alert", alerts, retain=True)
            return
        try:
            game = self.games.apply(kind, fields)
        except (ValueError, IndexError) as error:  # a buggy or foreign device: noted, recording goes on
            self.last_error = "rejected %s: %s" % (kind, error)
            self.audit("rejected", "%d %s %s: %s" % (seq, kind, " ".join(fields)[:80], str(error)[:80]), seq)
            return
        if game is None:
            return
        if game not in self.unsaved:
            self.unsaved.append(game)
        if kind == "MOVE":
            payload = {"n": int(fields[0]), "colour": fields[1], "point": fields[2], "ms": game.moves[-1][2]}
            self.logger.publish(self, "move", payload)
        elif kind == "PENALTY":
            k, side, what, value, reason = game.penalties[-1]
            self.logger.publish(self, "penalty", {"n": k, "colour": side, "kind": what, "value": value,
                                                  "reason": reason})

    def new_boot(self) -> None:
        self.flush()
        self.games = Games()
        self.journal = "ok"
        self.missing = ""
        self.missing_seq = -1

    @property
    def parts_missing(self) -> str:
        """The parts the board runs without ("display,buzzer"; "" when none), as the later of its
        last HELLO and its last ALERT says: every HELLO names them, so a logger that came too late
        for the ALERT knows."""
        if self.sync.hello_seq > self.missing_seq:
            return self.sync.hello.get("missing", "")
        return self.missing

    # -- the status line -------------------------------------------------------

    def line(self) -> str:
        game = self.games.current
        moves = len(game.moves) if game else 0
        missing = self.parts_missing
        mqtt = self.logger.mqtt
        why = mqtt.why_not(self.board_id) if mqtt is not None and self.board_id else ""
        return "%s [%s] %s game %s move %d resyncs %d crc %d %s%s%s%s" % (
            self.port, self.status, self.board_id or "?", game.gid if game else "-", moves,
            self.sync.resyncs, self.sync.crc_errors, "JOURNAL FAILING " if self.journal == "failing" else "",
            "MISSING %s " % missing.upper() if missing else "",
            "NOT ON THE BROKER: %s " % why if why else "",
            self.last_error)
