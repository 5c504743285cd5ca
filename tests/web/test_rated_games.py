"""Ratings at the web table: a rated game between accounts, finished through the real actor, moves their Glicko-2
ratings exactly as :mod:`atout.competitions.ratings` computes; an unrated table, or one a bot sat at, changes
nothing; a retry rates once; the ladder, the profile and the lobby show the figures; a guest is refused a rated
table, and a rated table does not start with a bot in it.

The worked example (every test of four new players checks it): four new accounts (1500, RD 350, σ 0.06), North
and South beat East and West. Each player meets the opposing pair as one player: its mean rating 1500 and
deviation √((350² + 350²) / 2) = 350. On Glicko-2's scale φ = 350 / 173.7178 = 2.01476, so
g(φ) = 1 / √(1 + 3φ² / π²) = 0.66907, the expected score E = 1 / (1 + e⁰) = 0.5 and the variance
v = 1 / (g² E (1 − E)) = 8.93547. The volatility hardly moves (σ' = 0.0599997), φ* = √(φ² + σ'²) = 2.01566, and
φ' = 1 / √(1 / φ*² + 1 / v) = 1.67122, i.e. RD' = 173.7178 φ' = 290.32. The winners' rating is
1500 + 173.7178 φ'² g (1 − 0.5) = 1500 + 162.31 = 1662.31, the losers' 1500 − 162.31 = 1337.69: shown 1662 and
1338, each ± 581 (2 RD'), provisional (RD' > 110).
"""

from __future__ import annotations

import asyncio
import html
import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from harness import LOCAL, Harness, Recorder, connect, fast_settings, legal, play_random, settle
from harness.sockets import Session
from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection
from test_concours import Visitor, csrf_of

from atout.competitions.ratings import Rating, rate_partnerships, rate_period
from atout.notation import seat_letters
from atout.rules import Ruleset
from atout.web import schema
from atout.web.accounts import Account
from atout.web.actor import Act, Command, Refused, TableActor
from atout.web.app import create_app
from atout.web.ratings import START, RatingListener, Ratings, game_results, new_ratings
from atout.web.states import SeatKind
from atout.web.store import Store
from atout.web.tokens import account_player

pytestmark = pytest.mark.timeout(180)

PASSWORD = "secret-password"


def test_the_worked_example_four_new_players() -> None:
    """The module's worked example: a win of two new partners over two new opponents."""
    after = new_ratings(4, [1, 2, 3, 4], dict.fromkeys((1, 2, 3, 4), START), game_results(4, {0: 502, 1: 160}, 0))
    assert after[1] == after[3] and after[2] == after[4]
    assert round(after[1].rating, 2) == 1662.31 and round(after[2].rating, 2) == 1337.69
    assert round(after[1].deviation, 2) == round(after[2].deviation, 2) == 290.32
    assert round(after[1].volatility, 7) == 0.0599997
    # Three players: each against each other, by the final totals (a tie is a draw).
    assert game_results(3, {0: 500, 1: 120, 2: 500}, 0) == [(0, 1, 1.0), (0, 2, 0.5), (1, 2, 0.0)]


# ------------------------------------------------------------------ through the web app
def sign_up(client: TestClient, name: str) -> None:
    data = {"name": name, "password": PASSWORD, "csrf": csrf_of(client)}
    assert client.post("/signup", data=data, follow_redirects=False).status_code == 303


def create_rated(client: TestClient, preset: str = "coinche", **extra: Any) -> Any:
    body = {"preset": preset, "name": "typed", "rated": True, **extra}
    return client.post("/api/tables", json=body, headers={"X-CSRF-Token": csrf_of(client)})


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page)).replace("\u00a0", " ")


def words(page: str) -> str:
    return " ".join(text_of(page).split())


async def drive(actor: TableActor, players: list[str], seed: int) -> None:
    """Connect each seated account as a recording client, start the table, play at random to the match's end."""
    conns = [Recorder(player) for player in players]
    for conn in conns:
        connect(actor, conn)
    await settle(actor)
    assert not actor.row.rated or actor.accounts_seated
    actor.submit(Command(next(c for c in conns if c.player == actor.row.host), "start"))
    await play_random(actor, conns, random.Random(seed))
    await settle(actor)
    assert actor.status == "finished"


