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
* ``accounts``: people with a name and a password (an argon2 hash) and a role (player, organiser, admin);
  ``sessions``: their sign-in sessions, by the SHA-256 of the cookie's token (the token itself is never stored).
* ``concours``: a competition played with real cards: its organiser, ruleset (a round's: target or deals),
  rounds, draw, ranking and state; ``entrants``: its teams (or players, à la mêlée) in registration order.
* ``sheets``: a score sheet filled on a phone: a concours's table for one round (its entrants, which side
  enters, whether the other confirmed) or a sheet of a game at home; ``sheet_deals``: its deals' facts.
* ``changes``: every change to a concours or a sheet: who, when, what, the value before and after.
* A table may belong to an online tournament (its concours, round and table number: ``concours.mode`` is
  ``online``) or to a challenge; ``challenges``: series of deals every participant plays alone with bots (a
  daily one has its day), ``challenge_entries``: a participant's play of one (his table),
  ``challenge_results``: his score on each deal, recorded as it is played.
* ``ratings``: each account's Glicko-2 rating per variant, from rated games between people;
  ``rating_games``: the games already rated (each once: written in the transaction that updates the ratings).
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
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
    #: An online tournament's table: its concours, round and table number.
    Column("concours_id", Integer, nullable=True),
    Column("round_no", Integer, nullable=True),
    Column("table_no", Integer, nullable=True),
    #: A challenge's table (one participant and bots) and its fixed number of deals.
    Column("challenge_id", Integer, nullable=True),
    Column("fixed_deals", Integer, nullable=True),
    #: Seconds before a bot plays for an absent player (None: the server's), a pause, rated games.
    Column("seat_timeout", Float, nullable=True),
    Column("paused", Boolean, nullable=False, server_default=false()),
    Column("rated", Boolean, nullable=False, server_default=false()),
    Index("ix_tables_concours", "concours_id", "round_no", "table_no", unique=True),
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

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(32), nullable=False),
    #: The name case-folded: two accounts never differ only by case.
    Column("name_key", String(32), nullable=False, unique=True),
    Column("password", String(200), nullable=False),
    Column("role", String(12), nullable=False, server_default="player"),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_sessions_account", "account_id"),
)

