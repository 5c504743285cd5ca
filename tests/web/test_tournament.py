"""Online tournaments, on SQLite and PostgreSQL: a concours played at web tables. The draw seats each side at
its round's table by the players' accounts (bots where a side has no one, a bye as with cards); a table plays on
with nobody connected, bots standing in for absent players after the organiser's delay; its finished game goes
into its sheet and the standings by itself, once; the organiser pauses the tables and gives a seat to another
account or a bot, each change logged. Through the app: creation, registration by account names (unknown names
refused in words), the player's call and the desk.
"""

from __future__ import annotations

import asyncio
import html
import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from harness import LOCAL, WAIT, Recorder, connect, fast_settings, settle
from test_concours import Visitor, alert, post, sign_up

from atout.errors import AtoutError
from atout.rules import Ruleset
from atout.web.accounts import Account, Accounts
from atout.web.actor import Act, TableActor
from atout.web.app import create_app
from atout.web.concours import ConcoursService
from atout.web.service import TableService
from atout.web.sheets import SheetStatus
from atout.web.states import SeatKind, TableStatus
from atout.web.store import Store
from atout.web.tokens import account_player
from atout.web.tournament import Tournament
from atout.web.workers import BotPool

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(180)]

#: A round is one deal of coinche: short games.
ONE_DEAL = Ruleset.preset("coinche", target=0, deals=1)


class Finished:
    """A listener after the tournament's: tells when a table's game was saved (and the result recorded)."""

    def __init__(self) -> None:
        self.saved: asyncio.Queue[TableActor] = asyncio.Queue()

    async def deal_over(self, actor: TableActor) -> None:
        pass

    async def game_saved(self, actor: TableActor, game_id: int) -> None:
        self.saved.put_nowait(actor)


@dataclass
class Parts:
    store: Store
    tables: TableService
    concours: ConcoursService
    accounts: Accounts
    tournament: Tournament
    finished: Finished

    async def people(self, *names: str) -> list[Account]:
        return [await self.accounts.create(name, "secret-password") for name in names]

    async def online(self, absent_delay: int = 3600, draw: str = "random") -> str:
        organiser = (await self.people("Organisatrice"))[0]
        return await self.concours.create(
            organiser.id, "Organisatrice", "En ligne", ONE_DEAL, 2, draw, "points", mode="online",
            absent_delay=absent_delay, seed=7,
        )  # fmt: skip

    async def actor(self, code: str, table_no: int = 1) -> TableActor:
        board = await self.concours.board(code)
        assert board is not None
        found = {t.sheet.table_no: t.code for t in await self.tournament.round_tables(board)}
        actor = await self.tables.actor(found[table_no])
        assert actor is not None
        return actor


@asynccontextmanager
async def parts(tmp_path: Path, database_url: str) -> AsyncIterator[Parts]:
    """The app's parts, as :func:`~atout.web.app.create_app` joins them, driven directly (bots in a thread)."""
    settings = fast_settings(tmp_path, database_url=database_url)
    store = Store(settings.url(), (0.05, 0.1))
    pool = BotPool(settings.bot_backend, settings.bot_workers)
    tables = TableService(store, pool, settings, random.Random(0))
    concours = ConcoursService(store)
    accounts = Accounts(store, settings)
    tournament = Tournament(concours, tables, accounts)
    finished = Finished()
    tables.listeners += [tournament, finished]
    await store.open()
    await pool.start(levels=())
    await tables.start()
    try:
        yield Parts(store, tables, concours, accounts, tournament, finished)
    finally:
        await tables.close()
        await pool.close()
        await store.close()


