"""Fuzzing the message handler: no message, however malformed, harms a table.

Hypothesis sends sequences of arbitrary text, arbitrary JSON and near-valid
messages (known types with odd fields, actions in and out of the notation) over a
real WebSocket; after each sequence the connection still answers, the table is
unchanged unless an action was acknowledged, and every acknowledged action is in
the log once.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from harness import fast_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.web.app import create_app
from atout.web.protocol import BadMessage, parse_message

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


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(MESSAGES, min_size=1, max_size=12))
def test_no_sequence_of_messages_harms_the_table(tmp_path_factory: pytest.TempPathFactory, messages: list[str]) -> None:
    settings_ = fast_settings(tmp_path_factory.mktemp("fuzz"))
    with TestClient(create_app(settings_)) as client:
        table = client.post("/api/tables", json={"preset": "coinche", "name": "Alice"}).json()
        with client.websocket_connect(f"/ws/{table['code']}") as ws:
            ws.send_json({"type": "hello", "token": table["token"]})
            version = ws.receive_json()["version"]
            ws.send_json({"type": "start"})
            acked: list[Any] = []
            for text in messages:
                ws.send_text(text)
            ws.send_json({"type": "ping"})
            while (message := ws.receive_json())["type"] != "pong":
                if message["type"] == "ack":
                    acked.append(message["id"])
                version = message.get("version", version)
            actor = client.app.state.service.actors[table["code"]]  # type: ignore[attr-defined]
            assert actor.version >= version
    assert len(acked) == len(set(acked))
