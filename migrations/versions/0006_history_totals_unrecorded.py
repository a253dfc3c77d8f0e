"""history's running totals per profile and game; matches.recorded and the sweep's partial index

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 00:00:00

``profile_game_totals`` is filled here from the ``match_players`` rows already held by
profiles, the way the results ledger adds a row (app/results/totals.py): one match per row,
a win for first place, the place, each numeric figure with how many matches recorded it.
``matches.recorded`` is a plain boolean with a server default, so SQLite adds it with
``ALTER TABLE … ADD COLUMN`` (no rebuild of ``matches``); matches with a result row are marked
recorded, the others are what the sweep records next.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UNRECORDED = sa.and_(sa.column("finished").is_(True), sa.column("recorded").is_(False))
BATCH = 1000


def upgrade() -> None:
    op.add_column(
        "matches",
        sa.Column("recorded", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.execute(
        sa.text(
            "UPDATE matches SET recorded = :yes WHERE id IN (SELECT match_id FROM match_results)"
        ).bindparams(yes=True)
    )
    op.create_index(
        "ix_matches_unrecorded",
        "matches",
        ["id"],
        postgresql_where=UNRECORDED,
        sqlite_where=UNRECORDED,
    )
    totals = op.create_table(
        "profile_game_totals",
        sa.Column(
            "profile_id",
            sa.Integer(),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game_id", sa.String(length=64), primary_key=True),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("place_sum", sa.Integer(), nullable=False),
        sa.Column("figure_sums", sa.JSON(), nullable=False),
        sa.Column("figure_counts", sa.JSON(), nullable=False),
    )
    _fill(totals)


def _fill(totals: sa.Table) -> None:
    """Every profile's rows added up, read in batches (a big history need not fit in memory
    twice: only the totals are kept)."""
    players = sa.table(
        "match_players",
        sa.column("profile_id", sa.Integer()),
        sa.column("game_id", sa.String()),
        sa.column("place", sa.Integer()),
        sa.column("stats", sa.JSON()),
    )
    kept: dict[tuple[int, str], dict[str, Any]] = {}
    found = op.get_bind().execute(
        sa.select(players.c.profile_id, players.c.game_id, players.c.place, players.c.stats)
        .where(players.c.profile_id.is_not(None))
    )
    for rows in found.partitions(BATCH):
        for profile_id, game_id, place, stats in rows:
            total = kept.setdefault(
                (profile_id, game_id),
                {"matches": 0, "wins": 0, "place_sum": 0, "figure_sums": {}, "figure_counts": {}},
            )
            total["matches"] += 1
            total["wins"] += place == 1
            total["place_sum"] += place
            if isinstance(stats, str):  # a driver that hands JSON back as text
                stats = json.loads(stats)
            for name, value in (stats or {}).items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    total["figure_sums"][name] = total["figure_sums"].get(name, 0) + value
                    total["figure_counts"][name] = total["figure_counts"].get(name, 0) + 1
    rows = [{"profile_id": p, "game_id": g, **total} for (p, g), total in kept.items()]
    for start in range(0, len(rows), BATCH):
        op.bulk_insert(totals, rows[start:start + BATCH])


def downgrade() -> None:
    op.drop_table("profile_game_totals")
    op.drop_index("ix_matches_unrecorded", table_name="matches")
    # ALTER TABLE … DROP COLUMN on both (SQLite 3.35+): a batch would rebuild ``matches``, and
    # with foreign keys on, dropping the old copy would delete every match's actions.
    op.execute("ALTER TABLE matches DROP COLUMN recorded")
