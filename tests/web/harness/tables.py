"""A web table driven in-process: the real actor, store and bot pool, with recording connections.

Tests drive seated "humans" by choosing among the actions their own views offer, exactly as a
browser would, and see every message the server sends to each client, as it goes on the wire.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from atout.web.actor import Act, Command, Connect, Disconnect, TableActor
from atout.web.client import ClientView, actions
from atout.web.protocol import Outgoing
from atout.web.service import TableService
from atout.web.settings import Settings
from atout.web.store import Store
from atout.web.workers import BotPool

#: The longest any wait of the harness lasts (seconds): past it the test fails instead of hanging.
WAIT = 60.0


def fast_settings(data_dir: Path, **changes: Any) -> Settings:
    """Settings for tests: no pacing, no pauses, threads for the bots."""
    base = Settings(
        data_dir=data_dir,
        bot_backend="thread",
        bot_workers=1,
        bot_pace=0.0,
        trick_pause=0.0,
        deal_pause=0.0,
        seat_timeout=3600.0,
    )
    return replace(base, **changes)


Check = Callable[["Recorder", dict[str, Any]], str | None]


class Recorder:
    """A connection that keeps every message as it goes on the wire, the view they make, and what ``check``
    found wrong with any message as it was sent."""

    def __init__(self, player: str | None, lang: str = "fr", check: Check | None = None) -> None:
        self.player = player
        self.lang = lang
        #: The table this connection is connected to (set by whoever connects it).
        self.actor: TableActor | None = None
        self.messages: list[dict[str, Any]] = []
        self.client = ClientView()
        self.closed: int | None = None
        self.check = check
        self.problems: list[str] = []
        self.arrived = asyncio.Event()

    def send(self, message: Outgoing) -> None:
        sent = json.loads(message.model_dump_json(exclude_unset=True))
        self.client.receive(sent)
        problem = self.check(self, sent) if self.check is not None else None
        if problem:
            self.problems.append(problem)
        self.messages.append(sent)
        self.arrived.set()

    def close(self, code: int) -> None:
        self.closed = code

    @property
    def view(self) -> dict[str, Any]:
        """The view the messages so far make (as the page draws it)."""
        return self.client.view

    async def until(self, test: Callable[[], bool]) -> None:
        """Wait until ``test()`` holds, looking again at each message (at most :data:`WAIT` seconds)."""
        async with asyncio.timeout(WAIT):
            while not test():
                self.arrived.clear()
                await self.arrived.wait()

    async def reply_to(self, action_id: str) -> dict[str, Any]:
        """The ack or error the server sent for one action."""

        def replies() -> list[dict[str, Any]]:
            return [m for m in self.messages if m.get("id") == action_id and m["type"] in ("ack", "error")]

        await self.until(lambda: bool(replies()))
        return replies()[0]


def legal(conn: Recorder) -> list[str]:
    """What the connection's player may send now, as his view offers it."""
    return actions(conn.view)


class Harness:
    """One table service with its store, as the app has it, but driven directly."""

    def __init__(self, settings: Settings, seed: int = 0, retry_delays: tuple[float, ...] = (0.05, 0.1)) -> None:
        self.settings = settings
        self.store = Store(settings.url(), retry_delays)
        self.pool = BotPool(settings.bot_backend, settings.bot_workers)
        self.service = TableService(self.store, self.pool, settings, random.Random(seed))

    async def __aenter__(self) -> Harness:
        await self.store.open()
        await self.pool.start(levels=())
        await self.service.start()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.service.close()
        await self.pool.close()
        await self.store.close()

    async def table(
        self,
        preset: str,
        humans: int,
        options: dict[str, Any] | None = None,
        bots: str = "club",
        check: Check | None = None,
    ) -> tuple[TableActor, list[Recorder]]:
        """A started table with ``humans`` seated players (seats 0..), each connected; bots in the other seats."""
        code, token = await self.service.create(preset, options or {}, bots, 0, "Joueur 0")
        players = [self.service.player(token, code)]
        for seat in range(1, humans):
            token = await self.service.sit(code, seat, f"Joueur {seat}", None)
            players.append(self.service.player(token, code))
        actor = await self.service.actor(code)
        assert actor is not None
        conns = [Recorder(p, check=check) for p in players]
        for conn in conns:
            connect(actor, conn)
        actor.submit(Command(conns[0], "start"))
        await settle(actor)
        return actor, conns


async def settle(actor: TableActor) -> None:
    """Wait until the actor has handled every queued command and no bot is thinking (at most :data:`WAIT`)."""
    async with asyncio.timeout(WAIT):
        while True:
            await actor.sync()
            thinking = actor.thinking
            if thinking is None:
                return
            await asyncio.wait({thinking})


async def play_random(actor: TableActor, conns: list[Recorder], rng: random.Random, limit: int = 100_000) -> int:
    """Let the seated players choose random legal actions until the match ends (or they sent ``limit``)."""
    sent = 0
    for _ in range(limit):
        await settle(actor)
        if actor.game is not None and actor.game.finished:  # saved as a game too, unless the store failed
            return sent
        mover = next((c for c in conns if _my_turn(c)), None)
        if mover is None:
            if actor.game is not None and actor.game.deal_over:
                actor.submit(Command(conns[0], "continue"))
                continue
            raise AssertionError(f"nobody can act: {conns[0].view['deal']}")
        deal = mover.view["deal"]
        options = [d["action"] for d in deal["declare"]] or legal(mover)
        # Pass three times in four in the auction, so that deals are played at sober contracts.
        choice = "P" if "P" in options and rng.random() < 0.75 else rng.choice(options)
        action_id = f"a{sent}"
        actor.submit(Act(mover, choice, action_id))
        reply = await mover.reply_to(action_id)
        assert reply["type"] == "ack", reply
        sent += 1
    await settle(actor)
    return sent


def _my_turn(conn: Recorder) -> bool:
    deal = conn.view.get("deal")
    return bool(deal and deal["turn"] == conn.view["you"] and legal(conn))


def connect(actor: TableActor, conn: Recorder) -> None:
    conn.actor = actor
    actor.submit(Connect(conn))


async def disconnect(actor: TableActor, conn: Recorder) -> None:
    actor.submit(Disconnect(conn))
    await settle(actor)


async def finished_game(settings: Settings) -> str:
    """Play a two-player match (one player, one club bot) to its end; its table's code."""
    async with Harness(settings) as harness:
        actor, conns = await harness.table("deux", 1)
        await play_random(actor, conns, random.Random(8))
        assert actor.status == "finished"
        return actor.code