def test_a_rated_game_between_four_accounts_moves_their_ratings_once(tmp_path: Path, database_url: str) -> None:
    app = create_app(fast_settings(tmp_path, database_url=database_url))
    with TestClient(app, client=LOCAL) as client:
        names = ["Ann", "Bob", "Cat", "Dan"]
        visitors = [Visitor(client) for _ in names]
        for visitor, name in zip(visitors, names, strict=True):
            with visitor as browser:
                sign_up(browser, name)
        with visitors[0] as ann:
            created = create_rated(ann)
            assert created.status_code == 200, created.text
            code = created.json()["code"]
        letters = seat_letters(Ruleset.preset("coinche"))
        free = [n for n in range(4) if letters[n] != "S"]
        for visitor, seat in zip(visitors[1:], free, strict=True):
            with visitor as browser:
                sat = browser.post(f"/api/tables/{code}/seats", json={"seat": seat, "name": "anything"})
                assert sat.status_code == 200, sat.text
            if seat == free[0]:  # three seats taken of four: the host cannot start yet
                with visitors[0] as ann, ann.websocket_connect(f"/ws/{code}") as ws:
                    session = Session(ws)
                    token = re.search(r'data-token="([^"]+)"', ann.get(f"/t/{code}").text)
                    assert token is not None  # the table page gives a signed-in account his seat's token
                    session.hello(token[1])
                    session.send({"type": "start"})
                    refused = session.until(lambda m: m["type"] == "error")
                    assert refused["code"] == "rated_seats" and "pas de robot" in refused["message"]
        service = app.state.service
        actor = client.portal.call(service.actor, code)
        accounts = {s.seat: int(str(s.player)[1:]) for s in actor.seats}
        assert sorted(s.name for s in actor.seats) == names  # each under his account's name, not the typed one
        client.portal.call(drive, actor, [account_player(accounts[n]) for n in range(4)], 5)

        ratings: Ratings = app.state.ratings
        game = actor.game
        assert game is not None
        winners = game.match.winner
        assert winners in (0, 1)
        pairs = ((accounts[0], accounts[2]), (accounts[1], accounts[3]))
        start = dict.fromkeys(accounts.values(), Rating())
        expected = rate_partnerships(start, [(pairs[0], pairs[1], 1.0 if winners == 0 else 0.0)])
        stored = {a: client.portal.call(ratings.of_account, a) for a in accounts.values()}
        for account, rows in stored.items():
            [row] = rows
            assert row.variant == "coinche" and row.games == 1
            assert row.rating == pytest.approx(expected[account].rating, abs=1e-9)
            assert row.deviation == pytest.approx(expected[account].deviation, abs=1e-9)
            assert row.volatility == pytest.approx(expected[account].volatility, abs=1e-12)
        won = {a for a in pairs[winners]}
        assert {round(rows[0].rating, 2) for a, rows in stored.items() if a in won} == {1662.31}
        assert {round(rows[0].rating, 2) for a, rows in stored.items() if a not in won} == {1337.69}

        # The table calls its listeners again after a failure: the game is rated once.
        [game_id] = client.portal.call(game_ids, ratings.store)
        client.portal.call(RatingListener(ratings).game_saved, actor, game_id)
        again = {a: client.portal.call(ratings.of_account, a)[0] for a in accounts.values()}
        assert all(again[a].games == 1 and again[a].rating == stored[a][0].rating for a in accounts.values())

        # The ladder lists them apart, as provisional (RD 290 > 110); the profile gives rating, ± 2 RD and games.
        winner_name = next(s.name for s in actor.seats if accounts[s.seat] in won)
        ladder = words(client.get("/ladder?variant=coinche").text)
        assert "Cotes provisoires" in ladder and "Personne n'a encore de cote établie" in ladder
        assert f"{winner_name} 1662 ± 581 1" in ladder and ladder.count("1338 ± 581 1") == 2
        assert "Les robots (classement de l'arène)" in ladder and "Robot expert 1959" in ladder
        profile = words(client.get(f"/players/{winner_name.lower()}").text)
        assert "Belote coinchée (FFB) provisoire 1662 ± 581 1" in profile
        assert client.get("/players/Nobody").status_code == 404
        english = words(client.get("/ladder?variant=bazar&lang=en").text)
        assert "Bot expert 2043" in english and "Nobody has an established rating" in english
        with visitors[0] as ann:
            assert '/players/Ann"' in ann.get("/account").text


async def game_ids(store: Store) -> list[int]:
    async def work(conn: AsyncConnection) -> list[int]:
        return [int(i) for i in (await conn.execute(select(schema.rating_games.c.game_id))).scalars()]

    return await store.transaction(work)