async def test_the_draw_seats_each_side_by_its_accounts(tmp_path: Path, database_url: str) -> None:
    async with parts(tmp_path, database_url) as p:
        code = await p.online()
        a, b, c, d = await p.people("Anne", "Bruno", "Chloé", "Denis")
        await p.tournament.register(code, "Les As", ["anne", "Bruno"], "Org", desk=True)
        await p.tournament.register(code, "Carreau", ["Chloé", "Denis"], "Org", desk=True)
        await p.tournament.register(code, "Robots", ["", ""], "Org", desk=True)  # a team of bots only
        with pytest.raises(AtoutError) as unknown:
            await p.tournament.register(code, "Fantômes", ["Personne"], "Org", desk=True)
        assert (
            unknown.value.message("fr")
            == "Il n'y a pas de compte «\u00a0Personne\u00a0»\u00a0: chaque joueur crée le sien, puis on le nomme ici."
        )
        with pytest.raises(AtoutError) as taken:  # an account plays for one team
            await p.tournament.register(code, "Encore", ["Anne"], "Org", desk=True)
        assert "Anne" in taken.value.message("en") and "already registered" in taken.value.message("en")
        assert await p.tournament.draw(code, "Org") == 1
        board = await p.concours.board(code)
        assert board is not None
        tables = await p.tournament.round_tables(board)
        assert len(tables) == 1 and [t.status for t in board.round(1)] == [SheetStatus.OPEN, SheetStatus.BYE]
        table = tables[0]
        actor = await p.tables.actor(table.code)
        assert actor is not None and actor.status is TableStatus.PLAYING  # the match started at once
        row = actor.row
        assert (row.concours_id, row.round_no, row.table_no, row.seat_timeout) == (board.concours.id, 1, 1, 3600.0)
        by_side = {0: [0, 2], 1: [1, 3]}
        for side, entrants in enumerate(table.sheet.sides):
            players = [acc for e in entrants for acc in board.entrant(e).accounts]
            seated = [actor.seats[s] for s in by_side[side]]
            if players:  # each player in his own account's seat, side 0 in seats 0 and 2
                assert [s.player for s in seated] == [account_player(i) for i in players]
                assert all(s.kind is SeatKind.HUMAN for s in seated)
            else:
                assert all(s.kind is SeatKind.BOT for s in seated)
        playing = {a.id, b.id, c.id, d.id} & {
            i for e in table.sheet.sides for x in e for i in board.entrant(x).accounts
        }
        for person in (a, b, c, d):
            call = await p.tournament.call(board, person.id)
            if person.id in playing:
                assert call.code == table.code and call.table_no == 1
            else:
                assert call.code is None and call.bye
        assert await p.tournament.seat_round(code) == []  # a table per sheet, once


async def test_absent_players_are_played_by_bots_and_the_result_lands_once(tmp_path: Path, database_url: str) -> None:
    async with parts(tmp_path, database_url) as p:
        code = await p.online(absent_delay=0)  # nobody comes: bots take every seat at once
        await p.people("Anne", "Bruno", "Chloé", "Denis")
        await p.tournament.register(code, "Les As", ["Anne", "Bruno"], "Org", desk=True)
        await p.tournament.register(code, "Carreau", ["Chloé", "Denis"], "Org", desk=True)
        await p.tournament.draw(code, "Org")
        actor = await asyncio.wait_for(p.finished.saved.get(), WAIT)  # the table played alone, to its end
        await actor.sync()
        assert actor.status is TableStatus.FINISHED and actor.game is not None
        assert all(s.kind is SeatKind.HUMAN and s.replaced for s in actor.seats)
        scores = actor.game.match.scores
        board = await p.concours.board(code)
        assert board is not None
        sheet = board.round(1)[0]
        assert sheet.status is SheetStatus.CONFIRMED and sheet.deals == len(actor.game.match.entries) >= 1
        assert sheet.totals == (scores[0], scores[1])
        standing = {s.entrant: s for s in board.standings()}
        for side, entrants in enumerate(sheet.sides):
            assert standing[entrants[0]].played == 1 and standing[entrants[0]].points == scores[side]
        await p.tournament.game_saved(actor, 1)  # the listener called again for the same game: nothing more
        again = await p.concours.board(code)
        assert again is not None and again.round(1)[0].deals == sheet.deals and again.standings() == board.standings()
        results = [ch for ch in await p.concours.changes(board.concours.id) if ch.what == "online.result"]
        assert len(results) == 1 and results[0].who == "table" and results[0].after["totals"] == list(sheet.totals)
        assert await p.tournament.draw(code, "Org") == 2  # the round is complete by itself


