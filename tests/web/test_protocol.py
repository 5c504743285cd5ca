"""The HTTP API and the WebSocket protocol, spoken as a browser speaks them (through the ASGI app).

What is checked: a table is created and started, actions are applied in order and
acknowledged, the server alone decides legality and refuses in the player's
language (the rules core's reasons), a spectator sees no hand and cannot act, a
second tab takes the seat over, a client resumes from its last version, bad
messages and floods are refused without harming the table.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from harness import fast_settings
from harness.sockets import Session
from starlette.websockets import WebSocketDisconnect

from atout.web.app import create_app
from atout.web.client import actions
from atout.web.protocol import BURST, MAX_MESSAGE, SCHEMA_FILE, schema_text


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(fast_settings(tmp_path))) as test_client:
        yield test_client


def new_table(client: TestClient, **body: Any) -> dict[str, str]:
    response = client.post("/api/tables", json={"preset": "coinche", "name": "Alice", **body})
    assert response.status_code == 200, response.text
    return dict(response.json())


def play_until_my_card(ws: Session) -> dict[str, Any]:
    """Bid 80♥ (or pass) whenever asked until it is this seat's turn to play a card; its deal view then."""
    for _ in range(2000):
        message = ws.until(lambda _: ws.my_turn())
        deal = ws.view["deal"]
        if deal["declare"]:
            call = deal["declare"][0]["action"]
        elif deal["phase"] == "play":
            return dict(deal)
        else:
            call = "80H" if "80H" in actions(ws.view) else "P"
        ws.send({"type": "act", "action": call, "id": f"call{message['version']}"})
    raise AssertionError("never my turn to play")


@contextmanager
def socket(client: TestClient, code: str) -> Iterator[Session]:
    """A WebSocket to the table ``code``, read with a bound."""
    with client.websocket_connect(f"/ws/{code}") as ws:
        yield Session(ws)


def test_a_table_is_created_started_and_played(client: TestClient) -> None:
    table = new_table(client)
    assert client.get(table["url"]).status_code == 200
    with socket(client, table["code"]) as ws:
        first = ws.hello(table["token"])
        assert first["type"] == "snapshot" and first["view"]["status"] == "lobby" and first["view"]["host"]
        ws.send({"type": "start"})
        ws.until(lambda _: ws.my_turn())
        turn = ws.view
        assert turn["deal"]["phase"] == "auction" and len(turn["deal"]["hand"]) == 8
        ws.send({"type": "act", "action": "P", "id": "1"})
        ack = ws.until(lambda m: m["type"] == "ack")
        assert ack["id"] == "1"
        # Until the update that carries his call (a bot's may come between the ack and it).
        ws.until(lambda m: m["type"] == "update" and any(c["seat"] == turn["you"] for c in ws.view["deal"]["calls"]))
        calls = ws.view["deal"]["calls"]
        assert calls[[c["seat"] for c in calls].index(turn["you"])]["action"] == "P"


def test_an_illegal_card_is_refused_with_the_rules_reason_in_the_players_language(client: TestClient) -> None:
    client.app.state.service.rng = random.Random(1)  # type: ignore[attr-defined]  # a deal with a card to refuse
    table = new_table(client)
    with socket(client, table["code"]) as ws:
        ws.hello(table["token"], lang="en")
        ws.send({"type": "start"})
        for trick in range(8):  # a legal card until a turn where some card of the hand is not
            deal = play_until_my_card(ws)
            playable = [play["card"] for play in deal["plays"]]
            illegal = [c["code"] for c in deal["hand"] if c["code"] not in playable]
            if illegal:
                break
            ws.send({"type": "act", "action": deal["plays"][0]["action"], "id": f"card{trick}"})
        else:
            raise AssertionError("every card was legal at every turn of the deal")
        ws.send({"type": "act", "action": illegal[0], "id": "bad"})
        error = ws.until(lambda m: m["type"] == "error")
        assert error["id"] == "bad" and error["code"] != "turn"
        assert "must" in error["message"] or "follow" in error["message"]
        ws.send({"type": "ping"})
        assert ws.until(lambda m: m["type"] in ("pong", "update"))["type"] == "pong"  # nothing was broadcast


