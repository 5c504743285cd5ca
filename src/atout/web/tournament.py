"""Online tournaments: a concours (:mod:`atout.web.concours`) whose rounds are played at the card room's tables.

An organiser creates a concours in the ``online`` mode, with the delay before a bot plays for an absent player
and the bots' level. Entrants register by their accounts: at the desk by the players' account names, or by the
concours's link, a signed-in player naming his partner's account. Each round is drawn as with real cards (the
same draws, one score sheet per table, a bye's sheet), then :meth:`Tournament.seat_round` creates one web table
per sheet (:meth:`~atout.web.service.TableService.create_seated`): side 0 in seats 0 and 2, side 1 in seats 1
and 3, each player in his own account's seat (:func:`~atout.web.tokens.account_player`), a bot where a side has
no one. A table and its sheet share the concours, round and table number.

A tournament's table plays on with nobody connected: a bot plays for a player away past the concours's delay,
and hands the seat back when he comes. When its match is saved, :meth:`Tournament.game_saved` (a
:class:`~atout.web.actor.TableListener`) writes the deals' facts into the table's sheet and confirms it, once:
the standings, computed from the confirmed sheets, follow by themselves. The organiser pauses and resumes the
round's tables and puts another account or a bot in any seat; each change goes to the concours's log.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from atout.errors import AtoutError
from atout.i18n import Message
from atout.web import schema
from atout.web.accounts import Account, Accounts
from atout.web.actor import Pause, Refused, Reseat, Seat, TableActor, Wake, clean_name
from atout.web.concours import Board, ConcoursService, Entrant, TableSheet
from atout.web.locks import KeyedLocks
from atout.web.service import TableService
from atout.web.sheets import SheetStatus, log_change
from atout.web.states import SeatKind, TableStatus
from atout.web.store import SeatRow
from atout.web.tokens import account_player, player_account

#: Who the log names for a result a table recorded by itself.
TABLE_WHO = "table"


def _refused(key: str, **values: object) -> AtoutError:
    return AtoutError(Message(f"web.online.{key}", **values))


@dataclass(frozen=True)
class SeatState:
    """A seat of an online table as the desk shows it."""

    seat: int
    name: str
    #: The account seated there (None: a bot's seat).
    account: int | None
    connected: bool
    #: A bot plays for the absent player.
    replaced: bool


@dataclass(frozen=True)
class OnlineTable:
    """A round's web table with its sheet: where its game stands."""

    sheet: TableSheet
    code: str
    status: TableStatus
    #: Deals played so far, and the deal in play (1 for the first).
    deals: int
    deal: int
    scores: tuple[int, int]
    seats: list[SeatState]
    paused: bool

    @property
    def playing(self) -> bool:
        return self.status is TableStatus.PLAYING


@dataclass(frozen=True)
class Call:
    """What a player's page of the concours shows him: his entrant, and his table in the round in play."""

    entrant: Entrant | None
    round_no: int
    table_no: int | None = None
    code: str | None = None
    names: tuple[str, str] | None = None
    status: TableStatus | None = None
    bye: bool = False

    def data(self, board: Board) -> dict[str, Any]:
        """As the page's script reads it (``/c/CODE/play.json``)."""
        c = board.concours
        return {
            "code": c.code,
            "round": self.round_no,
            "rounds": c.rounds,
            "registered": self.entrant is not None,
            "entrant": self.entrant.name if self.entrant is not None else None,
            "paused": c.paused,
            "finished": board.finished,
            "bye": self.bye,
            "table": None
            if self.code is None
            else {
                "code": self.code,
                "number": self.table_no,
                "names": list(self.names or ()),
                "status": str(self.status),
            },
        }


