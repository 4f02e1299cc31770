"""Who may do what on the venue's broker, and the Mosquitto that enforces it (docs/venue.md).

The venue writes Mosquitto's password file and ACL file itself, from the boards it knows
(registered at the desk, named in the pairings): no anonymous client; each board's logger
speaks for it under the board's own name and may publish only that board's topics and read
only its commands and resync requests; the venue alone publishes commands and resyncs; a
logger's own login may only say how the logger is. A board's password is derived from the
venue's key (``board_password``: the board gives it to its logger, ``mqtt`` on its cable), so
nothing is handed out but the logger's and the venue's own logins, made at the first start and
kept beside the venue's key. With ``tls``, the venue makes its own certificate authority and
the broker's certificate (openssl), and every client checks the broker against that CA.
"""

from __future__ import annotations

import base64
import getpass
import hashlib
import hmac
import os
import pathlib
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

from host_tools.records import board_key

VENUE_USER = "venue"
LOGGER_USER = "logger"
RESERVED = (VENUE_USER, LOGGER_USER)
NAME = re.compile(r"[A-Za-z0-9._-]{1,64}\Z")  # a board id that is a safe MQTT user and topic level
BOARD_WRITES = ("line", "status", "state", "move", "penalty", "alert")  # what a board's logger publishes
BOARD_READS = ("command", "resync")  # what it is sent
PBKDF2_ROUNDS = 101  # Mosquitto 2's own (mosquitto_passwd)
KEEP_S = 2.0  # how often the boards the venue knows are looked at again


def board_password(venue_key: bytes, board: str) -> str:
    """A board's MQTT password: hex(HMAC-SHA256(board secret, b"mqtt"))[:32] (the board's
    ``mqtt`` command answers the same from its secret, firmware/host/signing.py)."""
    return hmac.new(board_key(venue_key, board), b"mqtt", "sha256").hexdigest()[:32]


def board_name_ok(board: str) -> bool:
    """Whether ``board`` can be a broker user: letters, digits, ``. _ -``, not the venue's or a logger's."""
    return bool(NAME.match(board)) and board not in RESERVED


def password_entry(user: str, password: str, salt: bytes | None = None) -> str:
    """A Mosquitto 2 password file line (``$7$``: PBKDF2-SHA512, as mosquitto_passwd writes it)."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, PBKDF2_ROUNDS, 64)
    return "%s:$7$%d$%s$%s" % (user, PBKDF2_ROUNDS, base64.b64encode(salt).decode(), base64.b64encode(digest).decode())


def login(path: pathlib.Path, user: str) -> tuple[str, str]:
    """``(user, password)`` kept in ``path`` as ``user:password`` (made at first use, owner only)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write("%s:%s\n" % (user, secrets.token_hex(16)))
    return read_login(str(path))


def read_login(path: str) -> tuple[str, str]:
    """A login file (``user:password``); ValueError if it is not one."""
    user, sep, password = pathlib.Path(path).read_text().strip().partition(":")
    if not sep or not user or not password:
        raise ValueError("%s is not a login file (user:password)" % path)
    return user, password


