"""No message to a seat ever names a card of another hand before the table has seen it.

Sixteen full matches of every preset (fewer where sans atout and tout atout cannot
be played) are played through the real actor, with every seat a connected player or
one or two players beside bots, under the host's options, plus a spectator; each message is
checked at the moment it is sent against what its recipient may know then: its own
cards, the cards played, the retourne, the bergère, the announcements shown, and
every hand once a played deal is over.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from harness import Harness, Recorder, connect, fast_settings, play_random, settle
from harness.leaks import cards_in, public_cards, where

from atout.cards import Card, cards_of
from atout.rules import PRESETS, Ruleset
from atout.web import views

pytestmark = pytest.mark.anyio
PLAYERS = {name: 2 if name == "deux" else 3 if name == "trois" else 4 for name in PRESETS}


def check(conn: Recorder, message: dict[str, Any]) -> str | None:
    """What ``message`` shows that its recipient may not see now, if anything."""
    actor = conn.actor
    assert actor is not None
    if actor.game is None:
        return None
    seat = next((s.seat for s in actor.seats if s.kind == "human" and s.player == conn.player), None)
    leaked = cards_in(message) - public_cards(actor.game.deal, seat)
    return f"seat {seat} was sent {sorted(leaked)}: {where(message, leaked)}" if leaked else None


#: How many times each match of :data:`MATCHES` is played (with other seeds).
ROUNDS = 2
#: Matches played per preset: (seated players, bots' level, the host's options). The players choose at
#: random; the other seats are bots (the beginner's are the quickest).
MATCHES: list[tuple[str, dict[str, Any]]] = [
    ("all", {}),
    ("all", {"announcements": False, "belote_imprenable": False}),
    ("all", {"sans_atout": True, "tout_atout": True}),
    ("all", {}),
    ("one", {}),
    ("one", {"sans_atout": True, "tout_atout": True}),
    ("two", {}),
    ("two", {"belote_imprenable": False}),
]


def matches(preset: str) -> list[tuple[int, str, dict[str, Any]]]:
    """The matches of :data:`MATCHES` that ``preset`` allows, as (players, bots, options)."""
    out = []
    for who, options in MATCHES:
        if options.get("sans_atout") and Ruleset.preset(preset).auction != "bids":
            continue  # the retourne fixes a suit: no sans atout nor tout atout
        humans = {"all": PLAYERS[preset], "one": 1, "two": min(2, PLAYERS[preset])}[who]
        out.append((humans, "club" if who == "two" else "debutant", options))
    return out


async def play_matches(tmp_path: Path, preset: str, count: int | None = None) -> tuple[list[Recorder], int]:
    """Full matches of ``preset``, a spectator at each; every connection and the number of deals played."""
    recorders = []
    deals = 0
    async with Harness(fast_settings(tmp_path)) as harness:
        for game, (humans, bots, options) in enumerate((matches(preset) * ROUNDS)[:count]):
            actor, conns = await harness.table(preset, humans, options, bots, check=check)
            spectator = Recorder(None, check=check)
            connect(actor, spectator)
            await settle(actor)
            await play_random(actor, conns, random.Random(f"{preset}:{game}"))
            assert actor.status == "finished" and actor.game is not None
            deals += actor.game.deal_no + 1
            recorders += [*conns, spectator]
    return recorders, deals


@pytest.mark.parametrize("preset", list(PRESETS))
async def test_every_message_of_full_matches_shows_only_what_its_recipient_may_see(tmp_path: Path, preset: str) -> None:
    recorders, deals = await play_matches(tmp_path, preset)
    assert deals >= 40  # whole matches, several deals each
    assert [p for r in recorders for p in r.problems] == []
    spectators = [r for r in recorders if r.player is None]
    assert not any(deal.get("hand") for r in spectators for m in r.messages for deal in _deals(m))


def _deals(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The deal a message shows whole (a view) or in part (an update's changes)."""
    return [part["deal"] for part in (message.get("view"), message.get("changes")) if part and part.get("deal")]


async def test_the_check_finds_a_card_of_another_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The leak check itself: a view that shows one card of the next seat's hand is caught."""
    honest = views._Deal.declared

    def leaky(deal: views._Deal) -> list[str]:
        other = deal.game.deal.hand_mask(((deal.viewer.seat or 0) + 1) % deal.rules.players)
        return [*honest.fget(deal), Card(cards_of(other)[0]).code] if other else honest.fget(deal)  # type: ignore[misc]

    monkeypatch.setattr(views._Deal, "declared", property(leaky))
    recorders, _ = await play_matches(tmp_path, "coinche", count=1)
    assert any("declared" in p for r in recorders for p in r.problems)
