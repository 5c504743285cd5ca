"""Score sheets filled on a phone: a concours's table for one round, or a game at home.

A sheet is a ruleset, the two sides' names and the facts of each deal, as the score keeper
(``atout score``) takes them: the marks, the totals and the end of the game are always recomputed
from the facts by the one scoring function, and facts that cannot happen are refused
(:class:`~atout.errors.FactsError`) before anything is written.

At a concours's table the first side to enter a deal keeps the sheet (the *marker*): it enters,
undoes or corrects its deals while the game goes on; once the game is over the other side confirms
the result from another phone, and from then on only the organiser changes it. Every change is
written with who made it, when, and the value before and after (the ``changes`` table), in the same
transaction as the change itself.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from atout.errors import AtoutError
from atout.i18n import Message
from atout.match import Match
from atout.rules import Ruleset
from atout.scoring import DealFacts
from atout.web import schema
from atout.web.locks import KeyedLocks
from atout.web.store import Store


class SheetStatus(StrEnum):
    OPEN = "open"
    #: The game is over; a concours's table waits for the other side's confirmation.
    DONE = "done"
    CONFIRMED = "confirmed"
    #: A concours's side that sits a round out: no deal, nothing to enter.
    BYE = "bye"


@dataclass(frozen=True)
class Actor:
    """Who changes a sheet: a signed-in account or a guest of the link, the side he speaks for at a
    concours's table, his browser (so that a side does not confirm its own entries) and whether he
    organises the concours."""

    name: str
    side: int | None = None
    device: str | None = None
    organiser: bool = False


@dataclass(frozen=True)
class Sheet:
    id: int
    token: str
    rules: Ruleset
    names: list[str]
    status: SheetStatus
    deals: list[DealFacts | None]
    updated_at: datetime
    owner_id: int | None = None
    concours_id: int | None = None
    round_no: int | None = None
    table_no: int | None = None
    #: Each side's entrants (a concours's table).
    entrants: list[list[int]] | None = None
    marker: int | None = None
    marker_device: str | None = None

    @property
    def in_concours(self) -> bool:
        return self.concours_id is not None

    def match(self) -> Match:
        """The game rebuilt from the facts (marks, totals, the winner)."""
        match = Match(self.rules)
        for facts in self.deals:
            match.add_facts(facts, stored=True)
        return match

    @property
    def version(self) -> str:
        """Changes whenever the sheet does (the phones compare it to know when to refresh)."""
        return f"{len(self.deals)}.{self.status}.{self.updated_at.timestamp():.6f}"


@dataclass(frozen=True)
class Change:
    """One change to a concours or a sheet, as the log keeps it."""

    at: datetime
    who: str
    what: str
    before: Any
    after: Any
    sheet_id: int | None = None


def _now() -> datetime:
    return datetime.now(UTC)


def _refused(key: str, **values: object) -> AtoutError:
    return AtoutError(Message(f"web.keeper.{key}", **values))


def _facts_json(facts: DealFacts | None) -> dict[str, Any] | None:
    return None if facts is None else facts.to_dict()


def _sheet(row: Any, deals: Sequence[Any]) -> Sheet:
    return Sheet(
        id=row.id,
        token=row.token,
        rules=Ruleset.from_json(row.rules),
        names=list(row.names),
        status=SheetStatus(row.status),
        deals=[None if d.facts is None else DealFacts.from_dict(d.facts) for d in deals],
        updated_at=row.updated_at if row.updated_at.tzinfo else row.updated_at.replace(tzinfo=UTC),
        owner_id=row.owner_id,
        concours_id=row.concours_id,
        round_no=row.round_no,
        table_no=row.table_no,
        entrants=row.entrants,
        marker=row.marker,
        marker_device=row.marker_device,
    )


def new_token() -> str:
    """A sheet's secret: 128 random bits, in a link and a QR code."""
    return secrets.token_urlsafe(16)


async def load_sheet(conn: AsyncConnection, token: str, *, lock: bool = False) -> Sheet | None:
    """The sheet of ``token`` with its deals (``lock``: held until the transaction ends, on PostgreSQL)."""
    query = select(schema.sheets).where(schema.sheets.c.token == token)
    row = (await conn.execute(query.with_for_update() if lock else query)).first()
    if row is None:
        return None
    deals = (
        await conn.execute(
            select(schema.sheet_deals.c.facts)
            .where(schema.sheet_deals.c.sheet_id == row.id)
            .order_by(schema.sheet_deals.c.number)
        )
    ).all()
    return _sheet(row, deals)


