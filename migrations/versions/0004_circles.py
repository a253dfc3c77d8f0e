"""circles (groups of friends), their members, invite links and the tables opened for them

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 10:00:00

Which circle a table was opened for is a table of its own (``circle_rooms``), not a column
of ``rooms``: on SQLite a foreign key column is added to ``rooms`` only by rebuilding it (a
batch), and dropping ``rooms`` with foreign keys on would cascade into every room's seats,
matches and chat.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "circles",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("public_id", sa.String(length=32), nullable=False, unique=True),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column(
            "created_by",
            sa.Integer(),
            sa.ForeignKey("profiles.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "circle_members",
        sa.Column(
            "circle_id",
            sa.Integer(),
            sa.ForeignKey("circles.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "profile_id",
            sa.Integer(),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("joined_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_circle_members_profile_id", "circle_members", ["profile_id"])
    op.create_table(
        "circle_invites",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "circle_id",
            sa.Integer(),
            sa.ForeignKey("circles.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("code_hash", sa.String(length=64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("revoked_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_circle_invites_circle_id", "circle_invites", ["circle_id"])
    op.create_table(
        "circle_rooms",
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "circle_id",
            sa.Integer(),
            sa.ForeignKey("circles.id", ondelete="CASCADE"),
            nullable=False,
        ),
    )
    op.create_index("ix_circle_rooms_circle_id", "circle_rooms", ["circle_id"])


def downgrade() -> None:
    op.drop_table("circle_rooms")
    op.drop_table("circle_invites")
    op.drop_table("circle_members")
    op.drop_table("circles")
