"""The ``postgres_url`` fixture gives a real PostgreSQL server: a table round-trips a row through it."""

import sqlalchemy as sa

from .pg_server import postgres_url  # noqa: F401  (the pytest fixture)


def test_postgres_round_trip(postgres_url):  # noqa: F811
    assert postgres_url.startswith("postgresql+psycopg://venue@127.0.0.1:")
    engine = sa.create_engine(postgres_url)
    meta = sa.MetaData()
    games = sa.Table("games", meta,
                     sa.Column("id", sa.Integer, primary_key=True),
                     sa.Column("black", sa.String(40), nullable=False),
                     sa.Column("moves", sa.JSON, nullable=False))
    try:
        with engine.begin() as conn:
            assert conn.dialect.name == "postgresql"
            assert conn.scalar(sa.text("SELECT current_database()")) == "venue"
            assert "PostgreSQL" in conn.scalar(sa.text("SELECT version()"))
            meta.create_all(conn)
            conn.execute(games.insert(), [{"black": "Honinbo", "moves": ["Q16", "D4"]}])
        with engine.connect() as conn:
            rows = conn.execute(sa.select(games.c.black, games.c.moves)).all()
            # jsonb_typeof exists only on a real PostgreSQL, not SQLite.
            kind = conn.scalar(sa.text("SELECT jsonb_typeof(moves::jsonb) FROM games"))
    finally:
        engine.dispose()
    assert [tuple(r) for r in rows] == [("Honinbo", ["Q16", "D4"])]
    assert kind == "array"
