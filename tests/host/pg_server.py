"""A throwaway real PostgreSQL server for a test, started and stopped like the Mosquitto broker in
test_logger_mqtt.py.

Use it from a test module with::

    from .pg_server import postgres_url  # noqa: F401  (the pytest fixture)

    def test_something(postgres_url):  # noqa: F811
        engine = sqlalchemy.create_engine(postgres_url)

``postgres_url`` is ``postgresql+psycopg://venue@127.0.0.1:<port>/venue`` (trust auth, no password),
served by a fresh cluster (initdb) in the test's tmp_path, listening on 127.0.0.1 only. The server
is stopped (``pg_ctl stop -m fast``) when the test ends, pass or fail.

PostgreSQL refuses to run as root: under root, initdb/postgres/pg_ctl run as the ``postgres`` user
(Debian's package creates it) or else ``nobody``, via setpriv.
"""

import contextlib
import glob
import os
import pwd
import re
import shutil
import socket
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

USER = "venue"
DATABASE = "venue"
START_SECONDS = 15
SKIP_REASON = ("no PostgreSQL server: `make test` installs it with scripts/ensure-system.sh postgresql "
               "(Debian package postgresql)")
# A unix socket path is at most 107 bytes; leave room for "/.s.PGSQL.<port>".
MAX_SOCKET_DIR = 80


def _find_bin():
    """The folder holding initdb, pg_ctl and postgres: Debian's newest version first, then PATH."""
    def complete(folder):
        return all(os.access(os.path.join(folder, name), os.X_OK) for name in ("initdb", "pg_ctl", "postgres"))

    def version(folder):  # /usr/lib/postgresql/15/bin -> (15,)
        return tuple(int(n) for n in re.findall(r"\d+", Path(folder).parent.name))

    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True):
        if complete(folder):
            return folder
    initdb = shutil.which("initdb")
    if initdb:  # /usr/local/bin/initdb may be a lone symlink: look beside its target too
        for folder in (os.path.dirname(initdb), os.path.dirname(os.path.realpath(initdb))):
            if complete(folder):
                return folder
    return None


POSTGRES_BIN = _find_bin()


def _run_as():
    """(prefix for commands, pwd entry) -- who runs the server; no prefix unless we are root."""
    if os.geteuid() != 0:
        return [], None
    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return ["setpriv", "--reuid=%d" % entry.pw_uid, "--regid=%d" % entry.pw_gid, "--init-groups", "--"], entry
    raise RuntimeError("running as root and no 'postgres' or 'nobody' user to run PostgreSQL as")


def _reachable(path, entry):
    """Can the user of ``entry`` walk down to ``path``? (every folder on the way searchable by it)"""
    for folder in [path, *path.parents]:
        st = folder.stat()
        if st.st_uid == entry.pw_uid:
            continue
        if not st.st_mode & stat.S_IXOTH:
            return False
    return True


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _log_tail(log):
    try:
        return log.read_text(errors="replace")[-2000:]
    except OSError:
        return ""


@contextlib.contextmanager
def postgres(tmp_path):
    """Run a fresh PostgreSQL cluster under tmp_path; yield its SQLAlchemy URL; stop it on exit."""
    if POSTGRES_BIN is None:
        raise RuntimeError(SKIP_REASON)
    prefix, entry = _run_as()
    base = Path(tmp_path).resolve()
    scratch = None
    if (entry is not None and not _reachable(base, entry)) or len(str(base / "pg" / "sock")) > MAX_SOCKET_DIR:
        # pytest's /tmp/pytest-of-root is mode 700: the server's user could not get in.
        scratch = base = Path(tempfile.mkdtemp(prefix="pg-"))
        base.chmod(0o755)
    work = base / "pg"  # owned by the server's user: data folder and socket; the log (written by us) sits beside
    data, sock, log = work / "data", work / "sock", base / "postgres.log"
    proc = None
    try:
        work.mkdir()
        sock.mkdir()
        if entry is not None:
            for p in (work, sock):
                os.chown(p, entry.pw_uid, entry.pw_gid)
        env = dict(os.environ, LC_ALL="C", LANG="C")
        for var in ("PGDATA", "PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGPASSWORD"):
            env.pop(var, None)

        def run(*cmd):
            done = subprocess.run([*prefix, os.path.join(POSTGRES_BIN, cmd[0]), *cmd[1:]], cwd=work, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
            if done.returncode:
                raise RuntimeError("%s failed (%d):\n%s" % (cmd[0], done.returncode, done.stderr.decode(errors="replace")))

        run("initdb", "-D", str(data), "-U", USER, "--auth=trust", "--encoding=UTF8", "--no-locale", "--no-sync")
        port = _free_port()
        with open(log, "wb") as out:  # the child keeps its own copy of the descriptor
            proc = subprocess.Popen(
                [*prefix, os.path.join(POSTGRES_BIN, "postgres"), "-D", str(data), "-h", "127.0.0.1", "-p", str(port),
                 "-k", str(sock),
                 # Throwaway data: no need to survive a crash, so skip the disk flushes.
                 "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
                cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT)

        import psycopg

        deadline = time.monotonic() + START_SECONDS
        while True:
            if proc.poll() is not None:
                raise RuntimeError("postgres exited with %s:\n%s" % (proc.returncode, _log_tail(log)))
            try:
                conn = psycopg.connect(host="127.0.0.1", port=port, user=USER, dbname="postgres",
                                       autocommit=True, connect_timeout=2)
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise RuntimeError("postgres did not accept connections within %d s:\n%s"
                                       % (START_SECONDS, _log_tail(log))) from None
                time.sleep(0.05)
        with conn:
            conn.execute("CREATE DATABASE %s" % DATABASE)
        yield "postgresql+psycopg://%s@127.0.0.1:%d/%s" % (USER, port, DATABASE)
    finally:
        if proc is not None:
            if proc.poll() is None:
                with contextlib.suppress(subprocess.SubprocessError, OSError):
                    subprocess.run([*prefix, os.path.join(POSTGRES_BIN, "pg_ctl"), "stop", "-D", str(data),
                                    "-m", "fast", "-w", "-t", "15"], cwd=work, env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture
def postgres_url(tmp_path):
    """SQLAlchemy URL of a fresh, real PostgreSQL database ``venue`` (user ``venue``) for one test."""
    if POSTGRES_BIN is None:
        pytest.skip(SKIP_REASON)
    with postgres(tmp_path) as url:
        yield url
