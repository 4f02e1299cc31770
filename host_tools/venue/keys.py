"""The venue's key: registering boards with it, and checking their records later (docs/records.md).

    python -m host_tools.venue.keys register /dev/ttyACM0 [--key-file venue/venue.key] [--db URL]
    python -m host_tools.venue.keys verify games/*.sgf [--key-file venue/venue.key]

The venue holds one secret (``venue/venue.key``, made at its first start, readable
by its owner only). Registration gives a board its own secret, derived from it
and the board's name, over a direct USB cable (never over the network): the
board keeps it on its flash and signs each result with it. Anyone holding the
venue's key can then check any record the venue exported.

A registered board takes a new secret only signed with the one it holds, or
with MENU held on it (firmware/host/signing.py): ``register`` signs its ``key``
command, so the venue registers its own boards again at will; a board holding
another key refuses it until someone at the desk holds its MENU button.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import secrets
import sys
import threading
import time

from firmware import protocol as pr
from firmware.host.signing import E_DENIED, signed
from host_tools.board.protocol import decode
from host_tools.records import board_key, verify_sgf

DEFAULT_KEY_FILE = "venue/venue.key"
HOLD_S = 60.0  # how long ``register`` waits for MENU to be held on a board holding another key


class Refused(RuntimeError):
    """The board answered ``ERR <code> <detail>``."""

    def __init__(self, command: str, code: str, detail: str):
        super().__init__("the board refused %s: %s %s" % (command.split()[0], code, detail))
        self.code = code
        self.detail = detail


def signed_command(secret: bytes, text: str, counter: int) -> str:
    """``text ~<counter>:<tag>``: a host command as the board's venue signs it (its secret, a
    counter above every one before it: firmware/host/signing.py ``authorise``)."""
    text = " ".join(text.split())
    return "%s ~%d:%s" % (text, counter, signed(secret, counter, text))


_last_counter = 0  # the last counter handed out in this process
_counter_lock = threading.Lock()


def clock_counter() -> int:
    """A signed command's counter: the time in ms, so it grows across restarts and machines, and
    above the last one handed out here (two commands in one millisecond: the board takes only a
    counter above the last it took)."""
    global _last_counter
    with _counter_lock:
        _last_counter = max(int(time.time() * 1000), _last_counter + 1)
        return _last_counter


DEFAULT_DB = "venue/venue.db"


def load_key(path: str, create: bool = True) -> bytes:
    """The venue's secret from its file (64 hex digits), made on first use when ``create``."""
    file = pathlib.Path(path)
    if not file.exists():
        if not create:
            raise SystemExit("error: no venue key at %s (the venue makes it at its first start)" % path)
        file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32) + "\n")
    try:
        key = bytes.fromhex(file.read_text().strip())
    except ValueError:
        key = b""
    if len(key) != 32:
        raise SystemExit("error: %s is not a venue key (64 hex digits)" % path)
    return key


def register(port, venue_key: bytes, timeout_s: float = 5.0, hold_s: float = HOLD_S, tell=print) -> str:
    """Give the board on ``port`` (an open pyserial port) its secret; its name. The ``key``
    command is signed with that secret: a board holding it already takes it; one holding
    another key refuses it (``ERR denied``) unless MENU is held on it: ``tell`` asks for that
    once, and the command is sent again every half second for ``hold_s`` (under a new counter:
    the clock's, which also gets past a counter the venue ran ahead of it). RuntimeError when
    the board does not answer or refuses."""
    board = _ask(port, "hello", "HELLO", timeout_s).get("board")
    if not board:
        raise RuntimeError("the board's HELLO has no name")
    secret = board_key(venue_key, board)
    deadline = time.monotonic() + hold_s
    asked = False
    while True:
        try:
            _ask(port, signed_command(secret, "key " + secret.hex(), clock_counter()), "OK", timeout_s)
            return board
        except Refused as refused:
            if refused.code != E_DENIED or time.monotonic() > deadline:
                raise
            if not asked:
                tell("board %s refused its key (%s): hold its MENU button down until it is registered" % (
                    board, refused.detail))
                asked = True
        time.sleep(0.5)


def _ask(port, command: str, reply: str, timeout_s: float) -> dict:
    port.write(pr.encode_command(command))
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        msg = decode(port.readline().rstrip(b"\r\n"))
        if msg is None:
            continue
        _seq, kind, fields = msg
        if kind == "ERR":
            raise Refused(command, fields[0] if fields else "", pr.unquote(fields[1]) if len(fields) > 1 else "")
        if kind == reply:
            return pr.fields_dict(fields)
    raise RuntimeError("no %s from the board in %g s (is it a Go board on this port?)" % (reply, timeout_s))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m host_tools.venue.keys", description=__doc__.splitlines()[0])
    ap.add_argument("--key-file", default=DEFAULT_KEY_FILE, help="the venue's key (default: %(default)s)")
    sub = ap.add_subparsers(dest="action", required=True)
    reg = sub.add_parser("register", help="give the board on this serial port its secret")
    reg.add_argument("port", help="the board's serial port (/dev/ttyACM0, COM3...)")
    reg.add_argument("--db", help="the venue's archive, whose registry of boards notes it (default: "
                     "sqlite:///%s when that file exists): its results must then be signed" % DEFAULT_DB)
    ver = sub.add_parser("verify", help="check SGF records the venue exported")
    ver.add_argument("files", nargs="+")
    ver.add_argument("--no-key", action="store_true", help="check the hash only (who signed is not checked)")
    args = ap.parse_args(argv)
    if args.action == "register":
        import serial

        from host_tools.venue.broker import note_registered

        key = load_key(args.key_file)
        try:
            with serial.serial_for_url(args.port, baudrate=115200, timeout=0.2) as port:
                board = register(port, key)
            note_registered(str(pathlib.Path(args.key_file).parent), board)  # (the venue's broker lets it in)
        except (OSError, serial.SerialException, RuntimeError) as error:
            print("error: %s: %s" % (args.port, error), file=sys.stderr)
            return 1
        url = args.db or ("sqlite:///" + DEFAULT_DB if pathlib.Path(DEFAULT_DB).exists() else None)
        if url:
            from host_tools.venue.archive import Archive

            archive = Archive(url)
            archive.know(board, "registered", signs=True)
            archive.close()
        print("registered board %s%s" % (board, " (noted in %s)" % url if url else ""))
        return 0
    key = None if args.no_key else load_key(args.key_file, create=False)
    failed = 0
    for name in args.files:
        try:
            ok, why = verify_sgf(pathlib.Path(name).read_bytes(), key)
        except OSError as error:
            ok, why = False, str(error)
        except Exception as error:  # noqa: BLE001  (a file no SGF reader expects: that file fails, the rest go on)
            ok, why = False, "unreadable: %s: %s" % (type(error).__name__, error)
        print("%s: %s: %s" % (name, "OK" if ok else "FAILED", why))
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
