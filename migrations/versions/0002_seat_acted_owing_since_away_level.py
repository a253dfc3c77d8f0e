"""per-seat acted version and turn clock on matches; away_level on seats

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 09:00:00

Rows from before this revision keep NULL: the server then reads a seat's last action from
the ``actions`` table and starts every owing seat's clock at ``stage_since``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("acted", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("owing_since", sa.JSON(), nullable=True))
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("away_level", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("away_level")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("owing_since")
        batch_op.drop_column("acted")
