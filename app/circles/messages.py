"""The HTTP bodies of the circle routes and of the home page's tables (the OpenAPI schema)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class NewCircle(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=400, description="cleaned for display, 1-40 characters")


class RenameCircle(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=400, description="cleaned for display, 1-40 characters")


class InviteCode(BaseModel):
    """An invite link's code, sent in a body (it lives in the link's fragment, never in a URL
    the server sees)."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(max_length=100)


class TableSeatInfo(BaseModel):
    seat: int
    name: str
    bot: bool


class TableInfo(BaseModel):
    """A table not finished: waiting for players (``open``) or being played (``playing``)."""

    code: str
    game: str
    name: str
    status: str
    seat_count: int
    seats: list[TableSeatInfo]
    created_at: float


class CircleInfo(BaseModel):
    public_id: str
    name: str
    created_at: float
    members: int
    keeper: bool = Field(description="whether you keep this circle (rename, remove, renew)")
    invite_id: int | None = Field(
        description="the current invite link's id: a browser's copy of the link with another "
        "id was revoked"
    )


class InviteLink(BaseModel):
    """A circle's invite link, given to whoever made it (only its hash is stored)."""

    url: str
    code: str
    invite_id: int | None
    svg: str = Field(description="the link as a QR code (SVG)")


class CircleCreated(BaseModel):
    circle: CircleInfo
    invite: InviteLink


class MemberInfo(BaseModel):
    public_id: str
    name: str
    listed: bool
    joined_at: float
    keeper: bool
    you: bool


class StandingInfo(BaseModel):
    rank: int
    public_id: str
    name: str
    listed: bool
    ordinal: float
    mu: float
    sigma: float
    matches: int
    you: bool


class Leaderboard(BaseModel):
    game: str
    standings: list[StandingInfo]


class PlayedSeatInfo(BaseModel):
    seat: int
    name: str
    place: int
    score: float | None
    bot: str | None = Field(description="the bot's level; null for a person")
    former: bool
    public_id: str | None = Field(description="the player's profile, when others may see it")
    member: bool


class PlayedMatchInfo(BaseModel):
    room: str
    game: str
    finished_at: float
    seats: list[PlayedSeatInfo]


class CircleDetail(BaseModel):
    circle: CircleInfo
    members: list[MemberInfo]
    leaderboards: list[Leaderboard]
    matches: list[PlayedMatchInfo]
    tables: list[TableInfo]


class MyCircle(BaseModel):
    circle: CircleInfo
    tables: list[TableInfo]


class Invitation(BaseModel):
    """What an invite link shows before one joins."""

    name: str
    members: int
    member: bool = Field(description="you are a member already")
    public_id: str | None = Field(description="the circle's id, for its members only")


class HeldSeat(BaseModel):
    """A seat token this browser keeps (localStorage), with the room it is for."""

    model_config = ConfigDict(extra="forbid")

    room: str = Field(max_length=64)
    token: str = Field(max_length=100)


class MyTablesQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seats: list[HeldSeat] = Field(default_factory=list, max_length=200)


class CircleMarkInfo(BaseModel):
    public_id: str
    name: str


class TableInProgressInfo(BaseModel):
    table: TableInfo
    seat: int = Field(description="your seat")
    to_move: list[int] = Field(description="the seats that owe a decision now")
    your_turn: bool
    circle: CircleMarkInfo | None
    turn_seconds: float | None = Field(description="the room's time per move; null: no clock")
    pace: Literal["none", "live", "correspondence"] = Field(
        description="correspondence: 12 hours or more per move"
    )
    due: float | None = Field(
        description="when the first turn clock of the seats that owe runs out (epoch seconds "
        "by the server's clock, as ``now``); null: no clock, or nobody owes a decision"
    )
    seat_due: list[float | None] = Field(
        description="per seat, when its turn clock runs out (null: it owes nothing), as the "
        "table's own state.clock.due; empty while the room waits for players"
    )
    last_move_at: float | None = Field(
        description="the match's latest action (epoch seconds), or its start before any; null "
        "while the room waits for players"
    )


class MyTables(BaseModel):
    """Your tables in progress, yours to play first (then by the clock that runs out first),
    then the matches others play, then the rooms waiting for players."""

    now: float = Field(description="the server's clock (epoch seconds): count ``due`` from it")
    tables: list[TableInProgressInfo]
