"""What the results package hands out: plain records, never ORM rows."""

from __future__ import annotations

from dataclasses import dataclass, field

Figures = dict[str, int | float]


@dataclass(frozen=True, slots=True)
class SeatScore:
    """What the game says of one seat of a finished match."""

    seat: int
    place: int
    score: float | None
    stats: Figures = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A finished match as its game tells it, before history knows who sat where (read in
    the transaction that records it, so a seat claimed meanwhile is not missed)."""

    match_id: int
    room_id: int
    game_id: str
    finished_at: float
    seats: list[SeatScore]


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat of a finished match as history keeps it."""

    seat: int
    name: str
    bot_level: str | None  # a bot's seat (a person's seat a bot played for is still hers)
    profile_id: int | None  # None: a guest, a bot, or a deleted profile
    former: bool  # the profile that sat here was deleted
    place: int
    score: float | None
    stats: Figures = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    match_id: int
    room_id: int
    game_id: str
    finished_at: float
    seats: list[SeatOutcome]


@dataclass(frozen=True, slots=True)
class SkillRating:
    """A profile's OpenSkill rating in one game; ``ordinal`` (mu − 3σ) is what ranks."""

    mu: float
    sigma: float
    matches: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


# --- what the queries answer ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProfileCard:
    id: int
    public_id: str
    name: str
    listed: bool


@dataclass(frozen=True, slots=True)
class RatingLine:
    game_id: str
    mu: float
    sigma: float
    ordinal: float
    matches: int


@dataclass(frozen=True, slots=True)
class FigureSummary:
    """One of the game's figures over a player's matches of that game."""

    name: str
    total: float
    average: float | None  # per match; None when no match recorded it


@dataclass(frozen=True, slots=True)
class GameSummary:
    game_id: str
    matches: int
    wins: int  # matches she placed first in (shared first places count)
    average_place: float
    figures: list[FigureSummary]


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat of a match as a list shows it to one viewer."""

    seat: int
    name: str
    place: int
    score: float | None
    bot_level: str | None
    former: bool
    # Only when this viewer may see the profile (see ``visibility``); never a private one's.
    public_id: str | None
    you: bool
    stats: Figures


@dataclass(frozen=True, slots=True)
class MatchLine:
    game_id: str
    finished_at: float
    rated: bool
    # The room's code (its replay's link) when this viewer may know it: a public room, or a
    # match she sat in. A private room stays reachable by its link alone.
    code: str | None
    seats: list[SeatLine]


@dataclass(frozen=True, slots=True)
class HistoryPage:
    matches: list[MatchLine]
    # Where the next (older) page starts, or None on the last page.
    next: tuple[float, int] | None


@dataclass(frozen=True, slots=True)
class LeaderboardLine:
    rank: int  # equal ordinals share a rank (1, 2, 2, 4)
    public_id: str
    name: str
    ordinal: float
    mu: float
    sigma: float
    matches: int


@dataclass(frozen=True, slots=True)
class VersusLine:
    """Two profiles' matches together in one game, from the first profile's side."""

    game_id: str
    matches: int
    wins: int  # the first placed better
    losses: int  # the second placed better
    draws: int
