"""The first archive: lines, games, events, pairings, rounds, actions.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade():
    op.create_table(
        "lines",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("board", sa.String(64), nullable=False),
        sa.Column("boot", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("raw", sa.Text, nullable=False),
        sa.Column("received", sa.Float, nullable=False),
        sa.UniqueConstraint("board", "boot", "seq", name="uq_lines_board_boot_seq"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("board", sa.String(64), nullable=False),
        sa.Column("boot", sa.Integer, nullable=False),
        sa.Column("gid", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer),
        sa.Column("table_no", sa.Integer),
        sa.Column("black", sa.String(128), nullable=False, server_default=""),
        sa.Column("white", sa.String(128), nullable=False, server_default=""),
        sa.Column("moves", sa.Integer, nullable=False, server_default="0"),
        sa.Column("result", sa.String(32)),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.UniqueConstraint("board", "boot", "gid", name="uq_games_board_boot_gid"),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("place", sa.String(200), nullable=False, server_default=""),
        sa.Column("date", sa.String(32), nullable=False, server_default=""),
    )
    op.create_table(
        "pairings",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("board", sa.String(64), nullable=False),
        sa.Column("black", sa.String(128), nullable=False),
        sa.Column("black_rank", sa.String(16), nullable=False, server_default=""),
        sa.Column("white", sa.String(128), nullable=False),
        sa.Column("white_rank", sa.String(16), nullable=False, server_default=""),
        sa.Column("settings", sa.Text, nullable=False, server_default=""),
        sa.UniqueConstraint("event_id", "round", "table_no", name="uq_pairings_table"),
    )
    op.create_table(
        "rounds",
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("locked", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("who", sa.String(64), nullable=False),
        sa.Column("board", sa.String(64), nullable=False, server_default=""),
        sa.Column("what", sa.String(64), nullable=False),
        sa.Column("detail", sa.Text, nullable=False, server_default=""),
    )


def downgrade():
    for name in ("actions", "rounds", "pairings", "events", "games", "lines"):
        op.drop_table(name)