def test_acting_out_of_turn_or_unseated_is_refused(client: TestClient) -> None:
    table = new_table(client)
    with socket(client, table["code"]) as ws:
        ws.hello(table["token"])
        ws.send({"type": "act", "action": "P", "id": "early"})
        assert ws.until(lambda m: m["type"] == "error")["code"] == "not_started"
    with socket(client, table["code"]) as spectator:
        snapshot = spectator.hello()
        assert snapshot["view"]["you"] is None and not snapshot["view"]["host"]
        spectator.send({"type": "act", "action": "P", "id": "x"})
        error = spectator.until(lambda m: m["type"] == "error")
        assert error["code"] == "not_seated" and error["message"] == "Asseyez-vous d'abord à la table."
        spectator.send({"type": "start"})
        assert spectator.until(lambda m: m["type"] == "error")["code"] == "host_only"


def test_a_spectator_sees_the_play_but_no_hand(client: TestClient) -> None:
    table = new_table(client)
    with (
        socket(client, table["code"]) as ws,
        socket(client, table["code"]) as spectator,
    ):
        ws.hello(table["token"])
        spectator.hello()
        ws.send({"type": "start"})
        spectator.until(lambda m: m["type"] == "update" and spectator.view["deal"])
        deal = spectator.view["deal"]
        assert deal["hand"] == [] and deal["plays"] == [] and deal["bidding"] is None
        assert deal["counts"] == [8, 8, 8, 8]


def test_a_second_tab_takes_the_seat_over(client: TestClient) -> None:
    table = new_table(client)
    with socket(client, table["code"]) as first:
        first.hello(table["token"])
        with socket(client, table["code"]) as second:
            assert second.hello(table["token"])["view"]["you"] == 2
            assert first.until(lambda m: m["type"] == "replaced")
            with pytest.raises(WebSocketDisconnect) as closed:
                first.receive()
            assert closed.value.code == 4000


def test_a_client_resumes_from_its_last_version(client: TestClient) -> None:
    table = new_table(client)
    with socket(client, table["code"]) as ws:
        snapshot = ws.hello(table["token"])
        epoch, version = snapshot["epoch"], snapshot["version"]
        ws.send({"type": "start"})
        ws.until(lambda _: ws.my_turn())
    with socket(client, table["code"]) as ws:
        resume = ws.hello(table["token"], epoch=epoch, version=version)
        assert resume["type"] == "resume" and resume["updates"]
        assert [u["version"] for u in resume["updates"]] == list(range(version + 1, resume["version"] + 1))
        assert resume["updates"][0]["events"][0]["kind"] in ("deal_start", "seat")
    with socket(client, table["code"]) as ws:
        assert ws.hello(table["token"], epoch="other", version=3)["type"] == "snapshot"


def test_malformed_and_oversized_messages_are_refused_and_the_table_goes_on(client: TestClient) -> None:
    table = new_table(client)
    with socket(client, table["code"]) as ws:
        ws.hello(table["token"])
        for bad in (
            "not json",
            json.dumps({"type": "act"}),
            json.dumps({"type": "nuke"}),
            "x" * (MAX_MESSAGE + 1),
            json.dumps({"type": "act", "action": "P" * 500}),
        ):
            ws.ws.send_text(bad)
            assert ws.until(lambda m: m["type"] == "error")["code"] == "malformed"
        ws.send({"type": "start"})
        assert ws.until(lambda _: ws.my_turn())


def test_binary_messages_are_refused_like_malformed_ones(client: TestClient) -> None:
    table = new_table(client)
    with socket(client, table["code"]) as ws:  # a binary hello: closed, as a malformed one
        ws.ws.send_bytes(json.dumps({"type": "hello", "token": table["token"]}).encode())
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive()
        assert closed.value.code == 4400
    with socket(client, table["code"]) as ws:  # later: an error, and the table goes on
        ws.hello(table["token"])
        for frame in (json.dumps({"type": "start"}).encode(), b"\x00\xff", b""):
            ws.ws.send_bytes(frame)
            error = ws.until(lambda m: m["type"] == "error")
            assert error["code"] == "malformed" and error["message"] == "Message illisible."
        ws.send({"type": "ping"})
        assert ws.until(lambda m: m["type"] in ("pong", "update"))["type"] == "pong"  # nothing was done
        ws.send({"type": "start"})
        assert ws.until(lambda _: ws.my_turn())