class Tournament:
    """The online side of concours: registration by accounts, the rounds' tables, their results, the desk's
    pause and reseating. Registered as a listener of every table (only a tournament's do anything)."""

    def __init__(self, concours: ConcoursService, tables: TableService, accounts: Accounts) -> None:
        self.concours = concours
        self.tables = tables
        self.accounts = accounts
        self._locks = KeyedLocks()

    # --------------------------------------------------------------- registering
    async def register(
        self,
        code: str,
        name: str,
        players: Sequence[str],
        who: str,
        *,
        desk: bool,
        account: Account | None = None,
    ) -> Entrant:
        """Register a team (à la mêlée, a player). Online, ``players`` are account names (at the desk; a seat
        without one is a bot's); by the link, ``account`` is the signed-in player, who registers himself and
        names his partner. With real cards, the concours's own registration."""
        board = await self.concours.board(code)
        if board is None:
            raise AtoutError(Message("web.concours.missing"))
        c = board.concours
        if not c.online:
            return await self.concours.register(code, name, players, who, desk=desk)
        wanted = [" ".join(str(p).split()) for p in players if str(p).strip()]
        if not desk:
            if account is None:
                raise _refused("sign_in")
            wanted = [account.name, *(p for p in wanted if p.casefold() != account.name.casefold())]
        if c.melee:
            wanted = wanted[:1] if not desk else [" ".join(str(name).split())]
        found: list[Account] = []
        for player in wanted:
            known = await self.accounts.named(player) if player else None
            if known is None:
                raise _refused("unknown_account", name=player[:40])
            if any(a.id == known.id for a in found):
                raise _refused("same_account", name=known.name)
            found.append(known)
        title = found[0].name if c.melee else name
        return await self.concours.register(
            code, title, [a.name for a in found], who, desk=desk, accounts=[a.id for a in found]
        )

    # ------------------------------------------------------------------- rounds
    async def draw(self, code: str, who: str) -> int:
        """Draw the next round (:meth:`ConcoursService.draw`) and, online, seat it at its web tables."""
        number = await self.concours.draw(code, who)
        await self.seat_round(code)
        return number

    async def seat_round(self, code: str) -> list[str]:
        """Create the web tables of the round in play that have none yet (after a draw, or again after a server
        stopped in between: a sheet's table is created once) and load the live ones; the codes created."""
        async with self._locks(code.upper()):
            board = await self.concours.board(code)
            if board is None or not board.concours.online or not board.concours.round_no:
                return []
            c = board.concours
            existing = await self._rows(c.id, c.round_no)
            created: list[str] = []
            for sheet in board.round(c.round_no):
                if not sheet.sides[1] or sheet.table_no in existing:
                    continue
                draw = random.Random(f"{c.seed}:{c.round_no}:{sheet.table_no}")
                try:
                    table = await self.tables.create_seated(
                        c.rules,
                        c.bots,
                        self._seats(board, sheet),
                        account_player(c.organiser_id),
                        draw.getrandbits(62),
                        draw.randrange(c.rules.players),
                        concours_id=c.id,
                        round_no=c.round_no,
                        table_no=sheet.table_no,
                        seat_timeout=float(c.absent_delay),
                        paused=c.paused,
                    )
                except IntegrityError:  # another server created it meanwhile
                    continue
                created.append(table)
                existing[sheet.table_no] = (table, TableStatus.PLAYING)
            unwritten = {s.table_no for s in board.round(c.round_no) if s.sides[1] and not s.confirmed}
            for table_no, (table, status) in existing.items():
                actor = await self.tables.actor(table) if status is TableStatus.PLAYING else None
                if actor is not None:  # it plays on, people connected or not: a bot's first move needs no one
                    actor.submit(Wake())
                elif status is TableStatus.FINISHED and table_no in unwritten:  # its result's writing failed
                    await self._write_again(table)
            return created

    async def _write_again(self, code: str) -> None:
        """Write a finished table's result into its sheet, as its end would have (after an error there)."""
        actor = await self.tables.actor(code)
        game = await self.concours.store.game_of_table(code)
        if actor is not None and actor.game is not None and game is not None:
            await self.game_saved(actor, game)

    @staticmethod
    def _seats(board: Board, sheet: TableSheet) -> list[SeatRow]:
        """The table's seats: each side's players by their accounts in its seats (0 and 2, 1 and 3), bots
        where it has fewer."""
        c = board.concours
        sides = len(c.rules.sides)
        seats: list[SeatRow] = []
        for side_no, side in enumerate(sheet.sides):
            people = [
                (account, player)
                for entrant in (board.entrant(i) for i in side)
                for account, player in zip(entrant.accounts, entrant.players, strict=False)
            ]
            places = [s for s in range(c.rules.players) if s % sides == side_no]
            for place, person in zip(places, [*people, *[None] * len(places)], strict=False):
                if person is None:
                    seats.append(SeatRow(place, SeatKind.BOT, c.bots, None))
                else:
                    seats.append(SeatRow(place, SeatKind.HUMAN, clean_name(person[1]), account_player(person[0])))
        return sorted(seats, key=lambda s: s.seat)

    async def _rows(self, concours_id: int, round_no: int) -> dict[int, tuple[str, TableStatus]]:
        """The round's web tables: their code and status by table number."""
        c = schema.tables.c

        async def work(conn: AsyncConnection) -> dict[int, tuple[str, TableStatus]]:
            rows = await conn.execute(
                select(c.table_no, c.code, c.status).where(c.concours_id == concours_id, c.round_no == round_no)
            )
            return {r.table_no: (str(r.code), TableStatus(r.status)) for r in rows}

        return await self.concours.store.transaction(work)

    async def round_tables(self, board: Board) -> list[OnlineTable]:
        """The round in play's tables, each with where its game stands (from its live table, else its sheet)."""
        c = board.concours
        rows = await self._rows(c.id, c.round_no) if c.round_no else {}
        out: list[OnlineTable] = []
        for sheet in board.round(c.round_no):
            if sheet.table_no not in rows:
                continue
            code, status = rows[sheet.table_no]
            actor = self.tables.actors.get(code)
            if actor is not None and actor.game is not None:
                match = actor.game.match
                deals = len(match.entries)
                scores = (match.scores.get(0, 0), match.scores.get(1, 0))
                seats = [
                    SeatState(
                        s.seat,
                        s.name,
                        player_account(s.player),
                        s.kind is SeatKind.HUMAN and s.away_since is None,
                        s.replaced,
                    )
                    for s in actor.seats
                ]
                out.append(
                    OnlineTable(
                        sheet,
                        code,
                        actor.status,
                        deals,
                        actor.game.deal_no + 1,
                        scores,
                        seats,
                        actor.row.paused,
                    )
                )
            else:  # finished: its sheet has the result
                seated = await self._stored_seats(code)
                out.append(OnlineTable(sheet, code, status, sheet.deals, sheet.deals, sheet.totals, seated, False))
        return out

    async def _stored_seats(self, code: str) -> list[SeatState]:
        row = await self.tables.store.table(code)
        if row is None:
            return []
        return [
            SeatState(s.seat, s.name, player_account(s.player), False, False)
            for s in await self.tables.store.seats(row.id)
        ]

    async def call(self, board: Board, account_id: int) -> Call:
        """A player's call: his entrant, and his seat in the round in play (a reseated player's new one)."""
        c = board.concours
        entrant = next((e for e in board.entrants if account_id in e.accounts and not e.withdrawn), None)
        if not c.round_no:
            return Call(entrant, 0)
        t, s = schema.tables.c, schema.seats.c

        async def work(conn: AsyncConnection) -> tuple[int, str, str] | None:
            found = await conn.execute(
                select(t.table_no, t.code, t.status)
                .join(schema.seats, s.table_id == t.id)
                .where(t.concours_id == c.id, t.round_no == c.round_no, s.player == account_player(account_id))
                .order_by(t.table_no)
            )
            row = found.first()
            return None if row is None else (int(row.table_no), str(row.code), str(row.status))

        seated = await self.concours.store.transaction(work)
        sheets = board.round(c.round_no)
        if seated is not None:
            number, code, status = seated
            sheet = next((x for x in sheets if x.table_no == number), None)
            names = (sheet.names[0], sheet.names[1]) if sheet is not None else None
            return Call(entrant, c.round_no, number, code, names, TableStatus(status))
        bye = entrant is not None and any(not x.sides[1] and entrant.id in x.sides[0] for x in sheets)
        return Call(entrant, c.round_no, bye=bye)

    # ------------------------------------------------------------ the organiser
    async def pause(self, code: str, paused: bool, who: str) -> None:
        """Pause the round's tables (nobody plays, no clock runs), or let them go on."""
        concours = await self.concours.set_paused(code, paused, who)
        rows = await self._rows(concours.id, concours.round_no) if concours.round_no else {}
        for table, status in rows.values():
            if status is not TableStatus.PLAYING:
                continue
            actor = await self.tables.actor(table)
            if actor is not None:
                await _ask(actor, lambda reply: Pause(paused, reply))

    async def reseat(self, code: str, table_no: int, seat: int, name: str, who: str) -> None:
        """Put another account (by its name) or, with no name, a bot in a seat of a table of the round in play."""
        board = await self.concours.board(code)
        if board is None:
            raise AtoutError(Message("web.concours.missing"))
        c = board.concours
        rows = await self._rows(c.id, c.round_no) if c.online and c.round_no else {}
        if table_no not in rows:
            raise _refused("no_table", number=table_no)
        table, status = rows[table_no]
        actor = await self.tables.actor(table)
        if actor is None or status is not TableStatus.PLAYING or actor.status is not TableStatus.PLAYING:
            raise _refused("table_over", number=table_no)
        if not 0 <= seat < len(actor.seats):
            raise AtoutError(Message("web.error.no_such_seat"))
        player: str | None = None
        shown = ""
        wanted = " ".join(name.split())
        if wanted:
            account = await self.accounts.named(wanted)
            if account is None:
                raise _refused("unknown_account", name=wanted[:40])
            player, shown = account_player(account.id), account.name
            if any(s.player == player and s.seat != seat for s in actor.seats):
                raise _refused("seated_there", name=account.name, number=table_no)
        before = actor.seats[seat]
        try:
            await _ask(actor, lambda reply: Reseat(seat, shown, player, reply))
        except Refused as refusal:
            raise AtoutError(Message(refusal.key, **refusal.values)) from None
        await self._log_reseat(c.id, who, table_no, seat, before, actor.seats[seat])
        if player is None:
            return
        for other_no, (other, other_status) in rows.items():  # moved here: his seat elsewhere goes to a bot
            elsewhere = await self.tables.actor(other) if other_no != table_no else None
            if elsewhere is None or other_status is not TableStatus.PLAYING:
                continue
            for left in [s for s in elsewhere.seats if s.player == player]:
                await _ask(elsewhere, partial(Reseat, left.seat, "", None))
                await self._log_reseat(c.id, who, other_no, left.seat, left, elsewhere.seats[left.seat])

    async def _log_reseat(
        self, concours_id: int, who: str, table_no: int, seat: int, before: Seat, after: Seat
    ) -> None:
        await self.concours.log(
            concours_id,
            who,
            "online.reseat",
            {"table": table_no, "seat": seat, "name": before.name, "bot": before.kind is not SeatKind.HUMAN},
            {"table": table_no, "seat": seat, "name": after.name, "bot": after.kind is not SeatKind.HUMAN},
        )

    # -------------------------------------------------------------- a listener
    async def deal_over(self, actor: TableActor) -> None:
        """Nothing to do at a deal's end: the desk reads the live table, the sheet takes the finished game."""

    async def game_saved(self, actor: TableActor, game_id: int) -> None:
        """A tournament's table finished its game: its deals' facts go into its sheet, confirmed, once (a call
        again for the same game finds the sheet confirmed and writes nothing)."""
        row, game = actor.row, actor.game
        if row.concours_id is None or game is None:
            return
        facts = [None if e.facts is None else e.facts.to_dict() for e in game.match.entries]
        totals = [game.match.scores.get(0, 0), game.match.scores.get(1, 0)]
        sheets = schema.sheets.c

        async def work(conn: AsyncConnection) -> None:
            query = select(sheets.id, sheets.status).where(
                sheets.concours_id == row.concours_id, sheets.round_no == row.round_no, sheets.table_no == row.table_no
            )
            sheet = (await conn.execute(query.with_for_update())).first()
            if sheet is None or sheet.status in (SheetStatus.CONFIRMED, SheetStatus.BYE):
                return
            now = datetime.now(UTC)
            await conn.execute(delete(schema.sheet_deals).where(schema.sheet_deals.c.sheet_id == sheet.id))
            if facts:
                await conn.execute(
                    insert(schema.sheet_deals),
                    [
                        {"sheet_id": sheet.id, "number": n, "facts": each, "entered_at": now}
                        for n, each in enumerate(facts, start=1)
                    ],
                )
            await conn.execute(
                update(schema.sheets).where(sheets.id == sheet.id).values(status=SheetStatus.CONFIRMED, updated_at=now)
            )
            after = {"totals": totals, "table": row.code, "game": game_id}
            await log_change(
                conn, TABLE_WHO, "online.result", None, after, concours_id=row.concours_id, sheet_id=sheet.id
            )

        await self.concours.store.transaction(work)


async def _ask(actor: TableActor, command: Callable[[asyncio.Future[None]], object]) -> None:
    """Submit a command made with a reply future to the table's actor, and wait for its answer."""
    reply: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    actor.submit(command(reply))
    await reply


__all__ = ["Call", "OnlineTable", "SeatState", "Tournament"]
