"""The emulated board from Python: a physical event script played on the Pico, its link logged.

``PicoBoard`` starts tests/pico/board.mjs (the Pico running the deployed firmware among its
parts) and drives it in lockstep over its stdin/stdout. ``Player(board, image).play(lines)``
plays a physical event script (docs/script.md) on it with simulated hands: stones set the
74HC165 chain's inputs through the driver's own wiring table, presses hold a button down for
60 ms and until the board has scanned it, ``power cut`` stops the Pico at that instant and
boots a fresh one from the same flash. Meanwhile a host on its USB serial port (``Host``: the
logger's own ``LinkSync`` and ``Games``, as host_tools/sim/headless.py's recording uses them)
reads every line, asks for what it missed and builds the game's SGF. Time is the emulated
clock's; across a power cut the script's time goes on while the new Pico's clock starts at 0.
"""

from __future__ import annotations

import base64
import json
import pathlib
import subprocess

from firmware import protocol as pr
from firmware.drivers.shift165 import ShiftChain
from firmware.rules.coords import col_row
from host_tools.sim.headless import Recording
from host_tools.sim.script import parse

ROOT = pathlib.Path(__file__).resolve().parents[2]
PRESS_MS = 60  # a finger on a button (bench/device/play.py's, docs/script.md's) ...
SEEN_SCANS = 3  # ... let go once the board has scanned this many times since (docs/script.md: "once the
# debouncer has seen it"): the Pico's loop passes are ~10 ms apart but up to ~75 ms when the clock
# display is redrawn, so a 60 ms tap can fall between the two polls the debouncer needs.
STEP_MS = 50  # the host reads the port and runs its timers this often
MENU = 3  # drivers/buttons.py's B_MENU: ``button undo|ok`` is MENU on the board


class Missing(Exception):
    """The Pico's images are not on this machine (tests/pico/images/README.md)."""


