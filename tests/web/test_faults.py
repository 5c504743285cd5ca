"""Faults that must lose nothing: a database down at the match's last action, at the start, at a
player's leaving; an action resent to a restarted server; a host who gave up his seat in the lobby."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from harness import Harness, Recorder, connect, fast_settings, play_random, settle

from atout.i18n import tr
from atout.web import actor as actor_module
from atout.web.actor import Act, Command
from atout.web.store import StoreUnavailable

pytestmark = pytest.mark.anyio


def failing(times: int, real: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """``real``, but its first ``times`` calls fail as a database that cannot be reached."""
    calls = {"n": 0}

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] <= times:
            raise StoreUnavailable("the database is down (simulated)")
        return await real(*args, **kwargs)

    return flaky


async def down(*_: Any, **__: Any) -> None:
    raise StoreUnavailable("the database is down (simulated)")


async def test_a_game_whose_saving_fails_is_saved_at_the_next_try(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(actor_module, "FINISH_RETRY", 0.01)
    async with Harness(fast_settings(tmp_path)) as harness:
        monkeypatch.setattr(harness.store, "save_game", failing(2, harness.store.save_game))
        actor, conns = await harness.table("deux", 1)
        await play_random(actor, conns, random.Random(2))  # acknowledged to the end: nothing refused
        await conns[0].until(lambda: actor.status == "finished")  # the retry timer fires on the actor's clock
        events = [e["kind"] for m in conns[0].messages if m["type"] == "update" for e in m["events"]]
        assert events.count("match_end") == 1 and events[-1] == "saved"
        assert not [m for m in conns[0].messages if m["type"] == "error"]
        assert len(await harness.store.games()) == 1
        actor.submit(Command(conns[0], "rematch"))
        await settle(actor)
        assert actor.status == "playing" and actor.row.game_no == 2


async def test_a_game_left_unsaved_by_a_stopped_server_is_saved_once_when_the_table_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(actor_module, "FINISH_RETRY", 3600.0)
    async with Harness(fast_settings(tmp_path)) as harness:
        # The game is saved, then the table's status cannot be, until the server stops: the next try saves it again.
        monkeypatch.setattr(harness.store, "update_table", failing(10**6, harness.store.update_table))
        actor, conns = await harness.table("deux", 1)
        await play_random(actor, conns, random.Random(2))
        assert actor.unsaved and actor.game is not None and actor.game.finished
        code = actor.code
    async with Harness(fast_settings(tmp_path)) as harness:
        assert len(await harness.store.games()) == 1
        actor = await harness.service.actor(code)
        assert actor is not None
        await settle(actor)
        assert actor.status == "finished" and len(await harness.store.games()) == 1
        row = await harness.store.table(code)
        assert row is not None and row.status == "finished"


async def test_a_rematch_asked_while_the_game_is_unsaved_saves_it_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(actor_module, "FINISH_RETRY", 3600.0)
    async with Harness(fast_settings(tmp_path)) as harness:
        save_game = harness.store.save_game
        monkeypatch.setattr(harness.store, "save_game", down)
        actor, conns = await harness.table("deux", 1)
        await play_random(actor, conns, random.Random(5))
        assert actor.unsaved
        monkeypatch.setattr(harness.store, "save_game", save_game)  # the database is back
        actor.submit(Command(conns[0], "rematch"))
        await settle(actor)
        assert actor.row.game_no == 2 and len(await harness.store.games()) == 1


async def test_an_action_resent_to_a_restarted_server_is_acknowledged_as_a_duplicate(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        actor, conns = await harness.table("coinche", 4)
        mover = next(c for c in conns if c.view["deal"]["turn"] == c.view["you"])
        actor.submit(Act(mover, "P", "the-first-pass"))
        assert (await mover.reply_to("the-first-pass"))["type"] == "ack"
        code, player = actor.code, mover.player
        logged = len(await harness.store.actions(actor.row.id, actor.row.game_no))
    async with Harness(fast_settings(tmp_path)) as harness:  # the client never got its ack: it sends again
        actor = await harness.service.actor(code)
        assert actor is not None
        again = Recorder(player)
        connect(actor, again)
        actor.submit(Act(again, "P", "the-first-pass"))
        assert await again.reply_to("the-first-pass") == {"type": "ack", "id": "the-first-pass", "duplicate": True}
        assert len(await harness.store.actions(actor.row.id, actor.row.game_no)) == logged


@pytest.mark.parametrize("command", ["start", "leave"])
async def test_start_and_leave_with_the_database_down_say_so_and_change_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        code, token = await harness.service.create("coinche", {}, "club", 0, "Alice")
        actor = await harness.service.actor(code)
        assert actor is not None
        alice = Recorder(harness.service.player(token, code))
        connect(actor, alice)
        await settle(actor)
        before = alice.view
        for method in ("start_table", "set_seat", "update_table"):
            monkeypatch.setattr(harness.store, method, down)
        actor.submit(Command(alice, command))
        await settle(actor)
        error = alice.messages[-1]
        assert error["type"] == "error" and error["code"] == "unavailable"
        assert error["message"] == tr("web.error.unavailable", "fr")
        assert alice.view == before and actor.status == "lobby"
        monkeypatch.undo()
        actor.submit(Command(alice, command))  # the database is back: the same command works
        await settle(actor)
        assert actor.status == "playing" if command == "start" else actor.seats[0].kind == "open"
        seats = await harness.store.seats(actor.row.id)
        assert [s.kind for s in seats] == [s.kind for s in actor.seats]


async def test_a_host_who_left_his_seat_may_start_and_so_may_the_seated_players(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path)) as harness:
        code, token = await harness.service.create("coinche", {}, "club", 0, "Alice")
        bob_token = await harness.service.sit(code, 1, "Bob", None)
        actor = await harness.service.actor(code)
        assert actor is not None
        alice = Recorder(harness.service.player(token, code))
        bob = Recorder(harness.service.player(bob_token, code))
        for conn in (alice, bob):
            connect(actor, conn)
        await settle(actor)
        assert alice.view["may_start"] and not bob.view["may_start"]
        actor.submit(Command(bob, "start"))
        await settle(actor)
        assert bob.messages[-1]["code"] == "host_only" and actor.status == "lobby"
        actor.submit(Command(alice, "leave"))
        await settle(actor)
        assert alice.view["may_start"] and bob.view["may_start"]  # the host watches; Bob may start too
        actor.submit(Command(bob, "start"))
        await settle(actor)
        assert actor.status == "playing" and [s.kind for s in actor.seats] == ["bot", "human", "bot", "bot"]
