"""Keeping in step with one board's numbered lines (docs/protocol.md, "Staying in sync").

``LinkSync`` does no I/O and reads no clock: it is fed the bytes read from the
port (``feed(data, now)``) and asked ``step(now)`` now and then, with ``now``
in seconds. It hands what it decides to its owner as it goes, in order:
commands to write (``hello``, ``resend N``, ``state``), the lines accepted in
sequence order, audit entries, a new boot. Callbacks rather than a queue,
so the owner sees the board id and boot of the very line being handled (a
reboot can arrive in the same read as the old boot's last lines).
"""

from __future__ import annotations

from typing import Protocol

from firmware import protocol as pr
from host_tools.board.protocol import decode

RESEND_WAIT_S = 0.3  # ask again if a resend brought nothing
SILENT_S = 5.0  # a board this long silent is reported offline (MQTT)
HOLD_MAX = 4096  # good lines kept while a gap before them is refilled
HEARTBEAT_S = 1.5  # a hello when the line is quiet (finds lost last lines)


class Owner(Protocol):
    """What LinkSync reports to."""

    def send(self, command: str, now: float, heartbeat: bool = False) -> bool:
        """Write a command to the board; False if it did not go out. ``heartbeat``: a routine
        ``hello`` on a quiet line (not worth an audit entry)."""

    def audit(self, event: str, text: str | None, seq: int | None = None) -> None: ...

    def accept(self, seq: int, kind: str, fields: list[str]) -> None:
        """A line taken in sequence order (HELLO excepted)."""

    def new_boot(self) -> None:
        """Another board, or one numbering its lines from 0 again: what it said before is another numbering's."""