concours = Table(
    "concours",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(16), nullable=False, unique=True),
    Column("name", String(80), nullable=False),
    Column("organiser_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    #: A round's ruleset (JSON): its target, or its number of deals.
    Column("rules", Text, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("draw", String(8), nullable=False),
    Column("ranking", String(8), nullable=False),
    Column("seed", BigInteger, nullable=False),
    #: registering, playing (round ``round_no`` drawn), finished.
    Column("status", String(12), nullable=False),
    Column("round_no", Integer, nullable=False, server_default="0"),
    #: Entrants may register by the concours's link.
    Column("open_registration", Boolean, nullable=False, server_default=true()),
    #: cards (real cards, phone sheets) or online (web tables); online: the delay before a bot plays for an
    #: absent player (seconds), the bots' level, and a pause of the round's tables.
    Column("mode", String(8), nullable=False, server_default="cards"),
    Column("absent_delay", Integer, nullable=False, server_default="300"),
    Column("bots", String(32), nullable=False, server_default="club"),
    Column("paused", Boolean, nullable=False, server_default=false()),
)

entrants = Table(
    "entrants",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("concours_id", Integer, ForeignKey("concours.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("players", JSON, nullable=False),
    Column("withdrawn", Boolean, nullable=False, server_default=false()),
    Column("created_at", DateTime(timezone=True), nullable=False),
    #: Online: the accounts' ids of its players, in the order of ``players``.
    Column("accounts", JSON, nullable=True),
    UniqueConstraint("concours_id", "number", name="uq_entrants_number"),
)

sheets = Table(
    "sheets",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    #: The secret of its link (and QR code): whoever has it may enter the sheet's deals.
    Column("token", String(32), nullable=False, unique=True),
    Column("rules", Text, nullable=False),
    #: The two sides' names, as the sheet shows them.
    Column("names", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    #: A sheet of a game at home kept in an account (None: kept by its link, in the browser's list).
    Column("owner_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
    #: A concours's table: the concours, the round, the table's number and each side's entrants' ids.
    Column("concours_id", Integer, ForeignKey("concours.id", ondelete="CASCADE"), nullable=True),
    Column("round_no", Integer, nullable=True),
    Column("table_no", Integer, nullable=True),
    Column("entrants", JSON, nullable=True),
    #: The side whose phone enters the deals (the other confirms); None until one starts.
    Column("marker", Integer, nullable=True),
    #: The marker's browser: the confirmation must come from another one.
    Column("marker_device", String(32), nullable=True),
    #: open, done (the game is over: waiting for the other side), confirmed.
    Column("status", String(12), nullable=False),
    UniqueConstraint("concours_id", "round_no", "table_no", name="uq_sheets_table"),
)

sheet_deals = Table(
    "sheet_deals",
    metadata,
    Column("sheet_id", Integer, ForeignKey("sheets.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    #: The deal's facts (:meth:`atout.scoring.DealFacts.to_dict`); None: thrown in, nobody took.
    Column("facts", JSON, nullable=True),
    Column("entered_at", DateTime(timezone=True), nullable=False),
)

changes = Table(
    "changes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("concours_id", Integer, ForeignKey("concours.id", ondelete="CASCADE"), nullable=True),
    Column("sheet_id", Integer, ForeignKey("sheets.id", ondelete="CASCADE"), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
    #: Who made it: an account's name, or a table's side (``table 3, side 1``) for a guest.
    Column("who", String(64), nullable=False),
    Column("what", String(32), nullable=False),
    Column("before", JSON, nullable=True),
    Column("after", JSON, nullable=True),
    Index("ix_changes_concours", "concours_id"),
    Index("ix_changes_sheet", "sheet_id"),
)

challenges = Table(
    "challenges",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(16), nullable=False, unique=True),
    Column("name", String(80), nullable=False),
    #: The ruleset (JSON), shuffled before every deal; its number of deals, their seed and first dealer.
    Column("rules", Text, nullable=False),
    Column("deals", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("bots", String(32), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("closes_at", DateTime(timezone=True), nullable=False),
    #: A daily challenge's day (ISO date): the server creates one a day, once.
    Column("day", String(10), nullable=True, unique=True),
    Column("created_by", Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
)

challenge_entries = Table(
    "challenge_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("challenge_id", Integer, ForeignKey("challenges.id", ondelete="CASCADE"), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    #: The table he plays it at (alone, with bots).
    Column("table_code", String(32), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    UniqueConstraint("challenge_id", "account_id", name="uq_challenge_entries_account"),
)

challenge_results = Table(
    "challenge_results",
    metadata,
    Column("entry_id", Integer, ForeignKey("challenge_entries.id", ondelete="CASCADE"), primary_key=True),
    Column("deal_no", Integer, primary_key=True),
    #: His side's points on the deal minus the best other side's (what match points compare), his side's points,
    #: and the contract reached (None: passed out).
    Column("score", Integer, nullable=False),
    Column("points", Integer, nullable=False),
    Column("contract", JSON, nullable=True),
    Column("played_at", DateTime(timezone=True), nullable=False),
)

ratings = Table(
    "ratings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("variant", String(32), primary_key=True),
    #: Glicko-2 on Glicko's scale: the rating, its deviation (RD) and volatility; rated games played.
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_ratings_variant", "variant", "rating"),
)

rating_games = Table(
    "rating_games",
    metadata,
    #: A game whose result has changed its players' ratings (rated once, whatever retries call again).
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("variant", String(32), nullable=False),
    Column("rated_at", DateTime(timezone=True), nullable=False),
)
