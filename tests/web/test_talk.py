"""Talk at the table: quick messages in each recipient's language, free text within its limits, the host's
settings, spectators, and the log kept with the table (after a restart too) and with the finished game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from harness import Harness, Recorder, connect, fast_settings, play_random, settle
from harness.migrations import older_database
from pydantic import TypeAdapter

from atout.i18n import tr
from atout.web.actor import Command, SetTalk, Speak, TableActor
from atout.web.challenges import ChallengeService
from atout.web.protocol import BadMessage, Say, ServerMessage, parse_message
from atout.web.routes.games import game as game_api

pytestmark = pytest.mark.anyio
SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def lines(conn: Recorder) -> list[dict[str, Any]]:
    """The lines of talk a connection received, each message checked against the protocol."""
    for message in conn.messages:
        SERVER.validate_python(message)
    return [m["line"] for m in conn.messages if m["type"] == "talk"]


def errors(conn: Recorder) -> list[dict[str, Any]]:
    return [m for m in conn.messages if m["type"] == "error"]


async def three(harness: Harness) -> tuple[TableActor, Recorder, Recorder, Recorder]:
    """A coinche table with two players (the host, French; his partner, English) and a French spectator."""
    actor, (host, other) = await harness.table("coinche", 2)
    other.lang = "en"
    spectator = Recorder(None)
    connect(actor, spectator)
    await settle(actor)
    return actor, host, other, spectator


async def say(actor: TableActor, conn: Recorder, quick: str | None = None, text: str | None = None) -> None:
    actor.submit(Speak(conn, quick, text))
    await settle(actor)


async def test_a_quick_message_reaches_everyone_in_their_language(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, host, other, spectator = await three(harness)
        await say(actor, host, quick="well_played")
        got = {id(c): lines(c) for c in (host, other, spectator)}
        assert [line["text"] for line in got[id(host)]] == ["Bien joué"]
        assert [line["text"] for line in got[id(other)]] == ["Well played"]
        assert [line["text"] for line in got[id(spectator)]] == ["Bien joué"]
        line = got[id(other)][0]
        assert (line["seat"], line["name"], line["quick"]) == (0, "Joueur 0", "well_played")
        assert line["who"] and host.player is not None and host.player not in line["who"]  # no secret in it
        await say(actor, other, quick="hurry")
        assert lines(host)[-1]["text"] == "Vite\u202f!" and lines(other)[-1]["text"] == "Hurry up!"
        assert lines(host)[-1]["who"] != lines(host)[0]["who"]
        assert other.messages[0]["talk"]["who"] == lines(host)[-1]["who"]  # each connection knows its own


async def test_free_text_is_stripped_and_limited_in_length_and_characters(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, host, other, _ = await three(harness)
        markup = "  <img src=x onerror=alert(1)>  "
        await say(actor, host, text=markup)
        assert lines(other)[-1]["text"] == markup.strip()  # as typed: the page shows it as text
        assert lines(other)[-1]["quick"] is None
        await say(actor, other, text="é" * 200)  # 200 characters: the longest
        assert lines(host)[-1]["text"] == "é" * 200
        for bad, code in (("x" * 201, "too_long"), ("bip\x07", "control"), ("a\u202eb", "control"), ("   ", "empty")):
            await say(actor, other, text=bad)
            refusal = errors(other)[-1]
            assert refusal["code"] == code, bad
            assert refusal["message"] == tr(f"web.talk.error.{code}", "en", limit=200)
        assert len(lines(host)) == 2  # nothing refused was said


async def test_a_connection_says_five_lines_in_ten_seconds_at_most(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, host, other, _ = await three(harness)
        for n in range(6):
            await say(actor, other, text=f"message {n}")
        assert [line["text"] for line in lines(host)] == [f"message {n}" for n in range(5)]
        assert errors(other)[-1]["code"] == "too_fast"
        assert errors(other)[-1]["message"] == tr("web.talk.error.too_fast", "en")  # in his language
        await say(actor, host, quick="thanks")  # another connection has its own count
        assert lines(other)[-1]["text"] == "Thanks"


async def test_the_host_turns_free_text_off_and_quick_messages_stay(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, host, other, spectator = await three(harness)
        actor.submit(SetTalk(other, False, False))
        await settle(actor)
        assert errors(other)[-1]["code"] == "host_only"
        actor.submit(SetTalk(host, False, False))
        await settle(actor)
        for conn in (host, other, spectator):
            assert conn.messages[-1] == {"type": "talk_rules", "free_text": False, "spectators": False}
        await say(actor, other, text="bonjour")
        assert errors(other)[-1]["code"] == "free_text_off"
        await say(actor, other, quick="sorry")
        assert [line["text"] for line in lines(host)] == ["Désolé"]
        fresh = Recorder(None)  # who comes later finds the settings with the log
        connect(actor, fresh)
        await settle(actor)
        talk = fresh.messages[0]["talk"]
        assert (talk["free_text"], talk["spectators"], [x["quick"] for x in talk["lines"]]) == (False, False, ["sorry"])


async def test_spectators_read_and_talk_only_if_the_host_allows(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, host, other, spectator = await three(harness)
        await say(actor, spectator, quick="well_played")
        await say(actor, spectator, text="allez")
        assert [e["code"] for e in errors(spectator)] == ["spectators_off", "spectators_off"]
        assert lines(host) == [] and lines(spectator) == []
        await say(actor, host, text="on joue")
        assert [line["text"] for line in lines(spectator)] == ["on joue"]  # a spectator reads
        actor.submit(SetTalk(host, True, True))
        await settle(actor)
        await say(actor, spectator, text="allez")
        line = lines(other)[-1]
        assert (line["text"], line["seat"], line["name"]) == ("allez", None, "Spectator")
        assert lines(host)[-1]["name"] == "Spectateur"


async def test_the_talk_comes_back_after_a_restart(tmp_path: Path, database_url: str) -> None:
    settings = fast_settings(tmp_path, database_url=database_url)
    async with Harness(settings) as harness:
        actor, host, other, _ = await three(harness)
        await say(actor, host, quick="bravo_partner")
        await say(actor, other, text="merci <b>toi</b>")
        actor.submit(SetTalk(host, True, True))
        await settle(actor)
        code, players = actor.code, [host.player, other.player]
    async with Harness(settings) as harness:  # a new server on the same database
        restarted = await harness.service.actor(code)
        assert restarted is not None
        again = Recorder(players[1], lang="en")
        connect(restarted, again)
        await settle(restarted)
        snapshot = again.messages[0]
        assert snapshot["type"] == "snapshot"
        talk = snapshot["talk"]
        assert [line["text"] for line in talk["lines"]] == ["Well done, partner", "merci <b>toi</b>"]
        assert [line["seat"] for line in talk["lines"]] == [0, 1]
        assert (talk["free_text"], talk["spectators"]) == (True, True)
        again.lang = "fr"  # a change of language sends the log anew, in the new language
        restarted.submit(Command(again, "lang", "fr"))
        await settle(restarted)
        assert again.messages[-1]["talk"]["lines"][0]["text"] == "Bravo partenaire"


async def test_a_finished_game_keeps_what_was_said_during_it(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, conns = await harness.table("deux", 1)
        await say(actor, conns[0], quick="thanks")
        await play_random(actor, conns, random.Random(8))
        assert actor.status == "finished"
        games = await harness.store.games()
        said = await harness.store.game_talk(games[0].id)
        assert [(line.quick, line.game_no) for line in said] == [("thanks", 1)]
        assert await harness.store.game_talk(games[0].id + 1) == []
        challenges = ChallengeService(harness.store, harness.service)
        page = await game_api(games[0].id, harness.store, challenges, None, "en")  # in its reader's words
        assert [(line.name, line.text) for line in page.talk] == [("Joueur 0", "Thanks")]


async def test_an_older_database_gets_the_talk_with_its_default_settings(database_url: str) -> None:
    store = await older_database(database_url, "0003")  # the database as the third version of the schema left it
    await store.open()  # brings it to the current schema
    try:
        old = await store.table("C0DE")
        assert old is not None and (old.talk_free_text, old.talk_spectators) == (True, False)
        assert await store.talk(old.id) == []
    finally:
        await store.close()


def test_talk_messages_are_typed() -> None:
    assert parse_message('{"type": "say", "quick": "thanks"}') == Say(type="say", quick="thanks")
    for bad in ('{"type": "say", "quick": "insult"}', '{"type": "say", "text": "' + "x" * 1000 + '"}'):
        with pytest.raises(BadMessage):
            parse_message(bad)
