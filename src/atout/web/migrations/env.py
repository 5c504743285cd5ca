"""Alembic's environment: migrations run on the connection the server hands over at start."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from atout.web.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    if connection.dialect.name == "postgresql":
        # Two servers starting at once on one database migrate one after the other.
        connection.execute(text("SELECT pg_advisory_xact_lock(7403)"))
    context.run_migrations()
