"""Fuzzing the message handler: no message, however malformed, harms a table.

Hypothesis sends sequences of arbitrary text, arbitrary JSON and near-valid
messages (known types with odd fields, actions in and out of the notation) over a
real WebSocket; after each sequence the connection still answers, versions never
go back, every acknowledged action is in the log once and as the player's, and the
log replays under the rules (nothing illegal was applied) to the table in memory.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from harness import fast_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.web.app import create_app
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
        {"type": st.sampled_from(["act", "start", "leave", "continue", "rematch", "lang", "ping", "hello", "x"])},
        optional={
            "action": st.sampled_from(NOTATIONS) | st.text(max_size=50),
            "id": st.text(max_size=80),
            "lang": st.sampled_from(["fr", "en", "de", ""]),
            "version": st.integers(),
            "token": st.text(),
        },
    ).map(json.dumps),
)


@given(MESSAGES)
def test_parsing_accepts_a_message_or_refuses_it_with_bad_message(text: str) -> None:
    try:
        message = parse_message(text)
    except BadMessage:
        return
    assert message.type in ("hello", "act", "start", "leave", "continue", "rematch", "ping", "lang")


async def logged(url: str, table_id: int, game_no: int) -> list[ActionRow]:
    store = Store(url)
    try:
        return await store.actions(table_id, game_no)
    finally:
        await store.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(MESSAGES, min_size=1, max_size=12))
def test_no_sequence_of_messages_harms_the_table(tmp_path_factory: pytest.TempPathFactory, messages: list[str]) -> None:
    settings_ = fast_settings(tmp_path_factory.mktemp("fuzz"))
    with TestClient(create_app(settings_)) as client:
        table = client.post("/api/tables", json={"preset": "coinche", "name": "Alice"}).json()
        with client.websocket_connect(f"/ws/{table['code']}") as ws:
            ws.send_json({"type": "hello", "token": table["token"]})
            versions = [ws.receive_json()["version"]]
            ws.send_json({"type": "start"})
            acked: list[Any] = []
            for text in messages:
                ws.send_text(text)
            ws.send_json({"type": "ping"})
            while (message := ws.receive_json())["type"] != "pong":
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
