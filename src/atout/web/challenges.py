"""Duplicate challenges (« défis »): a series of deals every participant plays alone with bots, ranked by
match points.

A challenge holds a ruleset, a number of deals, a secret seed and a first dealer. A participant (a signed-in
account) plays it once, when he likes, at a table of his own: he sits South, bots of the challenge's level
at the other seats; the table's match is dealt from the challenge's seed, every deal shuffled from it alone
(:class:`~atout.web.game.TableGame` with ``fixed_deals``), so every participant gets the same cards in the
same seat and the same dealer, whatever anyone plays; the bots' choices are seeded by the deal and the
position (:func:`atout.web.actor._bot_seed`), so the same play meets the same replies. His score on each
deal (his side's points minus the best other side's) is recorded as the deal ends (:meth:`deal_over`), so
closing the tab loses nothing: the table waits for him, and « Reprendre » brings him back to it.

Nobody sees a deal before playing it: the deals exist only in the table's match (its seed never leaves the
server), a challenge's table cannot be watched, and its finished game stays out of the games' list and
their pages until its viewer has finished the challenge (or it has closed). Nobody plays it twice: one
table per account and challenge. The field's results (the ranking, and how everyone played each deal) are
shown to those who finished, and to everyone once the challenge has closed.

A server creates a daily challenge by itself (:meth:`ChallengeService.run_daily`): one per day of the
server's local time, open until the next midnight, created once even by several servers (the day is unique).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from atout.auction import Contract
from atout.competitions.duplicate import ChallengeStanding, challenge_standings, percentages
from atout.errors import AtoutError
from atout.i18n import Message
from atout.match import Match
from atout.notation import seat_letters
from atout.rules import PRESETS, Ruleset
from atout.web import schema
from atout.web.actor import TableActor
from atout.web.locks import KeyedLocks
from atout.web.service import TableService
from atout.web.states import SeatKind
from atout.web.store import GameRow, SeatRow, Store
from atout.web.tokens import account_player

log = logging.getLogger("atout.web")

#: The limits of a challenge an organiser creates: its deals and how long it stays open (hours).
DEALS_RANGE = (1, 32)
HOURS_RANGE = (1, 24 * 14)
#: Challenges listed on their page besides the open ones: the last closed.
CLOSED_LISTED = 20
#: The bots of every challenge: the club player's rules choose the same move in the same position, so the same
#: play meets the same replies (the beginner's chance and the expert's search bounded in time would not).
CHALLENGE_BOTS = "club"
#: The code's alphabet (no 0/O, 1/I/L): read aloud or typed from a poster.
_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def _refused(key: str, **values: object) -> AtoutError:
    return AtoutError(Message(f"web.challenge.error.{key}", **values))


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(when: datetime) -> datetime:
    """SQLite keeps no time zone: its times are all UTC."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def challenge_rules(preset: str, deals: int) -> Ruleset:
    """The ruleset of a challenge: the preset's, ``deals`` deals, each one shuffled (never dealt from the last
    deal's cards: every participant must get the same ones)."""
    if preset not in PRESETS:
        raise _refused("preset")
    if not DEALS_RANGE[0] <= deals <= DEALS_RANGE[1]:
        raise _refused("deals", low=DEALS_RANGE[0], high=DEALS_RANGE[1])
    return Ruleset.preset(preset, target=0, deals=deals, traditional_deal=False, redeal="shuffle")


@dataclass(frozen=True)
class Challenge:
    id: int
    code: str
    name: str
    rules: Ruleset
    deals: int
    seed: int
    first_dealer: int
    bots: str
    created_at: datetime
    closes_at: datetime
    #: A daily challenge's day (ISO date), None for one an organiser created.
    day: str | None

    @property
    def daily_date(self) -> date | None:
        """A daily challenge's day."""
        return date.fromisoformat(self.day) if self.day else None

    def open(self, now: datetime | None = None) -> bool:
        return (now or _now()) < self.closes_at

    @property
    def seat(self) -> int:
        """The participant's seat: South."""
        return seat_letters(self.rules).index("S")


@dataclass(frozen=True)
class Entry:
    """A participant's play of a challenge: his table, and how far he is."""

    id: int
    account_id: int
    name: str
    table_code: str
    started_at: datetime
    finished_at: datetime | None
    #: Deals recorded so far.
    played: int

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True)
class PlayedDeal:
    """One participant's result on one deal: his score (his side's points minus the best other side's), his
    side's points, and the contract (None: passed out) with whether his side took it."""

    entry_id: int
    name: str
    deal_no: int
    score: int
    points: int
    contract: Contract | None
    ours: bool


