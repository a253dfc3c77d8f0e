"""The HTTP answers of history and ratings, as Pydantic models (the OpenAPI schema), built
from the records ``queries`` hands out."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.results.records import (
    GameSummary,
    HistoryPage,
    LeaderboardLine,
    MatchLine,
    ProfileCard,
    RatingLine,
    VersusLine,
)


def cursor_text(cursor: tuple[float, int] | None) -> str | None:
    """A page's ``next`` as the ``before`` query parameter of the next request."""
    return None if cursor is None else f"{cursor[0]!r}_{cursor[1]}"


class SeatResult(BaseModel):
    seat: int
    name: str
    place: int
    score: float | None
    bot: str | None = Field(description="a bot's level; null for a person")
    former: bool = Field(description="the profile that sat here was deleted")
    public_id: str | None = Field(description="the player's profile, when you may see it")
    you: bool
    stats: dict[str, float] = Field(description="the game's own figures for this seat")

    @classmethod
    def of(cls, line: MatchLine) -> list[SeatResult]:
        return [
            cls(
                seat=s.seat,
                name=s.name,
                place=s.place,
                score=s.score,
                bot=s.bot_level,
                former=s.former,
                public_id=s.public_id,
                you=s.you,
                stats={k: float(v) for k, v in s.stats.items()},
            )
            for s in line.seats
        ]


class MatchResult(BaseModel):
    game: str
    finished_at: float
    rated: bool = Field(description="it moved the ratings of the profiles in it")
    code: str | None = Field(description="the room (and its replay), when you may know it")
    seats: list[SeatResult]

    @classmethod
    def of(cls, line: MatchLine) -> MatchResult:
        return cls(
            game=line.game_id,
            finished_at=line.finished_at,
            rated=line.rated,
            code=line.code,
            seats=SeatResult.of(line),
        )


class History(BaseModel):
    matches: list[MatchResult]
    next: str | None = Field(description="pass as ?before= for the older matches; null: no more")

    @classmethod
    def of(cls, page: HistoryPage) -> History:
        return cls(matches=[MatchResult.of(m) for m in page.matches], next=cursor_text(page.next))


class Figure(BaseModel):
    name: str
    total: float
    average: float | None


class GameRecord(BaseModel):
    game: str
    matches: int
    wins: int
    average_place: float
    figures: list[Figure]

    @classmethod
    def of(cls, summary: GameSummary) -> GameRecord:
        return cls(
            game=summary.game_id,
            matches=summary.matches,
            wins=summary.wins,
            average_place=summary.average_place,
            figures=[
                Figure(name=f.name, total=f.total, average=f.average) for f in summary.figures
            ],
        )


class Rating(BaseModel):
    game: str
    mu: float
    sigma: float
    ordinal: float = Field(description="mu - 3 sigma: what ranks on the leaderboard")
    matches: int = Field(description="rated matches")

    @classmethod
    def of(cls, line: RatingLine) -> Rating:
        return cls(
            game=line.game_id,
            mu=line.mu,
            sigma=line.sigma,
            ordinal=line.ordinal,
            matches=line.matches,
        )


class ProfileHeader(BaseModel):
    public_id: str
    name: str
    listed: bool
    you: bool = Field(description="this browser holds the profile")

    @classmethod
    def of(cls, card: ProfileCard, viewer_id: int | None) -> ProfileHeader:
        return cls(
            public_id=card.public_id, name=card.name, listed=card.listed, you=card.id == viewer_id
        )


class ProfilePage(BaseModel):
    profile: ProfileHeader
    ratings: list[Rating]
    games: list[GameRecord]
    history: History
    public_profiles: bool = Field(description="the operator shows profiles and leaderboards")


class LeaderboardEntry(BaseModel):
    rank: int
    public_id: str
    name: str
    ordinal: float
    mu: float
    sigma: float
    matches: int

    @classmethod
    def of(cls, line: LeaderboardLine) -> LeaderboardEntry:
        return cls(
            rank=line.rank,
            public_id=line.public_id,
            name=line.name,
            ordinal=line.ordinal,
            mu=line.mu,
            sigma=line.sigma,
            matches=line.matches,
        )


class Leaderboard(BaseModel):
    game: str
    entries: list[LeaderboardEntry]


class VersusGame(BaseModel):
    game: str
    matches: int
    wins: int = Field(description="the first profile placed better")
    losses: int = Field(description="the second profile placed better")
    draws: int

    @classmethod
    def of(cls, line: VersusLine) -> VersusGame:
        return cls(
            game=line.game_id,
            matches=line.matches,
            wins=line.wins,
            losses=line.losses,
            draws=line.draws,
        )


class Versus(BaseModel):
    profile: ProfileHeader
    other: ProfileHeader
    games: list[VersusGame]
    total: VersusGame = Field(description='every game together (game: "all")')


class RoomResults(BaseModel):
    finished: bool
    recorded: bool = Field(description="false for a moment after the end: ask again")
    game: str
    statistic_names: list[str] = Field(description="the game's figures, in the order to show")
    match: MatchResult | None