def test_a_guest_is_refused_a_rated_table(tmp_path: Path) -> None:
    with TestClient(create_app(fast_settings(tmp_path)), client=LOCAL) as client:
        refused = create_rated(client)
        assert refused.status_code == 401
        assert (
            refused.json()["detail"]
            == "Une table classée se crée connecté\u00a0: connectez-vous d'abord à votre compte."
        )
        english = client.post("/api/tables?lang=en", json={"preset": "coinche", "name": "Eve", "rated": True})
        assert english.json()["detail"] == "A rated table is created signed in: sign in to your account first."
        host = Visitor(client)
        with host as browser:
            sign_up(browser, "Ann")
            practice = create_rated(browser, practice=True)
            assert practice.status_code == 400 and "entraînement" in practice.json()["detail"]
            no_token = browser.post("/api/tables", json={"preset": "coinche", "name": "Ann", "rated": True})
            assert no_token.status_code == 403  # a rated table is made by its account's own page only
            code = create_rated(browser, "deux").json()["code"]
        sat = client.post(f"/api/tables/{code}/seats", json={"seat": 0, "name": "Eve"})
        assert sat.status_code == 400
        assert sat.json()["detail"] == "Seuls les joueurs connectés à leur compte s'assoient à une table classée."
        home = client.get("/").text
        assert 'name="rated"' in home and "Partie classée" in home


# ------------------------------------------------------------------ in-process tables
async def add_accounts(store: Store, *names: str) -> list[Account]:
    async def work(conn: AsyncConnection) -> list[Account]:
        made = []
        for name in names:
            values = dict(name=name, name_key=name.casefold(), password="x", role="player")
            result = await conn.execute(insert(schema.accounts).values(created_at=schema_now(), **values))
            made.append(Account(int(result.inserted_primary_key[0]), name, "player"))  # type: ignore[index]
        return made

    return await store.transaction(work)


def schema_now() -> datetime:
    return datetime.now(UTC)


async def rows(store: Store) -> list[tuple[int, str, int]]:
    async def work(conn: AsyncConnection) -> list[tuple[int, str, int]]:
        r = schema.ratings.c
        found = await conn.execute(select(r.account_id, r.variant, r.games).order_by(r.account_id))
        return [(int(a), str(v), int(g)) for a, v, g in found]

    return await store.transaction(work)


async def rated_deux(harness: Harness, ann: Account, bob: Account) -> TableActor:
    """A rated table of belote à deux, Ann at seat 0 (its host) and Bob at seat 1, not started."""
    code, _ = await harness.service.create("deux", {}, "club", 0, "x", rated=True, account=ann)
    await harness.service.sit(code, 1, "y", None, bob)
    actor = await harness.service.actor(code)
    assert actor is not None
    return actor


