"""Seats over a game's life: a bot plays for a player who is away and gives the seat back on his
return, the next deal waits for everyone to have read the score, a rematch starts a new game, and
a bot that thinks too long is replaced by the club player's rules."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import pytest
from harness import Harness, Recorder, connect, disconnect, fast_settings, legal, play_random, settle

from atout.web import workers
from atout.web.actor import Act, Command

pytestmark = pytest.mark.anyio


def turn_of(conns: list[Recorder]) -> Recorder | None:
    return next((c for c in conns if c.view["deal"] and c.view["deal"]["turn"] == c.view["you"]), None)


async def test_a_bot_plays_for_an_absent_player_and_gives_the_seat_back(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path, seat_timeout=0.05)) as harness:
        actor, conns = await harness.table("coinche", 2)
        away = turn_of(conns) or conns[0]
        while turn_of(conns) is not away:  # the other player passes until it is the absent one's turn
            mover = turn_of(conns)
            assert mover is not None
            actor.submit(Act(mover, "P", None))
            await settle(actor)
        seat = away.view["you"]
        present = conns[1 - conns.index(away)]
        await disconnect(actor, away)
        await present.until(lambda: present.view["seats"][seat]["replaced"])  # the timeout fires on the actor's clock
        await settle(actor)
        log = await harness.store.actions(actor.row.id, actor.row.game_no)
        assert any(a.seat == seat and a.by_bot for a in log)
        back = Recorder(away.player)
        connect(actor, back)
        await settle(actor)
        assert back.view["seats"][seat]["replaced"] is False and back.view["seats"][seat]["connected"]
        played = len(await harness.store.actions(actor.row.id, actor.row.game_no))
        while back.view["deal"]["turn"] != seat:
            mover = turn_of([present])
            if mover is not None:
                actor.submit(Act(mover, random.choice(legal(mover) or ["P"]), None))
            await settle(actor)
        await settle(actor)
        assert back.view["deal"]["turn"] == seat  # the seat is his again: no bot moves for it
        later = await harness.store.actions(actor.row.id, actor.row.game_no)
        assert not any(a.seat == seat and a.by_bot for a in later[played:])


async def test_the_next_deal_waits_until_every_player_has_read_the_score(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path, deal_pause=3600)) as harness:
        actor, conns = await harness.table("coinche", 2)
        rng = random.Random(1)
        while not (actor.game and actor.game.deal_over):
            mover = turn_of(conns)
            assert mover is not None
            deal = mover.view["deal"]
            options = [d["action"] for d in deal["declare"]] or legal(mover)
            # One bid, then passes: a deal nobody takes is dealt again without waiting for anyone.
            taken = any(call["action"] != "P" for call in deal["calls"])
            bid = next((o for o in options if o != "P"), "P")
            actor.submit(Act(mover, ("P" if taken else bid) if "P" in options else rng.choice(options), None))
            await settle(actor)
        assert not actor.game.finished
        assert sorted(actor.waiting) == sorted(c.view["you"] for c in conns)
        actor.submit(Command(conns[0], "continue"))
        await settle(actor)
        assert actor.game.deal_over and conns[1].view["waiting"] == [conns[1].view["you"]]
        actor.submit(Command(conns[1], "continue"))
        await settle(actor)
        assert not actor.game.deal_over and actor.game.deal_no == 1


async def test_a_deal_nobody_took_is_dealt_again_without_a_click(tmp_path: Path) -> None:
    """Nothing to read at the end of a deal nobody took: the next one is dealt at once (issue 35), and the
    players hear that everyone passed."""
    async with Harness(fast_settings(tmp_path, deal_pause=3600)) as harness:
        actor, conns = await harness.table("coinche", 4)
        while actor.game is not None and actor.game.deal_no == 0:
            mover = turn_of(conns)
            assert mover is not None
            actor.submit(Act(mover, "P", None))
            await settle(actor)
        assert actor.game is not None and not actor.game.deal_over and actor.waiting == set()
        heard = [event["kind"] for message in conns[0].messages for event in message.get("events", [])]
        assert "passed_out" in heard and "deal_start" in heard


async def test_a_rematch_starts_a_new_game_at_the_same_table(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, conns = await harness.table("deux", 1)
        await play_random(actor, conns, random.Random(2))
        assert actor.status == "finished" and conns[0].view["match"]["finished"]
        actor.submit(Command(conns[0], "rematch"))
        await settle(actor)
        assert actor.status == "playing" and actor.row.game_no == 2
        view = conns[0].view
        assert view["match"]["history"] == [] and view["deal"]["number"] == 1
        assert len(await harness.store.games()) == 1


async def test_a_bot_that_thinks_past_its_budget_is_replaced_by_the_club_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stuck = threading.Event()

    def never(request: Any) -> str:
        stuck.wait(10)
        return "P"

    monkeypatch.setattr(workers, "decide", never)
    monkeypatch.setattr(workers, "MARGIN", 0.05)
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, conns = await harness.table("coinche", 1)
        if turn_of(conns) is not None:  # the player speaks first: then the bots must
            actor.submit(Act(conns[0], "P", None))
        await settle(actor)
        assert turn_of(conns) is not None  # the bots have spoken, through the fallback
        stuck.set()
        assert harness.pool.fallbacks >= 1
        log = await harness.store.actions(actor.row.id, actor.row.game_no)
        assert any(a.by_bot for a in log)
