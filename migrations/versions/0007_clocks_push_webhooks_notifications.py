"""play across days: the turn clock's rule and due time, Web Push, webhooks, notifications

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03 00:00:00

New columns are plain values with server defaults (``ALTER TABLE … ADD COLUMN`` on SQLite,
no rebuild). ``matches.due_at`` of a match in play is filled from ``owing_since`` and the
room's clock, so a clock that was running before the upgrade still runs out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "rooms",
        sa.Column("clock_rule", sa.String(length=8), nullable=False, server_default="move"),
    )
    op.add_column(
        "seats", sa.Column("for_good", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("matches", sa.Column("due_at", sa.Float(), nullable=True))
    op.create_index("ix_matches_due_at", "matches", ["due_at"])
    bind = op.get_bind()
    rows = bind.execute(
        sa.text(
            "SELECT matches.id, matches.owing_since, matches.stage_since, rooms.turn_seconds "
            "FROM matches JOIN rooms ON rooms.id = matches.room_id "
            "WHERE rooms.status = 'playing' AND rooms.turn_seconds IS NOT NULL"
        )
    ).all()
    for match_id, owing, stage_since, turn in rows:
        if isinstance(owing, str):
            owing = json.loads(owing)
        starts = [s for s in (owing or []) if s is not None] or [stage_since]
        bind.execute(
            sa.text("UPDATE matches SET due_at = :due WHERE id = :id").bindparams(
                due=min(starts) + float(turn), id=match_id
            )
        )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(length=32), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "seat_id",
            sa.Integer(),
            sa.ForeignKey("seats.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("endpoint", sa.String(length=1000), nullable=False),
        sa.Column("p256dh", sa.String(length=200), nullable=False),
        sa.Column("auth", sa.String(length=100), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("seat_id", "endpoint"),
    )
    op.create_index("ix_push_subscriptions_seat_id", "push_subscriptions", ["seat_id"])
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            nullable=True,
            unique=True,
        ),
        sa.Column(
            "circle_id",
            sa.Integer(),
            sa.ForeignKey("circles.id", ondelete="CASCADE"),
            nullable=True,
            unique=True,
        ),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("link_base", sa.String(length=300), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(length=200), nullable=False, unique=True),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("send_after", sa.Float(), nullable=False),
        sa.Column("claimed_until", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=True),
        sa.Column("last_error", sa.String(length=300), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("sent_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_notifications_pending", "notifications", ["done", "send_after"])
    op.create_index("ix_notifications_room_id", "notifications", ["room_id"])


def downgrade() -> None:
    op.drop_table("notifications")
    op.drop_table("webhooks")
    op.drop_table("push_subscriptions")
    op.drop_table("server_keys")
    op.drop_index("ix_matches_due_at", table_name="matches")
    op.drop_column("matches", "due_at")
    op.drop_column("seats", "for_good")
    op.drop_column("rooms", "clock_rule")