@pytest.mark.anyio
async def test_two_accounts_at_belote_a_deux_are_rated_player_against_player(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        ratings = Ratings(harness.store)
        harness.service.listeners.append(RatingListener(ratings))
        ann, bob = await add_accounts(harness.store, "Ann", "Bob")
        actor = await rated_deux(harness, ann, bob)
        await drive(actor, [account_player(ann.id), account_player(bob.id)], 3)
        assert actor.game is not None
        scores = actor.game.match.scores
        score = 1.0 if scores[0] > scores[1] else 0.5 if scores[0] == scores[1] else 0.0
        expected = rate_period({ann.id: Rating(), bob.id: Rating()}, [(ann.id, bob.id, score)])
        for account in (ann, bob):
            [row] = await ratings.of_account(account.id)
            assert (row.variant, row.games) == ("deux", 1)
            assert row.rating == pytest.approx(expected[account.id].rating, abs=1e-9)


@pytest.mark.anyio
async def test_an_unrated_table_or_a_bot_at_a_rated_one_changes_nothing(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        ratings = Ratings(harness.store)
        harness.service.listeners.append(RatingListener(ratings))
        ann, bob = await add_accounts(harness.store, "Ann", "Bob")
        # Two accounts at a table that is not rated.
        code, _ = await harness.service.create("deux", {"target": 1}, "club", 0, "x", account=ann)
        await harness.service.sit(code, 1, "y", None, bob)
        actor = await harness.service.actor(code)
        assert actor is not None and not actor.row.rated
        await drive(actor, [account_player(ann.id), account_player(bob.id)], 4)
        # A rated table with a seat still open does not start: no bot fills a rated game's seat.
        code, _ = await harness.service.create("deux", {}, "club", 0, "x", rated=True, account=ann)
        actor = await harness.service.actor(code)
        assert actor is not None and actor.row.bots == "debutant" and not actor.accounts_seated
        conn = Recorder(account_player(ann.id))
        connect(actor, conn)
        actor.submit(Command(conn, "start"))
        await settle(actor)
        assert actor.status == "lobby" and conn.messages[-1]["code"] == "rated_seats"
        with pytest.raises(Refused, match="error_options"):  # one ladder a variant: its own rules
            await harness.service.create("deux", {"target": 1}, "club", 0, "x", rated=True, account=ann)
        assert await rows(harness.store) == []
        assert await game_ids(harness.store) == []


@pytest.mark.anyio
async def test_the_lobby_shows_a_seated_accounts_rating_in_the_tables_variant(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        ratings = Ratings(harness.store)
        ratings.attach(harness.service.lobby)
        ann, bob = await add_accounts(harness.store, "Ann", "Bob")
        await seed_rating(harness.store, ann.id, "coinche", Rating(1612.4, 80.0))
        await seed_rating(harness.store, ann.id, "deux", Rating(1400.0, 200.0))
        await seed_rating(harness.store, bob.id, "coinche", Rating(1480.0, 150.0))
        code, _ = await harness.service.create("coinche", {}, "club", None, "x", rated=True, account=ann)
        await harness.service.sit(code, 0, "y", None, bob)
        actor = await harness.service.actor(code)
        assert actor is not None
        for player in (account_player(ann.id), account_player(bob.id)):
            connect(actor, Recorder(player))
        await settle(actor)
        lobby = harness.service.lobby
        lobby.publish()  # the ratings are not in memory yet: read, then the table is listed anew
        await asyncio.gather(*ratings._tasks)
        lobby.publish()
        row = lobby.tables[code]
        assert row.rated
        shown = {s.name: (s.rating, s.provisional) for s in row.seats if s.kind == "human"}
        assert shown == {"Ann": (1612, False), "Bob": (1480, True)}
        assert ratings.cached(ann.id, "coinche") is not None  # the next publication reads nothing


async def seed_rating(store: Store, account: int, variant: str, rating: Rating) -> None:
    async def work(conn: AsyncConnection) -> None:
        values = dict(rating=rating.rating, deviation=rating.deviation, volatility=rating.volatility)
        await conn.execute(
            insert(schema.ratings).values(
                account_id=account, variant=variant, games=7, updated_at=schema_now(), **values
            )
        )

    await store.transaction(work)


@pytest.mark.anyio
async def test_a_rated_game_over_but_not_saved_when_the_server_stopped_is_rated_at_its_restart(tmp_path: Path) -> None:
    settings = fast_settings(tmp_path)
    async with Harness(settings) as harness:
        ratings = Ratings(harness.store)
        harness.service.listeners.append(RatingListener(ratings))
        ann, bob = await add_accounts(harness.store, "Ann", "Bob")
        actor = await rated_deux(harness, ann, bob)
        code = actor.code
        await drive(actor, [account_player(ann.id), account_player(bob.id)], 5)
        assert len(await rows(harness.store)) == 2

        async def unsave(conn: AsyncConnection) -> None:  # as if it stopped between the last action and the saving
            for table in (schema.ratings, schema.rating_games, schema.games):
                await conn.execute(delete(table))
            t = schema.tables.c
            await conn.execute(update(schema.tables).where(t.code == code).values(status="playing"))

        await harness.store.transaction(unsave)
    restarted = Harness(settings)  # nobody opens the table
    restarted.service.listeners.append(RatingListener(Ratings(restarted.store)))
    async with restarted as harness:
        actor = harness.service.actors[code]
        await settle(actor)
        assert actor.status == "finished"
        assert [(v, g) for _, v, g in await rows(harness.store)] == [("deux", 1), ("deux", 1)]


@pytest.mark.anyio
async def test_during_a_rated_game_a_seat_goes_back_only_to_the_account_whose_result_it_is(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        ann, bob, eve = await add_accounts(harness.store, "Ann", "Bob", "Eve")
        actor = await rated_deux(harness, ann, bob)
        code = actor.code
        conns = [Recorder(account_player(ann.id)), Recorder(account_player(bob.id))]
        for conn in conns:
            connect(actor, conn)
        actor.submit(Command(conns[0], "start"))
        await settle(actor)
        sent = 0
        while not any(a.player == account_player(bob.id) for a in await harness.store.actions(actor.row.id, 1)):
            mover = next(c for c in conns if c.view["deal"]["turn"] == c.view["you"])
            actor.submit(Act(mover, legal(mover)[0], f"a{sent}"))
            assert (await mover.reply_to(f"a{sent}"))["type"] == "ack"
            sent += 1
            await settle(actor)
        actor.submit(Command(conns[1], "leave"))  # Bob leaves: a beginner bot plays for him
        await settle(actor)
        assert actor.seats[1].kind is SeatKind.BOT and actor.seats[1].name == "debutant"
        with pytest.raises(Refused, match="error_not_your_seat"):  # his result: nobody else takes it over
            await harness.service.sit(code, 1, "z", None, eve)
        await harness.service.sit(code, 1, "y", None, bob)  # he comes back to it
        assert actor.seats[1].player == account_player(bob.id) and actor.seats[1].name == "Bob"