class LinkSync:
    """One board's sequence numbers: what was taken, what is missing, what to ask."""

    def __init__(self, owner: Owner):
        self.owner = owner
        self.parser = pr.LineParser(pr.MAX_LINE)
        self.board_id: str | None = None
        self.boot: str | None = None
        self.expected = 0
        self.hello_seq = -1  # the last HELLO's sequence number
        self.hello: dict[str, str] = {}  # the last HELLO's fields (board, boot, missing=...)
        self.synced = False  # a HELLO told us the boot
        self.asked = -1  # last resend asked for
        self.asked_at = 0.0
        self.asked_top = -1  # highest sequence number seen when the resend was asked
        self.top = -1  # highest sequence number seen
        self.held: dict[int, tuple[str, str, list[str]]] = {}  # good lines after a gap, by sequence number
        self.recover_at = 0.0
        self.recovering = False  # a snapshot was asked: the board no longer has the lines we lack
        self.last_rx = 0.0
        self.last_hello = 0.0
        self.seen = -1  # the highest sequence number of any line seen (HELLOs too)
        self.asked_above = -1  # ``seen`` when the owner last asked a hello (``ask``)
        self.current_at = -1.0  # when a HELLO written after that came in its place: every line before it taken
        self.resyncs = 0
        self.crc_errors = 0

    def connect(self, now: float) -> None:
        """The port was (re)opened: start over from a hello."""
        self.parser = pr.LineParser(pr.MAX_LINE)
        self.synced = False
        self._send("hello", now)

    def feed(self, data: bytes, now: float) -> None:
        """Bytes read from the port, in any chunks."""
        if data:
            self.last_rx = now
        mv = memoryview(data)
        while mv:
            mv = mv[self.parser.feed(mv):]
            self._lines(now)

    def step(self, now: float) -> None:
        """Timers: a hello until synced, a resend that brought nothing, a heartbeat."""
        if not self.synced:
            if now - self.last_hello > RESEND_WAIT_S:
                self._send("hello", now)
        elif self.asked >= 0 and now - self.asked_at > RESEND_WAIT_S:
            self._resend(now, again=True)
        elif now - max(self.last_rx, self.last_hello) > HEARTBEAT_S:
            self._send("hello", now, heartbeat=True)

    def ask(self, now: float) -> None:
        """A hello now (not more than every RESEND_WAIT_S): its answer, numbered above every line seen
        (a HELLO resent is the board's last, maybe older than lines still to come), sets ``current_at``
        once taken in its place."""
        if now - self.last_hello > RESEND_WAIT_S:
            self.asked_above = self.seen
            self._send("hello", now)

    def silent(self, now: float) -> bool:
        """Nothing heard for SILENT_S: the board no longer answers the heartbeats."""
        return now - self.last_rx > SILENT_S

    def _send(self, command, now, heartbeat=False):
        if self.owner.send(command, now, heartbeat) and command == "hello":
            self.last_hello = now

    def _lines(self, now):
        audit = self.owner.audit
        while True:
            line = self.parser.line()
            if line is None:
                return
            if line is pr.OVERSIZED:
                audit("oversized", None)
                continue
            raw = bytes(line).decode("ascii", "replace")
            msg = decode(bytes(line))
            if msg is None:
                self.crc_errors += 1
                audit("corrupt", raw)
                if self.synced:
                    self._resend(now)
                continue
            seq, kind, fields = msg
            self.seen = max(self.seen, seq)
            if kind == "HELLO":
                hello = pr.fields_dict(fields)
                heartbeat = (self.synced and seq == self.expected and hello.get("board") == self.board_id
                             and hello.get("boot") == self.boot)  # its answer, all as it was: not audited
                self._hello(seq, hello, now)
                if not heartbeat:  # (after: audited under the board it names; "in", and so published
                    # to a venue, only in its place among the lines: one ahead of them waits for a resend)
                    audit("in" if self.expected == seq + 1 else "hello", raw, seq)
                continue
            if not self.synced:
                audit("ignored", raw, seq)
                continue
            if kind == "ERR" and fields and fields[0] == pr.E_TOO_OLD and seq >= self.expected:
                # The lines we lack are gone from the board: a snapshot replaces them.
                audit("too_old", raw, seq)
                if not self.recovering or now - self.recover_at > RESEND_WAIT_S:
                    self.recovering = True
                    self.recover_at = now
                    self._send("state", now)
                continue
            if kind == "STATE" and self.recovering and seq >= self.expected:
                self.recovering = False
                audit("snapshot", raw, seq)
                self.held = {k: v for k, v in self.held.items() if k > seq}
                self._accept(seq, raw, kind, fields)
                continue
            if seq < self.expected:
                audit("duplicate", raw, seq)
                continue
            if seq > self.expected:
                # Held until the gap is filled; the board resends from the gap.
                audit("gap", raw, seq)
                if len(self.held) < HOLD_MAX:
                    self.held[seq] = (raw, kind, fields)
                if self.asked == self.expected and seq <= self.asked_top:
                    self._resend(now, again=True)  # the board rewound already: the gap's line was lost again
                else:
                    self._resend(now)
                self.top = max(self.top, seq)
                continue
            self._accept(seq, raw, kind, fields)
            while self.expected in self.held:
                seq = self.expected
                raw, kind, fields = self.held.pop(seq)
                self._accept(seq, raw, kind, fields)
            for old in [k for k in self.held if k < self.expected]:
                del self.held[old]
            if self.held and self.asked < self.expected:
                self._resend(now)

    def _accept(self, seq, raw, kind, fields):
        self.owner.audit("in", raw, seq)
        self.expected = seq + 1
        self.top = max(self.top, seq)
        if self.asked >= 0 and self.asked < self.expected:
            self.asked = -1
        self.owner.accept(seq, kind, fields)

    def _hello(self, seq, fields, now):
        board, boot = fields.get("board"), fields.get("boot")
        # A power-up goes on numbering after the journal's lines, and the board resends its last
        # HELLO only (an earlier one as SKIP): a HELLO below the numbers taken, but for a copy of
        # that last one, is a board that started its numbering again.
        again = seq < self.expected and (boot != self.boot or seq != self.hello_seq)
        if self.boot is None or board != self.board_id or again:
            if self.boot is not None:
                self.owner.audit("reboot", "%s boot %s -> %s boot %s, numbering from %d" % (
                    self.board_id, self.boot, board, boot, seq))
            self.expected = 0
            self.top = -1
            self.held = {}
            self.seen, self.asked_above = seq, -1
            self.owner.new_boot()
        elif boot != self.boot:  # powered up again, numbering on from its journal: nothing is lost
            self.owner.audit("power_up", "boot %s -> %s at %d" % (self.boot, boot, seq))
        self.board_id, self.boot = board, boot
        self.hello_seq = seq
        self.hello = fields
        self.synced = True
        if seq == self.expected:
            self.expected = seq + 1
            if seq > self.asked_above:
                self.current_at = now
        elif seq > self.expected:
            self._resend(now)

    def _resend(self, now, again=False):
        if not again and self.asked == self.expected and now - self.asked_at < RESEND_WAIT_S:
            return
        self.asked = self.expected
        self.asked_top = self.top
        self.asked_at = now
        self.resyncs += 1
        self.owner.audit("resync", "from %d" % self.expected)
        self._send("resend %d" % self.expected, now)
