"""Concours played with real cards: an organiser's competition, its entrants, its rounds' tables.

A concours holds a round's ruleset (its target, or its number of deals), the number of rounds, the
draw (:mod:`atout.competitions.draw`: at random, Swiss by standing, or « à la mêlée ») and the ranking.
Entrants register at the organiser's desk or by the concours's link; each round the server draws the
tables and gives each one a score sheet (:mod:`atout.web.sheets`) that the table's phones fill. The
standings are a pure function of the confirmed sheets (:func:`atout.competitions.standings.standings`),
recomputed whenever they are asked for; nothing of them is stored. Only the concours's organiser (or
an administrator) changes it, and every change goes to its log.
"""

from __future__ import annotations

import random
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import Any, Literal, TypeVar, cast

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from atout.competitions import (
    Bye,
    Result,
    Round,
    Side,
    Standing,
    bye_takers,
    draw_melee,
    draw_random,
    draw_swiss,
    met_pairs,
    partner_pairs,
    standings,
)
from atout.errors import AtoutError
from atout.i18n import Message
from atout.match import Match
from atout.rules import Ruleset
from atout.scoring import DealFacts
from atout.web import schema
from atout.web.locks import KeyedLocks
from atout.web.sheets import Change, SheetStatus, check_keeper_rules, insert_sheet, log_change
from atout.web.store import Store

T = TypeVar("T")
DRAWS = ("random", "swiss", "melee")
RANKINGS = ("points", "wins")
#: Played with real cards (phones fill the sheets) or online (the draw seats the players at web tables).
MODES = ("cards", "online")
#: The bots' levels an organiser may choose (the web tables': :data:`atout.web.service.TABLE_LEVELS`).
BOT_LEVELS = ("debutant", "club", "expert")
#: Seconds an online player may be away before a bot plays for him, at most (an hour).
MAX_ABSENT_DELAY = 3600
#: Bounds of what an organiser sets.
MAX_ROUNDS = 20
MAX_ENTRANTS = 1000
MAX_NAME = 40


class ConcoursStatus(StrEnum):
    REGISTERING = "registering"
    PLAYING = "playing"


@dataclass(frozen=True)
class Concours:
    id: int
    code: str
    name: str
    organiser_id: int
    rules: Ruleset
    rounds: int
    draw: str
    ranking: str
    seed: int
    status: ConcoursStatus
    round_no: int
    open_registration: bool
    created_at: datetime
    mode: str = "cards"
    #: Online: seconds before a bot plays for an absent player, the bots' level, the round's tables paused.
    absent_delay: int = 300
    bots: str = "club"
    paused: bool = False

    @property
    def melee(self) -> bool:
        """Entrants are players, drawn into new teams each round."""
        return self.draw == "melee"

    @property
    def online(self) -> bool:
        """Played at web tables (:mod:`atout.web.tournament`) rather than with real cards."""
        return self.mode == "online"


@dataclass(frozen=True)
class Entrant:
    id: int
    number: int
    name: str
    players: list[str]
    withdrawn: bool
    #: Online: the accounts of ``players``, in their order (a seat without one is a bot's).
    accounts: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class TableSheet:
    """A round's table (or a side's bye) with its sheet's state and the game's totals so far."""

    round_no: int
    table_no: int
    token: str
    sides: list[list[int]]
    names: list[str]
    status: SheetStatus
    deals: int
    totals: tuple[int, int]

    @property
    def confirmed(self) -> bool:
        return self.status in (SheetStatus.CONFIRMED, SheetStatus.BYE)