def _write(path: pathlib.Path, text: str) -> None:
    """Whole or not at all (Mosquitto may read it at any moment), owner only."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text)
    os.replace(tmp, path)


class Access:
    """The broker's users and rules for the boards the venue knows: the files in ``folder``
    (``passwords``, ``acl``); the venue's and the loggers' logins in ``logins`` (the venue's
    folder, beside its key: ``mqtt-venue.login``, ``mqtt-logger.login``)."""

    def __init__(self, folder: str, venue_key: bytes, logins: str):
        self.folder = pathlib.Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.key = venue_key
        self.venue = login(pathlib.Path(logins) / "mqtt-venue.login", VENUE_USER)
        self.logger_file = str(pathlib.Path(logins) / "mqtt-logger.login")
        self.logger = login(pathlib.Path(self.logger_file), LOGGER_USER)
        self.passwords = self.folder / "passwords"
        self.acl = self.folder / "acl"
        self.boards: tuple[str, ...] | None = None  # the boards the files list (None: not written yet)

    def write(self, boards) -> bool:
        """The files for these boards (names that cannot be users are left out); False if they
        list these boards already."""
        wanted = tuple(sorted({b for b in boards if board_name_ok(b)}))
        if wanted == self.boards:
            return False
        users = [self.venue, self.logger] + [(b, board_password(self.key, b)) for b in wanted]
        _write(self.passwords, "".join(password_entry(u, p) + "\n" for u, p in users))
        _write(self.acl, acl_text(wanted))
        self.boards = wanted
        return True


def acl_text(boards, root: str = "goboard") -> str:
    """The ACL: the venue everything under ``root``; a logger its own status and health; each
    board its own topics (no pattern rule, so no other user gains a board's topics)."""
    out = ["# Made by the venue (host_tools/venue/broker.py): rewritten when it learns of a board.",
           "user %s" % VENUE_USER, "topic readwrite %s/#" % root, "",
           "user %s" % LOGGER_USER, "topic write %s/logger/status" % root, "topic write %s/logger/+/health" % root, ""]
    for board in boards:
        out.append("user %s" % board)
        out += ["topic write %s/%s/%s" % (root, board, what) for what in BOARD_WRITES]
        out += ["topic read %s/%s/%s" % (root, board, what) for what in BOARD_READS]
        out.append("")
    return "\n".join(out)


def make_tls(folder: str, names=()) -> str:
    """The venue's certificate authority (``ca.crt``, made once, its key kept beside it) and the
    broker's certificate signed by it for localhost, 127.0.0.1, this machine's name and ``names``
    (addresses or host names loggers connect to). Returns the CA certificate's path."""
    path = pathlib.Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    openssl = shutil.which("openssl")
    if openssl is None:
        raise SystemExit("error: --tls needs openssl (Debian: apt-get install openssl; make venue installs it)")
    ca_key, ca_crt = path / "ca.key", path / "ca.crt"

    def run(*args):
        subprocess.run([openssl, *args], check=True, capture_output=True)

    if not ca_crt.exists():
        run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "3650",
            "-keyout", str(ca_key), "-out", str(ca_crt), "-subj", "/CN=Go venue CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        os.chmod(ca_key, 0o600)
    alt = {"DNS:localhost", "IP:127.0.0.1", "DNS:" + socket.gethostname()}
    for name in names:
        if name and name not in ("0.0.0.0", "::"):
            alt.add(("IP:" if re.fullmatch(r"[0-9.]+|[0-9a-fA-F:]+", name) else "DNS:") + name)
    with tempfile.TemporaryDirectory() as tmp:
        ext = pathlib.Path(tmp) / "ext"
        ext.write_text("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
                       "extendedKeyUsage=serverAuth\nsubjectKeyIdentifier=hash\n"
                       "authorityKeyIdentifier=keyid,issuer\nsubjectAltName=%s\n" % ",".join(sorted(alt)))
        csr = pathlib.Path(tmp) / "server.csr"
        run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", str(path / "server.key"), "-out", str(csr), "-subj", "/CN=venue broker")
        run("x509", "-req", "-in", str(csr), "-CA", str(ca_crt), "-CAkey", str(ca_key), "-CAcreateserial",
            "-days", "825", "-out", str(path / "server.crt"), "-extfile", str(ext))
    os.chmod(path / "server.key", 0o600)
    return str(ca_crt)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    """Something answers on this port of this machine (a broker already running)."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def mosquitto_path() -> str | None:
    return "/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else shutil.which("mosquitto")


class Broker:
    """A Mosquitto of our own enforcing ``access`` (persistence on: a restart keeps the venue's
    queue), on port ``port`` (default: a free one) of ``listen`` (default: this machine only);
    ``tls``: only TLS, with a certificate from the venue's own CA (``ca``: its path)."""

    def __init__(self, access: Access, port: int | None = None, folder: str | None = None,
                 listen: str = "127.0.0.1", tls: bool = False):
        if mosquitto_path() is None:
            raise SystemExit("error: no Mosquitto broker: install it (Debian: apt-get install mosquitto), "
                             "or pass --broker HOST:PORT; `make venue` installs it")
        self.access = access
        self.port = port or free_port()
        self.folder = folder or tempfile.mkdtemp(prefix="venue-broker-")
        self.ca = make_tls(str(access.folder), [listen]) if tls else None
        if access.boards is None:
            access.write(())
        # (``user``: Mosquitto started by root would become user mosquitto, who cannot read the
        # files kept for their owner only: it stays whoever started it, as the venue's own files)
        lines = ["user %s" % getpass.getuser(), "listener %d %s" % (self.port, listen), "allow_anonymous false",
                 "password_file %s" % access.passwords.resolve(), "acl_file %s" % access.acl.resolve(),
                 "persistence true", "persistence_location %s/" % pathlib.Path(self.folder).resolve()]
        if tls:
            tls_dir = access.folder.resolve()
            lines += ["cafile %s" % self.ca, "certfile %s" % (tls_dir / "server.crt"),
                      "keyfile %s" % (tls_dir / "server.key")]
        self.conf = pathlib.Path(self.folder) / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen([mosquitto_path() or "mosquitto", "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if listening(self.port):
                return
            time.sleep(0.05)
        raise RuntimeError("Mosquitto did not start on port %d" % self.port)

    def reload(self) -> None:
        """Read the password and ACL files again (Mosquitto reloads them on SIGHUP)."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGHUP)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait()
            self.proc = None

    @property
    def address(self) -> str:
        return "127.0.0.1:%d" % self.port


class Keeper(threading.Thread):
    """Keeps the broker's files listing the boards the venue knows (``known()``, asked every
    KEEP_S), and has the broker read them again when a board is added (``broker``: None for a
    broker that is not ours: its operator reloads it)."""

    def __init__(self, access: Access, known, broker: Broker | None = None):
        super().__init__(name="venue-broker-access", daemon=True)
        self.access = access
        self.known = known
        self.broker = broker
        self.stopped = threading.Event()
        self.update()

    def update(self) -> bool:
        if self.access.write(self.known()):
            if self.broker is not None:
                self.broker.reload()
            return True
        return False

    def run(self) -> None:
        while not self.stopped.wait(KEEP_S):
            try:
                self.update()
            except Exception as error:  # noqa: BLE001 - (a database hiccup: asked again next time)
                print("venue: the broker's users not updated: %s" % error, flush=True)

    def stop(self) -> None:
        self.stopped.set()


def registry_path(venue_folder: str) -> pathlib.Path:
    return pathlib.Path(venue_folder) / "boards"


def registered(venue_folder: str) -> set[str]:
    """The boards registered at the desk (``keys register`` notes each in the venue's folder)."""
    try:
        return {name for name in registry_path(venue_folder).read_text().split() if name}
    except FileNotFoundError:
        return set()


def note_registered(venue_folder: str, board: str) -> None:
    """A board registered at the desk: the venue's broker will let its logger speak for it."""
    if board not in registered(venue_folder):
        path = registry_path(venue_folder)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as out:
            out.write(board + "\n")
