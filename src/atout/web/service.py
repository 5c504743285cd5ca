"""The tables of one server: creating them, finding their actors, bringing them back after a restart.

A table's actor is loaded from the store the first time someone asks for it (a
link opened, a player reconnecting), by replaying its action log, and unloaded a
while after its last client left; so a restarted server (even one killed with
``kill -9``) serves every live table exactly where it was. With several servers
on one database, each serves the tables of its shard (:func:`~atout.web.tokens.code_shard`
modulo the number of servers) and a reverse proxy sends each table's requests to it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from typing import Any

from atout.errors import AtoutError
from atout.notation import seat_letters
from atout.rules import PRESETS, Ruleset
from atout.web.accounts import Account
from atout.web.actor import PACES, TALK_KEPT, Refused, Sit, TableActor, TableListener, clean_name
from atout.web.game import LoggedAction, TableGame
from atout.web.lobby import Lobby
from atout.web.ratings import seat_accounts
from atout.web.serialize import Points
from atout.web.settings import Settings
from atout.web.states import SeatKind, TableStatus
from atout.web.store import SeatRow, Store
from atout.web.tokens import Signer, account_player, code_shard, new_code, new_player_id, normalize_code
from atout.web.workers import BotPool

#: The levels a host may give the bots of a table.
TABLE_LEVELS = ("debutant", "club", "expert")
#: Options a host may set when creating a table, with their types.
HOST_OPTIONS: dict[str, type] = {
    "target": int,
    "sans_atout": bool,
    "tout_atout": bool,
    "announcements": bool,
    "belote_imprenable": bool,
    "coinche": bool,
    "surcoinche": bool,
    "litige": str,
    "overtrump_partner": bool,
    "must_undertrump": bool,
}
#: The targets a host may set (points): from 1 (0 would mean a number of deals, which a host cannot set) to the
#: rules' highest.
TARGET_RANGE = (1, next(int(f.metadata["high"]) for f in dataclasses.fields(Ruleset) if f.name == "target"))
#: Seconds an actor stays in memory after its last client left.
IDLE_UNLOAD = 600.0


class TableService:
    """Creates tables and keeps the actors of the live ones."""

    def __init__(self, store: Store, pool: BotPool, settings: Settings, rng: random.Random | None = None) -> None:
        self.store = store
        #: Draws each match's shuffle seed and first dealer (tests give a seeded one).
        self.rng = rng or random.SystemRandom()
        self.pool = pool
        self.settings = settings
        self.actors: dict[str, TableActor] = {}
        self.signer: Signer | None = None
        self._loading: dict[str, asyncio.Lock] = {}
        self._idle: dict[str, asyncio.TimerHandle] = {}
        #: The tables listed on the home page, kept up to date by their actors.
        self.lobby = Lobby()
        #: Told what every table's games did (competitions, ratings); added before :meth:`start`.
        self.listeners: list[TableListener] = []

    async def start(self) -> None:
        self.signer = Signer(await self.store.secret())
        for code in await self.store.tables_to_load():  # a tournament's plays on; a rated one saves its game
            actor = await self.actor(code)
            if actor is not None and actor.row.concours_id is None:
                self._idle_soon(actor)  # unloaded again if nobody comes

    async def close(self) -> None:
        for handle in self._idle.values():
            handle.cancel()
        for actor in list(self.actors.values()):
            await actor.stop()
        self.actors.clear()
        self.lobby.close()

    def token(self, code: str, player: str) -> str:
        assert self.signer is not None
        return self.signer.token(code, player)

    def player(self, token: str | None, code: str) -> str | None:
        assert self.signer is not None
        return self.signer.player(token, code) if token else None

    # ---------------------------------------------------------------- create
    async def create(
        self,
        preset: str,
        options: dict[str, Any],
        bots: str,
        seat: int | None,
        name: str,
        private: bool = False,
        pace: str = "normal",
        practice: bool = False,
        rated: bool = False,
        account: Account | None = None,
    ) -> tuple[str, str]:
        """A new table with its creator seated (South by default; he hosts it); returns its code and his token.

        A private table is reached by its link only: the lobby never lists it. ``pace``: the bots' (one of
        :data:`PACES`); a practice table gives its players hints and each card's cost. ``account``: the creator's,
        if he is signed in: his seat is his account's (:func:`~atout.web.tokens.account_player`). A rated table
        (:mod:`atout.web.ratings`) needs one, and seats him under his account's name; it is no practice table."""
        rules = table_rules(preset, options)
        if seat is None:
            seat = seat_letters(rules).index("S")
        if bots not in TABLE_LEVELS:
            raise Refused("web.error.bad_level")
        if pace not in PACES:
            raise Refused("web.practice.error.pace")
        if not clean_name(name):
            raise Refused("web.error.name")
        if not 0 <= seat < rules.players:
            raise Refused("web.error.no_such_seat")
        if rated and account is None:
            raise Refused("web.ratings.error_sign_in_to_create")
        if rated and practice:
            raise Refused("web.ratings.error_practice")
        if rated and rules != Ruleset.preset(preset):  # one ladder a variant: its own rules, its own target
            raise Refused("web.ratings.error_options")
        if rated and account is not None:
            name = account.name
            bots = "debutant"  # who stands in for an absent player: handing a deal to a bot never helps
        player = new_player_id() if account is None else account_player(account.id)
        seats = [SeatRow(s, SeatKind.OPEN, "", None) for s in range(rules.players)]
        seats[seat] = SeatRow(seat, SeatKind.HUMAN, clean_name(name), player)
        code = self.new_code()
        first_dealer = self.rng.randrange(rules.players)  # drawn at random (FFB §3.1)
        await self.store.create_table(
            code,
            rules.to_json(),
            bots,
            player,
            self.rng.randrange(1 << 62),
            first_dealer,
            code_shard(code),
            seats,
            private=private,
            pace=pace,
            practice=practice,
            rated=rated,
        )
        return code, self.token(code, player)

    async def create_seated(
        self,
        rules: Ruleset,
        bots: str,
        seats: list[SeatRow],
        host: str,
        match_seed: int | None = None,
        first_dealer: int | None = None,
        code: str | None = None,
        **competition: Any,
    ) -> str:
        """A competition's table, its seats given (people by their player ids, bots), its match started at
        once; private (never listed); returns its code. ``competition``: the :class:`TableRow` fields that make
        it a tournament's or a challenge's table; ``code``: one drawn before (:meth:`new_code`)."""
        if bots not in TABLE_LEVELS:
            raise Refused("web.error.bad_level")
        code = code or self.new_code()
        await self.store.create_table(
            code,
            rules.to_json(),
            bots,
            host,
            self.rng.randrange(1 << 62) if match_seed is None else match_seed,
            self.rng.randrange(rules.players) if first_dealer is None else first_dealer,
            code_shard(code),
            seats,
            private=True,
            pace="fast",
            status=TableStatus.PLAYING,
            **competition,
        )
        return code

    def new_code(self) -> str:
        """A new table code of this server's shard."""
        while True:
            code = new_code()
            if code_shard(code) % self.settings.shards == self.settings.shard:
                return code

    async def sit(self, code: str, seat: int, name: str, player: str | None, account: Account | None = None) -> str:
        """Seat a player (a new one unless his id is given; a signed-in ``account``'s own); returns his token.

        At a rated table only accounts sit, under their names, and during the game a seat goes back only to the
        account whose result it is (:func:`~atout.web.ratings.seat_accounts`)."""
        actor = await self.actor(code)
        if actor is None:
            raise Refused("web.error.no_table")
        if account is not None:
            player = account_player(account.id)
        if actor.row.rated:
            if account is None:
                raise Refused("web.ratings.error_sign_in_to_sit")
            name = account.name
            if actor.status is TableStatus.PLAYING and 0 <= seat < len(actor.seats):
                await self._may_take_back(actor, seat, account.id)
        player = player or new_player_id()
        reply: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        actor.submit(Sit(player, seat, name, reply))
        await reply
        return self.token(actor.code, player)

    async def _may_take_back(self, actor: TableActor, seat: int, account: int) -> None:
        """Refuse a seat of a rated game in play to an account whose result it is not."""
        if actor.seats[seat].player == account_player(account):
            return
        seats = [SeatRow(s.seat, s.kind, s.name, s.player) for s in actor.seats]
        owners = seat_accounts(actor.rules.players, seats, await self.store.actions(actor.row.id, actor.row.game_no))
        if owners[seat] != account and (owners[seat] is not None or account in owners):
            raise Refused("web.ratings.error_not_your_seat")

    # ----------------------------------------------------------------- find
    async def actor(self, raw_code: str) -> TableActor | None:
        """The actor of a table of this server, loaded (and replayed) if needed; None if there is none."""
        code = normalize_code(raw_code)
        actor = self.actors.get(code)
        if actor is not None:
            self._keep(code)
            return actor
        if not code or code_shard(code) % self.settings.shards != self.settings.shard:
            return None
        lock = self._loading.setdefault(code, asyncio.Lock())
        async with lock:
            actor = self.actors.get(code)
            if actor is None:
                actor = await self._load(code)
                if actor is not None:
                    self.actors[code] = actor
                    actor.start()
        self._loading.pop(code, None)
        return actor

    async def _load(self, code: str) -> TableActor | None:
        row = await self.store.table(code)
        if row is None:
            return None
        seats = await self.store.seats(row.id)
        rules = Ruleset.from_json(row.rules)
        game = None
        ids: list[tuple[str | None, str]] = []
        if row.status is not TableStatus.LOBBY:
            actions = await self.store.actions(row.id, row.game_no)
            log = [LoggedAction(a.deal_no, a.seat, a.action) for a in actions]
            game = TableGame.replay(rules, row.match_seed, row.first_dealer, log, row.fixed_deals)
            ids = [(a.player, a.action_id) for a in actions if a.action_id is not None]
        return TableActor(
            row,
            seats,
            game,
            self.store,
            self.pool,
            self.settings,
            self._idle_soon,
            self.rng,
            action_ids=ids,
            on_change=self.lobby.changed,
            talk=await self.store.talk(row.id, TALK_KEPT),
            listeners=self.listeners,
        )

    def _idle_soon(self, actor: TableActor) -> None:
        self._keep(actor.code)
        loop = asyncio.get_running_loop()
        self._idle[actor.code] = loop.call_later(IDLE_UNLOAD, lambda: asyncio.create_task(self._unload(actor)))

    def _keep(self, code: str) -> None:
        handle = self._idle.pop(code, None)
        if handle is not None:
            handle.cancel()

    async def _unload(self, actor: TableActor) -> None:
        self._idle.pop(actor.code, None)
        if actor.conns or self.actors.get(actor.code) is not actor:
            return
        if actor.row.concours_id is not None and actor.status is TableStatus.PLAYING:
            return  # a tournament's table plays on until its game ends
        del self.actors[actor.code]
        self.lobby.gone(actor.code)
        await actor.stop()


def table_rules(preset: str, options: dict[str, Any]) -> Ruleset:
    """The ruleset a host asked for: a preset and a few options, each checked."""
    if preset not in PRESETS:
        raise Refused("web.error.bad_preset")
    values: dict[str, Any] = {}
    for key, value in options.items():
        kind = HOST_OPTIONS.get(key)
        if kind is None or type(value) is not kind:
            raise Refused("web.error.bad_option", option=key)
        if key == "target" and isinstance(value, int) and not TARGET_RANGE[0] <= value <= TARGET_RANGE[1]:
            raise Refused("web.lobby.form.target_range", low=Points(TARGET_RANGE[0]), high=Points(TARGET_RANGE[1]))
        values[key] = value
    try:
        return Ruleset.preset(preset, **values)
    except AtoutError as err:
        raise Refused("web.error.bad_rules", why=err) from None