@dataclass(frozen=True)
class Board:
    """A concours as its pages show it: settings, entrants and every round's tables."""

    concours: Concours
    entrants: list[Entrant]
    tables: list[TableSheet] = field(default_factory=list)

    def round(self, number: int) -> list[TableSheet]:
        return [t for t in self.tables if t.round_no == number]

    @property
    def finished(self) -> bool:
        """The last round is drawn and every one of its tables confirmed."""
        c = self.concours
        last = self.round(c.rounds)
        return c.round_no == c.rounds and bool(last) and all(t.confirmed for t in last)

    @property
    def round_complete(self) -> bool:
        return all(t.confirmed for t in self.round(self.concours.round_no))

    def entrant(self, entrant_id: int) -> Entrant:
        return self._by_id[entrant_id]

    @cached_property
    def _by_id(self) -> dict[int, Entrant]:
        return {e.id: e for e in self.entrants}

    def standings(self) -> list[Standing]:
        """The ranking, from the confirmed tables and the byes only."""
        results = [
            Result(t.round_no, (tuple(t.sides[0]), tuple(t.sides[1])), t.totals)
            for t in self.tables
            if t.status == SheetStatus.CONFIRMED
        ]
        byes = [Bye(t.round_no, tuple(t.sides[0])) for t in self.tables if t.status == SheetStatus.BYE]
        ranking: Literal["points", "wins"] = "wins" if self.concours.ranking == "wins" else "points"
        return standings([e.id for e in self.entrants], results, byes, ranking)


def _refused(key: str, **values: object) -> AtoutError:
    return AtoutError(Message(f"web.concours.{key}", **values))


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def clean_name(text: str, key: str = "bad_name") -> str:
    """A name as typed, its spaces tidied; 1 to :data:`MAX_NAME` characters, no control character."""
    name = " ".join(str(text).split())
    if not name or len(name) > MAX_NAME or any(not c.isprintable() for c in name):
        raise _refused(key, most=MAX_NAME)
    return name


@lru_cache(maxsize=64)
def ruleset_of(text: str) -> Ruleset:
    """A concours's ruleset read from its JSON (read once: every page and every sheet of the concours uses it)."""
    return Ruleset.from_json(text)


#: Each sheet's deals and totals as of its last change, by (sheet id, when it changed): a sheet unchanged since
#: is not read again. Derived from the recorded facts only, so any server of a shared database may keep its own.
_GAMES: OrderedDict[tuple[int, str], tuple[int, tuple[int, int]]] = OrderedDict()
_GAMES_KEPT = 20_000


async def _games(conn: AsyncConnection, rules: str, sheets: Sequence[Any]) -> dict[int, tuple[int, tuple[int, int]]]:
    """Each sheet's number of deals and the game's totals, recomputed by the scoring code from its facts."""
    keys = {s.id: (s.id, str(s.updated_at)) for s in sheets}
    stale = [s.id for s in sheets if keys[s.id] not in _GAMES]
    if stale:
        facts: dict[int, list[Any]] = {i: [] for i in stale}
        for d in await conn.execute(
            select(schema.sheet_deals.c.sheet_id, schema.sheet_deals.c.facts)
            .where(schema.sheet_deals.c.sheet_id.in_(stale))
            .order_by(schema.sheet_deals.c.sheet_id, schema.sheet_deals.c.number)
        ):
            facts[d.sheet_id].append(d.facts)
        ruleset = ruleset_of(rules)
        for sheet_id, deals in facts.items():
            match = Match(ruleset)
            for each in deals:
                match.add_facts(None if each is None else DealFacts.from_dict(each), stored=True)
            _GAMES[keys[sheet_id]] = (len(deals), (match.scores[0], match.scores[1]))
            while len(_GAMES) > _GAMES_KEPT:
                _GAMES.popitem(last=False)
    return {i: _GAMES[key] for i, key in keys.items()}