def test_a_flood_is_refused_then_cut(client: TestClient) -> None:
    table = new_table(client)
    with socket(client, table["code"]) as ws:
        ws.hello(table["token"])
        for _ in range(BURST + 60):
            ws.send({"type": "ping"})
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                codes.append(ws.receive().get("code"))
        assert "flood" in codes and closed.value.code == 1008


def test_a_socket_that_does_not_say_hello_or_names_no_table_is_closed(client: TestClient) -> None:
    with socket(client, "NOSUCHTABLE1") as ws, pytest.raises(WebSocketDisconnect) as closed:
        ws.receive()
    assert closed.value.code == 4404
    table = new_table(client)
    with socket(client, table["code"]) as ws:
        ws.send({"type": "ping"})
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive()
        assert closed.value.code == 4400


def test_a_forged_token_makes_a_spectator(client: TestClient) -> None:
    table = new_table(client)
    with socket(client, table["code"]) as ws:
        assert ws.hello(table["token"][:-3] + "abc")["view"]["you"] is None


def test_the_committed_json_schema_is_the_one_the_models_give() -> None:
    """``static/protocol.schema.json`` describes the messages as the models make them: a model changed without
    the schema (or the other way round) fails here; ``python -m atout.web.protocol`` writes it anew."""
    committed = resources.files("atout.web").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    assert committed == schema_text(), "the protocol's models changed: run python -m atout.web.protocol"
    schema = json.loads(committed)
    assert {"Snapshot", "Resume", "Update", "Ack", "ErrorMessage", "Hello", "Act"} <= set(schema["$defs"])


def test_bad_tables_are_refused_in_the_visitors_language(client: TestClient) -> None:
    refused = client.post("/api/tables", json={"preset": "belotte", "name": "A"})
    assert refused.status_code == 400 and refused.json()["detail"] == "Variante inconnue."
    refused = client.post("/api/tables?lang=en", json={"preset": "coinche", "name": "A", "options": {"x": 1}})
    assert refused.json()["detail"] == "Table option refused: x"
    assert client.post("/api/tables", json={"preset": "coinche", "name": " \u200b "}).status_code == 400
    refused = client.post("/api/tables", json={"preset": "coinche", "name": "A", "options": {"target": -5}})
    assert refused.status_code == 400
    assert refused.json()["detail"] == "Le total à atteindre va de 1 à 100\u202f000 points."
    assert client.post("/api/tables", json={"preset": "coinche"}).status_code == 422


def test_seats_are_claimed_once(client: TestClient) -> None:
    table = new_table(client)
    bob = client.post(f"/api/tables/{table['code']}/seats", json={"seat": 0, "name": "<b>Bob</b>"})
    assert bob.status_code == 200
    taken = client.post(f"/api/tables/{table['code']}/seats", json={"seat": 0, "name": "Carl"})
    assert taken.status_code == 409 and taken.json()["detail"] == "Cette place est déjà prise."
    assert client.post(f"/api/tables/{table['code']}/seats", json={"seat": 9, "name": "Carl"}).status_code == 400
    info = client.get(f"/api/tables/{table['code']}").json()
    assert info["seats"][0] == {"seat": 0, "kind": "human", "name": "<b>Bob</b>"}
    page = client.get(f"/t/{table['code']}").text
    assert "<b>Bob</b>" not in page  # names reach pages as text only


def test_the_pages_speak_french_by_default_and_english_on_request(client: TestClient) -> None:
    home = client.get("/")
    assert 'lang="fr"' in home.text and "Jouer contre les robots" in home.text
    english = client.get("/?lang=en")
    assert 'lang="en"' in english.text and "Play against bots" in english.text
    assert client.cookies.get("lang") == "en"
    assert "Play against bots" in client.get("/").text  # the choice is remembered
    rules = client.get("/rules?lang=fr")
    assert rules.status_code == 200 and '<h2 id="coinche">Belote coinchée (FFB)</h2>' in rules.text
    assert "<h2>The presets</h2>" in client.get("/rules/reference").text
    assert client.get("/t/NOPE").status_code == 404
    fr, en = client.get("/i18n/fr.json").json(), client.get("/i18n/en.json").json()
    assert fr.keys() == en.keys() and fr["web.call.pass"] == "Passe" and en["web.call.pass"] == "Pass"
