"""Competitions online: tournament tables, duplicate challenges and ratings.

* ``tables`` gain what a competition's table needs: the concours, round and table number of an online
  tournament's table, the challenge of a challenge's table, a fixed number of deals (a challenge's), the
  organiser's delay before a bot plays for an absent player, a pause, and whether its games are rated.
* ``concours`` gain their mode (``cards``: real cards and phone sheets; ``online``: web tables), the delay
  before a bot replaces an absent player, the bots' level, and a pause; ``entrants`` the accounts of their
  players (online).
* ``challenges`` (a series of deals every participant plays alone with bots), ``challenge_entries`` (one
  participant's play of it: his table) and ``challenge_results`` (his score on each deal, recorded as played).
* ``ratings``: each account's Glicko-2 rating per variant; ``rating_games``: the games already rated.

The rows already there keep their meaning: tables are plain tables, concours are played with real cards.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_TABLE_COLUMNS = (
    ("concours_id", sa.Integer),
    ("round_no", sa.Integer),
    ("table_no", sa.Integer),
    ("challenge_id", sa.Integer),
    ("fixed_deals", sa.Integer),
    ("seat_timeout", sa.Float),
)


def _when(name: str, nullable: bool = False) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    # Plain ALTER TABLEs, even on SQLite: rebuilding ``tables`` there would cascade to its seats and actions.
    for name, kind in _TABLE_COLUMNS:
        op.add_column("tables", sa.Column(name, kind, nullable=True))
    op.add_column("tables", sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    # One web table a tournament's table, even when two servers seat a round at once (NULLs never collide).
    op.create_index("ix_tables_concours", "tables", ["concours_id", "round_no", "table_no"], unique=True)
    op.add_column("concours", sa.Column("mode", sa.String(8), nullable=False, server_default="cards"))
    op.add_column("concours", sa.Column("absent_delay", sa.Integer, nullable=False, server_default="300"))
    op.add_column("concours", sa.Column("bots", sa.String(32), nullable=False, server_default="club"))
    op.add_column("concours", sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("entrants", sa.Column("accounts", sa.JSON, nullable=True))
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("first_dealer", sa.Integer, nullable=False),
        sa.Column("bots", sa.String(32), nullable=False),
        _when("created_at"),
        _when("closes_at"),
        sa.Column("day", sa.String(10), nullable=True, unique=True),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
    )
    op.create_table(
        "challenge_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("challenge_id", sa.Integer, sa.ForeignKey("challenges.id", ondelete="CASCADE"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("table_code", sa.String(32), nullable=False),
        _when("started_at"),
        _when("finished_at", nullable=True),
        sa.UniqueConstraint("challenge_id", "account_id", name="uq_challenge_entries_account"),
    )
    op.create_table(
        "challenge_results",
        sa.Column("entry_id", sa.Integer, sa.ForeignKey("challenge_entries.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("deal_no", sa.Integer, primary_key=True),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("contract", sa.JSON, nullable=True),
        _when("played_at"),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("variant", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        _when("updated_at"),
    )
    op.create_index("ix_ratings_variant", "ratings", ["variant", "rating"])
    op.create_table(
        "rating_games",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        _when("rated_at"),
    )


def downgrade() -> None:
    op.drop_table("rating_games")
    op.drop_index("ix_ratings_variant", "ratings")
    for table in ("ratings", "challenge_results", "challenge_entries", "challenges"):
        op.drop_table(table)
    op.drop_column("entrants", "accounts")
    for column in ("paused", "bots", "absent_delay", "mode"):
        op.drop_column("concours", column)
    op.drop_index("ix_tables_concours", "tables")
    for column in ("rated", "paused", *(name for name, _kind in reversed(_TABLE_COLUMNS))):
        op.drop_column("tables", column)