async def test_a_result_whose_writing_failed_is_written_when_the_desk_opens(
    tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with parts(tmp_path, database_url) as p:
        code = await p.online(absent_delay=0)
        await p.tournament.register(code, "Robots 1", [], "Org", desk=True)
        await p.tournament.register(code, "Robots 2", [], "Org", desk=True)
        written = p.tournament.game_saved

        async def broken(actor: TableActor, game_id: int) -> None:
            raise RuntimeError("a bug at the game's end")

        monkeypatch.setattr(p.tournament, "game_saved", broken)
        await p.tournament.draw(code, "Org")
        actor = await asyncio.wait_for(p.finished.saved.get(), WAIT)  # played to its end; its result not written
        await actor.sync()
        assert actor.status is TableStatus.FINISHED
        board = await p.concours.board(code)
        assert board is not None and not board.round(1)[0].confirmed
        monkeypatch.setattr(p.tournament, "game_saved", written)
        await p.tournament.seat_round(code)  # the desk opens
        board = await p.concours.board(code)
        assert board is not None and board.round(1)[0].confirmed
        assert actor.game is not None and board.round(1)[0].deals == len(actor.game.match.entries)


async def test_the_organiser_pauses_and_reseats(tmp_path: Path, database_url: str) -> None:
    async with parts(tmp_path, database_url) as p:
        code = await p.online()
        anne, _bruno, _chloe, _denis, emma = await p.people("Anne", "Bruno", "Chloé", "Denis", "Emma")
        await p.tournament.register(code, "Les As", ["Anne", "Bruno"], "Org", desk=True)
        await p.tournament.register(code, "Carreau", ["Chloé", "Denis"], "Org", desk=True)
        await p.tournament.draw(code, "Org")
        actor = await p.actor(code)
        anne_seat = next(s.seat for s in actor.seats if s.player == account_player(anne.id))
        player = Recorder(account_player(anne.id))
        connect(actor, player)
        await settle(actor)
        await p.tournament.pause(code, True, "Org")
        assert actor.row.paused
        actor.submit(Act(player, "P", "a1"))
        refused = await player.reply_to("a1")
        assert refused["type"] == "error" and "pause" in refused["message"]
        await p.tournament.pause(code, False, "Org")
        assert not actor.row.paused
        board = await p.concours.board(code)
        assert board is not None and not board.concours.paused
        partner = (anne_seat + 2) % 4
        await p.tournament.reseat(code, 1, partner, "emma", "Org")  # another account takes the partner's seat
        assert actor.seats[partner].player == account_player(emma.id) and actor.seats[partner].name == "Emma"
        call = await p.tournament.call(board, emma.id)
        assert call.code == actor.code  # she is called to it
        other = (anne_seat + 1) % 4
        await p.tournament.reseat(code, 1, other, "", "Org")  # a bot takes an opponent's seat
        assert actor.seats[other].kind is SeatKind.BOT and actor.seats[other].player is None
        with pytest.raises(AtoutError):  # Anne sits there already
            await p.tournament.reseat(code, 1, other, "Anne", "Org")
        with pytest.raises(AtoutError):
            await p.tournament.reseat(code, 1, other, "Personne", "Org")
        with pytest.raises(AtoutError):
            await p.tournament.reseat(code, 2, other, "", "Org")  # no table 2
        whats = [ch.what for ch in await p.concours.changes(board.concours.id)]
        assert whats.count("online.reseat") == 2 and whats.count("online.pause") == 2


async def test_a_player_moved_to_another_table_leaves_his_seat_to_a_bot(tmp_path: Path, database_url: str) -> None:
    async with parts(tmp_path, database_url) as p:
        code = await p.online()
        anne = (await p.people("Anne", "Bruno"))[0]
        await p.tournament.register(code, "Les As", ["Anne", "Bruno"], "Org", desk=True)
        for n in range(3):
            await p.tournament.register(code, f"Robots {n}", [], "Org", desk=True)
        await p.tournament.draw(code, "Org")
        board = await p.concours.board(code)
        assert board is not None
        first = (await p.tournament.call(board, anne.id)).code
        here = await p.actor(code, 1)
        there = await p.actor(code, 2)
        origin, target = (here, there) if here.code == first else (there, here)
        was = next(s.seat for s in origin.seats if s.player == account_player(anne.id))
        free = next(s.seat for s in target.seats if s.kind is SeatKind.BOT)
        await p.tournament.reseat(code, target.row.table_no or 0, free, "Anne", "Org")
        assert target.seats[free].player == account_player(anne.id)
        assert origin.seats[was].kind is SeatKind.BOT and origin.seats[was].player is None  # not at two tables
        assert (await p.tournament.call(board, anne.id)).code == target.code
        whats = [ch.what for ch in await p.concours.changes(board.concours.id)]
        assert whats.count("online.reseat") == 2


def test_an_online_concours_through_the_app(tmp_path: Path) -> None:
    with TestClient(create_app(fast_settings(tmp_path)), client=LOCAL) as desk:
        sign_up(desk, "Organisatrice")
        players = {name: Visitor(desk) for name in ("Anne", "Bruno", "Chloé")}
        for name, visitor in players.items():
            with visitor as client:
                sign_up(client, name)
        form = {"name": "Tournoi du soir", "rounds": "2", "draw": "random", "ranking": "points", "preset": "coinche"}
        form |= {"end": "deals", "count": "1", "open_registration": "on", "mode": "online", "absent_delay": "0,5"}
        created = post(desk, "/concours", {**form, "bots": "debutant"})
        code = str(created.headers["location"]).rsplit("/", 1)[-1]  # type: ignore[attr-defined]
        page = html.unescape(desk.get(f"/c/{code}").text)
        assert "En ligne" in page and "robot après 0,5\u00a0min d'absence" in page and "robots débutant" in page
        refused = post(desk, f"/c/{code}/entrants", {"name": "Fantômes", "player1": "Personne"})
        assert refused.status_code == 400 and "pas de compte « Personne »" in alert(refused)  # type: ignore[attr-defined]
        assert post(desk, f"/c/{code}/entrants", {"name": "Robots", "player1": "Chloé"}).status_code == 303  # type: ignore[attr-defined]
        with Visitor(desk) as stranger:  # registering online needs an account
            assert "se connecter" in stranger.get(f"/c/{code}/join").text
            assert stranger.get(f"/c/{code}/play", follow_redirects=False).status_code == 303
        with players["Anne"] as anne:
            answer = post(anne, f"/c/{code}/join", {"name": "Les As", "player2": "Bruno"})
            assert "Les As est inscrit" in html.unescape(answer.text)  # type: ignore[attr-defined]
            assert anne.get(f"/c/{code}/play.json").json()["table"] is None
        assert post(desk, f"/c/{code}/draw").status_code == 303  # type: ignore[attr-defined]
        with players["Bruno"] as bruno:
            call = bruno.get(f"/c/{code}/play.json").json()
            assert call["registered"] and call["round"] == 1 and call["table"]["status"] == "playing"
            table = call["table"]["code"]
            assert f'action="/t/{table}"' in bruno.get(f"/c/{code}/play").text
            assert re.search(r'data-token="[^"]+"', bruno.get(f"/t/{table}").text)  # his seat's, signed in
        page = desk.get(f"/c/{code}").text
        assert f'href="/t/{table}"' in page and "Mettre les tables en pause" in page
        sheet = re.findall(r"/s/([\w-]+)", desk.get(f"/c/{code}/print").text)[0]
        with Visitor(desk) as phone:  # an online table's sheet fills itself: a phone enters nothing there
            refused = post(phone, f"/s/{sheet}/deals", {"taker": "0", "bid": "90", "strain": "1", "points": "100"})
            assert refused.status_code == 409 and "se joue en ligne" in html.unescape(refused.text)  # type: ignore[attr-defined]
        assert post(desk, f"/c/{code}/pause", {"paused": "1"}).status_code == 303  # type: ignore[attr-defined]
        assert "Reprendre le jeu" in desk.get(f"/c/{code}").text
        refused = post(desk, f"/c/{code}/tables/1/seats/0", {"name": "Personne"})
        assert refused.status_code == 400  # type: ignore[attr-defined]
        assert post(desk, f"/c/{code}/tables/1/seats/0", {"name": ""}).status_code == 303  # type: ignore[attr-defined]
        log = html.unescape(desk.get(f"/c/{code}/changes").text)
        assert "Pause des tables" in log and "Place donnée" in log and "robot" in log
        with players["Chloé"] as chloe:  # the desk is the organiser's
            assert post(chloe, f"/c/{code}/pause", {"paused": "0"}).status_code == 403  # type: ignore[attr-defined]
