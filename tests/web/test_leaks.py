"""No message to a seat ever names a card of another hand before the table has seen it.

Full matches of every preset are played through the real actor, with every seat a
connected player (then one player beside bots), plus a spectator; each message is
checked at the moment it is sent against what its recipient may know then: its own
cards, the cards played, the retourne, the bergère, the announcements shown, and
every hand once a played deal is over.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from harness import Harness, Recorder, cards_in, connect, fast_settings, play_random, public_cards, settle, where

from atout.cards import Card, cards_of
from atout.rules import PRESETS
from atout.web import views
from atout.web.game import TableGame

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


async def play_matches(tmp_path: Path, preset: str) -> list[Recorder]:
    """A match with every seat a player and one with a single player among bots, a spectator at each."""
    recorders = []
    async with Harness(fast_settings(tmp_path)) as harness:
        for game, humans in enumerate((PLAYERS[preset], 1)):
            actor, conns = await harness.table(preset, humans, check=check)
            spectator = Recorder(None, check=check)
            connect(actor, spectator)
            await settle(actor)
            await play_random(actor, conns, random.Random(f"{preset}:{game}"))
            assert actor.status == "finished"
            recorders += [*conns, spectator]
    return recorders


@pytest.mark.parametrize("preset", list(PRESETS))
async def test_every_message_of_full_matches_shows_only_what_its_recipient_may_see(tmp_path: Path, preset: str) -> None:
    recorders = await play_matches(tmp_path, preset)
    assert sum(len(r.messages) for r in recorders) > 200  # whole matches, several deals each
    assert [p for r in recorders for p in r.problems] == []
    spectators = [r for r in recorders if r.player is None]
    assert not any(m["view"]["deal"]["hand"] for r in spectators for m in r.messages if m.get("view", {}).get("deal"))


async def test_the_check_finds_a_card_of_another_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The leak check itself: a view that shows one card of the next seat's hand is caught."""
    honest = views._deal

    def leaky(game: TableGame, seat: int | None, lang: str) -> dict[str, Any]:
        view = honest(game, seat, lang)
        other = game.deal.hand_mask(((seat or 0) + 1) % game.rules.players)
        if other:
            view["hint"] = Card(cards_of(other)[0]).code
        return view

    monkeypatch.setattr(views, "_deal", leaky)
    recorders = await play_matches(tmp_path, "coinche")
    assert any("hint" in p for r in recorders for p in r.problems)
