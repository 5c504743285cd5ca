"""A table may be private: reached by its link only, never listed in the lobby.

The tables already there were made when a link was the only way to a table, and their
hosts never chose to have them listed: they stay private. A new table is public unless
its host asks otherwise.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ALTER TABLE, even on SQLite: rebuilding ``tables`` there (a batch) would drop it, and with it, by
    # their foreign keys' cascade, every seat and action of every table.
    op.add_column("tables", sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()))
    op.execute(sa.text("UPDATE tables SET private = :private").bindparams(private=True))


def downgrade() -> None:
    op.drop_column("tables", "private")  # SQLite too (3.35 and later), without rebuilding the table
