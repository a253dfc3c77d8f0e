"""profiles (keys, passkeys, one-time challenges), match results and ratings; seats.profile_id

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 23:30:00

A guest plays without any of these rows. Matches that finished before this revision are
recorded into ``match_results`` by the results reaction (as guests' matches) when it first runs.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("public_id", sa.String(length=32), nullable=False, unique=True),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "profile_keys",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "profile_id",
            sa.Integer(),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("secret_hash", sa.String(length=64), nullable=False, unique=True),
        sa.Column("via", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_used_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_profile_keys_profile_id", "profile_keys", ["profile_id"])
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "profile_id",
            sa.Integer(),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("credential_id", sa.String(length=1400), nullable=False, unique=True),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_used_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_passkeys_profile_id", "passkeys", ["profile_id"])
    op.create_table(
        "auth_challenges",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("digest", sa.String(length=64), nullable=False, unique=True),
        sa.Column("purpose", sa.String(length=24), nullable=False),
        sa.Column(
            "profile_id",
            sa.Integer(),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_auth_challenges_profile_id", "auth_challenges", ["profile_id"])
    op.create_index("ix_auth_challenges_expires_at", "auth_challenges", ["expires_at"])

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("profile_id", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("former", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.create_foreign_key(
            "fk_seats_profile_id", "profiles", ["profile_id"], ["id"], ondelete="SET NULL"
        )
        batch_op.create_index("ix_seats_profile_id", ["profile_id"])

    op.create_table(
        "match_results",
        sa.Column(
            "match_id",
            sa.Integer(),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_match_results_room_id", "match_results", ["room_id"])
    op.create_index("ix_match_results_game_id", "match_results", ["game_id"])
    op.create_index("ix_match_results_finished_at", "match_results", ["finished_at"])
    op.create_table(
        "match_players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "match_id",
            sa.Integer(),
            sa.ForeignKey("match_results.match_id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column(
            "profile_id",
            sa.Integer(),
            sa.ForeignKey("profiles.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("bot_level", sa.String(length=32), nullable=True),
        sa.Column("former", sa.Boolean(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("stats", sa.JSON(), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("match_id", "seat"),
    )
    op.create_index(
        "ix_match_players_profile_finished", "match_players", ["profile_id", "finished_at"]
    )
    op.create_index(
        "ix_match_players_profile_game", "match_players", ["profile_id", "game_id", "finished_at"]
    )
    op.create_table(
        "ratings",
        sa.Column(
            "profile_id",
            sa.Integer(),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game_id", sa.String(length=64), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_ratings_game_ordinal", "ratings", ["game_id", "ordinal"])


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_table("match_players")
    op.drop_table("match_results")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index("ix_seats_profile_id")
        batch_op.drop_constraint("fk_seats_profile_id", type_="foreignkey")
        batch_op.drop_column("former")
        batch_op.drop_column("profile_id")
    op.drop_table("auth_challenges")
    op.drop_table("passkeys")
    op.drop_table("profile_keys")
    op.drop_table("profiles")
