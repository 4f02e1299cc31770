"""The one host program on the live board's serial port: the logger, or an engine's match or a teaching
session in its place.

A port has one reader. ``PortHost`` runs ``host_tools.logger`` on the board's
pty, recording every game; for a game against an engine (``match``, from
``--engine`` or the page's new-game form) it stops the logger and runs
``python -m host_tools.play`` there instead, which starts the game on the
board and records it itself; for problems or a lesson (``teach``, from the
page) it runs ``python -m host_tools.teach`` there. Once that program ends,
the logger comes back.
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
import threading
import time

STARTING_S = 2.0  # a program this young is still importing


class PortHost:
    """The host program on ``port``, recording to ``games`` (``logger``: False runs none between matches).
    ``tell(line)``: what a match or a teaching session prints, line by line (the page's log: a
    lesson's instructions, an engine's moves); it goes to our own output too."""

    def __init__(self, port, games, logger=True, tell=None):
        self.port = port
        self.games = games
        self.logger = logger
        self.tell = tell
        self.process = None
        self.started = 0.0  # when the process started (time.monotonic)
        self.matching = ""  # the process in the logger's place: "engine" (a match) or "teaching"
        self.wanted = None  # (what, its program's arguments) for the next poll

    def record(self):
        """The logger on the port (none when not asked for)."""
        self._stop()
        self.matching = ""
        if self.logger:
            self._start(["-m", "host_tools.logger", self.port, "--out", str(self.games), "--quiet"])

    def match(self, play_args):
        """``host_tools.play`` on the port with these arguments, in the logger's place, from the next
        ``poll`` (a program is started by the thread that polls: Linux ends a child with the thread
        that started it, PR_SET_PDEATHSIG, and a page's request has a thread of its own)."""
        self.wanted = ("engine", ["-m", "host_tools.play", "--board", self.port, "--out", str(self.games)] + play_args)

    def teach(self, what, teach_args):
        """``host_tools.teach what`` (problems, lesson) on the port with these arguments, in the
        logger's place, from the next ``poll``."""
        self.wanted = ("teaching", ["-m", "host_tools.teach", what, "--board", self.port] + teach_args)

    def poll(self):
        """A program asked for starts; one that ended gives the port back to the logger."""
        if self.wanted is not None:
            (kind, args), self.wanted = self.wanted, None
            self._stop()
            self.matching = kind
            self._start(args)
        elif self.matching and self.process is not None and self.process.poll() is not None:
            self.record()

    def status(self):
        """What the page says: "engine" (a match), "teaching", "running" (the logger), or "stopped"."""
        if self.wanted is not None:
            return self.wanted[0]
        if self.process is None or self.process.poll() is not None:
            return "stopped"
        return self.matching or "running"

    def stop(self):
        """Ctrl-C to the program (it writes what it has), then it is gone."""
        self._stop()

    def _start(self, args):
        self.process = subprocess.Popen([sys.executable] + args, start_new_session=True,  # Ctrl-C through us, in order
                                        preexec_fn=_child, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.started = time.monotonic()
        threading.Thread(target=self._relay, args=(self.process, self.matching), daemon=True).start()

    def _relay(self, process, told):
        # The program's output: ours, and the page's for a match or a session (``told``), line by line.
        for line in process.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            if told and self.tell is not None:
                self.tell(line.rstrip())

    def _stop(self):
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        # (one still starting has nothing to write: a Ctrl-C in its imports would only print a traceback)
        process.send_signal(signal.SIGINT if time.monotonic() - self.started > STARTING_S else signal.SIGTERM)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _child():
    """In the host program's process, before it starts: take Ctrl-C (our SIGINT) even if this
    simulator was started with SIGINT ignored (a background job), and end with the simulator
    even when it is killed outright (Linux; elsewhere only a clean stop ends it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