class PicoBoard:
    """The node process holding the emulated board; ``request(op, **args)`` -> its reply."""

    def __init__(self):
        self.node = subprocess.Popen(["node", str(ROOT / "tests" / "pico" / "board.mjs")], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        hello = json.loads(self.node.stdout.readline() or "{}")
        if "missing" in hello:
            self.close()
            raise Missing("\n".join(hello["missing"]))
        if not hello.get("ready"):
            raise RuntimeError("board.mjs did not start: %r" % hello)

    def request(self, op, **args):
        self.node.stdin.write(json.dumps(dict(args, op=op)) + "\n")
        reply = json.loads(self.node.stdout.readline() or '{"error": "board.mjs ended"}')
        if "error" in reply:
            raise RuntimeError("board.mjs %s: %s" % (op, reply["error"]))
        return reply

    def close(self):
        if self.node.poll() is None:
            self.node.stdin.close()
            self.node.wait(timeout=30)


class Host(Recording):
    """The USB host: the simulator's host end (the logger's link sync and game model, no
    files), on the board's port; it keeps every line read."""

    def __init__(self, board):
        self.board = board
        self.lines = []  # every line read, as bytes
        self.rx = b""
        super().__init__(None)

    def send(self, command, now, heartbeat=False):
        self.board.request("send", data=base64.b64encode(pr.encode_command(command)).decode())
        return True

    def new_boot(self):
        pass  # the games the board announced stay: a power cut's HELLO goes on with them

    def read(self, data, now_ms):
        self.rx += data
        *done, self.rx = self.rx.split(b"\n")
        self.lines += done
        self.sync.feed(data, now_ms / 1000)
        self.sync.step(now_ms / 1000)


class Hands:
    """Stones and fingers on the board's parts, as a script says."""

    def __init__(self, board):
        self.board = board
        chain = ShiftChain(_Nothing(), _Nothing())  # the driver's own table: raw slot of each point
        self.slot = {p: s for s, p in enumerate(chain.point_at) if p != 0xFFFF}
        self.raw = bytearray(chain.nbytes)
        self.pending = []  # (ms, what to undo): fingers to lift, hovers ending

    def stone(self, pt, on):
        col, row = col_row(19, pt)
        s = self.slot[row * 19 + col]
        if bool(self.raw[s >> 3] >> (s & 7) & 1) == on:
            return False
        self.raw[s >> 3] ^= 1 << (s & 7)
        self.board.request("stones", raw=self.raw.hex())
        return True

    def button(self, index, down):
        self.board.request("button", index=index, down=down)

    def due(self, now):
        """Lifts the fingers and ends the hovers due by ``now`` (script time)."""
        for item in sorted(self.pending, key=lambda item: item[0]):
            if item[0] <= now:
                item[1]()
                self.pending.remove(item)


class _Nothing:
    def value(self, *_):
        pass


class Player:
    """A physical event script played on the emulated board, the host logging its link.

    ``boot()`` powers up a Pico on ``boot_image`` (a littlefs image); ``play(lines)`` plays the
    script (a 19x19 board's); ``run_to(t)`` lets script time ``t`` come (the Pico runs, the host
    reads the port every STEP_MS). ``on_cut(board)``, when set, is called just before each power
    cut (the figures of the power-up that ends)."""

    def __init__(self, board, boot_image):
        self.board = board
        self.boot_image = boot_image
        self.host = None
        self.hands = None
        self.now = 0  # script time
        self.offset = 0  # script time of the present power-up's clock 0
        self.on_cut = None
        self.scans = 0  # the chain's latches (the board's scans) since its power-up
        self.held_longer = 0  # 10 ms waits of a finger for the board to scan (see SEEN_SCANS)
        self.seen_scans = SEEN_SCANS  # (0: bare taps, lifted after press_ms whatever the board did)
        self.press_ms = PRESS_MS
        self.host_at = []  # (script ms, command) the host sends besides the script's (ones it refuses: state...)

    def boot(self):
        self.board.request("boot", fs=str(self.boot_image))
        self.host = Host(self.board)
        self.hands = Hands(self.board)

    def release(self, index, at, scans_then):
        """Lift the finger on button ``index`` at ``at``, or later: once the board scanned
        SEEN_SCANS times since ``scans_then``, 10 ms at a time (each wait counted in ``held_longer``)."""

        def lift():
            if self.scans - scans_then >= self.seen_scans or self.scans < scans_then:  # (or a power cut came)
                self.hands.button(index, False)
            else:
                self.held_longer += 1
                self.hands.pending.append((self.now + 10, lift))

        self.hands.pending.append((at, lift))

    def run_to(self, t):
        while self.now < t:
            # (to the next finger to lift or hover to end, exactly: a press lasts what it should)
            self.now = min([t, self.now + STEP_MS] + [when for when, _ in self.hands.pending])
            reply = self.board.request("run", to=self.now - self.offset)
            self.scans = reply["scans"]
            self.host.read(base64.b64decode(reply["rx"]), self.now)
            self.hands.due(self.now)
            while self.host_at and self.host_at[0][0] <= self.now:
                self.host.send(self.host_at.pop(0)[1], self.now / 1000)

    def play(self, lines, tail_ms=3000):
        events, errors = parse(lines, 19)
        if errors:
            raise ValueError("; ".join(map(str, errors)))
        texts = dict(enumerate(lines, 1))
        for event in events:
            self.run_to(event.t_ms)
            self.apply(event, texts[event.line])
        self.run_to(self.now + tail_ms)

    def apply(self, event, text):
        t, hands = event.t_ms, self.hands
        if event.action in ("place", "lift"):
            hands.stone(event.point, event.action == "place")
        elif event.action == "hover":
            if hands.stone(event.point, True):
                hands.pending.append((t + event.duration_ms, lambda p=event.point: hands.stone(p, False)))
        elif event.action in ("press", "hold", "button"):
            if event.action == "button" and event.name not in ("undo", "ok"):
                raise ValueError("line %d: the board has no button for %r" % (event.line, event.name))
            for index in event.buttons or (MENU,):
                hands.button(index, True)
                self.release(index, t + (event.duration_ms or self.press_ms), self.scans)
        elif event.action == "host":
            self.host.send(text.split("#", 1)[0].split(None, 2)[2], t / 1000)
        elif event.action == "power" and event.name == "cut":
            if self.on_cut:
                self.on_cut(self.board)
            self.board.request("cut")  # the stones stay where the hands left them
            self.offset = t
            self.host.sync.connect(t / 1000)  # the port comes back: the logger opens it again
        else:
            raise ValueError("line %d: %s %s is not played on the emulated board" % (event.line, event.action,
                                                                                         event.name))
