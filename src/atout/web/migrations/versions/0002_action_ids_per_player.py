"""Action ids are per player: the log keeps each action's player, and an id is unique per player at a table.

Before, an id was unique per table, so one player's id used earlier by another at the
same table made his action pass for a resent one. The existing actions get the
player who holds their seat now (right unless the seat changed hands since); an id
that was unique per table is unique per player too, so the backfill cannot conflict.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("player", sa.String(64), nullable=True))
    op.execute(
        "UPDATE actions SET player = (SELECT seats.player FROM seats"
        " WHERE seats.table_id = actions.table_id AND seats.seat = actions.seat)"
        " WHERE action_id IS NOT NULL"
    )
    with op.batch_alter_table("actions") as batch:
        batch.drop_constraint("uq_actions_action_id", type_="unique")
        batch.create_unique_constraint("uq_actions_player_action_id", ["table_id", "player", "action_id"])


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_constraint("uq_actions_player_action_id", type_="unique")
        batch.create_unique_constraint("uq_actions_action_id", ["table_id", "action_id"])
        batch.drop_column("player")
