"""The lobby: the public tables open to join or in play, listed on the home page and followed live.

What a table's row says (its variant, the options that differ from it, the target, the bots, the
seats), which tables are listed (not a private one, not a finished or abandoned one), the changes
gathered and published a few times a second, the lobby's socket (the list, then what changes), and
the target's range, the same on the form and in the server's refusal.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from harness import WAIT, Harness, Recorder, connect, disconnect, fast_settings, play_random, settle
from pydantic import TypeAdapter
from starlette.testclient import WebSocketTestSession

from atout.web.app import create_app
from atout.web.lobby import Lobby
from atout.web.protocol import LobbyChange, LobbyMessage, LobbySnapshot
from atout.web.states import SeatKind, TableStatus
from atout.web.wire import LobbyTable

LOBBY_MESSAGES: TypeAdapter[Any] = TypeAdapter(LobbyMessage)


class Page:
    """A home page following the lobby: every message it was sent."""

    def __init__(self) -> None:
        self.messages: list[LobbySnapshot | LobbyChange] = []
        self.arrived = asyncio.Event()

    def send(self, message: LobbySnapshot | LobbyChange) -> None:
        self.messages.append(message)
        self.arrived.set()

    async def next(self) -> LobbyChange:
        """The next change published (at most :data:`WAIT` seconds away)."""
        seen = len(self.messages)
        async with asyncio.timeout(WAIT):
            while len(self.messages) == seen:
                self.arrived.clear()
                await self.arrived.wait()
        message = self.messages[seen]
        assert isinstance(message, LobbyChange)
        return message


async def listed(harness: Harness) -> dict[str, LobbyTable]:
    """The list once every change so far is published."""
    for actor in list(harness.service.actors.values()):
        await settle(actor)
    harness.service.lobby.publish()
    return dict(harness.service.lobby.tables)


pytestmark = pytest.mark.anyio


async def test_a_public_table_is_listed_with_its_variant_options_target_bots_and_seats(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        options = {"target": 2000, "sans_atout": True, "tout_atout": True, "announcements": False}
        code, token = await harness.service.create("coinche", options, "expert", None, "Alice")
        actor = await harness.service.actor(code)
        assert actor is not None
        assert await listed(harness) == {}  # nobody there yet
        connect(actor, Recorder(harness.service.player(token, code)))
        row = (await listed(harness))[code]
        assert row.status is TableStatus.LOBBY and row.preset == "coinche" and row.target == 2000
        assert row.options == ["sans_atout", "tout_atout", "no_announcements"] and row.bots == "expert"
        assert [(s.letter, s.kind, s.name) for s in row.seats] == [
            ("N", SeatKind.OPEN, ""),
            ("W", SeatKind.OPEN, ""),
            ("S", SeatKind.HUMAN, "Alice"),
            ("E", SeatKind.OPEN, ""),
        ]


async def test_a_private_table_is_never_listed(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        code, token = await harness.service.create("coinche", {}, "club", None, "Alice", private=True)
        actor = await harness.service.actor(code)
        assert actor is not None and actor.row.private
        connect(actor, Recorder(harness.service.player(token, code)))
        await harness.service.sit(code, 0, "Bob", None)
        assert await listed(harness) == {}
        assert actor.lobby_info() is None


async def test_a_table_in_play_is_listed_until_it_is_finished(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, conns = await harness.table("deux", 1)
        row = (await listed(harness))[actor.code]
        assert row.status is TableStatus.PLAYING
        assert [s.kind for s in row.seats] == [SeatKind.HUMAN, SeatKind.BOT]  # a bot's seat may be taken
        await play_random(actor, conns, random.Random(3))
        assert actor.status is TableStatus.FINISHED
        assert await listed(harness) == {}


async def test_an_abandoned_table_leaves_the_list(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, conns = await harness.table("coinche", 2)
        assert actor.code in await listed(harness)
        await disconnect(actor, conns[0])
        assert actor.code in await listed(harness)  # someone seated is still there
        await disconnect(actor, conns[1])
        assert await listed(harness) == {}


async def test_changes_are_gathered_and_published_together(tmp_path: Path) -> None:
    """A page hears of a table taken seat by seat once per publication, with what it is at that moment."""
    async with Harness(fast_settings(tmp_path)) as harness:
        lobby = harness.service.lobby
        page = Page()
        assert lobby.join(page) == LobbySnapshot(tables=[])
        code, token = await harness.service.create("coinche", {}, "club", 0, "Alice")
        actor = await harness.service.actor(code)
        assert actor is not None
        connect(actor, Recorder(harness.service.player(token, code)))
        for seat, name in ((1, "Bob"), (2, "Carl"), (3, "Dina")):
            await harness.service.sit(code, seat, name, None)
        await settle(actor)
        assert lobby._timer is not None  # none of it is published yet: it waits for the next publication
        change = await page.next()
        assert change.gone == [] and [t.code for t in change.tables] == [code]
        assert [s.name for s in change.tables[0].seats] == ["Alice", "Bob", "Carl", "Dina"]
        assert len(page.messages) == 1


def test_the_lobby_publishes_once_for_many_changes_and_nothing_for_none() -> None:
    class Table:
        code = "T1"
        row: LobbyTable | None = None

        def lobby_info(self) -> LobbyTable | None:
            return self.row

    async def run() -> list[Any]:
        lobby = Lobby(delay=0.01)
        page = Page()
        lobby.join(page)
        table = Table()
        table.row = LobbyTable(
            code="T1", status=TableStatus.LOBBY, preset="deux", options=[], target=1000, bots="club", seats=[]
        )
        for _ in range(20):
            lobby.changed(table)
        await asyncio.sleep(0.1)
        lobby.changed(table)  # the same row: nothing to say
        await asyncio.sleep(0.1)
        table.row = None
        lobby.gone("T1")
        await asyncio.sleep(0.1)
        lobby.close()
        return page.messages

    messages = asyncio.run(run())
    assert [(len(m.tables), m.gone) for m in messages if isinstance(m, LobbyChange)] == [(1, []), (0, ["T1"])]


# ------------------------------------------------------------------ over HTTP and the socket
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(fast_settings(tmp_path))) as test_client:
        yield test_client


def receive(ws: WebSocketTestSession) -> dict[str, Any]:
    """The lobby socket's next message (at most :data:`WAIT` seconds away), checked against the protocol."""

    async def read() -> Any:
        return await asyncio.wait_for(ws._send_rx.receive(), WAIT)

    raw = ws.portal.call(read)
    assert raw["type"] == "websocket.send", raw
    LOBBY_MESSAGES.validate_json(raw["text"])
    message: dict[str, Any] = json.loads(raw["text"])
    return message


