"""Duplicate challenges (« défis ») through the real table service, store and bots: every participant gets the
same deals in the same seat and the same bots' replies, a result is recorded as each deal ends, a participant
who leaves resumes where he was (even after a restart), nobody plays twice or watches another's table, and the
ranking is by match points deal by deal."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from harness import LOCAL, Harness, Recorder, connect, disconnect, fast_settings, play_random, settle
from harness.tables import _my_turn
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncConnection
from test_concours import alert, post, sign_up

from atout.errors import AtoutError
from atout.web import schema
from atout.web.accounts import Accounts
from atout.web.actor import Act, Command, Refused, TableActor
from atout.web.app import create_app
from atout.web.challenges import Challenge, ChallengeService, challenge_rules
from atout.web.client import actions
from atout.web.serialize import variant
from atout.web.settings import Settings
from atout.web.states import SeatKind
from atout.web.tokens import account_player

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(180)]


class World:
    """A table service with its challenges, and accounts to play them."""

    def __init__(self, settings: Settings) -> None:
        self.harness = Harness(settings)
        self.challenges = ChallengeService(self.harness.store, self.harness.service, random.Random(7))
        self.harness.service.listeners.append(self.challenges)
        self.accounts = Accounts(self.harness.store, settings)

    async def __aenter__(self) -> World:
        await self.harness.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.harness.__aexit__(*exc)

    async def person(self, name: str) -> int:
        return (await self.accounts.create(name, "secret-password")).id

    async def challenge(self, deals: int = 2, hours: int = 24) -> Challenge:
        closes = datetime.now(UTC) + timedelta(hours=hours)
        return await self.challenges.create("Défi du test", "coinche", deals, closes)

    async def sit(self, challenge: Challenge, account_id: int, name: str) -> tuple[TableActor, Recorder]:
        code = await self.challenges.play(challenge, account_id, name)
        actor = await self.harness.service.actor(code)
        assert actor is not None
        conn = Recorder(account_player(account_id))
        connect(actor, conn)
        await settle(actor)
        return actor, conn


async def play_deals(actor: TableActor, conn: Recorder, rng: random.Random, deals: int) -> None:
    """Play with random legal choices until ``deals`` deals are over (or the match)."""
    assert actor.game is not None
    sent = 0
    while len(actor.game.match.entries) < deals:
        await settle(actor)
        if actor.game.finished or len(actor.game.match.entries) >= deals:
            break
        if not _my_turn(conn):
            if actor.game.deal_over:
                actor.submit(Command(conn, "continue"))
                continue
            raise AssertionError("the participant cannot act")
        options = [d["action"] for d in conn.view["deal"]["declare"]] or actions(conn.view)
        choice = "P" if "P" in options and rng.random() < 0.6 else rng.choice(options)
        actor.submit(Act(conn, choice, f"x{sent}"))
        assert (await conn.reply_to(f"x{sent}"))["type"] == "ack"
        sent += 1
    await settle(actor)


async def test_every_participant_gets_the_same_deals_in_the_same_seat_and_the_same_replies(tmp_path: Path) -> None:
    async with World(fast_settings(tmp_path)) as world:
        challenge = await world.challenge(deals=3)
        tables = [await world.sit(challenge, await world.person(name), name) for name in ("Anne", "Bruno")]
        for actor, conn in tables:
            assert conn.view["you"] == challenge.seat  # South
            assert actor.game is not None and actor.game.deal.dealer == challenge.first_dealer
        (a, _), (b, _) = tables
        assert a.game is not None and b.game is not None
        assert a.game.deal.initial_hands == b.game.deal.initial_hands
        for actor, conn in tables:  # the same choices: the same bots' replies, the same scores
            await play_random(actor, [conn], random.Random(3))
        names = ["x"] * 4
        assert a.game.records(names, "e") == b.game.records(names, "e")
        results = await world.challenges.results(challenge)
        assert [s.rank for s in results.standings] == [1, 1]
        assert [s.percentage for s in results.standings] == [50.0, 50.0]
        assert all(s.deals == 3 for s in results.standings)


async def test_different_play_is_ranked_by_match_points_deal_by_deal(tmp_path: Path) -> None:
    async with World(fast_settings(tmp_path)) as world:
        challenge = await world.challenge(deals=2)
        scores: dict[str, list[int]] = {}
        for seed, name in enumerate(("Anne", "Bruno", "Chloé")):
            actor, conn = await world.sit(challenge, await world.person(name), name)
            await play_random(actor, [conn], random.Random(seed * 11))
            assert actor.game is not None
            side = challenge.rules.side_of(challenge.seat)
            scores[name] = [e.marks[side] - e.marks[1 - side] for e in actor.game.match.entries]
        results = await world.challenges.results(challenge)
        by_name = {results.names[s.participant]: s for s in results.standings}
        for name, own in scores.items():  # 2 a participant beaten, 1 a tie, on each deal (worked out here)
            expected = sum(
                2 * sum(mine > theirs[d] for theirs in _others(scores, name))
                + sum(mine == theirs[d] for theirs in _others(scores, name))
                for d, mine in enumerate(own)
            )
            assert by_name[name].match_points == expected
            assert by_name[name].percentage == pytest.approx(100 * expected / 8, abs=0.01)  # top: 2 deals × 4
            assert by_name[name].points == sum(own)


def _others(scores: dict[str, list[int]], name: str) -> list[list[int]]:
    return [v for k, v in scores.items() if k != name]


async def test_a_deal_is_recorded_as_it_ends_and_the_participant_resumes_after_leaving(tmp_path: Path) -> None:
    settings = fast_settings(tmp_path)
    async with World(settings) as world:
        challenge = await world.challenge(deals=2)
        anne = await world.person("Anne")
        actor, conn = await world.sit(challenge, anne, "Anne")
        await play_deals(actor, conn, random.Random(5), deals=1)
        entry = await world.challenges.entry(challenge, anne)
        assert entry is not None and entry.played == 1 and not entry.finished
        await disconnect(actor, conn)  # the tab is closed: the table waits for her
        code = actor.code
    async with World(settings) as world:  # the server restarted
        again = await world.challenges.get(challenge.code)
        assert again is not None
        actor, conn = await world.sit(again, anne, "Anne")
        assert actor.code == code
        assert actor.game is not None and len(actor.game.match.entries) == 1 and actor.game.deal_no == 1
        await play_random(actor, [conn], random.Random(6))
        entry = await world.challenges.entry(again, anne)
        assert entry is not None and entry.finished and entry.played == 2
        assert await world.challenges.play(again, anne, "Anne") == code  # no second try: the same table


async def test_a_result_is_recorded_once_even_when_the_listener_is_told_twice(tmp_path: Path) -> None:
    async with World(fast_settings(tmp_path)) as world:
        challenge = await world.challenge(deals=1)
        anne = await world.person("Anne")
        actor, conn = await world.sit(challenge, anne, "Anne")
        await play_random(actor, [conn], random.Random(1))
        await world.challenges.game_saved(actor, 0)
        await world.challenges.deal_over(actor)
        results = await world.challenges.results(challenge)
        assert len(results.standings) == 1 and results.standings[0].deals == 1


async def test_a_challenges_table_cannot_be_watched(tmp_path: Path) -> None:
    async with World(fast_settings(tmp_path)) as world:
        challenge = await world.challenge()
        actor, _ = await world.sit(challenge, await world.person("Anne"), "Anne")
        spectator = Recorder(None)
        connect(actor, spectator)
        await settle(actor)
        assert spectator.closed == 4003
        assert [m["code"] for m in spectator.messages] == ["no_spectators"]
        assert spectator not in actor.conns


async def test_a_closed_challenge_takes_no_new_participant(tmp_path: Path) -> None:
    async with World(fast_settings(tmp_path)) as world:
        challenge = await world.challenge(hours=-1)
        with pytest.raises(AtoutError, match="terminé"):
            await world.challenges.play(challenge, await world.person("Anne"), "Anne")


async def test_the_daily_challenge_is_created_once_a_day(tmp_path: Path) -> None:
    async with World(fast_settings(tmp_path)) as world:
        first = await world.challenges.ensure_daily(date(2026, 11, 28), "coinche", 12)
        again = await world.challenges.ensure_daily(date(2026, 11, 28), "coinche", 12)
        other = await world.challenges.ensure_daily(date(2026, 11, 29), "coinche", 12)
        assert first == again and other.id != first.id
        assert first.day == "2026-11-28" and first.deals == 12 and first.rules.name == "coinche"
        assert first.closes_at < other.closes_at
        assert first.seed != other.seed  # drawn at random, never from the date


async def test_a_challenges_rules_deal_every_deal_from_its_own_shuffle(tmp_path: Path) -> None:
    async with World(fast_settings(tmp_path)) as world:
        challenge = await world.challenge()
        assert not challenge.rules.traditional_deal and challenge.rules.redeal == "shuffle"
        assert challenge.rules.deals == 2


async def test_a_challenges_game_stays_hidden_until_the_viewer_has_finished_it(tmp_path: Path) -> None:
    async with World(fast_settings(tmp_path)) as world:
        challenge = await world.challenge(deals=1)
        anne, bruno = await world.person("Anne"), await world.person("Bruno")
        actor, conn = await world.sit(challenge, anne, "Anne")
        await play_random(actor, [conn], random.Random(2))
        entry = await world.challenges.entry(challenge, anne)
        assert entry is not None
        game_id = await world.challenges.game_of(entry)
        assert game_id is not None
        game = await world.harness.store.game(game_id)
        assert game is not None and game.challenge_id == challenge.id
        assert not await world.challenges.hides(game, anne)  # she has finished it
        assert await world.challenges.hides(game, bruno)  # he has not played it yet
        assert await world.challenges.hides(game, None)
        assert game_id not in [g.id for g in await world.harness.store.games()]  # never in the games' list


def app_client(tmp_path: Path) -> TestClient:
    settings = replace(fast_settings(tmp_path), daily_challenge=None)
    return TestClient(create_app(settings), client=LOCAL)


def test_an_organiser_creates_a_challenge_and_a_participant_starts_and_resumes_it(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        sign_up(client, "Organisatrice")  # the first account: the administrator, an organiser
        refused = post(client, "/challenges", {"name": "Défi", "preset": "coinche", "deals": "0", "hours": "24"})
        assert refused.status_code == 400 and "de 1 à 32 donnes" in alert(refused)
        assert "Aucun défi ouvert" in client.get("/challenges").text  # nothing was created
        created = post(
            client,
            "/challenges",
            {"name": "Défi du lundi", "preset": "coinche", "deals": "3", "hours": "24"},
        )
        assert created.status_code == 303
        url = created.headers["location"]
        assert "Défi du lundi" in client.get("/challenges").text
        page = client.get(url).text
        assert "Jouer le défi" in page and 'id="ranking"' not in page
        started = post(client, url + "/play")
        assert started.status_code == 303 and started.headers["location"].startswith("/t/")
        table = client.get(started.headers["location"]).text
        assert 'data-token="' in table and 'data-back="/challenges/' in table
        assert "Reprendre (donne 1 sur 3)" in client.get(url).text
        again = post(client, url + "/play")
        assert again.headers["location"] == started.headers["location"]  # the same table: no second try
        client.cookies.clear()
        assert "Se connecter pour jouer" in client.get(url).text
        assert post(client, url + "/play").status_code == 401  # a guest does not play
        assert "1 participant<" in client.get(url).text.replace(" ·", "<")


def test_only_an_organiser_creates_a_challenge(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        sign_up(client, "Organisatrice")
        client.cookies.clear()
        sign_up(client, "Joueur")
        form = {"name": "Défi", "preset": "coinche", "deals": "3", "hours": "24"}
        assert post(client, "/challenges", form).status_code == 403
        assert "Aucun défi ouvert" in client.get("/challenges").text


def test_a_server_creates_the_days_challenge_when_it_starts(tmp_path: Path) -> None:
    settings = replace(fast_settings(tmp_path), daily_challenge="contree", daily_deals=6)
    with TestClient(create_app(settings), client=LOCAL) as client:
        listed = client.get("/challenges").text
        today = datetime.now().date().strftime("%d/%m/%Y")
        assert f"Défi du jour du {today}" in listed and "Belote contrée · 6 donnes" in listed
    with TestClient(create_app(settings), client=LOCAL) as client:  # restarted: the same day, the same one
        assert client.get("/challenges").text.count("Défi du jour du") == 1


async def test_nobody_else_sits_at_a_challenges_table_and_its_player_does_not_leave(tmp_path: Path) -> None:
    async with World(fast_settings(tmp_path)) as world:
        challenge = await world.challenge()
        actor, conn = await world.sit(challenge, await world.person("Anne"), "Anne")
        partner = (challenge.seat + 2) % 4
        with pytest.raises(Refused, match="competition_seat"):  # a friend in a bot's seat would see its hand
            await world.harness.service.sit(actor.code, partner, "Ami", None)
        actor.submit(Command(conn, "leave"))  # a bot would play the deal she does not like
        await settle(actor)
        assert conn.messages[-1]["code"] == "competition_seat"
        assert [s.kind for s in actor.seats].count(SeatKind.HUMAN) == 1 and actor.seats[
            challenge.seat
        ].player == conn.player


async def test_who_stops_after_a_good_deal_is_not_ranked_until_he_finishes(tmp_path: Path) -> None:
    async with World(fast_settings(tmp_path)) as world:
        challenge = await world.challenge(deals=2)
        for seed, name in enumerate(("Anne", "Bruno")):
            actor, conn = await world.sit(challenge, await world.person(name), name)
            await play_random(actor, [conn], random.Random(seed))
        actor, conn = await world.sit(challenge, await world.person("Chloé"), "Chloé")
        await play_deals(actor, conn, random.Random(9), deals=1)
        results = await world.challenges.results(challenge)
        assert sorted(results.names.values()) == ["Anne", "Bruno"]  # ranked: those who finished
        assert results.unfinished == [("Chloé", 1)]
        assert all(len(lines) and sum(line.count for line in lines) == 2 for lines in results.field.values())


async def test_what_is_played_after_the_close_does_not_count(tmp_path: Path) -> None:
    async with World(fast_settings(tmp_path)) as world:
        challenge = await world.challenge(deals=2)
        anne = await world.person("Anne")
        actor, conn = await world.sit(challenge, anne, "Anne")
        await play_deals(actor, conn, random.Random(5), deals=1)

        async def close(connection: AsyncConnection) -> None:
            c = schema.challenges.c
            await connection.execute(
                update(schema.challenges).where(c.id == challenge.id).values(closes_at=datetime.now(UTC))
            )

        await world.harness.store.transaction(close)
        closed = await world.challenges.get(challenge.code)
        assert closed is not None and not closed.open()
        with pytest.raises(AtoutError, match="terminé"):  # her unfinished table is closed to her too
            await world.challenges.play(closed, anne, "Anne")
        await play_random(actor, [conn], random.Random(6))  # played on anyway, by its address
        entry = await world.challenges.entry(closed, anne)
        assert entry is not None and entry.played == 1 and not entry.finished


def test_a_challenges_table_says_its_number_of_deals_not_a_target() -> None:
    rules = challenge_rules("coinche", 12)
    assert variant(rules, "club", "fr").details == "en 12 donnes · robots club"
    assert variant(rules, "club", "en").details == "12 deals · club bots"
