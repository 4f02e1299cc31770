"""The venue's archive: every line every board sent, the games, the tournament and the audit, in a database.

SQLAlchemy Core on SQLite (the default: a file, nothing to set up) or PostgreSQL
(``postgresql+psycopg://user@host/db``): one schema, one code path. The schema is
Alembic's to manage (host_tools/venue/migrations): ``Archive(url)`` upgrades the
database to the newest revision before anything else, so a venue started on an
older archive migrates it, and nobody runs SQL by hand.

The lines are the record: a game's moves, clock figures, penalties and result are
what its board's lines say (``lines``: board, epoch, boot, seq, the line as the
board wrote it, with its CRC). ``games`` is a summary kept for the pages and
exports. A board's ``epoch`` is one run of its line numbers: a board whose journal
was wiped numbers from 0 again, as a new epoch, and its old games stay as they were.
``quarantine`` keeps the lines refused (a broken chain, a replay, an edit), apart
from the record; ``boards`` is the registry of the boards the venue knows.
"""

from __future__ import annotations

import pathlib
import time

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

MIGRATIONS = pathlib.Path(__file__).with_name("migrations")

meta = sa.MetaData()

lines = sa.Table(
    "lines", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("board", sa.String(64), nullable=False),
    sa.Column("epoch", sa.Integer, nullable=False, server_default="1"),  # the run of numbers (a wiped journal: the next)
    sa.Column("boot", sa.Integer, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("raw", sa.Text, nullable=False),  # the line as the board wrote it, CRC included
    sa.Column("received", sa.Float, nullable=False),  # when the venue got it (unix time)
    sa.UniqueConstraint("board", "epoch", "boot", "seq", name="uq_lines_board_epoch_boot_seq"),
    sa.Index("ix_lines_board_epoch_seq", "board", "epoch", "seq"),
)

quarantine = sa.Table(  # lines refused, kept apart from the record (never applied)
    "quarantine", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("board", sa.String(64), nullable=False),
    sa.Column("epoch", sa.Integer, nullable=False),
    sa.Column("boot", sa.Integer, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("raw", sa.Text, nullable=False),
    sa.Column("why", sa.Text, nullable=False),
    sa.Column("received", sa.Float, nullable=False),
)

boards = sa.Table(  # the boards the venue knows: their lines must carry the board's chain
    "boards", meta,
    sa.Column("board", sa.String(64), primary_key=True),
    sa.Column("how", sa.String(16), nullable=False),  # registered, paired, hashed (first seen with its chain)
    sa.Column("signs", sa.Boolean, nullable=False, server_default=sa.false()),  # its results must carry sig=
    sa.Column("since", sa.Float, nullable=False),
)

games = sa.Table(
    "games", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("board", sa.String(64), nullable=False),
    sa.Column("boot", sa.Integer, nullable=False),
    sa.Column("gid", sa.Integer, nullable=False),
    sa.Column("round", sa.Integer),  # the round it was paired in, when the venue paired it
    sa.Column("table_no", sa.Integer),
    sa.Column("black", sa.String(128), nullable=False, server_default=""),
    sa.Column("white", sa.String(128), nullable=False, server_default=""),
    sa.Column("moves", sa.Integer, nullable=False, server_default="0"),
    sa.Column("result", sa.String(32)),
    sa.Column("seal", sa.String(16), nullable=False, server_default="none"),  # records.Checker: signed, broken...
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("epoch", sa.Integer, nullable=False, server_default="1"),
    sa.UniqueConstraint("board", "epoch", "boot", "gid", name="uq_games_board_epoch_boot_gid"),
)

events = sa.Table(
    "events", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("place", sa.String(200), nullable=False, server_default=""),
    sa.Column("date", sa.String(32), nullable=False, server_default=""),
)

pairings = sa.Table(
    "pairings", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("table_no", sa.Integer, nullable=False),
    sa.Column("board", sa.String(64), nullable=False),  # the board id at that table
    sa.Column("black", sa.String(128), nullable=False),
    sa.Column("black_rank", sa.String(16), nullable=False, server_default=""),
    sa.Column("white", sa.String(128), nullable=False),
    sa.Column("white_rank", sa.String(16), nullable=False, server_default=""),
    sa.Column("settings", sa.Text, nullable=False, server_default=""),  # the `new` fields: rules= size= ...
    sa.UniqueConstraint("event_id", "round", "table_no", name="uq_pairings_table"),
)

rounds = sa.Table(
    "rounds", meta,
    sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("locked", sa.Boolean, nullable=False, server_default=sa.false()),
)

actions = sa.Table(  # the audit: who did what, when (append only)
    "actions", meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("who", sa.String(64), nullable=False),
    sa.Column("board", sa.String(64), nullable=False, server_default=""),
    sa.Column("what", sa.String(64), nullable=False),
    sa.Column("detail", sa.Text, nullable=False, server_default=""),
)


def upgrade(engine: sa.Engine) -> None:
    """Bring the database to the newest schema (Alembic ``upgrade head``)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Archive:
    """The database behind the venue; every method is one transaction."""

    def __init__(self, url: str):
        self.engine = sa.create_engine(url)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- lines -----------------------------------------------------------------

    def add_line(self, board: str, boot: int, seq: int, raw: str, received: float | None = None,
                 epoch: int = 1) -> str:
        """Keep one line: "new", "duplicate" (the same line again, or a resend the board wrote as
        ``SKIP``), or "conflict" (another line under the same board, epoch and number: an edit
        or a replay, never kept). A number is a line's within an epoch, whatever boot the
        logger said (a restarted logger resends old lines under the board's latest boot)."""
        with self.engine.begin() as db:
            old = db.execute(sa.select(lines.c.raw).where(
                lines.c.board == board, lines.c.epoch == epoch, lines.c.seq == seq).limit(1)).scalar()
            if old is not None:
                return "duplicate" if old == raw or _skip(old) or _skip(raw) else "conflict"
            db.execute(lines.insert().values(board=board, epoch=epoch, boot=boot, seq=seq, raw=raw,
                                             received=time.time() if received is None else received))
            return "new"

    def kept(self, board: str, epoch: int, seq: int) -> str | None:
        """The line kept under that number, if any."""
        with self.engine.connect() as db:
            return db.execute(sa.select(lines.c.raw).where(
                lines.c.board == board, lines.c.epoch == epoch, lines.c.seq == seq).limit(1)).scalar()

    def all_lines(self, board: str | None = None, epoch: int | None = None):
        """Every line kept: (board, epoch, boot, seq, raw, received), board by board in the order
        they came; only the board's latest epoch's (what its views show) unless ``epoch``."""
        query = sa.select(lines.c.board, lines.c.epoch, lines.c.boot, lines.c.seq, lines.c.raw,
                          lines.c.received).order_by(lines.c.board, lines.c.id)
        if board is not None:
            query = query.where(lines.c.board == board)
        with self.engine.connect() as db:
            latest = self._epochs(db)
            rows = [tuple(row) for row in db.execute(query)]
        want = (lambda b: epoch) if epoch is not None else latest.get
        return [row for row in rows if row[1] == want(row[0])]

    def epochs(self) -> dict[str, int]:
        """Each board's latest epoch."""
        with self.engine.connect() as db:
            return self._epochs(db)

    @staticmethod
    def _epochs(db) -> dict[str, int]:
        query = sa.select(lines.c.board, sa.func.max(lines.c.epoch)).group_by(lines.c.board)
        return {board: epoch for board, epoch in db.execute(query)}

    def last_seq(self) -> dict[str, int]:
        """Each board's highest line number kept, in its latest epoch."""
        query = sa.select(lines.c.board, lines.c.epoch, sa.func.max(lines.c.seq)).group_by(lines.c.board,
                                                                                            lines.c.epoch)
        with self.engine.connect() as db:
            latest = self._epochs(db)
            return {board: seq for board, epoch, seq in db.execute(query) if latest[board] == epoch}

    def unkeep(self, board: str, epoch: int, first: int) -> list[tuple]:
        """Take the lines numbered ``first`` and above out of the record (a far line shown not to be
        the board's, and what followed it): their (boot, seq, raw, received), for the quarantine."""
        where = (lines.c.board == board, lines.c.epoch == epoch, lines.c.seq >= first)
        with self.engine.begin() as db:
            rows = [tuple(r) for r in db.execute(sa.select(lines.c.boot, lines.c.seq, lines.c.raw,
                                                           lines.c.received).where(*where).order_by(lines.c.id))]
            db.execute(lines.delete().where(*where))
            return rows

    def drop_epoch(self, board: str, epoch: int) -> list[tuple]:
        """Take a whole epoch out of the record (its games too): its lines, as ``unkeep``."""
        with self.engine.begin() as db:
            where = (lines.c.board == board, lines.c.epoch == epoch)
            rows = [tuple(r) for r in db.execute(sa.select(lines.c.boot, lines.c.seq, lines.c.raw,
                                                           lines.c.received).where(*where).order_by(lines.c.id))]
            db.execute(lines.delete().where(*where))
            db.execute(games.delete().where(games.c.board == board, games.c.epoch == epoch))
            return rows

    # -- the quarantine ----------------------------------------------------------

    def quarantine(self, board: str, epoch: int, boot: int, seq: int, raw: str, why: str,
                   received: float | None = None) -> bool:
        """Keep a refused line apart, with why; False if that very line was refused before."""
        with self.engine.begin() as db:
            found = db.execute(sa.select(quarantine.c.id).where(
                quarantine.c.board == board, quarantine.c.epoch == epoch, quarantine.c.seq == seq,
                quarantine.c.raw == raw).limit(1)).scalar()
            if found is not None:
                return False
            db.execute(quarantine.insert().values(board=board, epoch=epoch, boot=boot, seq=seq, raw=raw, why=why,
                                                  received=time.time() if received is None else received))
            return True

    def release(self, board: str, epoch: int, seq: int, raw: str) -> None:
        """A line once refused as far ahead, which the board's logger then resent: no longer apart."""
        with self.engine.begin() as db:
            db.execute(quarantine.delete().where(quarantine.c.board == board, quarantine.c.epoch == epoch,
                                                 quarantine.c.seq == seq, quarantine.c.raw == raw))

    def quarantined(self, board: str | None = None) -> list[dict]:
        """The lines refused (board, epoch, boot, seq, raw, why, received), oldest first."""
        query = sa.select(quarantine).order_by(quarantine.c.id)
        if board is not None:
            query = query.where(quarantine.c.board == board)
        with self.engine.connect() as db:
            return [dict(row._mapping) for row in db.execute(query)]

    # -- the registry of boards ----------------------------------------------------

    def know(self, board: str, how: str, signs: bool = False) -> None:
        """Add a board to the registry (``how``: registered, paired, hashed), or note that it
        signs; a board is never made less known (registered stays registered, a signer a signer)."""
        rank = {"hashed": 0, "paired": 1, "registered": 2}
        with self.engine.begin() as db:
            row = db.execute(sa.select(boards.c.how, boards.c.signs).where(boards.c.board == board)).first()
            if row is None:
                db.execute(boards.insert().values(board=board, how=how, signs=signs, since=time.time()))
            elif rank.get(how, 0) > rank.get(row.how, 0) or (signs and not row.signs):
                db.execute(boards.update().where(boards.c.board == board).values(
                    how=how if rank.get(how, 0) > rank.get(row.how, 0) else row.how, signs=signs or row.signs))

    def boards(self) -> dict[str, dict]:
        """The registry: board -> {how, signs, since}."""
        with self.engine.connect() as db:
            return {row.board: {"how": row.how, "signs": bool(row.signs), "since": row.since}
                    for row in db.execute(sa.select(boards))}

    def probe(self) -> None:
        """A write that changes nothing (raises when the archive cannot be written: health)."""
        with self.engine.begin() as db:
            db.execute(boards.update().where(sa.false()).values(since=0.0))

    # -- games -----------------------------------------------------------------

    def save_game(self, board: str, boot: int, gid: int, epoch: int = 1, **values) -> None:
        """Insert or update a game's summary (black, white, moves, result, round, table_no, seal)."""
        now = time.time()
        key = (games.c.board == board, games.c.epoch == epoch, games.c.boot == boot, games.c.gid == gid)
        with self.engine.begin() as db:
            if db.execute(sa.select(games.c.id).where(*key)).scalar() is None:
                db.execute(games.insert().values(board=board, epoch=epoch, boot=boot, gid=gid, started=now,
                                                 updated=now, **values))
            else:
                db.execute(games.update().where(*key).values(updated=now, **values))

    def games(self, round_no: int | None = None) -> list[dict]:
        query = sa.select(games).order_by(games.c.round, games.c.table_no, games.c.board, games.c.id)
        if round_no is not None:
            query = query.where(games.c.round == round_no)
        with self.engine.connect() as db:
            return [dict(row._mapping) for row in db.execute(query)]

    # -- the tournament --------------------------------------------------------

    def event(self, name: str, place: str = "", date: str = "") -> int:
        """The event of that name (made if new): its id."""
        with self.engine.begin() as db:
            found = db.execute(sa.select(events.c.id).where(events.c.name == name)).scalar()
            if found is None:
                found = db.execute(events.insert().values(name=name, place=place, date=date)).inserted_primary_key[0]
            else:
                db.execute(events.update().where(events.c.id == found).values(place=place, date=date))
            return found

    def event_info(self, event_id: int) -> dict:
        with self.engine.connect() as db:
            row = db.execute(sa.select(events).where(events.c.id == event_id)).first()
            return dict(row._mapping) if row else {}

    def set_pairings(self, event_id: int, round_no: int, rows: list[dict]) -> None:
        """The round's pairings, replacing any imported before (rows: table_no, board, black,
        black_rank, white, white_rank, settings)."""
        with self.engine.begin() as db:
            db.execute(pairings.delete().where(pairings.c.event_id == event_id, pairings.c.round == round_no))
            if rows:
                db.execute(pairings.insert(), [dict(row, event_id=event_id, round=round_no) for row in rows])
            if db.execute(sa.select(rounds.c.round).where(rounds.c.event_id == event_id,
                                                          rounds.c.round == round_no)).first() is None:
                db.execute(rounds.insert().values(event_id=event_id, round=round_no, locked=False))

    def pairings(self, event_id: int, round_no: int) -> list[dict]:
        query = sa.select(pairings).where(pairings.c.event_id == event_id, pairings.c.round == round_no).order_by(
            pairings.c.table_no)
        with self.engine.connect() as db:
            return [dict(row._mapping) for row in db.execute(query)]

    def rounds(self, event_id: int) -> list[int]:
        query = sa.select(rounds.c.round).where(rounds.c.event_id == event_id).order_by(rounds.c.round)
        with self.engine.connect() as db:
            return [r for (r,) in db.execute(query)]

    def lock(self, event_id: int, round_no: int, locked: bool) -> None:
        with self.engine.begin() as db:
            db.execute(rounds.update().where(rounds.c.event_id == event_id, rounds.c.round == round_no).values(
                locked=locked))

    def locked(self, event_id: int, round_no: int) -> bool:
        query = sa.select(rounds.c.locked).where(rounds.c.event_id == event_id, rounds.c.round == round_no)
        with self.engine.connect() as db:
            return bool(db.execute(query).scalar())

    # -- the audit ---------------------------------------------------------------

    def act(self, who: str, what: str, board: str = "", detail: str = "") -> None:
        with self.engine.begin() as db:
            db.execute(actions.insert().values(at=time.time(), who=who, board=board, what=what, detail=detail))

    def actions(self, limit: int = 200) -> list[dict]:
        query = sa.select(actions).order_by(actions.c.id.desc()).limit(limit)
        with self.engine.connect() as db:
            return [dict(row._mapping) for row in db.execute(query)]


def _skip(raw: str) -> bool:
    """A ``SKIP`` line: a board's resend of a line it does not write twice (docs/protocol.md)."""
    return raw.split(" ", 2)[1:2] == ["SKIP"]


def _sqlite_pragmas(connection, _record):
    """WAL: the pages read while the ingest writes; NORMAL sync is safe with WAL."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
