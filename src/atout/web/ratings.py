"""Players' ratings at the web table: which games are rated, how they change the ratings, and the queries the
profile, the ladder and the lobby show.

**Which games are rated.** A table is rated when a signed-in host creates it so
(:meth:`~atout.web.service.TableService.create` with ``rated``). Only signed-in accounts sit there, each in the
seat of his account's player id (:func:`~atout.web.tokens.account_player`), and its host cannot start it until
every seat is an account's: no bot fills an open seat. A game is rated when it ends at such a table and every
seat was held by an account from the start: the account whose player first acted from the seat (or holds it at
the end), so that a player who left, a bot standing in for him, still gets the result — leaving does not dodge
a loss. During the game, a seat a bot took over goes back only to its own player (or to an account, while
nobody has played from it).

**How.** Glicko-2 (:mod:`atout.competitions.ratings`), one variant (the table's preset: ``Ruleset.name``) apart
from another, a rating period of one game, as the online rooms do: a new player is 1500 (deviation 350,
volatility 0.06), τ is 0.5, and a rating whose deviation is above :data:`PROVISIONAL` is provisional. Four
players are two partnerships: each player is rated against the opposing pair seen as one player (their mean
rating, :func:`~atout.competitions.ratings.rate_partnerships`); with two or three players, each is rated against
each other player, a win against those he outscored, a draw against an equal score
(:func:`~atout.competitions.ratings.rate_period`).

**Once.** :class:`RatingListener` rates a game when the table tells it the game is saved, in one transaction that
also writes the game's row in ``rating_games``: a retry (the table calls it again after the database was
unavailable) finds the row and changes nothing.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from atout.competitions.ratings import Rating, rate_partnerships, rate_period
from atout.web import schema
from atout.web.actor import TableActor
from atout.web.lobby import Listed, Lobby
from atout.web.states import SeatKind
from atout.web.store import ActionRow, SeatRow, Store
from atout.web.tokens import player_account
from atout.web.wire import LobbyTable

log = logging.getLogger(__name__)

#: A rating whose deviation (RD) is above this is provisional: listed apart on the ladder, marked elsewhere.
PROVISIONAL = 110.0
#: Glicko-2's τ: how much the volatility may change (Glickman advises 0.3 to 1.2).
TAU = 0.5
#: A new player's rating.
START = Rating()
#: Seconds a rating read for the lobby is kept in memory (another server may have rated a game meanwhile).
CACHE_SECONDS = 60.0


@dataclass(frozen=True)
class PlayerRating:
    """An account's rating in one variant, as stored: Glicko-2's rating, deviation (RD) and volatility, and the
    rated games played."""

    account_id: int
    name: str
    variant: str
    rating: float
    deviation: float
    volatility: float
    games: int
    updated_at: datetime

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL

    @property
    def shown(self) -> int:
        """The rating as shown: rounded to a whole number."""
        return round(self.rating)

    @property
    def margin(self) -> int:
        """The rating's margin as shown, ± 2 RD (about 95 % of the player's true strength lies within)."""
        return round(2 * self.deviation)


@dataclass(frozen=True)
class Cached:
    """A lobby's rating of an account in a variant (None: he has none yet), and when it was read."""

    rating: PlayerRating | None
    read_at: float


def seat_accounts(rules_players: int, seats: Sequence[SeatRow], actions: Sequence[ActionRow]) -> list[int | None]:
    """The account each seat's result goes to: the account whose player first acted from it in the game,
    else the account seated there now; None for a seat no account held (a bot's from the start).

    >>> from atout.web.store import ActionRow, SeatRow
    >>> seats = [SeatRow(0, "human", "Ann", "@1"), SeatRow(1, "bot", "club", None)]
    >>> seat_accounts(2, seats, [ActionRow(0, 0, 1, "P", "a1", False, "@2")])
    [1, 2]
    >>> seat_accounts(2, seats, [])
    [1, None]
    """
    found: list[int | None] = [None] * rules_players
    for action in actions:
        account = player_account(action.player)
        if account is not None and 0 <= action.seat < rules_players and found[action.seat] is None:
            found[action.seat] = account
    for seat in seats:
        if 0 <= seat.seat < rules_players and found[seat.seat] is None and seat.kind == SeatKind.HUMAN:
            found[seat.seat] = player_account(seat.player)
    return found


def game_results(players: int, scores: dict[int, int], winner: int | None) -> list[tuple[int, int, float]]:
    """A finished game's results between its sides, each ``(side a, side b, a's score)``: with four players the
    two partnerships, the winner scoring 1 (a game without a winner: the higher total, an equal one a draw); with
    two or three, every pair of players, by their final totals.

    >>> game_results(4, {0: 1010, 1: 740}, 0)
    [(0, 1, 1.0)]
    >>> game_results(3, {0: 1003, 1: 560, 2: 1003}, 0)
    [(0, 1, 1.0), (0, 2, 0.5), (1, 2, 0.0)]
    """
    if players == 4 and winner is not None:
        return [(0, 1, 1.0 if winner == 0 else 0.0)]
    sides = (0, 1) if players == 4 else tuple(range(players))
    results: list[tuple[int, int, float]] = []
    for a, b in itertools.combinations(sides, 2):
        mine, theirs = scores.get(a, 0), scores.get(b, 0)
        results.append((a, b, 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0))
    return results


