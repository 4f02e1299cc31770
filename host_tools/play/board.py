"""The host's end of one board for play against a program: its commands and replies, and the game it tells.

``Board(port, runner)`` speaks the serial protocol (docs/protocol.md) over a
pyserial-like ``port`` (``in_waiting``, ``read``, ``write``: a real port, or
the simulated board's cable, twins/link.py ``HostSerial``) with the logger's
own sync (``LinkSync``: lost lines asked again) and game model (``Games``).
``runner`` is the time: ``now()`` in seconds and ``wait(seconds)`` — real
time for a real board, the simulated board's time (and its hands) for
``sim.py``. Nothing here decides a move: the board's referee and rules do.
"""

from __future__ import annotations

from collections import deque

from firmware import protocol as pr
from firmware.rules.coords import PASS, parse_vertex
from host_tools.logger.games import GameLog, Games
from host_tools.logger.sync import LinkSync

STEP_S = 0.02  # how often the port is read while waiting
REPLY_S = 5.0  # a command's reply
SYNC_S = 10.0  # the board's first HELLO
NOT_YET = "turn yet"  # the board's words for a move made elsewhere that waits for the person's press


class BoardError(Exception):
    """The board did not answer, or refused a command it must take."""


class Board:
    """One board on a port; see the module doc."""

    def __init__(self, port, runner, sync=LinkSync):
        self.port = port
        self.runner = runner
        self.games = Games()
        self.replies: deque[tuple[str, list[str]]] = deque()
        self.refused = 0  # lines the game model could not take (a board should send none)
        self.sync = sync(self)  # (the lines' order kept: the link's own, or a logger's on MQTT)
        self.sync.connect(runner.now())
        if not self.wait(SYNC_S, lambda: self.sync.synced):
            raise BoardError("the board does not answer hello (is it the board's port, and powered?)")

    # -- LinkSync's owner ------------------------------------------------------------

    def send(self, command: str, now: float, heartbeat: bool = False) -> bool:
        self.port.write(pr.encode_command(command))
        return True

    def audit(self, event: str, text: str | None, seq: int | None = None) -> None:
        pass

    def accept(self, seq: int, kind: str, fields: list[str]) -> None:
        if kind in ("OK", "ERR"):
            self.replies.append((kind, fields))
            return
        try:
            self.games.apply(kind, fields)
        except (ValueError, IndexError):
            self.refused += 1

    def new_boot(self) -> None:
        self.games = Games()

    # -- for the caller ----------------------------------------------------------------

    @property
    def game(self) -> GameLog | None:
        """The game the board is on, as it told it (None before its first GAME line)."""
        return self.games.current

    def poll(self) -> None:
        """Take what the board said."""
        now = self.runner.now()
        waiting = self.port.in_waiting
        self.sync.feed(self.port.read(waiting) if waiting else b"", now)
        self.sync.step(now)

    def wait(self, seconds: float, until=None) -> bool:
        """Let ``seconds`` pass reading the board, or less if ``until()`` comes true first (True then)."""
        end = self.runner.now() + seconds
        while True:
            self.poll()
            if until is not None and until():
                return True
            if self.runner.now() >= end:
                return False
            self.runner.wait(STEP_S)

    def command(self, text: str) -> str | None:
        """Send a command: None when the board carried it out, else its refusal's words
        (``state: play: not W's turn yet``). BoardError when no reply comes."""
        self.replies.clear()
        self.send(text, self.runner.now())
        if not self.wait(REPLY_S, lambda: bool(self.replies)):
            raise BoardError(f"the board did not answer {text.split()[0]!r} in {REPLY_S:g} s")
        kind, fields = self.replies.popleft()
        if kind == "OK":
            return None
        return ": ".join(pr.unquote(f) for f in fields)

    def must(self, text: str) -> None:
        """A command the board must take (BoardError with its words if it refuses)."""
        refused = self.command(text)
        if refused is not None:
            raise BoardError(f"the board refused {text!r}: {refused}")

    def new_game(self, fields: str) -> GameLog:
        """Start a game (``new`` with ``fields``, docs/protocol.md): its GameLog once the board told it."""
        old = self.game
        self.must("new " + fields)
        if not self.wait(REPLY_S, lambda: self.game is not None and self.game is not old):
            raise BoardError("the board did not tell its new game")
        return self.game  # type: ignore[return-value]

    def send_move(self, colour: str, vertex: str, number: int, patience_s: float) -> None:
        """Move ``number`` of the game (1: the first), by the side played elsewhere (``play``): sent
        again while the board waits for the person's clock press or does not answer (a cable out:
        a reply lost with it is found in the board's lines), for up to ``patience_s``; BoardError
        with the board's words if it refuses the move."""
        end = self.runner.now() + patience_s
        while not self._has(number, colour, vertex):
            try:
                refused = self.command(f"play {colour} {vertex}")
                again = refused is not None and NOT_YET in refused
            except BoardError as error:  # no answer (a cable out): asked again once it is back
                refused, again = str(error), True
            if refused is None or self._has(number, colour, vertex):
                return
            if not again or self.runner.now() >= end:
                raise BoardError(f"the board refused {colour} {vertex}: {refused}")
            self.wait(0.2)

    def _has(self, number, colour, vertex):
        # The board told move ``number`` as that move.
        game = self.game
        if game is None or len(game.moves) < number:
            return False
        pt = PASS if vertex.lower() == "pass" else parse_vertex(game.size, vertex)
        return game.moves[number - 1][:2] == ("BW".index(colour) + 1, pt)

    def wait_change(self, moves: int, patience_s: float) -> bool:
        """Wait up to ``patience_s`` for the board's game to hold other than ``moves`` moves, or a result."""
        def changed():
            game = self.game
            return game is not None and (len(game.moves) != moves or game.result is not None)
        return self.wait(patience_s, changed)
