"""The web table's storage behind one small repository (SQLAlchemy 2, async).

SQLite (embedded, the default) and PostgreSQL run the same code. :meth:`Store.open`
applies the Alembic migrations, so a new or older database is brought to the
current schema at start. Every write is its own transaction, committed before the
server tells anyone about it. A database that is briefly unavailable (a restart, a
dropped connection) is retried for a few seconds; past that, the operation raises
:class:`StoreUnavailable` and the caller refuses the action it was storing.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, CursorResult, RowMapping, event, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from atout.web import schema
from atout.web.states import SeatKind, TableStatus

T = TypeVar("T")
#: Waits between the attempts of an operation while the database is unavailable (seconds).
RETRY_DELAYS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2)
#: Seconds the action log waits, once an action arrives, for others to write in the same transaction.
LINGER = 0.005


class StoreUnavailable(RuntimeError):
    """The database could not be reached for several seconds."""


class DuplicateAction(RuntimeError):
    """An action with this id is already in the log, by the same player (a resent message)."""


@dataclass(frozen=True)
class TableRow:
    id: int
    code: str
    rules: str
    bots: str
    status: TableStatus
    host: str
    game_no: int
    match_seed: int
    first_dealer: int
    shard: int
    #: Reached by its link only: never listed in the lobby.
    private: bool = False
    #: The host's talk settings: free text allowed (quick messages always are), spectators may talk.
    talk_free_text: bool = True
    talk_spectators: bool = False
    #: The bots' pace (:data:`atout.web.actor.PACES`) and a practice table (hints, each card's cost).
    pace: str = "normal"
    practice: bool = False
    #: An online tournament's table: its concours, round and table number.
    concours_id: int | None = None
    round_no: int | None = None
    table_no: int | None = None
    #: A challenge's table (its one player alone with bots), and its fixed number of deals.
    challenge_id: int | None = None
    fixed_deals: int | None = None
    #: Seconds before a bot plays for an absent player (None: the server's setting).
    seat_timeout: float | None = None
    #: Nobody plays while the organiser pauses the table.
    paused: bool = False
    #: Its games between people change their ratings.
    rated: bool = False

    @property
    def competition(self) -> bool:
        """A tournament's or a challenge's table: it plays on without anyone connected, and is never listed."""
        return self.concours_id is not None or self.challenge_id is not None


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: SeatKind
    name: str
    player: str | None


@dataclass(frozen=True)
class ActionRow:
    seq: int
    deal_no: int
    seat: int
    action: str
    action_id: str | None
    by_bot: bool
    #: The player who sent it (None: a bot's move); action ids are his own.
    player: str | None = None


@dataclass(frozen=True)
class TalkRow:
    """A line said at a table: a quick message (its key) or free text, by a seat (None: a spectator)."""

    seat: int | None
    name: str
    #: The speaker's handle at the table (the page mutes a speaker by it).
    who: str
    quick: str | None
    text: str | None
    game_no: int = 1
    id: int = 0
    at: datetime | None = None


@dataclass(frozen=True)
class _Append:
    """An action on its way to the log, and what its table awaits."""

    table_id: int
    game_no: int
    row: ActionRow
    written: asyncio.Future[None]


def _settle(written: asyncio.Future[None], error: BaseException | None = None) -> None:
    if written.done():  # its table stopped waiting
        return
    if error is None:
        written.set_result(None)
    else:
        written.set_exception(error)


@dataclass(frozen=True)
class GameRow:
    id: int
    code: str
    game_no: int
    finished_at: datetime
    preset: str
    #: Each seat's player: ``{"name": ..., "bot": ...}`` (a bot's name is its level).
    players: list[dict[str, Any]]
    scores: dict[str, int]
    winner: int | None
    deals: int
    records: str
    #: The table's ruleset (JSON, :meth:`~atout.rules.Ruleset.to_json`) and its bots' level.
    rules: str
    bots: str
    #: A challenge's game (its deals stay hidden from those who have not played them) or a tournament's.
    challenge_id: int | None = None
    concours_id: int | None = None


def _now() -> datetime:
    return datetime.now(UTC)


def default_url(data_dir: Path) -> str:
    """The embedded SQLite database in ``data_dir``."""
    return f"sqlite+aiosqlite:///{data_dir / 'web.sqlite3'}"


class Store:
    """Tables, seats, the action log and finished games, in one database."""

    def __init__(self, url: str, retry_delays: Sequence[float] = RETRY_DELAYS) -> None:
        self.url = url
        self.retry_delays = tuple(retry_delays)
        #: Actions waiting for the next transaction of the log, and the task that writes them.
        self._pending: list[_Append] = []
        self._writer: asyncio.Task[None] | None = None
        embedded = url.startswith("sqlite")
        # A server's connections may break (a restart, the network): look before using one. A file cannot.
        self.engine: AsyncEngine = create_async_engine(url, pool_pre_ping=not embedded)
        if embedded:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)

    # ------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        """Bring the schema to the current version (Alembic) and make sure a secret exists."""
        database = self.engine.url.database
        if self.engine.dialect.name == "sqlite" and database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        async with self.engine.begin() as conn:
            await conn.run_sync(_migrate)
        await self.secret()

    async def close(self) -> None:
        if self._writer is not None:  # the actions being written
            await asyncio.gather(self._writer, return_exceptions=True)
        await self.engine.dispose()

    async def transaction(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run ``work`` in a transaction, retrying while the database is unavailable."""
        for delay in (*self.retry_delays, None):
            try:
                async with self.engine.begin() as conn:
                    return await work(conn)
            except IntegrityError:
                raise
            except (OperationalError, DBAPIError, OSError) as err:
                if (
                    isinstance(err, DBAPIError)
                    and not isinstance(err, OperationalError)
                    and not err.connection_invalidated
                ):
                    raise
                if delay is None:
                    raise StoreUnavailable(str(err).splitlines()[0]) from None
                await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    # ---------------------------------------------------------------- secret
    async def secret(self) -> str:
        """The installation's signing secret, generated and stored on first use."""

        async def work(conn: AsyncConnection) -> str:
            found = (await conn.execute(select(schema.meta.c.value).where(schema.meta.c.key == "secret"))).scalar()
            if found is None:
                found = secrets.token_urlsafe(32)
                await conn.execute(insert(schema.meta).values(key="secret", value=found))
            return str(found)

        try:
            return await self.transaction(work)
        except IntegrityError:  # another server stored one first
            return await self.secret()

    # ---------------------------------------------------------------- tables
    async def create_table(
        self,
        code: str,
        rules: str,
        bots: str,
        host: str,
        match_seed: int,
        first_dealer: int,
        shard: int,
        seats: Sequence[SeatRow],
        private: bool = False,
        pace: str = "normal",
        practice: bool = False,
        status: TableStatus = TableStatus.LOBBY,
        **competition: Any,
    ) -> TableRow:
        """A new table and its seats. ``competition``: the :class:`TableRow` fields of a tournament's or a
        challenge's table (``concours_id``, ``challenge_id``, ``fixed_deals``, ``seat_timeout``, ``rated``…)."""
        unknown = set(competition) - {f for f in TableRow.__dataclass_fields__ if f not in _CREATED}
        if unknown:
            raise TypeError(f"not a table's field: {sorted(unknown)}")

        async def work(conn: AsyncConnection) -> TableRow:
            now = _now()
            values: dict[str, Any] = dict(
                code=code,
                rules=rules,
                bots=bots,
                status=status,
                host=host,
                game_no=1,
                match_seed=match_seed,
                first_dealer=first_dealer,
                shard=shard,
                private=private,
                pace=pace,
                practice=practice,
                **competition,
            )
            result = await conn.execute(insert(schema.tables).values(created_at=now, updated_at=now, **values))
            table_id = _new_id(result)
            await conn.execute(
                insert(schema.seats),
                [dict(table_id=table_id, seat=s.seat, kind=s.kind, name=s.name, player=s.player) for s in seats],
            )
            return TableRow(id=table_id, **values)

        return await self.transaction(work)

    async def update_table(self, row: TableRow) -> None:
        """Write what changes of a table over its life: its status and its current game."""

        async def work(conn: AsyncConnection) -> None:
            stmt = update(schema.tables).where(schema.tables.c.id == row.id)
            values = dict(
                status=row.status, game_no=row.game_no, match_seed=row.match_seed, first_dealer=row.first_dealer
            )
            await conn.execute(stmt.values(updated_at=_now(), **values))

        await self.transaction(work)

    async def start_table(self, table_id: int, bots: Sequence[SeatRow]) -> None:
        """Seat the bots in the open seats and mark the table as playing, in one transaction."""

        async def work(conn: AsyncConnection) -> None:
            c = schema.seats.c
            for seat in bots:
                stmt = update(schema.seats).where(c.table_id == table_id, c.seat == seat.seat)
                await conn.execute(stmt.values(kind=seat.kind, name=seat.name, player=seat.player))
            stmt = update(schema.tables).where(schema.tables.c.id == table_id)
            await conn.execute(stmt.values(updated_at=_now(), status=TableStatus.PLAYING))

        await self.transaction(work)

    async def set_seat(self, table_id: int, seat: SeatRow) -> None:
        async def work(conn: AsyncConnection) -> None:
            c = schema.seats.c
            stmt = update(schema.seats).where(c.table_id == table_id, c.seat == seat.seat)
            await conn.execute(stmt.values(kind=seat.kind, name=seat.name, player=seat.player))

        await self.transaction(work)

    async def set_paused(self, table_ids: Sequence[int], paused: bool) -> None:
        """Pause tables (nobody plays, no clock runs) or let them go on."""

        async def work(conn: AsyncConnection) -> None:
            stmt = update(schema.tables).where(schema.tables.c.id.in_(table_ids))
            await conn.execute(stmt.values(paused=paused, updated_at=_now()))

        await self.transaction(work)

    async def set_talk_rules(self, table_id: int, free_text: bool, spectators: bool) -> None:
        """The host's talk settings: free text allowed, spectators may talk."""

        async def work(conn: AsyncConnection) -> None:
            stmt = update(schema.tables).where(schema.tables.c.id == table_id)
            await conn.execute(stmt.values(talk_free_text=free_text, talk_spectators=spectators))

        await self.transaction(work)

    async def table(self, code: str) -> TableRow | None:
        async def work(conn: AsyncConnection) -> TableRow | None:
            row = (await conn.execute(select(*_TABLE_COLUMNS).where(schema.tables.c.code == code))).first()
            return _table_row(row._mapping) if row else None

        return await self.transaction(work)

    async def tables_to_load(self) -> list[str]:
        """The codes of the tables in play that a restarted server loads at once: the online tournaments' (they
        play on) and the rated ones (a game over but not yet saved is saved, and rated, without waiting for a
        visitor)."""

        async def work(conn: AsyncConnection) -> list[str]:
            c = schema.tables.c
            query = select(c.code).where(c.concours_id.is_not(None) | c.rated, c.status == TableStatus.PLAYING)
            return [str(code) for code in (await conn.execute(query)).scalars()]

        return await self.transaction(work)

    async def seats(self, table_id: int) -> list[SeatRow]:
        async def work(conn: AsyncConnection) -> list[SeatRow]:
            c = schema.seats.c
            rows = await conn.execute(
                select(c.seat, c.kind, c.name, c.player).where(c.table_id == table_id).order_by(c.seat)
            )
            return [replace(SeatRow(**r._mapping), kind=SeatKind(r.kind)) for r in rows]

        return await self.transaction(work)

    # --------------------------------------------------------------- actions
    async def append_action(self, table_id: int, game_no: int, row: ActionRow) -> None:
        """Append one action to the log, committed when this returns; :class:`DuplicateAction` if its player's
        id is already there.

        The actions of all tables are written together (group commit): what arrives while a transaction is
        being written goes into the next one, so that many tables cost one transaction, not one each.
        """
        written: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(_Append(table_id, game_no, row, written))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_actions(), name="atout action log")
        await written

    async def _write_actions(self) -> None:
        while self._pending:
            await asyncio.sleep(LINGER)  # what arrives meanwhile shares the transaction
            batch, self._pending = self._pending, []
            try:
                await self._insert_actions(batch)
            except IntegrityError:  # one of them (at least) was sent before: each on its own, to tell which
                for append in batch:
                    await self._write_one(append)
            except asyncio.CancelledError:  # the server stops
                for append in batch:
                    append.written.cancel()
                raise
            except Exception as err:  # unavailable: nothing of the batch was kept
                for append in batch:
                    _settle(append.written, err)
            else:
                for append in batch:
                    _settle(append.written)

    async def _write_one(self, append: _Append) -> None:
        try:
            await self._insert_actions([append])
        except IntegrityError:
            _settle(append.written, DuplicateAction(append.row.action_id or str(append.row.seq)))
        except Exception as err:
            _settle(append.written, err)
        else:
            _settle(append.written)

    async def _insert_actions(self, batch: Sequence[_Append]) -> None:
        async def work(conn: AsyncConnection) -> None:
            now = _now()
            rows = [
                dict(
                    table_id=a.table_id,
                    game_no=a.game_no,
                    seq=a.row.seq,
                    deal_no=a.row.deal_no,
                    seat=a.row.seat,
                    action=a.row.action,
                    action_id=a.row.action_id,
                    by_bot=a.row.by_bot,
                    player=a.row.player,
                    created_at=now,
                )
                for a in batch
            ]
            await conn.execute(insert(schema.actions), rows)

        await self.transaction(work)

    async def actions(self, table_id: int, game_no: int) -> list[ActionRow]:
        async def work(conn: AsyncConnection) -> list[ActionRow]:
            c = schema.actions.c
            rows = await conn.execute(
                select(c.seq, c.deal_no, c.seat, c.action, c.action_id, c.by_bot, c.player)
                .where(c.table_id == table_id, c.game_no == game_no)
                .order_by(c.seq)
            )
            return [ActionRow(**r._mapping) for r in rows]

        return await self.transaction(work)

    # ------------------------------------------------------------------ talk
    async def add_talk(self, table_id: int, line: TalkRow) -> TalkRow:
        """Keep a line said at a table (committed when this returns): the line with its id and time."""

        async def work(conn: AsyncConnection) -> TalkRow:
            at = _now()
            values = dict(
                table_id=table_id,
                game_no=line.game_no,
                created_at=at,
                seat=line.seat,
                name=line.name,
                who=line.who,
                quick=line.quick,
                text=line.text,
            )
            result = await conn.execute(insert(schema.talk).values(**values))
            return replace(line, id=_new_id(result), at=at)

        return await self.transaction(work)

    async def talk(self, table_id: int, limit: int = 100, game_no: int | None = None) -> list[TalkRow]:
        """The last ``limit`` lines said at a table (of one of its games if ``game_no`` is given), oldest first."""

        async def work(conn: AsyncConnection) -> list[TalkRow]:
            c = schema.talk.c
            query = select(c.id, c.game_no, c.created_at, c.seat, c.name, c.who, c.quick, c.text).where(
                c.table_id == table_id
            )
            if game_no is not None:
                query = query.where(c.game_no == game_no)
            rows = (await conn.execute(query.order_by(c.id.desc()).limit(limit))).all()
            return [_talk_row(r._mapping) for r in reversed(rows)]

        return await self.transaction(work)

    async def game_talk(self, game_id: int, limit: int = 1000) -> list[TalkRow]:
        """What was said at the table during a finished game."""

        async def work(conn: AsyncConnection) -> tuple[int, int] | None:
            c = schema.games.c
            row = (await conn.execute(select(c.table_id, c.game_no).where(c.id == game_id))).first()
            return (int(row.table_id), int(row.game_no)) if row else None

        found = await self.transaction(work)
        if found is None:
            return []
        return await self.talk(found[0], limit, game_no=found[1])

    # ----------------------------------------------------------------- games
    async def save_game(
        self,
        table_id: int,
        game_no: int,
        preset: str,
        players: list[dict[str, Any]],
        scores: dict[str, int],
        winner: int | None,
        deals: int,
        records: str,
    ) -> int:
        """Keep a finished game; saving one again (a retry after a failure) keeps the first and returns its id."""

        async def work(conn: AsyncConnection) -> int:
            c = schema.games.c
            found = (await conn.execute(select(c.id).where(c.table_id == table_id, c.game_no == game_no))).scalar()
            if found is not None:
                return int(found)
            result = await conn.execute(
                insert(schema.games).values(
                    table_id=table_id,
                    game_no=game_no,
                    finished_at=_now(),
                    preset=preset,
                    players=players,
                    scores=scores,
                    winner=winner,
                    deals=deals,
                    records=records,
                )
            )
            return _new_id(result)

        return await self.transaction(work)

    async def games(self, limit: int = 50, offset: int = 0) -> list[GameRow]:
        """The finished games, newest first; a challenge's are not listed (their deals are the challenge's)."""

        async def work(conn: AsyncConnection) -> list[GameRow]:
            query = _GAMES.where(schema.tables.c.challenge_id.is_(None)).order_by(schema.games.c.id.desc())
            rows = await conn.execute(query.limit(limit).offset(offset))
            return [GameRow(**r._mapping) for r in rows]

        return await self.transaction(work)

    async def game(self, game_id: int) -> GameRow | None:
        async def work(conn: AsyncConnection) -> GameRow | None:
            row = (await conn.execute(_GAMES.where(schema.games.c.id == game_id))).first()
            return GameRow(**row._mapping) if row else None

        return await self.transaction(work)

    async def game_of_table(self, code: str) -> int | None:
        """The id of the last game a table finished, if any."""

        async def work(conn: AsyncConnection) -> int | None:
            g, t = schema.games.c, schema.tables.c
            query = select(g.id).join(schema.tables, t.id == g.table_id).where(t.code == code)
            found = (await conn.execute(query.order_by(g.id.desc()).limit(1))).scalar()
            return int(found) if found is not None else None

        return await self.transaction(work)

    async def analysis(self, game_id: int, deal_no: int) -> Any:
        async def work(conn: AsyncConnection) -> Any:
            c = schema.analyses.c
            return (await conn.execute(select(c.data).where(c.game_id == game_id, c.deal_no == deal_no))).scalar()

        return await self.transaction(work)

    async def save_analysis(self, game_id: int, deal_no: int, data: Any) -> None:
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(insert(schema.analyses).values(game_id=game_id, deal_no=deal_no, data=data))

        with suppress(IntegrityError):  # computed twice at once: the first one stays
            await self.transaction(work)


