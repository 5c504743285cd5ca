"""Accounts and their sign-in sessions; concours played with real cards, their entrants, the score sheets
filled on phones (a concours's tables, or a game at home) and the log of every change.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = False) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password", sa.String(200), nullable=False),
        sa.Column("role", sa.String(12), nullable=False, server_default="player"),
        _when("created_at"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        _when("created_at"),
        _when("expires_at"),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_table(
        "concours",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("organiser_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        _when("created_at"),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("draw", sa.String(8), nullable=False),
        sa.Column("ranking", sa.String(8), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("round_no", sa.Integer, nullable=False, server_default="0"),
        sa.Column("open_registration", sa.Boolean, nullable=False, server_default=sa.true()),
    )
    op.create_table(
        "entrants",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("concours_id", sa.Integer, sa.ForeignKey("concours.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False, server_default=sa.false()),
        _when("created_at"),
        sa.UniqueConstraint("concours_id", "number", name="uq_entrants_number"),
    )
    op.create_table(
        "sheets",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("token", sa.String(32), nullable=False, unique=True),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("names", sa.JSON, nullable=False),
        _when("created_at"),
        _when("updated_at"),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
        sa.Column("concours_id", sa.Integer, sa.ForeignKey("concours.id", ondelete="CASCADE"), nullable=True),
        sa.Column("round_no", sa.Integer, nullable=True),
        sa.Column("table_no", sa.Integer, nullable=True),
        sa.Column("entrants", sa.JSON, nullable=True),
        sa.Column("marker", sa.Integer, nullable=True),
        sa.Column("marker_device", sa.String(32), nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.UniqueConstraint("concours_id", "round_no", "table_no", name="uq_sheets_table"),
    )
    op.create_table(
        "sheet_deals",
        sa.Column("sheet_id", sa.Integer, sa.ForeignKey("sheets.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("facts", sa.JSON, nullable=True),
        _when("entered_at"),
    )
    op.create_table(
        "changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("concours_id", sa.Integer, sa.ForeignKey("concours.id", ondelete="CASCADE"), nullable=True),
        sa.Column("sheet_id", sa.Integer, sa.ForeignKey("sheets.id", ondelete="CASCADE"), nullable=True),
        _when("at"),
        sa.Column("who", sa.String(64), nullable=False),
        sa.Column("what", sa.String(32), nullable=False),
        sa.Column("before", sa.JSON, nullable=True),
        sa.Column("after", sa.JSON, nullable=True),
    )
    op.create_index("ix_changes_concours", "changes", ["concours_id"])
    op.create_index("ix_changes_sheet", "changes", ["sheet_id"])


def downgrade() -> None:
    for index, table in (
        ("ix_changes_sheet", "changes"),
        ("ix_changes_concours", "changes"),
        ("ix_sessions_account", "sessions"),
    ):
        op.drop_index(index, table)
    for table in ("changes", "sheet_deals", "sheets", "entrants", "concours", "sessions", "accounts"):
        op.drop_table(table)
