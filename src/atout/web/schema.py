"""The web table's database schema (SQLAlchemy Core); Alembic migrations create it.

* ``meta``: key–value facts of the installation (the secret that signs seat tokens).
* ``tables``: one row per table: its code, rules, bots, status and current game.
* ``seats``: who sits where (a human's name and player id, a bot, or open).
* ``actions``: the append-only log of every action of every deal, in order; replaying
  it rebuilds a live table exactly. A player's action carries the id his client gave it
  (unique per player at a table, to recognise a resent action) and the player's id.
* ``games``: finished games, as atout records, for the history and its downloads.
* ``analyses``: the double-dummy analysis of a finished deal, computed once.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

meta = Table(
    "meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

tables = Table(
    "tables",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(32), nullable=False, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("rules", Text, nullable=False),
    Column("bots", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("host", String(64), nullable=False),
    Column("game_no", Integer, nullable=False),
    Column("match_seed", BigInteger, nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("shard", Integer, nullable=False),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("player", String(64), nullable=True),
)

actions = Table(
    "actions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("game_no", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("deal_no", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", String(64), nullable=False),
    Column("action_id", String(64), nullable=True),
    Column("by_bot", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("player", String(64), nullable=True),
    UniqueConstraint("table_id", "game_no", "seq", name="uq_actions_seq"),
    UniqueConstraint("table_id", "player", "action_id", name="uq_actions_player_action_id"),
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("game_no", Integer, nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    Column("preset", String(32), nullable=False),
    Column("players", JSON, nullable=False),
    Column("scores", JSON, nullable=False),
    Column("winner", Integer, nullable=True),
    Column("deals", Integer, nullable=False),
    Column("records", Text, nullable=False),
    UniqueConstraint("table_id", "game_no", name="uq_games_table_game"),
)

analyses = Table(
    "analyses",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("deal_no", Integer, primary_key=True),
    Column("data", JSON, nullable=False),
)
