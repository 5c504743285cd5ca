"""A web table driven in-process: the real actor, store and bot pool, with recording connections.

Tests drive seated "humans" by choosing among the legal actions of their own views,
exactly as a browser would, and see every message the server sends to each client.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from atout.cards import Card
from atout.deal import Deal, Phase
from atout.web.actor import Act, Command, Connect, Disconnect, TableActor
from atout.web.service import TableService
from atout.web.settings import Settings
from atout.web.store import Store
from atout.web.workers import BotPool

#: A card in any form a message may carry it: ``JH`` / ``QH!`` (codes) or ``V♥`` / ``10♣`` (labels).
CARD_CODE = re.compile(r"(?<![0-9A-Za-z])([789TJQKA])([SHDC])(?![A-Za-z0-9])")
CARD_LABEL = re.compile(r"(10|[789VDRAJQK])([♠♥♦♣])")
_RANK_OF_LABEL = {"10": "T", "V": "J", "D": "Q", "R": "K"}
_SUIT_OF_SYMBOL = dict(zip("♠♥♦♣", "SHDC", strict=True))


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


def cards_in(message: Any) -> set[int]:
    """Every card a message names, in any of its forms."""
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            for rank, suit in CARD_CODE.findall(value):
                found.add(Card.parse(rank + suit))
            for rank, symbol in CARD_LABEL.findall(value):
                found.add(Card.parse(_RANK_OF_LABEL.get(rank, rank) + _SUIT_OF_SYMBOL[symbol]))

    walk(message)
    return found


def where(message: Any, cards: set[int]) -> list[str]:
    """The paths in a message of the strings that name some of ``cards`` (for a failure's report)."""
    out: list[str] = []

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{path}.{key}")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, f"{path}[{i}]")
        elif isinstance(value, str) and cards_in(value) & cards:
            out.append(f"{path} = {value!r}")

    walk(message, "")
    return out


def public_cards(deal: Deal, seat: int | None) -> set[int]:
    """The cards ``seat`` (None: a spectator) may see now: its own, and what the table has seen."""
    seen: set[int] = set()
    if seat is not None:
        seen |= {c for c in range(32) if (deal.hand_mask(seat) | deal.initial_hands[seat]) >> c & 1}
        if deal.phase is not Phase.AUCTION:
            seen |= {c for c in range(32) if deal.dealt.hands[seat] >> c & 1}
    for trick in deal.tricks:
        seen |= set(trick.cards)
    seen |= {c for _, c in deal.current_trick}
    if deal.retourne is not None:
        seen.add(deal.retourne)
    if deal.resolution is not None:
        for announced in deal.resolution.shown.values():
            for a in announced:
                seen |= set(a.card_list())
    bergere = deal.observation(0).bergere  # the two-player form's last stock card, turned face up
    if bergere is not None:
        seen.add(bergere)
    if deal.phase is Phase.DONE and deal.contract is not None:
        for s in range(deal.rules.players):
            seen |= {c for c in range(32) if deal.initial_hands[s] >> c & 1}
    return seen


Check = Callable[["Recorder", dict[str, Any]], str | None]


class Recorder:
    """A connection that keeps every message, and what ``check`` found wrong with any as it was sent."""

    def __init__(self, player: str | None, lang: str = "fr", check: Check | None = None) -> None:
        self.player = player
        self.lang = lang
        #: The table this connection is connected to (set by whoever connects it).
        self.actor: TableActor | None = None
        self.messages: list[dict[str, Any]] = []
        self.closed: int | None = None
        self.check = check
        self.problems: list[str] = []
        self.arrived = asyncio.Event()

    def send(self, message: dict[str, Any]) -> None:
        problem = self.check(self, message) if self.check is not None else None
        if problem:
            self.problems.append(problem)
        self.messages.append(message)
        self.arrived.set()

    def close(self, code: int) -> None:
        self.closed = code

    @property
    def view(self) -> dict[str, Any]:
        return next(m["view"] for m in reversed(self.messages) if "view" in m)

    async def reply_to(self, action_id: str) -> dict[str, Any]:
        """The ack or error the server sent for one action."""
        while True:
            for m in self.messages:
                if m.get("id") == action_id and m["type"] in ("ack", "error"):
                    return m
            self.arrived.clear()
            await self.arrived.wait()


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
    """Wait until the actor has handled every queued command and no bot is thinking."""
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
        mover = next((c for c in conns if _my_turn(c.view)), None)
        if mover is None:
            if actor.game is not None and actor.game.deal_over:
                actor.submit(Command(conns[0], "continue"))
                continue
            raise AssertionError(f"nobody can act: {conns[0].view['deal']}")
        deal = mover.view["deal"]
        options = [d["action"] for d in deal["declare"]] or deal["legal"]
        # Pass three times in four in the auction, so that deals are played at sober contracts.
        choice = "P" if "P" in options and rng.random() < 0.75 else rng.choice(options)
        action_id = f"a{sent}"
        actor.submit(Act(mover, choice, action_id))
        reply = await mover.reply_to(action_id)
        assert reply["type"] == "ack", reply
        sent += 1
    await settle(actor)
    return sent


def _my_turn(view: dict[str, Any]) -> bool:
    deal = view.get("deal")
    return bool(deal and deal["turn"] == view["you"] and (deal["legal"] or deal["declare"]))


def connect(actor: TableActor, conn: Recorder) -> None:
    conn.actor = actor
    actor.submit(Connect(conn))


async def disconnect(actor: TableActor, conn: Recorder) -> None:
    actor.submit(Disconnect(conn))
    await settle(actor)
