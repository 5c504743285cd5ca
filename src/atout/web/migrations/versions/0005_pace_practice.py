"""The bots' pace at each table (slow, normal, fast) and practice tables (hints, each card's cost).

The tables already there keep the normal pace and are no practice tables.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLEs, even on SQLite: rebuilding ``tables`` there would cascade to its seats and actions.
    op.add_column("tables", sa.Column("pace", sa.String(8), nullable=False, server_default="normal"))
    op.add_column("tables", sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("tables", "practice")
    op.drop_column("tables", "pace")
