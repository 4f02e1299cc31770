"""The venue's archive: every line every board sent, the games, the tournament and the audit, in a database.

SQLAlchemy Core on SQLite (the default: a file, nothing to set up) or PostgreSQL
(``postgresql+psycopg://user@host/db``): one schema, one code path. The schema is
Alembic's to manage (host_tools/venue/migrations): ``Archive(url)`` upgrades the
database to the newest revision before anything else, so a venue started on an
older archive migrates it, and nobody runs SQL by hand.

The lines are the record: a game's moves, clock figures, penalties and result are
what its board's lines say (``lines``: board, boot, seq, the line as the board
wrote it, with its CRC). ``games`` is a summary kept for the pages and exports.
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
    sa.Column("boot", sa.Integer, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("raw", sa.Text, nullable=False),  # the line as the board wrote it, CRC included
    sa.Column("received", sa.Float, nullable=False),  # when the venue got it (unix time)
    sa.UniqueConstraint("board", "boot", "seq", name="uq_lines_board_boot_seq"),
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
    sa.UniqueConstraint("board", "boot", "gid", name="uq_games_board_boot_gid"),
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

    def add_line(self, board: str, boot: int, seq: int, raw: str, received: float | None = None) -> str:
        """Keep one line: "new", "duplicate" (the same line again), or "conflict" (another
        line under the same board, boot and number: an edit or a replay, never kept)."""
        with self.engine.begin() as db:
            old = db.execute(sa.select(lines.c.raw).where(
                lines.c.board == board, lines.c.boot == boot, lines.c.seq == seq)).scalar()
            if old is not None:
                return "duplicate" if old == raw else "conflict"
            db.execute(lines.insert().values(board=board, boot=boot, seq=seq, raw=raw,
                                             received=time.time() if received is None else received))
            return "new"

    def all_lines(self):
        """Every line kept: (board, boot, seq, raw, received), board by board in order."""
        query = sa.select(lines.c.board, lines.c.boot, lines.c.seq, lines.c.raw, lines.c.received).order_by(
            lines.c.board, lines.c.id)
        with self.engine.connect() as db:
            return [tuple(row) for row in db.execute(query)]

    def last_seq(self) -> dict[str, int]:
        """Each board's highest line number kept."""
        query = sa.select(lines.c.board, sa.func.max(lines.c.seq)).group_by(lines.c.board)
        with self.engine.connect() as db:
            return {board: seq for board, seq in db.execute(query)}

    # -- games -----------------------------------------------------------------

    def save_game(self, board: str, boot: int, gid: int, **values) -> None:
        """Insert or update a game's summary (black, white, moves, result, round, table_no, seal)."""
        now = time.time()
        key = (games.c.board == board, games.c.boot == boot, games.c.gid == gid)
        with self.engine.begin() as db:
            if db.execute(sa.select(games.c.id).where(*key)).scalar() is None:
                db.execute(games.insert().values(board=board, boot=boot, gid=gid, started=now, updated=now, **values))
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


def _sqlite_pragmas(connection, _record):
    """WAL: the pages read while the ingest writes; NORMAL sync is safe with WAL."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