class ConcoursService:
    """Concours, their entrants and their rounds, in the store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks = KeyedLocks()
        #: What :meth:`standings_summary` last made for each concours, with the version it was made at.
        self._summaries: OrderedDict[str, tuple[tuple[Any, ...], Any]] = OrderedDict()

    # ------------------------------------------------------------------ reading
    async def board(self, code: str) -> Board | None:
        return await self.store.transaction(lambda conn: self._board(conn, code))

    async def of_organiser(self, account_id: int) -> list[Concours]:
        async def work(conn: AsyncConnection) -> list[Concours]:
            rows = await conn.execute(
                select(schema.concours)
                .where(schema.concours.c.organiser_id == account_id)
                .order_by(schema.concours.c.id.desc())
            )
            return [_concours(r) for r in rows]

        return await self.store.transaction(work)

    async def standings_summary(self, code: str, make: Callable[[Board], T]) -> T | None:
        """``make(board)`` for the concours's standings, made again only when they may have changed (a projector
        asks every few seconds and the tables enter deals all the time: the standings are recomputed when a
        table is confirmed, a round drawn or an entrant registered or withdrawn, not at every ask)."""
        version = await self.standings_version(code)
        if version is None:
            return None
        key = code.upper()
        kept = self._summaries.get(key)
        if kept is not None and kept[0] == version:
            return cast(T, kept[1])
        board = await self.board(code)
        if board is None:
            return None
        made = make(board)
        self._summaries[key] = (version, made)
        self._summaries.move_to_end(key)
        while len(self._summaries) > 256:
            self._summaries.popitem(last=False)
        return made

    async def standings_version(self, code: str) -> tuple[Any, ...] | None:
        """What the standings depend on, and nothing else: the round drawn, the entrants, and the confirmed tables
        (how many, and the latest change to one). A deal entered at a table still playing leaves it unchanged."""
        sheets, entrants = schema.sheets.c, schema.entrants.c

        async def work(conn: AsyncConnection) -> tuple[Any, ...] | None:
            found = (
                await conn.execute(
                    select(schema.concours.c.id, schema.concours.c.round_no).where(
                        schema.concours.c.code == code.upper()[:16]
                    )
                )
            ).first()
            if found is None:
                return None
            confirmed = await conn.execute(
                select(func.count(), func.max(sheets.updated_at)).where(
                    sheets.concours_id == found.id, sheets.status.in_((SheetStatus.CONFIRMED, SheetStatus.BYE))
                )
            )
            people = await conn.execute(
                select(func.count(), func.count().filter(entrants.withdrawn)).where(entrants.concours_id == found.id)
            )
            return (found.round_no, *confirmed.one(), *people.one())

        return await self.store.transaction(work)

    async def code_and_mode(self, concours_id: int) -> tuple[str, str] | None:
        """A concours's code and mode (cards or online), by its id."""
        c = schema.concours.c

        async def work(conn: AsyncConnection) -> tuple[str, str] | None:
            found = (await conn.execute(select(c.code, c.mode).where(c.id == concours_id))).first()
            return (str(found.code), str(found.mode)) if found else None

        return await self.store.transaction(work)

    async def organises(self, concours_id: int, account_id: int) -> bool:
        """Is ``account_id`` the organiser of the concours?"""

        async def work(conn: AsyncConnection) -> bool:
            found = await conn.execute(
                select(schema.concours.c.organiser_id).where(schema.concours.c.id == concours_id)
            )
            return found.scalar_one_or_none() == account_id

        return await self.store.transaction(work)

    async def deals(self, concours_id: int) -> dict[str, list[dict[str, Any] | None]]:
        """Every table's deals' facts, by the table's sheet token."""

        async def work(conn: AsyncConnection) -> dict[str, list[dict[str, Any] | None]]:
            rows = await conn.execute(
                select(schema.sheets.c.token, schema.sheet_deals.c.facts)
                .join(schema.sheet_deals, schema.sheets.c.id == schema.sheet_deals.c.sheet_id)
                .where(schema.sheets.c.concours_id == concours_id)
                .order_by(schema.sheet_deals.c.sheet_id, schema.sheet_deals.c.number)
            )
            out: dict[str, list[dict[str, Any] | None]] = {}
            for r in rows:
                out.setdefault(r.token, []).append(r.facts)
            return out

        return await self.store.transaction(work)

    async def changes(self, concours_id: int) -> list[Change]:
        """Every change to a concours and its sheets, the latest first."""

        async def work(conn: AsyncConnection) -> list[Change]:
            rows = await conn.execute(
                select(schema.changes)
                .where(schema.changes.c.concours_id == concours_id)
                .order_by(schema.changes.c.id.desc())
            )
            return [Change(_aware(r.at), r.who, r.what, r.before, r.after, r.sheet_id) for r in rows]

        return await self.store.transaction(work)

    # ------------------------------------------------------------------ changes
    async def create(
        self,
        organiser_id: int,
        who: str,
        name: str,
        rules: Ruleset,
        rounds: int,
        draw: str,
        ranking: str,
        *,
        open_registration: bool = True,
        seed: int | None = None,
        mode: str = "cards",
        absent_delay: int = 300,
        bots: str = "club",
    ) -> str:
        """A new concours; its code (the pages' address). ``mode`` online: played at web tables, where a bot
        plays for a player away ``absent_delay`` seconds, the empty seats' bots of level ``bots``."""
        title = clean_name(name)
        check_keeper_rules(rules)
        if mode not in MODES:
            raise AtoutError(Message("web.online.bad_mode"))
        if not 0 <= absent_delay <= MAX_ABSENT_DELAY:
            raise AtoutError(Message("web.online.bad_delay", most=MAX_ABSENT_DELAY // 60))
        if bots not in BOT_LEVELS:
            raise AtoutError(Message("web.online.bad_bots"))
        if not 1 <= rounds <= MAX_ROUNDS:
            raise _refused("rounds", most=MAX_ROUNDS)
        if draw not in DRAWS:
            raise _refused("bad_draw")
        if ranking not in RANKINGS:
            raise _refused("bad_ranking")
        code = secrets.token_hex(4).upper()
        values = {
            "code": code,
            "name": title,
            "organiser_id": organiser_id,
            "created_at": _now(),
            "rules": rules.to_json(),
            "rounds": rounds,
            "draw": draw,
            "ranking": ranking,
            "seed": seed if seed is not None else random.randrange(1 << 62),
            "status": ConcoursStatus.REGISTERING,
            "open_registration": open_registration,
            "mode": mode,
            "absent_delay": absent_delay,
            "bots": bots,
        }

        async def work(conn: AsyncConnection) -> str:
            found = await conn.execute(insert(schema.concours).values(**values).returning(schema.concours.c.id))
            concours_id = found.scalar_one()
            settings = {k: v for k, v in values.items() if k not in ("created_at", "seed", "organiser_id")}
            await log_change(conn, who, "concours.create", None, settings, concours_id=concours_id)
            return code

        return await self.store.transaction(work)

    async def register(
        self,
        code: str,
        name: str,
        players: Sequence[str],
        who: str,
        *,
        desk: bool,
        accounts: Sequence[int] | None = None,
    ) -> Entrant:
        """A team (or, à la mêlée, a player) registers: at the organiser's desk, or by the link while it is open.
        Online, ``players`` are account names and ``accounts`` their ids (:class:`atout.web.tournament.Tournament`
        finds them); an account plays for one entrant only."""

        async def work(conn: AsyncConnection) -> Entrant:
            board = await self._board(conn, code, lock=True)
            if board is None:
                raise _refused("missing")
            c = board.concours
            if c.status != ConcoursStatus.REGISTERING:
                raise _refused("started")
            if not desk and not c.open_registration:
                raise _refused("closed")
            if len(board.entrants) >= MAX_ENTRANTS:
                raise _refused("full", most=MAX_ENTRANTS)
            title = clean_name(name)
            names = [clean_name(p, "bad_player") for p in players if str(p).strip()]
            if c.melee:
                names = [title]
            elif len(names) > 2:
                raise _refused("players")
            if any(e.name.casefold() == title.casefold() for e in board.entrants if not e.withdrawn):
                raise _refused("taken", name=title)
            ids = list(accounts or [])
            if c.online:
                names = list(players)
                taken = {a for e in board.entrants if not e.withdrawn for a in e.accounts}
                for account, player in zip(ids, names, strict=True):
                    if account in taken:
                        raise AtoutError(Message("web.online.account_taken", name=player))
            number = max((e.number for e in board.entrants), default=0) + 1
            found = await conn.execute(
                insert(schema.entrants)
                .values(
                    concours_id=c.id,
                    number=number,
                    name=title,
                    players=names,
                    created_at=_now(),
                    accounts=ids if c.online else None,
                )
                .returning(schema.entrants.c.id)
            )
            entrant = Entrant(found.scalar_one(), number, title, names, False, ids if c.online else [])
            await log_change(
                conn,
                who,
                "entrant.register",
                None,
                {"number": number, "name": title, "players": names},
                concours_id=c.id,
            )
            return entrant

        return await self._write(code, work)

    async def withdraw(self, code: str, number: int, who: str) -> None:
        """An entrant leaves: he is drawn no more (his past tables keep counting)."""

        async def work(conn: AsyncConnection) -> None:
            board = await self._board(conn, code, lock=True)
            if board is None:
                raise _refused("missing")
            entrant = next((e for e in board.entrants if e.number == number and not e.withdrawn), None)
            if entrant is None:
                raise _refused("no_entrant", number=number)
            await conn.execute(update(schema.entrants).where(schema.entrants.c.id == entrant.id).values(withdrawn=True))
            await log_change(
                conn,
                who,
                "entrant.withdraw",
                {"number": number, "name": entrant.name},
                None,
                concours_id=board.concours.id,
            )

        await self._write(code, work)

    async def set_registration(self, code: str, open_: bool, who: str) -> None:
        async def work(conn: AsyncConnection) -> None:
            board = await self._board(conn, code, lock=True)
            if board is None:
                raise _refused("missing")
            c = board.concours
            await conn.execute(
                update(schema.concours).where(schema.concours.c.id == c.id).values(open_registration=open_)
            )
            await log_change(conn, who, "concours.registration", c.open_registration, open_, concours_id=c.id)

        await self._write(code, work)

    async def set_paused(self, code: str, paused: bool, who: str) -> Concours:
        """An online concours's round paused (its tables wait) or going on; the concours as it is now."""

        async def work(conn: AsyncConnection) -> Concours:
            board = await self._board(conn, code, lock=True)
            if board is None:
                raise _refused("missing")
            c = board.concours
            await conn.execute(update(schema.concours).where(schema.concours.c.id == c.id).values(paused=paused))
            await log_change(conn, who, "online.pause", c.paused, paused, concours_id=c.id)
            return replace(c, paused=paused)

        return await self._write(code, work)

    async def log(self, concours_id: int, who: str, what: str, before: Any, after: Any) -> None:
        """Write one change of the concours to its log (a change made elsewhere: a table's seat)."""

        async def work(conn: AsyncConnection) -> None:
            await log_change(conn, who, what, before, after, concours_id=concours_id)

        await self.store.transaction(work)

    async def draw(self, code: str, who: str) -> int:
        """Draw the next round's tables (every table of the round before confirmed); the round's number."""

        async def work(conn: AsyncConnection) -> int:
            board = await self._board(conn, code, lock=True)
            if board is None:
                raise _refused("missing")
            c = board.concours
            if c.round_no >= c.rounds:
                raise _refused("last_round", rounds=c.rounds)
            if c.round_no and not board.round_complete:
                waiting = [str(t.table_no) for t in board.round(c.round_no) if not t.confirmed]
                raise _refused("waiting", tables=", ".join(waiting))
            active = [e for e in board.entrants if not e.withdrawn]
            least = 4 if c.melee else 2
            if len(active) < least:
                raise _refused("too_few", least=least)
            number = c.round_no + 1
            drawn = self._drawn(board, active, number)
            await self._write_round(conn, board, drawn, number)
            await conn.execute(
                update(schema.concours)
                .where(schema.concours.c.id == c.id)
                .values(round_no=number, status=ConcoursStatus.PLAYING)
            )
            tables = [[list(a), list(b)] for a, b in drawn.tables]
            byes = [list(s) for s in drawn.byes]
            await log_change(
                conn, who, "round.draw", None, {"round": number, "tables": tables, "byes": byes}, concours_id=c.id
            )
            return number

        return await self._write(code, work)

    # ---------------------------------------------------------------- internals
    async def _write(self, code: str, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run a change to the concours ``code`` alone (see :mod:`atout.web.locks`); a write that collided with
        another server's is refused, to be made again."""
        try:
            async with self._locks(code.upper()):
                return await self.store.transaction(work)
        except IntegrityError:
            raise _refused("conflict") from None

    @staticmethod
    def _drawn(board: Board, active: list[Entrant], number: int) -> Round:
        c = board.concours
        played = [
            Result(t.round_no, (tuple(t.sides[0]), tuple(t.sides[1])), t.totals)
            for t in board.tables
            if t.status != SheetStatus.BYE
        ]
        met = met_pairs(played)
        had_bye = bye_takers([Bye(t.round_no, tuple(t.sides[0])) for t in board.tables if t.status == SheetStatus.BYE])
        seed = random.Random(f"{c.seed}:{number}").getrandbits(62)
        ids = [e.id for e in active]
        if c.melee:
            return draw_melee(ids, partner_pairs(played), met, seed, had_bye)
        if c.draw == "swiss" and number > 1:
            ranked = [s.entrant for s in board.standings() if s.entrant in set(ids)]
            return draw_swiss(ranked, met, seed, had_bye)
        return draw_random(ids, met, seed, had_bye)

    @staticmethod
    async def _write_round(conn: AsyncConnection, board: Board, drawn: Round, number: int) -> None:
        c = board.concours

        def name(side: Side) -> str:
            return " & ".join(board.entrant(i).name for i in side)

        for table_no, (a, b) in enumerate(drawn.tables, start=1):
            await insert_sheet(
                conn,
                c.rules,
                [name(a), name(b)],
                concours_id=c.id,
                round_no=number,
                table_no=table_no,
                entrants=[list(a), list(b)],
            )
        for offset, side in enumerate(drawn.byes, start=len(drawn.tables) + 1):
            await insert_sheet(
                conn,
                c.rules,
                [name(side), "—"],
                SheetStatus.BYE,
                concours_id=c.id,
                round_no=number,
                table_no=offset,
                entrants=[list(side), []],
            )

    @staticmethod
    async def _board(conn: AsyncConnection, code: str, *, lock: bool = False) -> Board | None:
        query = select(schema.concours).where(schema.concours.c.code == code.upper()[:16])
        row = (await conn.execute(query.with_for_update() if lock else query)).first()
        if row is None:
            return None
        concours = _concours(row)
        entrants = [
            Entrant(r.id, r.number, r.name, list(r.players), r.withdrawn, list(r.accounts or []))
            for r in await conn.execute(
                select(schema.entrants)
                .where(schema.entrants.c.concours_id == concours.id)
                .order_by(schema.entrants.c.number)
            )
        ]
        sheets = (
            await conn.execute(
                select(schema.sheets)
                .where(schema.sheets.c.concours_id == concours.id)
                .order_by(schema.sheets.c.round_no, schema.sheets.c.table_no)
            )
        ).all()
        games = await _games(conn, row.rules, sheets)
        tables = [
            TableSheet(
                s.round_no,
                s.table_no,
                s.token,
                [list(x) for x in s.entrants],
                list(s.names),
                SheetStatus(s.status),
                *games[s.id],
            )
            for s in sheets
        ]
        return Board(concours, entrants, tables)


def _concours(row: Any) -> Concours:
    return Concours(
        id=row.id,
        code=row.code,
        name=row.name,
        organiser_id=row.organiser_id,
        rules=ruleset_of(row.rules),
        rounds=row.rounds,
        draw=row.draw,
        ranking=row.ranking,
        seed=row.seed,
        status=ConcoursStatus(row.status),
        round_no=row.round_no,
        open_registration=row.open_registration,
        created_at=_aware(row.created_at),
        mode=row.mode,
        absent_delay=row.absent_delay,
        bots=row.bots,
        paused=bool(row.paused),
    )


__all__ = [
    "BOT_LEVELS",
    "DRAWS",
    "MODES",
    "RANKINGS",
    "Board",
    "Concours",
    "ConcoursService",
    "ConcoursStatus",
    "Entrant",
    "TableSheet",
]
