"""The web table's database schema (SQLAlchemy Core); Alembic migrations create it.

* ``meta``: key–value facts of the installation (the secret that signs seat tokens).
* ``tables``: one row per table: its code, rules, bots, status and current game, and whether it is
  private (reached by its link only, never listed in the lobby), its bots' pace and whether it is a
  practice table (hints and each card's cost for its players).
* ``seats``: who sits where (a human's name and player id, a bot, or open).
* ``actions``: the append-only log of every action of every deal, in order; replaying
  it rebuilds a live table exactly. A player's action carries the id his client gave it
  (unique per player at a table, to recognise a resent action) and the player's id.
* ``games``: finished games, as atout records, for the history and its downloads.
* ``analyses``: the double-dummy analysis of a finished deal, computed once.
* ``talk``: what was said at a table (a quick message by its key, or free text), with the game it was said
  in, so that a reload or a restart shows the log again and a finished game keeps its own.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    true,
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
    Column("private", Boolean, nullable=False, server_default=false()),
    #: The host's talk settings: free text allowed (quick messages always are), spectators may talk.
    Column("talk_free_text", Boolean, nullable=False, server_default=true()),
    Column("talk_spectators", Boolean, nullable=False, server_default=false()),
    #: The bots' pace (slow, normal, fast: a multiple of the server's) and a practice table (hints, analysis).
    Column("pace", String(8), nullable=False, server_default="normal"),
    Column("practice", Boolean, nullable=False, server_default=false()),
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

talk = Table(
    "talk",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("game_no", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    #: The speaker's seat (None: a spectator), his name then, and his handle at the table (to mute him).
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=False),
    Column("who", String(16), nullable=False),
    #: A quick message's key (``web.talk.quick.KEY``), or free text.
    Column("quick", String(32), nullable=True),
    Column("text", Text, nullable=True),
    Index("ix_talk_table_game", "table_id", "game_no"),
)
