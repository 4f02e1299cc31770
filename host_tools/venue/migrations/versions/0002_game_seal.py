"""Each game's seal: whether its board's running hash and signature agree (host_tools/records.py).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade():
    with op.batch_alter_table("games") as batch:  # (SQLite alters a table by copying it)
        batch.add_column(sa.Column("seal", sa.String(16), nullable=False, server_default="none"))


def downgrade():
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seal")