async def insert_sheet(
    conn: AsyncConnection, rules: Ruleset, names: Sequence[str], status: SheetStatus = SheetStatus.OPEN, **more: Any
) -> str:
    """A new sheet (``more``: its owner, or its concours, round, table and entrants); its token."""
    token = new_token()
    now = _now()
    await conn.execute(
        insert(schema.sheets).values(
            token=token, rules=rules.to_json(), names=list(names), created_at=now, updated_at=now, status=status, **more
        )
    )
    return token


async def log_change(
    conn: AsyncConnection,
    who: str,
    what: str,
    before: Any = None,
    after: Any = None,
    *,
    concours_id: int | None = None,
    sheet_id: int | None = None,
) -> None:
    await conn.execute(
        insert(schema.changes).values(
            concours_id=concours_id, sheet_id=sheet_id, at=_now(), who=who[:64], what=what, before=before, after=after
        )
    )


class Sheets:
    """The score sheets kept by the server."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks = KeyedLocks()

    async def create(self, rules: Ruleset, names: Sequence[str], owner_id: int | None = None) -> str:
        """A sheet for a game at home (two sides named, a partnership game); its token."""
        check_keeper_rules(rules)
        clean = side_names(names)

        async def work(conn: AsyncConnection) -> str:
            return await insert_sheet(conn, rules, clean, owner_id=owner_id)

        return await self.store.transaction(work)

    async def get(self, token: str) -> Sheet | None:
        return await self.store.transaction(lambda conn: load_sheet(conn, token))

    async def owned_by(self, owner_id: int) -> list[Sheet]:
        """An account's sheets of games at home, the latest first."""

        async def work(conn: AsyncConnection) -> list[Sheet]:
            rows = (
                await conn.execute(
                    select(schema.sheets.c.token)
                    .where(schema.sheets.c.owner_id == owner_id)
                    .order_by(schema.sheets.c.updated_at.desc())
                    .limit(100)
                )
            ).all()
            found = [await load_sheet(conn, r.token) for r in rows]
            return [s for s in found if s is not None]

        return await self.store.transaction(work)

    # ------------------------------------------------------------------ changes
    async def enter(self, token: str, facts: DealFacts | None, actor: Actor) -> None:
        """Add the next deal's facts (None: thrown in, nobody took)."""

        async def work(conn: AsyncConnection, sheet: Sheet) -> None:
            self._may_write(sheet, actor)
            match = sheet.match()
            if match.finished:
                raise _refused("over")
            match.add_facts(facts)  # refuses impossible facts: nothing written
            number = len(sheet.deals) + 1
            await conn.execute(
                insert(schema.sheet_deals).values(
                    sheet_id=sheet.id, number=number, facts=_facts_json(facts), entered_at=_now()
                )
            )
            values: dict[str, Any] = {"status": SheetStatus.DONE if match.finished else SheetStatus.OPEN}
            if sheet.in_concours and sheet.marker is None and not actor.organiser:
                values |= {"marker": actor.side, "marker_device": actor.device}
            await self._touch(conn, sheet, **values)
            await self._log(conn, sheet, actor, "deal.enter", None, {"deal": number, "facts": _facts_json(facts)})

        await self._change(token, work)

    async def undo(self, token: str, actor: Actor) -> None:
        """Remove the last deal."""

        async def work(conn: AsyncConnection, sheet: Sheet) -> None:
            self._may_write(sheet, actor)
            if sheet.status == SheetStatus.CONFIRMED:  # its game would be unfinished: the organiser corrects
                raise _refused("already_confirmed")
            if not sheet.deals:
                raise _refused("nothing_to_undo")
            number = len(sheet.deals)
            await conn.execute(
                delete(schema.sheet_deals).where(
                    schema.sheet_deals.c.sheet_id == sheet.id, schema.sheet_deals.c.number == number
                )
            )
            await self._touch(conn, sheet, status=SheetStatus.OPEN)  # the game is not over without its last deal
            before = {"deal": number, "facts": _facts_json(sheet.deals[-1])}
            await self._log(conn, sheet, actor, "deal.undo", before, None)

        await self._change(token, work)

    async def correct(self, token: str, number: int, facts: DealFacts | None, actor: Actor) -> None:
        """Replace deal ``number``'s facts (the marker: the last deal while the game goes on; the organiser: any
        deal, even once confirmed). The deals after it must still fit: a game cannot end before its last deal."""

        async def work(conn: AsyncConnection, sheet: Sheet) -> None:
            self._may_write(sheet, actor)
            if not 1 <= number <= len(sheet.deals):
                raise _refused("no_deal", number=number)
            if number != len(sheet.deals) and not actor.organiser:
                raise _refused("only_last")
            deals = [*sheet.deals[: number - 1], facts, *sheet.deals[number:]]
            match = Match(sheet.rules)
            for index, each in enumerate(deals):
                if match.finished:
                    raise _refused("ends_earlier", number=index)
                match.add_facts(each, stored=index != number - 1)
            await conn.execute(
                update(schema.sheet_deals)
                .where(schema.sheet_deals.c.sheet_id == sheet.id, schema.sheet_deals.c.number == number)
                .values(facts=_facts_json(facts), entered_at=_now())
            )
            status = sheet.status
            if status == SheetStatus.CONFIRMED and not match.finished:
                raise _refused("unfinished")  # a confirmed result stays a finished game
            if status != SheetStatus.CONFIRMED:
                status = SheetStatus.DONE if match.finished else SheetStatus.OPEN
            await self._touch(conn, sheet, status=status)
            before = {"deal": number, "facts": _facts_json(sheet.deals[number - 1])}
            await self._log(conn, sheet, actor, "deal.correct", before, {"deal": number, "facts": _facts_json(facts)})

        await self._change(token, work)

    async def confirm(self, token: str, actor: Actor, seen: str | None = None) -> None:
        """The other side (or the organiser) confirms a concours table's finished game, as he saw it (``seen``:
        the sheet's :attr:`~Sheet.version` on his page; a sheet changed since is refused, to be checked again)."""

        async def work(conn: AsyncConnection, sheet: Sheet) -> None:
            if seen is not None and seen != sheet.version:
                raise _refused("changed")
            if not sheet.in_concours:
                raise _refused("no_confirmation")
            if sheet.status == SheetStatus.CONFIRMED:
                raise _refused("already_confirmed")
            if sheet.status != SheetStatus.DONE:
                raise _refused("not_over")
            if not actor.organiser:
                if actor.side is None or actor.side == sheet.marker:
                    raise _refused("other_side", name=sheet.names[1 - (sheet.marker or 0)])
                if actor.device is not None and actor.device == sheet.marker_device:
                    raise _refused("same_phone")
            await self._touch(conn, sheet, status=SheetStatus.CONFIRMED)
            totals = sheet.match().scores
            await self._log(conn, sheet, actor, "sheet.confirm", None, {"totals": [totals[0], totals[1]]})

        await self._change(token, work)

    # ---------------------------------------------------------------- internals
    async def _change(self, token: str, work: Any) -> None:
        async def transaction(conn: AsyncConnection) -> None:
            sheet = await load_sheet(conn, token, lock=True)
            if sheet is None:
                raise _refused("missing")
            await work(conn, sheet)

        try:
            async with self._locks(token):
                await self.store.transaction(transaction)
        except IntegrityError:  # another server's phone wrote the same deal at the same moment
            raise _refused("conflict") from None

    @staticmethod
    def _may_write(sheet: Sheet, actor: Actor) -> None:
        if sheet.status == SheetStatus.BYE:
            raise _refused("bye_no_entry")
        if actor.organiser or not sheet.in_concours:
            return
        if sheet.status == SheetStatus.CONFIRMED:
            raise _refused("already_confirmed")
        if actor.side not in (0, 1):
            raise _refused("no_side")
        if sheet.marker is not None and actor.side != sheet.marker:
            raise _refused("marker", name=sheet.names[sheet.marker])

    @staticmethod
    async def _touch(conn: AsyncConnection, sheet: Sheet, **values: Any) -> None:
        await conn.execute(
            update(schema.sheets).where(schema.sheets.c.id == sheet.id).values(updated_at=_now(), **values)
        )

    @staticmethod
    async def _log(conn: AsyncConnection, sheet: Sheet, actor: Actor, what: str, before: Any, after: Any) -> None:
        await log_change(conn, actor.name, what, before, after, concours_id=sheet.concours_id, sheet_id=sheet.id)


def check_keeper_rules(rules: Ruleset) -> None:
    """The web keeper takes games of two sides that play the whole deck (the four-player variants); the
    terminal's ``atout score`` takes the others."""
    if len(rules.sides) != 2 or not rules.whole_deck:
        raise _refused("partnerships")


def side_names(names: Sequence[str]) -> list[str]:
    """Two sides' names: trimmed, 1 to 40 characters, not alike."""
    clean = [" ".join(str(n).split())[:40] for n in names]
    if len(clean) != 2 or not all(clean):
        raise _refused("names")
    if clean[0].casefold() == clean[1].casefold():
        raise _refused("same_names")
    return clean


__all__ = [
    "Actor",
    "Change",
    "Sheet",
    "SheetStatus",
    "Sheets",
    "check_keeper_rules",
    "insert_sheet",
    "load_sheet",
    "log_change",
    "new_token",
    "side_names",
]