@dataclass(frozen=True)
class FieldLine:
    """How the field played a deal: one contract (None: passed out) taken by one side, how many reached it,
    their mean score and mean match points (percent)."""

    contract: Contract | None
    ours: bool
    count: int
    mean_score: float
    mean_percent: float
    mine: bool


@dataclass(frozen=True)
class Results:
    """A challenge's results: the ranking and, deal by deal, how the field played it."""

    standings: list[ChallengeStanding[int]]
    names: dict[int, str]
    #: Deal number → the field's lines, most frequent first.
    field: dict[int, list[FieldLine]]
    #: Deal number → the viewer's own result, if he played it.
    mine: dict[int, PlayedDeal]
    #: Those who started and have not finished (ranked once they have): name and deals played.
    unfinished: list[tuple[str, int]]


class ChallengeService:
    """Creates challenges, seats their participants, records their deals as played, and ranks them.

    It listens to every table (:class:`~atout.web.actor.TableListener`) and acts on a challenge's."""

    def __init__(self, store: Store, tables: TableService, rng: random.Random | None = None) -> None:
        self.store = store
        self.tables = tables
        self.rng = rng or random.SystemRandom()
        self._locks = KeyedLocks()

    # ------------------------------------------------------------- creating
    async def create(
        self,
        name: str,
        preset: str,
        deals: int,
        closes_at: datetime,
        created_by: int | None = None,
        day: str | None = None,
    ) -> Challenge:
        """A new challenge, open until ``closes_at``; its seed is drawn at random and never shown."""
        rules = challenge_rules(preset, deals)
        name = " ".join(name.split())[:80]
        if not name:
            raise _refused("name")

        async def work(conn: AsyncConnection) -> int:
            values = dict(
                code=_new_code(),
                name=name,
                rules=rules.to_json(),
                deals=deals,
                seed=self.rng.randrange(1 << 62),
                first_dealer=self.rng.randrange(rules.players),
                bots=CHALLENGE_BOTS,
                created_at=_now(),
                closes_at=closes_at,
                day=day,
                created_by=created_by,
            )
            result = await conn.execute(insert(schema.challenges).values(**values))
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

        challenge_id = await self.store.transaction(work)
        found = await self._one(schema.challenges.c.id == challenge_id)
        assert found is not None
        return found

    async def ensure_daily(self, today: date, preset: str, deals: int) -> Challenge:
        """Today's daily challenge, created if it does not exist yet (by this server or another)."""
        day = today.isoformat()
        found = await self._one(schema.challenges.c.day == day)
        if found is not None:
            return found
        closes = datetime.combine(today + timedelta(days=1), time()).astimezone()  # the next local midnight
        name = day  # the pages call it « Défi du jour » in the visitor's language
        try:
            return await self.create(name, preset, deals, closes.astimezone(UTC), day=day)
        except IntegrityError:  # another server created it first
            found = await self._one(schema.challenges.c.day == day)
            assert found is not None
            return found

    async def run_daily(self, preset: str, deals: int) -> None:
        """Create each day's challenge after each local midnight (and at least every hour, should the clock
        move), until cancelled; the server creates the first one at start (:meth:`ensure_daily`)."""
        while True:
            now = datetime.now().astimezone()
            midnight = datetime.combine(now.date() + timedelta(days=1), time()).astimezone()
            await asyncio.sleep(min(3600.0, (midnight - now).total_seconds() + 5))
            try:
                await self.ensure_daily(datetime.now().date(), preset, deals)
            except Exception:  # the database may be down: the next hour tries again
                log.exception("the daily challenge could not be created")

    # -------------------------------------------------------------- reading
    async def get(self, code: str) -> Challenge | None:
        return await self._one(schema.challenges.c.code == code.upper())

    async def listing(self, now: datetime | None = None) -> tuple[list[Challenge], list[Challenge]]:
        """The open challenges (closing first), and the last ones closed."""
        now = now or _now()
        c = schema.challenges.c

        async def work(conn: AsyncConnection) -> tuple[list[Challenge], list[Challenge]]:
            opened = await conn.execute(select(schema.challenges).where(c.closes_at > now).order_by(c.closes_at))
            closed = await conn.execute(
                select(schema.challenges).where(c.closes_at <= now).order_by(c.closes_at.desc()).limit(CLOSED_LISTED)
            )
            return [_challenge(r._mapping) for r in opened], [_challenge(r._mapping) for r in closed]

        return await self.store.transaction(work)

    async def entry(self, challenge: Challenge, account_id: int) -> Entry | None:
        found = await self._entries(challenge.id, account_id)
        return found[0] if found else None

    async def entries(self, challenge: Challenge) -> list[Entry]:
        return await self._entries(challenge.id)

    async def participants(self, challenge_ids: Sequence[int]) -> dict[int, int]:
        """How many have started each challenge."""
        e = schema.challenge_entries.c

        async def work(conn: AsyncConnection) -> dict[int, int]:
            query = select(e.challenge_id, func.count()).where(e.challenge_id.in_(challenge_ids))
            rows = await conn.execute(query.group_by(e.challenge_id))
            return {int(cid): int(n) for cid, n in rows}

        return await self.store.transaction(work) if challenge_ids else {}

    async def mine(self, account_id: int) -> dict[int, Entry]:
        """An account's entries, by challenge id."""
        return {e.challenge_id: e.entry for e in await self._entries_of(account_id)}

    async def may_see(self, challenge_id: int, account_id: int | None) -> bool:
        """Whether a viewer may see a challenge's deals and results: once it has closed, or once he finished it."""
        found = await self._one(schema.challenges.c.id == challenge_id)
        if found is None:
            return False
        if not found.open():
            return True
        if account_id is None:
            return False
        entry = await self.entry(found, account_id)
        return entry is not None and entry.finished

    async def hides(self, game: GameRow, account_id: int | None) -> bool:
        """Whether a finished game must stay hidden from a viewer: a challenge's, while it is open and he has not
        finished it."""
        return game.challenge_id is not None and not await self.may_see(game.challenge_id, account_id)

    async def code_of(self, challenge_id: int) -> str | None:
        found = await self._one(schema.challenges.c.id == challenge_id)
        return found.code if found is not None else None

    async def game_of(self, entry: Entry) -> int | None:
        """The finished game an entry's table keeps (its replay and each deal's analysis), if finished."""
        return await self.store.game_of_table(entry.table_code)

    async def results(self, challenge: Challenge, viewer: int | None = None) -> Results:
        """The ranking of those who finished (each deal compared among them) and the field's view of each deal;
        ``viewer``'s own lines marked. A participant is ranked once he has finished: stopping after a good deal
        ranks nobody."""
        entries = await self.entries(challenge)
        finished = {e.id for e in entries if e.finished}
        played = [p for p in await self._played(challenge) if p.entry_id in finished]
        by_deal: dict[int, dict[int, int]] = {}
        for p in played:
            by_deal.setdefault(p.deal_no, {})[p.entry_id] = p.score
        standings = challenge_standings(by_deal)
        names = {p.entry_id: p.name for p in played}
        viewer_entry = next((e.id for e in entries if e.account_id == viewer), None)
        mine = {p.deal_no: p for p in played if p.entry_id == viewer_entry}
        field: dict[int, list[FieldLine]] = {}
        for deal_no, scores in sorted(by_deal.items()):
            percent = percentages(scores)
            groups: dict[tuple[Any, ...], list[PlayedDeal]] = {}
            for p in played:
                if p.deal_no == deal_no:
                    groups.setdefault((_contract_key(p.contract), p.ours), []).append(p)
            lines = [
                FieldLine(
                    contract=group[0].contract,
                    ours=group[0].ours,
                    count=len(group),
                    mean_score=sum(p.score for p in group) / len(group),
                    mean_percent=sum(percent[p.entry_id] for p in group) / len(group),
                    mine=any(p.entry_id == viewer_entry for p in group),
                )
                for group in groups.values()
            ]
            field[deal_no] = sorted(lines, key=lambda line: (-line.count, -line.mean_score))
        unfinished = [(e.name, e.played) for e in entries if not e.finished]
        return Results(standings, names, field, mine, unfinished)

    # -------------------------------------------------------------- playing
    async def play(self, challenge: Challenge, account_id: int, name: str) -> str:
        """The code of the participant's table: his own, created the first time (while the challenge is open),
        the same one after (he resumes where he was; a finished one shows his game). Once the challenge has
        closed, an unfinished table is closed to him too (what he would play there would not count)."""
        async with self._locks(f"{challenge.id}:{account_id}"):
            entry = await self.entry(challenge, account_id)
            if entry is not None and not entry.finished and not challenge.open():
                raise _refused("closed")
            if entry is None:
                if not challenge.open():
                    raise _refused("closed")
                code = self.tables.new_code()

                async def work(conn: AsyncConnection) -> None:
                    values = dict(challenge_id=challenge.id, account_id=account_id, table_code=code, started_at=_now())
                    await conn.execute(insert(schema.challenge_entries).values(**values))

                with suppress(IntegrityError):  # another server entered him first: his table is that one
                    await self.store.transaction(work)
                entry = await self.entry(challenge, account_id)
                assert entry is not None
            if await self.store.table(entry.table_code) is None:  # the entry comes first, then its table
                await self._seat(challenge, entry, name)
            return entry.table_code

    async def _seat(self, challenge: Challenge, entry: Entry, name: str) -> None:
        player = account_player(entry.account_id)
        seats = [SeatRow(s, SeatKind.BOT, challenge.bots, None) for s in range(challenge.rules.players)]
        seats[challenge.seat] = SeatRow(challenge.seat, SeatKind.HUMAN, name, player)
        with suppress(IntegrityError):  # another server created it meanwhile
            await self.tables.create_seated(
                challenge.rules,
                challenge.bots,
                seats,
                player,
                match_seed=challenge.seed,
                first_dealer=challenge.first_dealer,
                code=entry.table_code,
                challenge_id=challenge.id,
                fixed_deals=challenge.deals,
            )

    # ----------------------------------------------------- TableListener
    async def deal_over(self, actor: TableActor) -> None:
        if actor.row.challenge_id is not None:  # the last deal's end finishes the challenge (its game saved next)
            await self._record(actor, finished=actor.game is not None and actor.game.finished)

    async def game_saved(self, actor: TableActor, game_id: int) -> None:
        if actor.row.challenge_id is not None:
            await self._record(actor, finished=True)

    async def _record(self, actor: TableActor, finished: bool) -> None:
        """Record every deal of the table's match not recorded yet (each write may come again: idempotent)."""
        game = actor.game
        assert game is not None
        side = actor.rules.side_of(seat_letters(actor.rules).index("S"))
        rows = [
            dict(deal_no=deal_no, score=score, points=points, contract=_contract_data(contract))
            for deal_no, (score, points, contract) in enumerate(deal_results(game.match, side))
        ]
        e, r, c = schema.challenge_entries.c, schema.challenge_results.c, schema.challenges.c

        async def work(conn: AsyncConnection) -> None:
            query = select(e.id, c.closes_at).join(schema.challenges, c.id == e.challenge_id)
            found = (await conn.execute(query.where(e.table_code == actor.code))).first()
            if found is None or _now() >= _aware(found.closes_at):
                return  # what is played after the close does not count
            entry_id = found.id
            known = set((await conn.execute(select(r.deal_no).where(r.entry_id == entry_id))).scalars())
            new = [dict(entry_id=entry_id, played_at=_now(), **row) for row in rows if row["deal_no"] not in known]
            if new:
                await conn.execute(insert(schema.challenge_results), new)
            if finished:
                stmt = update(schema.challenge_entries).where(e.id == entry_id, e.finished_at.is_(None))
                await conn.execute(stmt.values(finished_at=_now()))

        await self.store.transaction(work)

    # ---------------------------------------------------------------- store
    async def _one(self, where: Any) -> Challenge | None:
        async def work(conn: AsyncConnection) -> Challenge | None:
            row = (await conn.execute(select(schema.challenges).where(where))).first()
            return _challenge(row._mapping) if row else None

        return await self.store.transaction(work)

    async def _entries(self, challenge_id: int, account_id: int | None = None) -> list[Entry]:
        e = schema.challenge_entries.c
        where = [e.challenge_id == challenge_id] + ([e.account_id == account_id] if account_id is not None else [])
        return [found.entry for found in await self._entry_rows(*where)]

    async def _entries_of(self, account_id: int) -> list[_EntryOf]:
        return await self._entry_rows(schema.challenge_entries.c.account_id == account_id)

    async def _entry_rows(self, *where: Any) -> list[_EntryOf]:
        e, a, r = schema.challenge_entries.c, schema.accounts.c, schema.challenge_results.c
        played = select(func.count()).where(r.entry_id == e.id).scalar_subquery()
        query = (
            select(e.id, e.challenge_id, e.account_id, a.name, e.table_code, e.started_at, e.finished_at, played)
            .join(schema.accounts, a.id == e.account_id)
            .where(*where)
            .order_by(e.id)
        )

        async def work(conn: AsyncConnection) -> list[_EntryOf]:
            rows = await conn.execute(query)
            return [
                _EntryOf(
                    int(row[1]),
                    Entry(
                        id=int(row[0]),
                        account_id=int(row[2]),
                        name=str(row[3]),
                        table_code=str(row[4]),
                        started_at=_aware(row[5]),
                        finished_at=_aware(row[6]) if row[6] is not None else None,
                        played=int(row[7]),
                    ),
                )
                for row in rows
            ]

        return await self.store.transaction(work)

    async def _played(self, challenge: Challenge) -> list[PlayedDeal]:
        e, a, r = schema.challenge_entries.c, schema.accounts.c, schema.challenge_results.c
        query = (
            select(r.entry_id, a.name, r.deal_no, r.score, r.points, r.contract)
            .join(schema.challenge_entries, e.id == r.entry_id)
            .join(schema.accounts, a.id == e.account_id)
            .where(e.challenge_id == challenge.id)
            .order_by(r.deal_no, r.entry_id)
        )
        side = challenge.rules.side_of(challenge.seat)

        async def work(conn: AsyncConnection) -> list[PlayedDeal]:
            rows = await conn.execute(query)
            found = []
            for entry_id, name, deal_no, score, points, data in rows:
                contract = Contract(**data) if data else None
                ours = contract is not None and challenge.rules.side_of(contract.taker) == side
                found.append(PlayedDeal(entry_id, name, deal_no, score, points, contract, ours))
            return found

        return await self.store.transaction(work)


