"""A board's epochs (a wiped journal numbers its lines again), the quarantine of refused lines,
and the registry of the boards the venue knows (docs/venue.md).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade():
    with op.batch_alter_table("lines") as batch:  # (SQLite alters a table by copying it)
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="1"))
        batch.drop_constraint("uq_lines_board_boot_seq", type_="unique")
        batch.create_unique_constraint("uq_lines_board_epoch_boot_seq", ["board", "epoch", "boot", "seq"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="1"))
        batch.drop_constraint("uq_games_board_boot_gid", type_="unique")
        batch.create_unique_constraint("uq_games_board_epoch_boot_gid", ["board", "epoch", "boot", "gid"])
    op.create_index("ix_lines_board_epoch_seq", "lines", ["board", "epoch", "seq"])
    op.create_table(
        "quarantine",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("board", sa.String(64), nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("boot", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("raw", sa.Text, nullable=False),
        sa.Column("why", sa.Text, nullable=False),
        sa.Column("received", sa.Float, nullable=False),
    )
    op.create_table(
        "boards",
        sa.Column("board", sa.String(64), primary_key=True),
        sa.Column("how", sa.String(16), nullable=False),
        sa.Column("signs", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("since", sa.Float, nullable=False),
    )


def downgrade():
    op.drop_table("boards")
    op.drop_table("quarantine")
    op.drop_index("ix_lines_board_epoch_seq", "lines")
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("uq_games_board_epoch_boot_gid", type_="unique")
        batch.create_unique_constraint("uq_games_board_boot_gid", ["board", "boot", "gid"])
        batch.drop_column("epoch")
    with op.batch_alter_table("lines") as batch:
        batch.drop_constraint("uq_lines_board_epoch_boot_seq", type_="unique")
        batch.create_unique_constraint("uq_lines_board_boot_seq", ["board", "boot", "seq"])
        batch.drop_column("epoch")