_TABLE_COLUMNS = (
    schema.tables.c.id,
    schema.tables.c.code,
    schema.tables.c.rules,
    schema.tables.c.bots,
    schema.tables.c.status,
    schema.tables.c.host,
    schema.tables.c.game_no,
    schema.tables.c.match_seed,
    schema.tables.c.first_dealer,
    schema.tables.c.shard,
    schema.tables.c.private,
    schema.tables.c.talk_free_text,
    schema.tables.c.talk_spectators,
    schema.tables.c.pace,
    schema.tables.c.practice,
    schema.tables.c.concours_id,
    schema.tables.c.round_no,
    schema.tables.c.table_no,
    schema.tables.c.challenge_id,
    schema.tables.c.fixed_deals,
    schema.tables.c.seat_timeout,
    schema.tables.c.paused,
    schema.tables.c.rated,
)
#: The fields :meth:`Store.create_table` sets itself.
_CREATED = {"id", "code", "rules", "bots", "status", "host", "game_no", "match_seed", "first_dealer", "shard"}
_GAMES = select(
    schema.games.c.id,
    schema.tables.c.code,
    schema.games.c.game_no,
    schema.games.c.finished_at,
    schema.games.c.preset,
    schema.games.c.players,
    schema.games.c.scores,
    schema.games.c.winner,
    schema.games.c.deals,
    schema.games.c.records,
    schema.tables.c.rules,
    schema.tables.c.bots,
    schema.tables.c.challenge_id,
    schema.tables.c.concours_id,
).join(schema.tables, schema.tables.c.id == schema.games.c.table_id)


def _table_row(values: RowMapping) -> TableRow:
    row = TableRow(**values)
    return replace(
        row,
        status=TableStatus(row.status),
        private=bool(row.private),
        talk_free_text=bool(row.talk_free_text),
        talk_spectators=bool(row.talk_spectators),
        practice=bool(row.practice),
        paused=bool(row.paused),
        rated=bool(row.rated),
    )


def _talk_row(values: RowMapping) -> TalkRow:
    at = values["created_at"]
    if at is not None and at.tzinfo is None:  # SQLite keeps no time zone: they are all UTC
        at = at.replace(tzinfo=UTC)
    return TalkRow(
        seat=values["seat"],
        name=values["name"],
        who=values["who"],
        quick=values["quick"],
        text=values["text"],
        game_no=values["game_no"],
        id=values["id"],
        at=at,
    )


def _new_id(result: CursorResult[Any]) -> int:
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # with WAL: durable across a killed process
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _migrate(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(resources.files("atout.web").joinpath("migrations")))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