def test_the_lobby_socket_sends_the_list_then_a_seat_taken(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as lobby:
        assert receive(lobby) == {"type": "lobby", "tables": []}
        hidden = client.post("/api/tables", json={"preset": "coinche", "name": "Eve", "private": True}).json()
        created = client.post("/api/tables", json={"preset": "deux", "name": "Alice", "options": {"target": 500}})
        table = created.json()
        with client.websocket_connect(f"/ws/{hidden['code']}") as ws:
            ws.send_json({"type": "hello", "token": hidden["token"]})
            with client.websocket_connect(f"/ws/{table['code']}") as host:
                host.send_json({"type": "hello", "token": table["token"]})
                change = receive(lobby)
                assert change["type"] == "lobby_change" and change["gone"] == []
                [row] = change["tables"]
                assert row["code"] == table["code"] and row["status"] == "lobby" and row["target"] == 500
                assert [(s["kind"], s["name"]) for s in row["seats"]] == [("open", ""), ("human", "Alice")]
                seat = client.post(f"/api/tables/{table['code']}/seats", json={"seat": 0, "name": "Bob"})
                assert seat.status_code == 200
                change = receive(lobby)
                assert [(s["kind"], s["name"]) for s in change["tables"][0]["seats"]] == [
                    ("human", "Bob"),
                    ("human", "Alice"),
                ]
            assert receive(lobby) == {"type": "lobby_change", "tables": [], "gone": [table["code"]]}  # he left
        lobby.send_json({"type": "ping"})
        assert receive(lobby) == {"type": "pong"}
    with client.websocket_connect("/ws/lobby") as again:  # the list anew: still nothing of the private table
        assert receive(again) == {"type": "lobby", "tables": []}


def test_the_target_is_refused_out_of_its_range_in_the_forms_words(client: TestClient) -> None:
    page = client.get("/").text
    field = re.search(r'<input name="target"[^>]*>', page)
    assert field is not None and 'min="1"' in field[0] and 'max="100000"' in field[0]
    for target, status in ((0, 400), (1, 200), (100_000, 200), (100_001, 400)):
        body = {"preset": "coinche", "name": "A", "options": {"target": target}}
        assert client.post("/api/tables", json=body).status_code == status, target
    refused = client.post("/api/tables?lang=en", json={"preset": "coinche", "name": "A", "options": {"target": 0}})
    assert refused.json()["detail"] == "A game's target goes from 1 to 100,000 points."
    refused = client.post("/api/tables", json={"preset": "coinche", "name": "A", "options": {"target": 0}})
    assert refused.json()["detail"] == "Le total à atteindre va de 1 à 100\u202f000 points."
