"""A profile's running totals per game (``profile_game_totals``): what her page shows per game —
matches, wins, average place, the game's figures in total and per match — kept up to date in
the transaction that gives her history rows, so showing them reads one short index range
however many matches she played.

Every ``match_players`` row a profile holds counts once (a match in which she held two seats
counts twice, as her history lists both seats). Two writers add to them: the results ledger
when it records a match, and a claim when it gives a guest seat's recorded matches to a
profile. A deleted profile's totals go with it (ON DELETE CASCADE).

Adding locks the rows it changes in (profile, game) order (``FOR UPDATE`` on PostgreSQL;
SQLite has one writer at a time), so two matches of the same player never both add to the old
totals, and two writers never wait on each other's rows in a circle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from app.results.records import FigureSummary, GameSummary
from app.store.database import insert_ignoring
from app.store.models import ProfileGameTotalsRow

TOTALS = ProfileGameTotalsRow


@dataclass(frozen=True, slots=True)
class PlayedSeat:
    """One history row as the totals count it: whose, which game, her place, her figures."""

    profile_id: int
    game_id: str
    place: int
    stats: Mapping[str, Any]


@dataclass(slots=True)
class Tally:
    """One profile's rows of one game, added up."""

    matches: int = 0
    wins: int = 0
    place_sum: int = 0
    figure_sums: dict[str, float] = field(default_factory=dict)
    figure_counts: dict[str, int] = field(default_factory=dict)

    def add(self, place: int, stats: Mapping[str, Any]) -> None:
        self.matches += 1
        self.wins += place == 1
        self.place_sum += place
        for name, value in stats.items():
            # A figure is a number; anything else a game might put there is not summed.
            if isinstance(value, int | float) and not isinstance(value, bool):
                self.figure_sums[name] = self.figure_sums.get(name, 0) + value
                self.figure_counts[name] = self.figure_counts.get(name, 0) + 1

    def merge(self, other: Tally) -> None:
        self.matches += other.matches
        self.wins += other.wins
        self.place_sum += other.place_sum
        for name, value in other.figure_sums.items():
            self.figure_sums[name] = self.figure_sums.get(name, 0) + value
        for name, count in other.figure_counts.items():
            self.figure_counts[name] = self.figure_counts.get(name, 0) + count

    def summary(self, game_id: str, names: Sequence[str]) -> GameSummary:
        """What her page shows for this game: ``names``, the game's figures in its order."""
        return GameSummary(
            game_id,
            self.matches,
            self.wins,
            self.place_sum / self.matches if self.matches else 0.0,
            [
                FigureSummary(
                    name,
                    float(self.figure_sums.get(name, 0)),
                    self.figure_sums[name] / self.figure_counts[name]
                    if self.figure_counts.get(name)
                    else None,
                )
                for name in names
            ],
        )


def tallies(seats: Iterable[PlayedSeat]) -> dict[tuple[int, str], Tally]:
    """``seats`` added up per (profile, game)."""
    found: dict[tuple[int, str], Tally] = {}
    for seat in seats:
        found.setdefault((seat.profile_id, seat.game_id), Tally()).add(seat.place, seat.stats)
    return found


def tally_of(row: ProfileGameTotalsRow) -> Tally:
    return Tally(
        row.matches,
        row.wins,
        row.place_sum,
        dict(row.figure_sums or {}),
        dict(row.figure_counts or {}),
    )


async def add(session: AsyncSession, dialect: str, seats: Iterable[PlayedSeat]) -> None:
    """Add ``seats`` to their profiles' totals, inside the caller's transaction."""
    added = tallies(seats)
    if not added:
        return
    keys = sorted(added)
    await session.execute(
        insert_ignoring(dialect, TOTALS).values(
            [
                {
                    "profile_id": p,
                    "game_id": g,
                    "matches": 0,
                    "wins": 0,
                    "place_sum": 0,
                    "figure_sums": {},
                    "figure_counts": {},
                }
                for p, g in keys
            ]
        )
    )
    rows = (
        (
            await session.execute(
                select(TOTALS)
                .where(tuple_(TOTALS.profile_id, TOTALS.game_id).in_(keys))
                .order_by(TOTALS.profile_id, TOTALS.game_id)
                .with_for_update()
                # Read as they are now, even if this session saw them before.
                .execution_options(populate_existing=True)
            )
        )
        .scalars()
        .all()
    )
    for row in rows:
        total = tally_of(row)
        total.merge(added[(row.profile_id, row.game_id)])
        row.matches, row.wins, row.place_sum = total.matches, total.wins, total.place_sum
        row.figure_sums, row.figure_counts = total.figure_sums, total.figure_counts
    await session.flush()