def new_ratings(
    players: int, accounts: Sequence[int], before: dict[int, Rating], results: Sequence[tuple[int, int, float]]
) -> dict[int, Rating]:
    """Every player's rating after one game (one rating period): ``accounts[seat]`` held each seat, ``before``
    their ratings at the start, ``results`` the game's (:func:`game_results`). With four players, each
    partnership (seats 0 and 2, 1 and 3) against the other's mean; with two or three, player against player."""
    if players == 4:
        pair = {0: (accounts[0], accounts[2]), 1: (accounts[1], accounts[3])}
        return rate_partnerships(before, [(pair[a], pair[b], score) for a, b, score in results], TAU)
    return rate_period(before, [(accounts[a], accounts[b], score) for a, b, score in results], TAU)


class Ratings:
    """The ratings in the store: rating a game once, one account's, a variant's ladder, and the lobby's (kept in
    memory a while: the lobby is hot)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self._cache: dict[tuple[int, str], Cached] = {}
        self._loading: set[tuple[int, str]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.lobby: Lobby | None = None

    # ------------------------------------------------------------------ rating
    async def rate_game(
        self,
        game_id: int,
        variant: str,
        players: int,
        accounts: Sequence[int],
        results: Sequence[tuple[int, int, float]],
    ) -> dict[int, Rating] | None:
        """Rate a finished game, once: the players' new ratings; None when the game was rated before (nothing
        changes). The check and the update are one transaction."""
        if len(set(accounts)) != len(accounts):
            raise ValueError(f"game {game_id}: an account holds two seats")

        async def work(conn: AsyncConnection) -> dict[int, Rating] | None:
            g = schema.rating_games.c
            if (await conn.execute(select(g.game_id).where(g.game_id == game_id))).first() is not None:
                return None
            now = datetime.now(UTC)
            await conn.execute(insert(schema.rating_games).values(game_id=game_id, variant=variant, rated_at=now))
            r = schema.ratings.c
            query = select(r.account_id, r.rating, r.deviation, r.volatility, r.games).where(
                r.variant == variant, r.account_id.in_(accounts)
            )
            rows = {row.account_id: row for row in await conn.execute(query.with_for_update())}
            before = {
                a: Rating(rows[a].rating, rows[a].deviation, rows[a].volatility) if a in rows else START
                for a in accounts
            }
            after = new_ratings(players, accounts, before, results)
            for account, rating in after.items():
                values = dict(rating=rating.rating, deviation=rating.deviation, volatility=rating.volatility)
                if account in rows:
                    where = (r.account_id == account) & (r.variant == variant)
                    changed = update(schema.ratings).where(where)
                    await conn.execute(changed.values(games=rows[account].games + 1, updated_at=now, **values))
                else:
                    added = insert(schema.ratings)
                    await conn.execute(
                        added.values(account_id=account, variant=variant, games=1, updated_at=now, **values)
                    )
            return after

        for attempt in range(3):
            try:
                after = await self.store.transaction(work)
                break
            except IntegrityError:  # rated at once elsewhere, or a first rating inserted at once: look again
                if attempt == 2:
                    raise
        for account in accounts:
            self._cache.pop((account, variant), None)
        return after

    # ----------------------------------------------------------------- queries
    async def account_named(self, name: str) -> tuple[int, str] | None:
        """The account of a name (as typed: any case), its id and name as written."""

        async def work(conn: AsyncConnection) -> tuple[int, str] | None:
            a = schema.accounts.c
            row = (await conn.execute(select(a.id, a.name).where(a.name_key == name.strip().casefold()))).first()
            return (int(row.id), str(row.name)) if row else None

        return await self.store.transaction(work)

    async def of_account(self, account_id: int) -> list[PlayerRating]:
        """An account's ratings, one per variant he played rated games in, the most played first."""
        r = schema.ratings.c
        rows = await self._select((r.account_id == account_id,), (r.games.desc(), r.variant))
        return rows

    async def ladder(
        self, variant: str, provisional: bool = False, limit: int = 50, offset: int = 0
    ) -> list[PlayerRating]:
        """A variant's ladder, the highest rating first: the established ratings (RD ≤ :data:`PROVISIONAL`), or
        the provisional ones."""
        r = schema.ratings.c
        kept = r.deviation > PROVISIONAL if provisional else r.deviation <= PROVISIONAL
        return await self._select((r.variant == variant, kept), (r.rating.desc(), r.account_id), limit, offset)

    async def counts(self, variant: str) -> tuple[int, int]:
        """How many accounts a variant's ladder lists: established, provisional."""

        async def work(conn: AsyncConnection) -> tuple[int, int]:
            r = schema.ratings.c
            counted = []
            for kept in (r.deviation <= PROVISIONAL, r.deviation > PROVISIONAL):
                query = select(func.count()).select_from(schema.ratings).where(r.variant == variant, kept)
                counted.append(int((await conn.execute(query)).scalar_one()))
            return counted[0], counted[1]

        return await self.store.transaction(work)

    async def of_accounts(self, accounts: Sequence[int], variant: str) -> dict[int, PlayerRating]:
        """The ratings of some accounts in a variant (those who have one), read from the store."""
        if not accounts:
            return {}
        r = schema.ratings.c
        rows = await self._select((r.variant == variant, r.account_id.in_(list(accounts))), (r.account_id,))
        return {row.account_id: row for row in rows}

    async def _select(
        self, where: tuple[object, ...], order: tuple[object, ...], limit: int | None = None, offset: int = 0
    ) -> list[PlayerRating]:
        async def work(conn: AsyncConnection) -> list[PlayerRating]:
            r, a = schema.ratings.c, schema.accounts.c
            query = (
                select(r.account_id, a.name, r.variant, r.rating, r.deviation, r.volatility, r.games, r.updated_at)
                .join(schema.accounts, a.id == r.account_id)
                .where(*where)  # type: ignore[arg-type]
                .order_by(*order)  # type: ignore[arg-type]
                .offset(offset)
            )
            if limit is not None:
                query = query.limit(limit)
            return [PlayerRating(**row._mapping) for row in await conn.execute(query)]

        return await self.store.transaction(work)

    # ------------------------------------------------------------------- lobby
    def attach(self, lobby: Lobby) -> None:
        """Show the seated accounts' ratings in ``lobby``'s rows."""
        self.lobby = lobby
        lobby.decorate = self.lobby_row

    def cached(self, account: int, variant: str) -> Cached | None:
        """The lobby's rating of an account, if it is in memory and fresh."""
        found = self._cache.get((account, variant))
        if found is None or self.clock() - found.read_at > CACHE_SECONDS:
            return None
        return found

    def lobby_row(self, table: Listed, row: LobbyTable) -> LobbyTable:
        """A listed table's row with its seated accounts' ratings in its variant, those in memory; the others are
        read from the store, and the table is listed anew once they are there."""
        if not isinstance(table, TableActor):
            return row
        variant = row.preset
        seats = list(row.seats)
        missing: list[int] = []
        for n, seat in enumerate(table.seats):
            account = player_account(seat.player) if seat.kind is SeatKind.HUMAN else None
            if account is None or n >= len(seats):
                continue
            found = self.cached(account, variant)
            if found is None:
                missing.append(account)
            elif found.rating is not None:
                rating = found.rating
                seats[n] = seats[n].model_copy(update={"rating": rating.shown, "provisional": rating.provisional})
        if missing:
            self._load(missing, variant, table)
        if not table.row.rated and seats == row.seats:
            return row
        update: dict[str, object] = {"seats": seats}
        if table.row.rated:
            update["rated"] = True
        return row.model_copy(update=update)

    def _load(self, accounts: list[int], variant: str, table: Listed) -> None:
        keys = [(a, variant) for a in accounts if (a, variant) not in self._loading]
        if not keys:
            return
        self._loading.update(keys)

        async def load() -> None:
            try:
                found = await self.of_accounts([a for a, _ in keys], variant)
            except Exception:  # the lobby shows no rating rather than fail
                log.exception("the lobby's ratings could not be read")
                return
            finally:
                self._loading.difference_update(keys)
            now = self.clock()
            for account, _ in keys:
                self._cache[(account, variant)] = Cached(found.get(account), now)
            if self.lobby is not None:
                self.lobby.changed(table)

        task = asyncio.get_running_loop().create_task(load())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


class RatingListener:
    """Rates each game that ends at a rated table, once (:class:`~atout.web.actor.TableListener`)."""

    def __init__(self, ratings: Ratings) -> None:
        self.ratings = ratings

    async def deal_over(self, actor: TableActor) -> None:
        """Nothing: a game is rated as a whole."""

    async def game_saved(self, actor: TableActor, game_id: int) -> None:
        """Rate the game if the table is rated and every seat's result goes to an account."""
        game = actor.game
        if not actor.row.rated or game is None:
            return
        store = self.ratings.store
        players = actor.rules.players
        seats = [SeatRow(s.seat, s.kind, s.name, s.player) for s in actor.seats]
        accounts = seat_accounts(players, seats, await store.actions(actor.row.id, actor.row.game_no))
        held = [a for a in accounts if a is not None]
        if len(held) != players or len(set(held)) != players:
            log.info("table %s: game %d is not rated (a seat without an account)", actor.code, game_id)
            return
        results = game_results(players, game.match.scores, game.match.winner)
        await self.ratings.rate_game(game_id, actor.rules.name, players, held, results)
