"""private steps: the seat an action is visible to alone (null: visible to everyone)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04 00:00:00

A seat's private step (app/rooms/private_steps.py) is counted in that seat's own version only;
each viewer's numbering of the versions is read from this column. Actions stored before it are
public (null), as they were treated then.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("actions", sa.Column("private_to", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("private_to")
