"""Learning at the table: the bots' pace chosen per table, and practice tables (the club bot's hint on one's turn,
and what each of one's cards cost double dummy after each deal)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from harness import WAIT, Harness, Recorder, connect, fast_settings, legal, settle
from pydantic import TypeAdapter

from atout.actions import Play
from atout.bots.heuristic import HeuristicAgent
from atout.bots.reasons import reason
from atout.deal import Phase
from atout.i18n import tr
from atout.match import Match
from atout.observation import Observation
from atout.rules import Ruleset
from atout.web.actor import PACES, Act, Command, Refused, TableActor
from atout.web.protocol import ServerMessage
from atout.web.workers import BotRequest

pytestmark = pytest.mark.anyio
SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


async def practice_table(
    harness: Harness, practice: bool = True, pace: str = "normal", preset: str = "coinche"
) -> tuple[TableActor, Recorder]:
    """A started table with one player (South's seat, 0) and three bots."""
    code, token = await harness.service.create(preset, {}, "club", 0, "Élève", pace=pace, practice=practice)
    actor = await harness.service.actor(code)
    assert actor is not None
    conn = Recorder(harness.service.player(token, code))
    connect(actor, conn)
    actor.submit(Command(conn, "start"))
    await settle(actor)
    return actor, conn


def of_type(conn: Recorder, kind: str) -> list[dict[str, Any]]:
    for message in conn.messages:
        SERVER.validate_python(message)
    return [m for m in conn.messages if m["type"] == kind]


async def my_turn(actor: TableActor, conn: Recorder, rng: random.Random) -> None:
    """Play random legal actions until the player is to act, his view offering a choice."""
    while True:
        await settle(actor)
        game = actor.game
        assert game is not None and not game.finished
        if game.deal_over:
            actor.submit(Command(conn, "continue"))
            continue
        if game.turn == 0 and legal(conn):
            return
        await conn.until(lambda: actor.game is not None and actor.game.turn == 0 and bool(legal(conn)))


async def background(actor: TableActor) -> None:
    """Wait until the practice table's hints and analyses under way are done, and what they sent handled."""
    await settle(actor)  # the commands queued so far start them
    async with asyncio.timeout(WAIT):
        while actor._practice:
            await asyncio.wait(set(actor._practice))
    await settle(actor)


# ------------------------------------------------------------------ pace
async def test_the_bots_pace_is_kept_with_the_table_and_sets_their_delay(tmp_path: Path, database_url: str) -> None:
    settings = fast_settings(tmp_path, database_url=database_url, bot_pace=1.0)
    async with Harness(settings) as harness:
        codes = {}
        for pace in ("slow", "normal", "fast"):
            codes[pace], _ = await harness.service.create("coinche", {}, "club", 0, "Alice", pace=pace)
        practice, _ = await harness.service.create("coinche", {}, "club", 0, "Alice", practice=True)
        with pytest.raises(Refused):
            await harness.service.create("coinche", {}, "club", 0, "Alice", pace="frantic")
    async with Harness(settings) as harness:  # a new server on the same database: the pace is still the table's
        actors = {pace: await harness.service.actor(code) for pace, code in codes.items()}
        delays = {}
        for pace, actor in actors.items():
            assert actor is not None and actor.row.pace == pace
            delays[pace] = actor.bot_delay()
        assert delays == {pace: pytest.approx(PACES[pace]) for pace in delays}
        assert delays["fast"] < delays["normal"] < delays["slow"]  # a fast table's bots move sooner
        kept = await harness.service.actor(practice)
        assert kept is not None and kept.row.practice is True and kept.row.pace == "normal"
        assert [actor.row.practice for actor in actors.values() if actor is not None] == [False, False, False]


async def test_the_create_api_takes_the_pace_and_the_practice_flag(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from atout.web.app import create_app

    with TestClient(create_app(fast_settings(tmp_path))) as client:
        made = client.post(
            "/api/tables", json={"preset": "coinche", "name": "Alice", "pace": "fast", "practice": True}
        ).json()
        actor = client.portal.call(client.app.state.service.actor, made["code"])  # type: ignore[attr-defined]
        assert (actor.row.pace, actor.row.practice) == ("fast", True)
        refused = client.post("/api/tables", json={"preset": "coinche", "name": "Alice", "pace": "frantic"})
        assert refused.status_code == 422


# ------------------------------------------------------------------ hints
async def test_a_hint_is_refused_at_a_table_that_is_not_for_practice(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, conn = await practice_table(harness, practice=False)
        conn.lang = "en"
        await my_turn(actor, conn, random.Random(1))
        actor.submit(Command(conn, "hint"))
        await background(actor)
        assert of_type(conn, "hint") == []
        assert of_type(conn, "error")[-1] == {
            "type": "error",
            "code": "not_practice",
            "message": tr("web.practice.error.not_practice", "en"),
            "id": None,
        }
        assert actor.row.practice is False and not any(m.get("practice") for m in conn.messages)


async def test_a_hint_answers_the_asker_alone_with_a_legal_action_and_its_reason(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, conn = await practice_table(harness)
        assert conn.messages[0]["type"] == "snapshot" and conn.messages[0]["practice"] is True
        spectator = Recorder(None)
        connect(actor, spectator)
        # The hint is computed by the bot pool from the seat's own observation, never from the deal.
        asked: list[BotRequest] = []
        decide = harness.pool.decide

        async def spy(request: BotRequest) -> Any:
            asked.append(request)
            return await decide(request)

        harness.pool.decide = spy  # type: ignore[method-assign]
        rng = random.Random(2)
        for _ in range(6):  # at several turns: calls and cards
            await my_turn(actor, conn, rng)
            choices = legal(conn)
            actor.submit(Command(conn, "hint"))
            await background(actor)
            hint = of_type(conn, "hint")[-1]
            assert hint["action"] in choices
            assert hint["text"] == tr(f"web.practice.reason.{hint['reason']}", "fr") and hint["label"]
            if actor.game is not None and actor.game.deal.phase.value == "play":
                assert hint["card"]["code"] == hint["action"][:2]
            actor.submit(Act(conn, rng.choice(choices), None))
        hints = [r for r in asked if r.key[0].endswith(":hint")]
        assert len(hints) == 6
        assert all(isinstance(r.observation, Observation) and r.observation.seat == 0 for r in hints)
        assert of_type(spectator, "hint") == []
        # Not one's turn (here, before the game starts): refused, in the player's language.
        waiting, token = await harness.service.create("coinche", {}, "club", 0, "Élève", practice=True)
        lobby = await harness.service.actor(waiting)
        assert lobby is not None
        early = Recorder(harness.service.player(token, waiting), lang="en")
        connect(lobby, early)
        lobby.submit(Command(early, "hint"))
        await background(lobby)
        assert of_type(early, "error")[-1]["message"] == tr("web.practice.error.not_your_turn", "en")
        assert of_type(early, "hint") == []


async def test_a_hint_that_comes_after_the_turn_has_passed_is_dropped(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, conn = await practice_table(harness)
        await my_turn(actor, conn, random.Random(3))
        asked: list[BotRequest] = []
        decide = harness.pool.decide

        async def spy(request: BotRequest) -> Any:
            asked.append(request)
            return await decide(request)

        harness.pool.decide = spy  # type: ignore[method-assign]
        actor.submit(Command(conn, "hint"))
        actor.submit(Act(conn, legal(conn)[0], None))  # the player moves on before the hint is ready
        await background(actor)
        assert [r.key[0] for r in asked if r.key[0].endswith(":hint")] == [f"{actor.code}:hint"]  # it was computed
        assert of_type(conn, "hint") == []  # and dropped


# ------------------------------------------------------------------ costs
async def test_after_a_deal_a_practice_player_gets_his_own_cards_costs(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, conn = await practice_table(harness)
        rng = random.Random(4)
        while True:  # play until a deal with a contract is over
            await my_turn(actor, conn, rng)
            actor.submit(Act(conn, rng.choice(legal(conn)), None))
            await settle(actor)
            game = actor.game
            if game is not None and game.deal_over and game.deal.contract is not None:
                break
        deal = actor.game.deal if actor.game is not None else None
        assert deal is not None
        await background(actor)
        costs = of_type(conn, "costs")[-1]
        assert actor.game is not None and costs["deal"] == actor.game.deal_no and costs["done"] is True
        mine = {c.code for t in deal.tricks for i, c in enumerate(t.cards) if t.seat_of(i, 4) == 0}
        played = [card["card"]["code"] for card in costs["cards"]]
        assert len(played) == 8 and set(played) == mine  # his own eight cards, each once
        for card in costs["cards"]:
            best = [b["code"] for b in card["best"]]
            assert card["cost"] >= 0 and (card["cost"] > 0 or card["card"]["code"] in best)


# ------------------------------------------------------------------ reasons
@pytest.mark.parametrize("preset", ["coinche", "classique", "deux"])
def test_every_reason_a_club_player_gives_has_words_in_both_languages(preset: str) -> None:
    """Whole deals played by the club bot: each of its choices gets a reason, from the seat's observation, that the
    catalogue words in French and in English; a card forced on the player says so."""
    agent = HeuristicAgent("club")
    found: set[str] = set()
    for seed in range(6):
        deal = Match(Ruleset.preset(preset), seed=seed).new_deal()
        while deal.phase is not Phase.DONE and deal.turn is not None:
            seat = deal.turn
            obs = deal.observation(seat)
            action = agent.act(obs)
            why = reason(obs, action)
            found.add(why)
            for lang in ("fr", "en"):
                assert not tr(f"web.practice.reason.{why}", lang).startswith("web."), (why, lang)
            cards = {a.card for a in obs.legal_actions() if isinstance(a, Play)}
            assert (why == "only") == (len(cards) == 1)
            deal.apply(action, seat)
    assert "only" in found and found & {"pass", "pass_take"} and found & {"win", "win_last", "cheap", "load"}
