"""What the circle store hands out: plain records, never ORM rows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Circle:
    id: int
    public_id: str
    name: str
    # Who manages it (renames, removes members, renews the invite): its creator, or, once the
    # creator left or deleted her profile, the member who joined first.
    keeper_id: int | None
    created_at: float
    # The current invite link's row id: a browser keeps the code it was given with this id,
    # and shows its copy only while the ids agree (the code itself is not stored).
    invite_id: int | None


@dataclass(frozen=True, slots=True)
class Member:
    profile_id: int
    public_id: str
    name: str
    listed: bool
    joined_at: float


@dataclass(frozen=True, slots=True)
class Standing:
    """A member's rating in one game (OpenSkill; ``ordinal`` = mu − 3 sigma orders them)."""

    game_id: str
    profile_id: int
    public_id: str
    name: str
    listed: bool
    ordinal: float
    mu: float
    sigma: float
    matches: int


@dataclass(frozen=True, slots=True)
class PlayedSeat:
    seat: int
    name: str
    place: int
    score: float | None
    bot_level: str | None
    former: bool
    profile_id: int | None
    public_id: str | None
    listed: bool


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    room_code: str
    game_id: str
    finished_at: float
    seats: tuple[PlayedSeat, ...]


@dataclass(frozen=True, slots=True)
class TableSeat:
    seat: int
    name: str
    bot: bool


@dataclass(frozen=True, slots=True)
class OpenTable:
    """A room not finished yet: waiting for players ("open") or being played ("playing")."""

    room_id: int
    code: str
    game_id: str
    name: str
    status: str
    seat_count: int
    created_at: float
    seats: tuple[TableSeat, ...]
