"""The table's clock: while the seat to play is a person away, every message that builds a view (snapshot,
resume, update) says which seat it is and how many seconds are left before a bot plays for him; none
otherwise (a present player, a bot's seat, a seat a bot already plays for)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import Harness, Recorder, connect, disconnect, fast_settings, settle

from atout.web.actor import Act, Connect, TableActor

pytestmark = pytest.mark.anyio

TIMEOUT = 30.0


def turn_of(conns: list[Recorder]) -> Recorder | None:
    return next((c for c in conns if c.view["deal"] and c.view["deal"]["turn"] == c.view["you"]), None)


def last_view_message(conn: Recorder) -> dict[str, Any]:
    """The last message that built the connection's view."""
    return next(m for m in reversed(conn.messages) if m["type"] in ("snapshot", "resume", "update"))


async def until_the_turn_of(actor: TableActor, conns: list[Recorder], target: Recorder) -> None:
    """The other players pass until it is ``target``'s turn (the bots bid as they like)."""
    while turn_of(conns) is not target:
        mover = turn_of(conns)
        assert mover is not None
        actor.submit(Act(mover, "P", None))
        await settle(actor)


async def test_the_clock_runs_for_an_absent_player_whose_turn_it_is(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path, seat_timeout=TIMEOUT)) as harness:
        actor, conns = await harness.table("coinche", 2)
        away = conns[1]
        present = conns[0]
        await until_the_turn_of(actor, conns, away)
        seat = away.view["you"]
        assert "clock" not in last_view_message(present)  # he is here: no clock
        await disconnect(actor, away)
        clock = last_view_message(present)["clock"]
        assert clock["seat"] == seat and TIMEOUT - 5 < clock["seconds"] <= TIMEOUT
        watcher = Recorder(None)  # a spectator arriving now finds the clock in his snapshot
        connect(actor, watcher)
        await settle(actor)
        snapshot = watcher.messages[0]
        assert snapshot["type"] == "snapshot" and snapshot["clock"]["seat"] == seat
        assert 0 < snapshot["clock"]["seconds"] <= clock["seconds"]
        resumed = Recorder(None)  # a page that resumes (its epoch and version) finds it in the resume
        resumed.actor = actor
        actor.submit(Connect(resumed, actor.epoch, actor.version - 1))
        await settle(actor)
        assert resumed.messages[0]["type"] == "resume" and resumed.messages[0]["clock"]["seat"] == seat
        back = Recorder(away.player)  # he comes back: the clock stops, for everyone
        connect(actor, back)
        await settle(actor)
        assert "clock" not in back.messages[0]
        assert "clock" not in last_view_message(present) and "clock" not in last_view_message(watcher)


async def test_no_clock_while_another_seat_plays(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path, seat_timeout=TIMEOUT)) as harness:
        actor, conns = await harness.table("coinche", 2)
        away, present = conns[1], conns[0]
        await until_the_turn_of(actor, conns, present)
        await disconnect(actor, away)
        assert last_view_message(present)["type"] == "update"
        assert "clock" not in last_view_message(present)  # away, but not his turn
        actor.submit(Act(present, "P", None))  # the bots call, then the turn comes to the absent player
        await settle(actor)
        assert turn_of([present]) is None
        clock = last_view_message(present)["clock"]
        assert clock["seat"] == away.view["you"] and 0 < clock["seconds"] <= TIMEOUT


async def test_the_clock_stops_when_a_bot_plays_for_the_absent_player(tmp_path: Path) -> None:
    async with Harness(fast_settings(tmp_path, seat_timeout=0.3)) as harness:
        actor, conns = await harness.table("coinche", 2)
        away, present = conns[1], conns[0]
        await until_the_turn_of(actor, conns, away)
        seat = away.view["you"]
        await disconnect(actor, away)
        assert last_view_message(present)["clock"]["seat"] == seat
        await present.until(lambda: present.view["seats"][seat]["replaced"])
        await settle(actor)
        replaced = next(
            m
            for m in present.messages
            if m["type"] == "update" and m["changes"].get("seats") and m["changes"]["seats"][seat]["replaced"]
        )
        assert "clock" not in replaced  # a bot plays for him now: nothing left to count
        assert all("clock" not in m for m in present.messages[present.messages.index(replaced) :])