@dataclass(frozen=True)
class _EntryOf:
    challenge_id: int
    entry: Entry


def _challenge(row: Any) -> Challenge:
    return Challenge(
        id=int(row["id"]),
        code=str(row["code"]),
        name=str(row["name"]),
        rules=Ruleset.from_json(row["rules"]),
        deals=int(row["deals"]),
        seed=int(row["seed"]),
        first_dealer=int(row["first_dealer"]),
        bots=str(row["bots"]),
        created_at=_aware(row["created_at"]),
        closes_at=_aware(row["closes_at"]),
        day=row["day"],
    )


def deal_results(match: Match, side: int) -> list[tuple[int, int, Contract | None]]:
    """Each deal's result for ``side``: its score (its points on the deal minus the best other side's), its points,
    and the contract (None: passed out). A deal's own points: a litige's points held for the next contract are
    the litige deal's, not the next deal's (every participant is compared on the deal itself).

    >>> from atout.scoring import DealFacts
    >>> rules = Ruleset.preset("coinche", target=0, deals=2)
    >>> match = Match(rules, seed=1)
    >>> _ = match.add_facts(DealFacts.from_takers_points(rules, Contract(80, 1, 0), 81))  # a litige: 81 each
    >>> _ = match.add_facts(DealFacts.from_takers_points(rules, Contract(80, 2, 1), 100))
    >>> [e.marks for e in match.entries]  # the second deal's marks carry the litige's 80 held
    [{0: 0, 1: 80}, {0: 60, 1: 260}]
    >>> [(score, points) for score, points, _ in deal_results(match, 1)]
    [(80, 80), (120, 180)]
    """
    results = []
    for entry in match.entries:
        marks = dict(entry.score.marks) if entry.score is not None else {s: 0 for s in match.rules.sides}
        others = [points for s, points in marks.items() if s != side]
        contract = entry.facts.contract if entry.facts is not None else None
        results.append((marks[side] - max(others, default=0), marks[side], contract))
    return results


def _contract_data(contract: Contract | None) -> dict[str, Any] | None:
    if contract is None:
        return None
    return dict(
        value=contract.value, strain=contract.strain, taker=contract.taker, level=contract.level, capot=contract.capot
    )


def _contract_key(contract: Contract | None) -> tuple[Any, ...]:
    if contract is None:
        return ()
    return (contract.value, contract.strain, contract.level, contract.capot)


def _new_code() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(6))
