"""Talk at the table: what was said (quick messages and free text), and the host's two settings.

Each line keeps the game it was said in, so that a finished game keeps its own. The
tables already there allow free text and keep their spectators quiet, as a new one does.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLEs, even on SQLite: rebuilding ``tables`` there would cascade to its seats and actions.
    op.add_column("tables", sa.Column("talk_free_text", sa.Boolean, nullable=False, server_default=sa.true()))
    op.add_column("tables", sa.Column("talk_spectators", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "talk",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game_no", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("who", sa.String(16), nullable=False),
        sa.Column("quick", sa.String(32), nullable=True),
        sa.Column("text", sa.Text, nullable=True),
    )
    op.create_index("ix_talk_table_game", "talk", ["table_id", "game_no"])


def downgrade() -> None:
    op.drop_index("ix_talk_table_game", "talk")
    op.drop_table("talk")
    op.drop_column("tables", "talk_spectators")
    op.drop_column("tables", "talk_free_text")
