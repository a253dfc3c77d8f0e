"""Every read of history: a profile's matches, per-game figures and ratings, a leaderboard,
two profiles' record against each other, and one match's results (its end screen).

Each is one or two indexed range reads (``match_players`` by profile and time, ``ratings`` by
game and ordinal, ``profile_game_totals`` by profile), so a profile with thousands of matches
costs its page size, not its past: the per-game figures are running totals kept as matches are
recorded (``totals``), never summed over her history when her page is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Select, case, func, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from app.results.finish import statistic_names
from app.results.records import (
    GameSummary,
    HistoryPage,
    LeaderboardLine,
    MatchLine,
    ProfileCard,
    RatingLine,
    SeatLine,
    VersusLine,
)
from app.results.totals import tally_of
from app.results.visibility import Viewer
from app.store.database import Database
from app.store.models import (
    MatchPlayerRow,
    MatchResultRow,
    ProfileGameTotalsRow,
    ProfileRow,
    RatingRow,
    RoomRow,
)
from app.store.room_shards import RoomDatabases
from engine.protocol import Game

PAGE = 20
MAX_PAGE = 100
LEADERBOARD = 100

MP = MatchPlayerRow


class Queries:
    def __init__(
        self,
        db: Database,
        games: Callable[[], Sequence[Game]],
        rooms: RoomDatabases | None = None,
    ) -> None:
        # Reads run without a transaction: no BEGIN/ROLLBACK round trips around them.
        self.readers = db.readers
        self.games = games
        # Where rooms are when room databases are listed (history stays in ``db``).
        self.rooms = rooms if rooms is not None and rooms.sharded else None

    def session(self) -> AsyncSession:
        """One connection for several reads (a page asks for four)."""
        return self.readers()

    # -- profiles -----------------------------------------------------------------------------

    async def profile(self, session: AsyncSession, public_id: str) -> ProfileCard | None:
        row = (
            await session.execute(
                select(
                    ProfileRow.id, ProfileRow.public_id, ProfileRow.name, ProfileRow.listed
                ).where(ProfileRow.public_id == public_id)
            )
        ).first()
        return ProfileCard(row.id, row.public_id, row.name, row.listed) if row else None

    async def profile_and_ratings(
        self, session: AsyncSession, public_id: str
    ) -> tuple[ProfileCard, list[RatingLine]] | None:
        """The profile and its rating in each game it was rated in, in one read."""
        rows = (
            await session.execute(
                select(
                    ProfileRow.id,
                    ProfileRow.public_id,
                    ProfileRow.name,
                    ProfileRow.listed,
                    RatingRow.game_id,
                    RatingRow.mu,
                    RatingRow.sigma,
                    RatingRow.ordinal,
                    RatingRow.matches,
                )
                .outerjoin(RatingRow, RatingRow.profile_id == ProfileRow.id)
                .where(ProfileRow.public_id == public_id)
                .order_by(RatingRow.game_id)
            )
        ).all()
        if not rows:
            return None
        first = rows[0]
        card = ProfileCard(first.id, first.public_id, first.name, first.listed)
        return card, [
            RatingLine(r.game_id, r.mu, r.sigma, r.ordinal, r.matches)
            for r in rows
            if r.game_id is not None
        ]

    async def game_summaries(self, session: AsyncSession, profile_id: int) -> list[GameSummary]:
        """Per game she played, in the registry's order: matches, wins, average place and the
        game's figures, from her running totals (a game no longer installed is left out)."""
        rows = (
            await session.execute(
                select(ProfileGameTotalsRow).where(ProfileGameTotalsRow.profile_id == profile_id)
            )
        ).scalars()
        kept = {row.game_id: tally_of(row) for row in rows}
        return [
            kept[game.id].summary(game.id, statistic_names(game))
            for game in self.games()
            if game.id in kept and kept[game.id].matches
        ]

    # -- matches ------------------------------------------------------------------------------

    async def history(
        self,
        session: AsyncSession,
        profile_id: int,
        viewer: Viewer,
        before: tuple[float, int] | None = None,
        limit: int = PAGE,
    ) -> HistoryPage:
        """Her finished matches, newest first, ``limit`` at a time, older than ``before``
        (the ``next`` of the previous page)."""
        # Her rows in index order, no DISTINCT (which would group all of her rows before the
        # limit): one match is several rows only when she held several of its seats, so
        # reading a match's most seats times the page finds limit + 1 matches.
        seats = max(game.max_players for game in self.games())
        page = (
            select(MP.match_id, MP.finished_at)
            .where(MP.profile_id == profile_id)
            .order_by(MP.finished_at.desc(), MP.match_id.desc())
            .limit((limit + 1) * seats)
        )
        if before is not None:
            page = page.where(tuple_(MP.finished_at, MP.match_id) < tuple_(*before))
        rows = (await session.execute(page)).all()
        found = list({row.match_id: row for row in rows}.values())
        more = len(found) > limit
        found = found[:limit]
        lines = await self._matches(session, [m.match_id for m in found], viewer)
        last = found[-1] if found else None
        return HistoryPage(
            [lines[m.match_id] for m in found],
            (last.finished_at, last.match_id) if more and last is not None else None,
        )

    async def _matches(
        self, session: AsyncSession, match_ids: list[int], viewer: Viewer
    ) -> dict[int, MatchLine]:
        """Every seat of these matches, as ``viewer`` may see them."""
        if not match_ids:
            return {}
        if self.rooms is not None:
            return await self._matches_beside(session, self.rooms, match_ids, viewer)
        rows = (
            await session.execute(
                self._seats_query(match_ids)
                .add_columns(RoomRow.code, RoomRow.visibility)
                .join(RoomRow, RoomRow.id == MatchResultRow.room_id)
            )
        ).all()
        by_match: dict[int, list[Any]] = {}
        for row in rows:
            by_match.setdefault(row.match_id, []).append(row)
        return {
            match_id: _match_line(seats, viewer, seats[0].code, seats[0].visibility)
            for match_id, seats in by_match.items()
        }

    @staticmethod
    def _seats_query(match_ids: list[int]) -> Select[Any]:
        return (
            select(
                MP.match_id,
                MP.seat,
                MP.name,
                MP.place,
                MP.score,
                MP.bot_level,
                MP.former,
                MP.profile_id,
                MP.stats,
                MatchResultRow.room_id,
                MatchResultRow.game_id,
                MatchResultRow.finished_at,
                MatchResultRow.rated,
                ProfileRow.public_id,
                ProfileRow.listed,
            )
            .join(MatchResultRow, MatchResultRow.match_id == MP.match_id)
            .outerjoin(ProfileRow, ProfileRow.id == MP.profile_id)
            .where(MP.match_id.in_(match_ids))
            .order_by(MP.match_id, MP.seat)
        )

    async def _matches_beside(
        self, session: AsyncSession, rooms: RoomDatabases, match_ids: list[int], viewer: Viewer
    ) -> dict[int, MatchLine]:
        """``_matches`` when rooms are in room databases: the seats from history, each room's
        code and visibility from its own database (one read per database that holds some)."""
        rows = (await session.execute(self._seats_query(match_ids))).all()
        by_match: dict[int, list[Any]] = {}
        for row in rows:
            by_match.setdefault(row.match_id, []).append(row)
        found = await rooms.rooms_columns(
            {seats[0].room_id for seats in by_match.values()}, RoomRow.code, RoomRow.visibility
        )
        lines = {}
        for match_id, seats in by_match.items():
            # A room deleted since (its history stays): no code, as a private room's.
            code, visibility = found.get(seats[0].room_id, ("", "private"))
            lines[match_id] = _match_line(seats, viewer, code or None, visibility)
        return lines

    async def room_results(
        self, session: AsyncSession, code: str, viewer: Viewer
    ) -> tuple[str, str, MatchLine | None] | None:
        """The room's status, its game and its recorded match (``None`` until recorded);
        ``None`` for an unknown room."""
        query = select(RoomRow.id, RoomRow.status, RoomRow.game_id).where(RoomRow.code == code)
        room = None
        if self.rooms is None:
            room = (await session.execute(query)).first()
        else:
            for db in self.rooms.by_code(code):
                async with db.readers() as reader:
                    room = (await reader.execute(query)).first()
                if room is not None:
                    break
        if room is None:
            return None
        match_id = (
            await session.execute(
                select(MatchResultRow.match_id).where(MatchResultRow.room_id == room.id)
            )
        ).scalar()
        if match_id is None:
            return room.status, room.game_id, None
        lines = await self._matches(session, [match_id], viewer)
        return room.status, room.game_id, lines.get(match_id)

    # -- rankings -----------------------------------------------------------------------------

    async def leaderboard(
        self, session: AsyncSession, game_id: str, limit: int = LEADERBOARD
    ) -> list[LeaderboardLine]:
        """Listed profiles rated in ``game_id``, best ordinal first."""
        rows = (
            await session.execute(
                select(
                    ProfileRow.public_id,
                    ProfileRow.name,
                    RatingRow.ordinal,
                    RatingRow.mu,
                    RatingRow.sigma,
                    RatingRow.matches,
                )
                .join(ProfileRow, ProfileRow.id == RatingRow.profile_id)
                .where(RatingRow.game_id == game_id, ProfileRow.listed.is_(True))
                .order_by(RatingRow.ordinal.desc(), RatingRow.profile_id)
                .limit(limit)
            )
        ).all()
        lines: list[LeaderboardLine] = []
        for i, r in enumerate(rows):
            shared = lines and lines[-1].ordinal == r.ordinal
            rank = lines[-1].rank if shared else i + 1
            lines.append(
                LeaderboardLine(rank, r.public_id, r.name, r.ordinal, r.mu, r.sigma, r.matches)
            )
        return lines

    async def versus(self, session: AsyncSession, one: int, other: int) -> list[VersusLine]:
        """Every finished match both sat in, per game, from ``one``'s side: who placed
        better, and draws (the same place)."""
        theirs = MatchPlayerRow.__table__.alias("theirs")
        rows = await session.execute(
            select(
                MP.game_id,
                func.count(),
                func.sum(case((MP.place < theirs.c.place, 1), else_=0)),
                func.sum(case((MP.place > theirs.c.place, 1), else_=0)),
                func.sum(case((MP.place == theirs.c.place, 1), else_=0)),
            )
            .join(theirs, (theirs.c.match_id == MP.match_id) & (theirs.c.profile_id == other))
            .where(MP.profile_id == one)
            .group_by(MP.game_id)
            .order_by(MP.game_id)
        )
        return [
            VersusLine(game, int(n), int(wins), int(losses), int(draws))
            for game, n, wins, losses, draws in rows
        ]


def _match_line(
    seats: list[Any], viewer: Viewer, room_code: str | None, visibility: str
) -> MatchLine:
    first = seats[0]
    sat_here = viewer.profile_id is not None and any(
        s.profile_id == viewer.profile_id for s in seats
    )
    return MatchLine(
        game_id=first.game_id,
        finished_at=first.finished_at,
        rated=first.rated,
        code=room_code if visibility == "public" or sat_here else None,
        seats=[
            SeatLine(
                seat=s.seat,
                name=s.name,
                place=s.place,
                score=s.score,
                bot_level=s.bot_level,
                former=s.former,
                public_id=s.public_id if viewer.may_see(s.profile_id, bool(s.listed)) else None,
                you=viewer.profile_id is not None and s.profile_id == viewer.profile_id,
                stats=dict(s.stats or {}),
            )
            for s in seats
        ],
    )
