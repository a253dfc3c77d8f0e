"""fair by proof: the seed commitment, each seat's contribution, the rules version of a match

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 00:00:00

Every new column is nullable (``ALTER TABLE … ADD COLUMN`` on SQLite, no rebuild). Rooms made
before this have no seed proof (their ``fairness`` is null). Matches stored before it are
marked with rules version "1", the version every game declared when versions began
(engine/<game>/__init__.py): they replay and export under it.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("seed_commitment", sa.String(length=64), nullable=True))
    op.create_table(
        "room_seeds",
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("salt", sa.String(length=32), nullable=False),
    )
    op.add_column("seats", sa.Column("contribution", sa.String(length=32), nullable=True))
    op.add_column("seats", sa.Column("contribution_by", sa.String(length=8), nullable=True))
    op.add_column("matches", sa.Column("rules_version", sa.String(length=32), nullable=True))
    op.add_column("matches", sa.Column("server_seed", sa.String(length=64), nullable=True))
    op.add_column("matches", sa.Column("seed_salt", sa.String(length=32), nullable=True))
    op.execute(sa.text("UPDATE matches SET rules_version = '1' WHERE rules_version IS NULL"))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("seed_salt")
        batch.drop_column("server_seed")
        batch.drop_column("rules_version")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("contribution_by")
        batch.drop_column("contribution")
    op.drop_table("room_seeds")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("seed_commitment")
