"""The tables. Snapshots are the game's own ``dump()``; the action log replays a match."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class RoomRow(Base):
    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    game_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(80))
    visibility: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # open (seats filling) → playing → finished
    status: Mapped[str] = mapped_column(String(16), index=True)
    seat_count: Mapped[int] = mapped_column(Integer)
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    # sha256 hex of the bearer token; NULL for a bot seat.
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    bot_level: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # A human seat a bot plays for (turn clock ran out, or the host handed it over);
    # cleared the moment the player acts again.
    away: Mapped[bool] = mapped_column(Boolean, default=False)
    # The bot level that plays for an away seat (the host's choice when handing it over);
    # NULL: "random" (the turn clock's stand-in).
    away_level: Mapped[str | None] = mapped_column(String(32), nullable=True)


class MatchRow(Base):
    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), unique=True)
    game_id: Mapped[str] = mapped_column(String(64))
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)
    stage: Mapped[str] = mapped_column(String(200))
    # When the current stage began (epoch seconds); kept for rows older than ``owing_since``.
    stage_since: Mapped[float] = mapped_column(Float)
    # Per seat, the version that seat's latest action produced (0: none yet): the stale-version
    # rule accepts an older version only from a seat that has not acted since it.
    acted: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    # Per seat, when it began to owe the decision it owes now (epoch seconds; null: owes
    # none): the turn clock. Written in the same version-guarded UPDATE as the snapshot.
    owing_since: Mapped[list[float | None] | None] = mapped_column(JSON, nullable=True)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[float] = mapped_column(Float)


class ActionRow(Base):
    """Append-only. ``version`` is the match version this action produced; ``stage`` is the
    stage it was applied in (so the stage at version v is the ``stage`` of row v + 1)."""

    __tablename__ = "actions"
    __table_args__ = (
        UniqueConstraint("match_id", "client_id"),
        UniqueConstraint("match_id", "version"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    client_id: Mapped[str] = mapped_column(String(100))
    stage: Mapped[str] = mapped_column(String(200))
    # Every event of the step, addressed ones included; views filter them per seat.
    events: Mapped[list[Any]] = mapped_column(JSON)
    by_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[float] = mapped_column(Float)


class ChatRow(Base):
    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)
