"""Fuzzing the message handler: no message, however malformed, harms a table; no number in a URL
harms the server.

Hypothesis sends sequences of arbitrary text, arbitrary JSON, near-valid messages
(known types with odd fields, actions in and out of the notation) and binary frames
over a real WebSocket; after each sequence the connection still answers, versions
never go back, every acknowledged action is in the log once and as the player's,
and the log replays under the rules (nothing illegal was applied) to the table in
memory. Every integer in every route's path or query, given values out of any
range, is answered 404 or 422: JSON for the API, a page for a page.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from harness import fast_settings
from harness.sockets import Session
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.i18n import tr
from atout.web.app import ROUTERS, create_app
from atout.web.game import LoggedAction, TableGame
from atout.web.protocol import BadMessage, parse_message
from atout.web.store import ActionRow, Store

NOTATIONS = ["P", "X", "XX", "80H", "90S", "capotC", "80SA", "takeH", "JH", "QH!", "ann:-", "7S", "170D", "85H"]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
MESSAGES = st.one_of(
    st.text(max_size=200),
    JSON_VALUES.map(json.dumps),
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                ["act", "start", "leave", "continue", "rematch", "lang", "ping", "hello", "say", "talk_rules", "x"]
            )
        },
        optional={
            "action": st.sampled_from(NOTATIONS) | st.text(max_size=50),
            "id": st.text(max_size=80),
            "lang": st.sampled_from(["fr", "en", "de", ""]),
            "version": st.integers(),
            "token": st.text(),
            "quick": st.sampled_from(["thanks", "hurry", "insult"]),
            "text": st.text(max_size=250),
            "free_text": st.booleans(),
            "spectators": st.booleans(),
        },
    ).map(json.dumps),
)
#: The kinds of message a client may send.
KINDS = ("hello", "act", "start", "leave", "continue", "rematch", "ping", "lang", "say", "talk_rules")
#: What a client may send over the WebSocket: the messages above, or binary frames (the protocol has none).
FRAMES = MESSAGES | st.binary(max_size=64) | MESSAGES.map(str.encode)


@given(MESSAGES)
def test_parsing_accepts_a_message_or_refuses_it_with_bad_message(text: str) -> None:
    try:
        message = parse_message(text)
    except BadMessage:
        return
    assert message.type in KINDS


async def logged(url: str, table_id: int, game_no: int) -> list[ActionRow]:
    store = Store(url)
    try:
        return await store.actions(table_id, game_no)
    finally:
        await store.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(FRAMES, min_size=1, max_size=12))
def test_no_sequence_of_messages_harms_the_table(
    tmp_path_factory: pytest.TempPathFactory, messages: list[str | bytes]
) -> None:
    settings_ = fast_settings(tmp_path_factory.mktemp("fuzz"))
    with TestClient(create_app(settings_)) as client:
        table = client.post("/api/tables", json={"preset": "coinche", "name": "Alice"}).json()
        with client.websocket_connect(f"/ws/{table['code']}") as raw:
            ws = Session(raw)
            versions = [ws.hello(table["token"])["version"]]
            ws.send({"type": "start"})
            acked: list[Any] = []
            for frame in messages:
                if isinstance(frame, bytes):
                    raw.send_bytes(frame)
                else:
                    raw.send_text(frame)
            ws.send({"type": "ping"})
            while (message := ws.receive())["type"] != "pong":
                if message["type"] == "ack":
                    acked.append(message["id"])
                if "version" in message:
                    versions.append(message["version"])
            actor = client.app.state.service.actors[table["code"]]  # type: ignore[attr-defined]
    log = asyncio.run(logged(settings_.url(), actor.row.id, actor.row.game_no))  # the table is stopped now
    assert len(acked) == len(set(acked)) and versions == sorted(versions) and actor.version >= versions[-1]
    # Every acknowledged action is in the log, once, as Alice's; the log replays under the rules
    # (an illegal action in it would raise) to exactly the table in memory.
    ids = [a.action_id for a in log if a.action_id is not None]
    assert len(ids) == len(set(ids)) and set(acked) <= set(ids)
    assert all(
        a.seat == actor.seats.index(next(s for s in actor.seats if s.kind == "human")) for a in log if a.action_id
    )
    if actor.game is not None:
        replayed = TableGame.replay(
            actor.rules,
            actor.row.match_seed,
            actor.row.first_dealer,
            [LoggedAction(a.deal_no, a.seat, a.action) for a in log],
        )
        assert replayed.seq == actor.game.seq == len(log) and replayed.deal.actions == actor.game.deal.actions


#: Integers no route may take: past the database's 32-bit and 64-bit integers, negative, not numbers at all.
BAD_INTEGERS = ["99999999999999999999", str(2**31), str(2**63), "-1", "-99999999999999999999", "1e3", "x", "9" * 5000]


def int_parameters(route: APIRoute) -> tuple[list[str], list[str]]:
    """The integer parameters of a route: those in its path, those in its query."""
    dependant = route.dependant
    path = [p.name for p in dependant.path_params if p.field_info.annotation is int]
    query = [p.name for p in dependant.query_params if p.field_info.annotation is int]
    return path, query


def test_every_integer_in_a_path_or_query_is_bounded(tmp_path: Path) -> None:
    """Every route of the app, audited: a number out of range is 404 or 422, a clear error, never a 500."""
    app = create_app(fast_settings(tmp_path))
    routes = [r for router in ROUTERS for r in router.routes if isinstance(r, APIRoute) and "GET" in (r.methods or ())]
    audited = {r.path: int_parameters(r) for r in routes if any(int_parameters(r))}
    assert set(audited) == {  # a new route with a number must be added here, and so checked
        "/games",
        "/games/{game_id}",
        "/games/{game_id}/records.txt",
        "/api/games/{game_id}",
        "/api/games/{game_id}/deals/{deal_no}/analysis",
        "/ladder",
    }
    with TestClient(app) as client:  # a server error would be raised here
        for route in routes:
            path_ints, query_ints = int_parameters(route)
            for name in path_ints + query_ints:
                for bad in BAD_INTEGERS:
                    values = {p: (bad if p == name else "1") for p in path_ints}
                    url = route.path.format(**values)
                    params = {name: bad} if name in query_ints else {}
                    response = client.get(url, params=params)
                    assert response.status_code in (404, 422), (url, params, response.status_code)
                    if route.response_class is HTMLResponse:
                        assert response.headers["content-type"].startswith("text/html"), url
                        assert "<main" in response.text and tr("web.invalid.title", "fr") in response.text
                    else:
                        assert response.headers["content-type"] == "application/json", url
                        assert response.json()["detail"]
        english = client.get("/games/99999999999999999999?lang=en")
        assert english.status_code == 422 and tr("web.invalid.title", "en") in english.text
        assert client.get("/games?page_no=0").status_code == 200  # in range: as before
        assert client.get("/api/games/1").status_code == 404
        assert client.get("/healthz").json()["tables"] == 0  # nothing changed
