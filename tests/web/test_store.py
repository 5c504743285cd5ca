"""Persistence without loss, on SQLite (embedded) and on a real PostgreSQL server.

Every action is in the log before anyone hears of it; a table rebuilt from the
database (as after a restart) is exactly where it was; a resent action is applied
once; a database that is briefly unavailable makes an action fail cleanly, and
nothing is lost or applied twice when it is back; finished games are kept as
atout records that replay.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from harness import Harness, Recorder, connect, fast_settings, play_random, settle

from atout.record import read_records
from atout.web.actor import Act
from atout.web.schema import metadata
from atout.web.store import Store
from conftest import PostgresServer

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'web.sqlite3'}"
    else:
        server: PostgresServer = request.getfixturevalue("postgres")
        yield server.new_database()


def stable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what legitimately changes across a restart (version, who is connected)."""
    out = {k: v for k, v in view.items() if k != "version"}
    out["seats"] = [{k: v for k, v in s.items() if k not in ("connected", "replaced")} for s in view["seats"]]
    return out


async def test_the_migrations_build_the_schema_the_code_uses(database_url: str) -> None:
    store = Store(database_url)
    await store.open()
    await store.open()  # a second start finds the schema current and changes nothing
    async with store.engine.connect() as conn:
        diffs = await conn.run_sync(lambda sync: compare_metadata(MigrationContext.configure(sync), metadata))
    await store.close()
    assert diffs == []


async def test_a_table_rebuilt_from_the_database_is_exactly_where_it_was(tmp_path: Path, database_url: str) -> None:
    settings = fast_settings(tmp_path, database_url=database_url)
    async with Harness(settings) as harness:
        actor, conns = await harness.table("coinche", 2)
        code = actor.code
        await play_random(actor, conns, random.Random(5), limit=45)
        views = [stable(c.view) for c in conns]
        players = [c.player for c in conns]
        seq = actor.game.seq if actor.game else 0
    assert seq >= 45
    async with Harness(settings) as harness:  # a new server on the same database
        actor = await harness.service.actor(code)
        assert actor is not None and actor.game is not None and actor.game.seq == seq
        again = [Recorder(p) for p in players]
        for conn in again:
            connect(actor, conn)
        await settle(actor)
        assert [stable(c.view) for c in again] == views


async def test_a_resent_action_is_applied_once(tmp_path: Path, database_url: str) -> None:
    async with Harness(fast_settings(tmp_path, database_url=database_url)) as harness:
        actor, conns = await harness.table("coinche", 4)
        mover = next(c for c in conns if c.view["deal"]["turn"] == c.view["you"])
        for _ in range(2):
            actor.submit(Act(mover, "P", "same-id"))
        await settle(actor)
        replies = [m for m in mover.messages if m.get("id") == "same-id"]
        assert [r["type"] for r in replies] == ["ack", "ack"] and replies[1]["duplicate"] is True
        log = await harness.store.actions(actor.row.id, actor.row.game_no)
        assert [(a.action, a.action_id) for a in log] == [("P", "same-id")]


async def test_finished_games_are_kept_as_records_that_replay(tmp_path: Path, database_url: str) -> None:
    async with Harness(fast_settings(tmp_path, database_url=database_url)) as harness:
        actor, conns = await harness.table("classique", 1)
        await play_random(actor, conns, random.Random(8))
        played = [e.deal for e in actor.game.match.entries] if actor.game else []
        games = await harness.store.games()
    assert len(games) == 1 and games[0].code == actor.code
    records = read_records(games[0].records)
    assert len(records) == len(played) > 1
    for record, deal in zip(records, played, strict=True):
        assert deal is not None and record.replay().result == deal.result
    assert games[0].players[0] == {"name": "Joueur 0", "bot": False} and games[0].winner == actor.game.match.winner


async def test_a_database_briefly_down_refuses_the_action_and_loses_nothing(
    tmp_path: Path, own_postgres: PostgresServer
) -> None:
    settings = fast_settings(tmp_path, database_url=own_postgres.new_database())
    async with Harness(settings) as harness:
        actor, conns = await harness.table("coinche", 4)
        mover = next(c for c in conns if c.view["deal"]["turn"] == c.view["you"])
        before = actor.game.seq if actor.game else -1
        own_postgres.stop()
        actor.submit(Act(mover, "P", "while-down"))
        reply = await mover.reply_to("while-down")
        assert reply["type"] == "error" and reply["code"] == "unavailable"
        assert "indisponible" in reply["message"]
        assert actor.game is not None and actor.game.seq == before  # nothing changed
        own_postgres.start()
        mover.messages.clear()
        actor.submit(Act(mover, "P", "while-down"))  # the client resends it
        assert (await mover.reply_to("while-down"))["type"] == "ack"
        log = await harness.store.actions(actor.row.id, actor.row.game_no)
        assert [a.action_id for a in log] == ["while-down"] and actor.game.seq == before + 1


def test_two_servers_starting_at_once_migrate_one_after_the_other(postgres: PostgresServer) -> None:
    """Two processes open one new database at the same moment: the advisory lock lets one migrate, then the
    other finds the schema current (Alembic's state is per process, hence real processes)."""
    url = postgres.new_database()
    script = "import asyncio, sys; from atout.web.store import Store; asyncio.run(Store(sys.argv[1]).open())"
    starts = [subprocess.Popen([sys.executable, "-c", script, url], stderr=subprocess.PIPE) for _ in range(2)]
    for start in starts:
        _, error = start.communicate(timeout=120)
        assert start.returncode == 0, error.decode()
