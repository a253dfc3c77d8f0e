"""rematches: who may start one and the host's standing choice on rooms; one rematch per room

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 12:00:00

The three columns of ``rooms`` are plain strings with a server default, so SQLite adds them
with ``ALTER TABLE … ADD COLUMN`` (no rebuild of ``rooms``, which foreign keys would cascade
into seats, matches and chat); rooms from before keep "host", "keep" and "bot".
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rematch_by", sa.String(length=8), nullable=False, server_default="host")
        )
        batch_op.add_column(
            sa.Column("rematch_seats", sa.String(length=8), nullable=False, server_default="keep")
        )
        batch_op.add_column(
            sa.Column("rematch_absent", sa.String(length=16), nullable=False, server_default="bot")
        )
    op.create_table(
        "rematches",
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "new_room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("seats", sa.String(length=8), nullable=False),
        sa.Column("absent", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("deadline", sa.Float(), nullable=False),
        sa.Column("arrived", sa.JSON(), nullable=False),
        sa.Column("started", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_rematches_waiting", "rematches", ["started", "deadline"])


def downgrade() -> None:
    op.drop_table("rematches")
    # ALTER TABLE … DROP COLUMN on both (SQLite 3.35+): a batch would rebuild ``rooms``, and
    # with foreign keys on, dropping the old copy would delete every room's seats and matches.
    for column in ("rematch_absent", "rematch_seats", "rematch_by"):
        op.execute(f"ALTER TABLE rooms DROP COLUMN {column}")
