"""Persistence without loss, on SQLite (embedded) and on a real PostgreSQL server.

Every action is in the log before anyone hears of it; a table rebuilt from the
database (as after a restart) is exactly where it was; a resent action is applied
once, and action ids are each player's own; a database that is briefly unavailable makes an action fail cleanly, and
nothing is lost or applied twice when it is back; finished games are kept as
atout records that replay.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from harness import Harness, Recorder, connect, fast_settings, play_random, settle
from harness.migrations import migrate_to, older_database
from harness.postgres import PostgresServer
from sqlalchemy import insert, text

from atout.record import read_records
from atout.web.actor import Act
from atout.web.schema import metadata
from atout.web.schema import seats as schema_seats
from atout.web.schema import tables as schema_tables
from atout.web.states import SeatKind
from atout.web.store import ActionRow, DuplicateAction, SeatRow, Store

pytestmark = pytest.mark.anyio


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


async def test_actions_appended_at_once_share_a_transaction_and_a_duplicate_among_them_is_refused_alone(
    database_url: str,
) -> None:
    """The log is written by group commit: actions of many tables arriving together are kept together,
    and a resent one among them is refused without the others."""
    store = Store(database_url)
    await store.open()
    try:
        seat = [SeatRow(0, SeatKind.HUMAN, "Alice", "p0")]
        tables = [await store.create_table(f"CODE{n}", "{}", "club", "p0", 1, 0, 0, seat) for n in range(3)]
        await store.append_action(tables[0].id, 1, ActionRow(0, 0, 0, "P", "sent", False, "p0"))
        rows = [(tables[0], ActionRow(1, 0, 0, "P", "sent", False, "p0"))]  # sent again
        rows += [(t, ActionRow(seq, 0, 0, "P", f"new{seq}", False, "p0")) for t in tables[1:] for seq in range(40)]
        results = await asyncio.gather(*(store.append_action(t.id, 1, row) for t, row in rows), return_exceptions=True)
        assert isinstance(results[0], DuplicateAction) and results[1:] == [None] * 80
        assert [len(await store.actions(t.id, 1)) for t in tables] == [1, 40, 40]
    finally:
        await store.close()


async def test_action_ids_are_per_player(tmp_path: Path, database_url: str) -> None:
    """An id one player used is another's to use too: his action is applied, not taken for a resent one;
    a player's own id sent again is a duplicate, also on a restarted server (the ids come from the log)."""
    settings = fast_settings(tmp_path, database_url=database_url)
    async with Harness(settings) as harness:
        actor, conns = await harness.table("coinche", 4)
        movers = []
        for turn in range(2):  # two players in turn, the same id
            mover = next(c for c in conns if c.view["deal"]["turn"] == c.view["you"])
            actor.submit(Act(mover, "P", "shared"))
            assert await mover.reply_to("shared") == {"type": "ack", "id": "shared"}, turn
            await settle(actor)
            movers.append(mover)
        code, players = actor.code, {c.view["you"]: c.player for c in conns}
        first = movers[0]
        assert first.player != movers[1].player
        first.messages.clear()
        actor.submit(Act(first, "P", "shared"))  # the first one's message again: a duplicate
        assert (await first.reply_to("shared"))["duplicate"] is True
        assert actor.game is not None and actor.game.seq == 2
        log = [(a.seat, a.action_id) for a in await harness.store.actions(actor.row.id, actor.row.game_no)]
        assert [i for _, i in log] == ["shared", "shared"] and log[0][0] != log[1][0]
    async with Harness(settings) as harness:  # a new server: the ids come back from the log, with their players
        restarted = await harness.service.actor(code)
        assert restarted is not None and restarted.game is not None
        again = {seat: Recorder(player) for seat, player in players.items()}
        for conn in again.values():
            connect(restarted, conn)
        await settle(restarted)
        resent = again[log[0][0]]
        restarted.submit(Act(resent, "P", "shared"))
        assert (await resent.reply_to("shared"))["duplicate"] is True
        mover = again[restarted.game.turn or 0]
        restarted.submit(Act(mover, "P", "shared"))
        assert await mover.reply_to("shared") == {"type": "ack", "id": "shared"}
        assert restarted.game.seq == 3


async def test_an_older_database_keeps_its_action_ids_with_their_players(database_url: str) -> None:
    """The migration that makes ids per player gives the logged actions the players of their seats."""
    store = Store(database_url)
    async with store.engine.begin() as conn:  # the database as the first version of the schema left it
        await conn.run_sync(lambda sync: migrate_to(sync, "0001"))
        now = datetime.now(UTC)
        table = dict(rules="{}", bots="club", status="playing", host="p0", game_no=1, match_seed=1, first_dealer=0)
        await conn.execute(
            insert(schema_tables).values(id=1, code="C0DE", created_at=now, updated_at=now, shard=0, **table)
        )
        seats = [dict(table_id=1, seat=s, kind="human", name=f"P{s}", player=f"p{s}") for s in range(2)]
        await conn.execute(insert(schema_seats), seats)
        for seq, (seat, action_id) in enumerate([(0, "a"), (1, "b"), (0, None)]):
            await conn.execute(
                text(
                    "INSERT INTO actions (table_id, game_no, seq, deal_no, seat, action, action_id, by_bot, created_at)"
                    " VALUES (1, 1, :seq, 0, :seat, 'P', :action_id, :by_bot, :now)"
                ),
                dict(seq=seq, seat=seat, action_id=action_id, by_bot=action_id is None, now=now),
            )
    await store.open()  # brings it to the current schema
    try:
        logged = await store.actions(1, 1)
        assert [(a.action_id, a.player) for a in logged] == [("a", "p0"), ("b", "p1"), (None, None)]
        await store.append_action(1, 1, ActionRow(3, 0, 1, "P", "a", False, "p1"))  # p0's id: p1's too
        with pytest.raises(DuplicateAction):
            await store.append_action(1, 1, ActionRow(4, 0, 0, "P", "a", False, "p0"))
    finally:
        await store.close()


async def test_a_private_table_stays_private_after_a_restart(tmp_path: Path, database_url: str) -> None:
    settings = fast_settings(tmp_path, database_url=database_url)
    async with Harness(settings) as harness:
        hidden, _ = await harness.service.create("coinche", {}, "club", None, "Alice", private=True)
        listed, _ = await harness.service.create("coinche", {}, "club", None, "Bob")
    async with Harness(settings) as harness:  # a new server on the same database
        found = [await harness.service.actor(code) for code in (hidden, listed)]
        assert [actor.row.private for actor in found if actor is not None] == [True, False]


async def test_the_tables_of_an_older_database_are_private(database_url: str) -> None:
    """Made when a link was the only way to a table, they are not listed without their hosts' word."""
    store = await older_database(database_url, "0002")  # the database as the second version of the schema left it
    await store.open()  # brings it to the current schema
    try:
        old = await store.table("C0DE")
        new = await store.create_table("NEW1", "{}", "club", "p0", 1, 0, 0, [SeatRow(0, SeatKind.HUMAN, "A", "p0")])
        assert old is not None and old.private is True and new.private is False
        assert (await store.table("NEW1")) == new
    finally:
        await store.close()


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
