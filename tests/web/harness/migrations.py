"""Databases as an older schema left them: migrated only up to a revision, with one table of that time."""

from __future__ import annotations

from datetime import UTC, datetime
from importlib import resources

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, text

from atout.web.store import Store


def migrate_to(connection: Connection, revision: str) -> None:
    """Bring the database of ``connection`` to the Alembic ``revision`` (not further)."""
    config = Config()
    config.set_main_option("script_location", str(resources.files("atout.web").joinpath("migrations")))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


async def older_database(database_url: str, revision: str) -> Store:
    """A store on a database left at ``revision`` holding one table, ``C0DE`` (in the lobby), made then; not
    yet opened (:meth:`Store.open` brings it to the current schema)."""
    store = Store(database_url)
    async with store.engine.begin() as conn:
        await conn.run_sync(lambda sync: migrate_to(sync, revision))
        await conn.execute(
            text(
                "INSERT INTO tables (code, created_at, updated_at, rules, bots, status, host, game_no, match_seed,"
                " first_dealer, shard) VALUES ('C0DE', :now, :now, '{}', 'club', 'lobby', 'p0', 1, 1, 0, 0)"
            ),
            dict(now=datetime.now(UTC)),
        )
    return store
