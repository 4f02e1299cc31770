"""A GTP engine run as a process, for the board's opponent: every way an engine fails said in words.

    with Engine(default_engine()) as engine:            # GNU Go from Debian, where installed
        engine.new_game(size=9, komi=7.0)
        engine.play("B", "E5")
        move = engine.genmove("W", timeout=30)          # "D4", "pass" or "resign"

GTP version 2: a command line goes in; the answer is ``= text`` (or ``?
text``, a refusal) and ends at an empty line. An engine that exits, writes
something that is not an answer, takes longer than the time it was given, or
answers ``genmove`` with no point of the board raises ``EngineError`` (a
refusal: ``EngineRefused``) naming the engine, the command and what went
wrong, with its last lines on stderr when it died. An engine's move is only
ever played through the rules core by the caller, so nothing the engine does
can change a game the board keeps.
"""

from __future__ import annotations

import collections
import os
import queue
import shlex
import subprocess
import threading

from firmware.rules.coords import PASS, parse_vertex

GNUGO = "/usr/games/gnugo"  # Debian's gnugo package puts it there (not on PATH)
START_S = 10.0  # an engine that has not answered protocol_version by then is not taken
COMMAND_S = 30.0  # a command's answer, unless its caller gives another time


def default_engine(level=1, seed=None):
    """The command line of GNU Go in GTP mode at ``level`` (0-10), or None where it is not installed;
    ``seed``: its random seed (the same game from the same moves; otherwise its own)."""
    if not os.access(GNUGO, os.X_OK):
        return None
    return f"{GNUGO} --mode gtp --level {level}" + ("" if seed is None else f" --seed {seed}")


class EngineError(Exception):
    """The engine failed: it exited, its answer was not GTP, it was too slow, or its move was not a move."""


class EngineRefused(EngineError):
    """The engine answered a command with ``? text``."""


class Engine:
    """An engine process speaking GTP on its stdin and stdout (see the module doc).
    ``command``: its command line (a string, split as a shell would, or a list)."""

    def __init__(self, command, start_timeout=START_S):
        if not command:
            raise EngineError("no engine given (GNU Go is not installed: apt-get install gnugo)")
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.label = os.path.basename(self.argv[0])
        try:
            self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True, bufsize=1)
        except OSError as error:
            raise EngineError(f"{self.label}: cannot start it: {error.strerror or error}") from None
        self.size = 19
        self._lines = queue.Queue()  # stdout lines, then None at its end
        self._stderr = collections.deque(maxlen=8)
        threading.Thread(target=self._pump, args=(self.process.stdout, self._lines.put), daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._pump, args=(self.process.stderr, self._stderr.append),
                                               daemon=True)
        self._stderr_reader.start()
        version = self.command("protocol_version", start_timeout)
        if version.strip() != "2":
            self.close()
            raise EngineError(f"{self.label}: speaks GTP version {version.strip()!r}, not 2")

    @staticmethod
    def _pump(stream, put):
        for line in stream:
            put(line.rstrip("\r\n"))
        put(None)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def command(self, text, timeout=COMMAND_S):
        """The engine's answer to one command line (its text after ``=``). Raises EngineRefused for
        ``? text`` and EngineError when the engine fails (see the module doc)."""
        name = text.split()[0] if text.split() else text
        try:
            self.process.stdin.write(text + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died(name) from None
        lines = []
        while True:
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                raise EngineError(f"{self.label}: no answer to {name} in {timeout:g} s") from None
            if line is None:
                raise self._died(name)
            if not lines and not line.strip():
                continue  # (blank lines before an answer: tolerated, as gomill does)
            if not line.strip():
                break
            lines.append(line)
        first = lines[0]
        if first[:1] not in ("=", "?"):
            raise EngineError(f"{self.label}: answered {name} with {first[:60]!r}, which is not GTP")
        body = "\n".join([first[1:].lstrip("0123456789").strip()] + lines[1:]).strip()
        if first[0] == "?":
            raise EngineRefused(f"{self.label} refused {text!r}: {body[:80]}")
        return body

    def _died(self, name):
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._stderr_reader.join(timeout=1)  # (its last words read to the end)
        tail = " | ".join(line for line in self._stderr if line and line.strip())[-300:]
        said = f"; it said: {tail}" if tail else ""
        return EngineError(f"{self.label}: exited (code {code}) during {name}{said}")

    # -- a game -------------------------------------------------------------------------

    def new_game(self, size=19, komi=6.5, handicap=0):
        """A new game: board size, komi, and the engine's own fixed handicap stones (their
        vertices, as it placed them; empty with none)."""
        self.command(f"boardsize {size}")
        self.size = size
        self.command("clear_board")
        self.command(f"komi {komi:g}")
        return self.command(f"fixed_handicap {handicap}").split() if handicap >= 2 else []

    def play(self, colour, vertex):
        """``colour`` ("B" or "W") played ``vertex`` ("D4", "pass") in the engine's game."""
        self.command(f"play {colour} {vertex}")

    def genmove(self, colour, timeout=COMMAND_S):
        """The engine's move for ``colour``: a vertex of the board ("D4"), "pass" or "resign"."""
        move = self.command(f"genmove {colour}", timeout).strip()
        word = move.lower()
        if word in ("pass", "resign"):
            return word
        try:
            if parse_vertex(self.size, move) != PASS:
                return move.upper()
        except ValueError:
            pass
        raise EngineError(f"{self.label}: genmove {colour} answered {move[:20]!r}, not a point of the "
                          f"{self.size}x{self.size} board, pass or resign")

    def identity(self):
        """``name version`` as the engine tells them (for the SGF's PB/PW); its program's name if it will not."""
        try:
            return " ".join(part for part in (self.command("name"), self.command("version")) if part)
        except EngineRefused:
            return self.label

    def dead_stones(self, timeout=COMMAND_S):
        """The vertices the engine holds dead at the end (``final_status_list dead``)."""
        return self.command("final_status_list dead", timeout).split()

    def close(self):
        """Ask the engine to quit, then make sure it has."""
        process = self.process
        if process.poll() is None:
            try:
                process.stdin.write("quit\n")
                process.stdin.flush()
                process.wait(timeout=2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                process.kill()
                process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                stream.close()
            except OSError:
                pass
