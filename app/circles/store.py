"""The circle rows: circles, members, invite links, the tables opened for a circle, and what a
circle's page reads from the rest (ratings, finished matches, rooms)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import delete, func, select, union_all, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.circles.records import (
    Circle,
    Member,
    OpenTable,
    PlayedMatch,
    PlayedSeat,
    Standing,
    TableSeat,
)
from app.store.database import Database
from app.store.models import (
    CircleInviteRow,
    CircleMemberRow,
    CircleRoomRow,
    CircleRow,
    MatchPlayerRow,
    MatchResultRow,
    ProfileRow,
    RatingRow,
    RoomRow,
    SeatRow,
)
from app.store.room_shards import RoomDatabases

# How many of each member's newest matches the circle's recent matches are looked for in.
SCAN_PER_MEMBER = 200


class CircleFull(Exception):
    """The circle already has its most members."""


class CircleStore:
    def __init__(self, db: Database, rooms: RoomDatabases | None = None) -> None:
        self.db = db
        # Where rooms are when room databases are listed (circles and their marks of rooms,
        # ``circle_rooms``, stay in ``db``).
        self.rooms = rooms if rooms is not None and rooms.sharded else None

    # -- circles ------------------------------------------------------------------------------

    async def create(
        self, *, public_id: str, name: str, profile_id: int, code_hash: str, now: float
    ) -> Circle:
        """A new circle, its creator as its first member and its first invite link."""
        async with self.db.write() as session:
            row = CircleRow(public_id=public_id, name=name, created_by=profile_id, created_at=now)
            session.add(row)
            await session.flush()
            session.add(CircleMemberRow(circle_id=row.id, profile_id=profile_id, joined_at=now))
            invite = CircleInviteRow(circle_id=row.id, code_hash=code_hash, created_at=now)
            session.add(invite)
            await session.flush()
            return Circle(row.id, public_id, name, profile_id, now, invite.id)

    async def by_public_id(self, public_id: str) -> Circle | None:
        async with self.db.read() as session:
            row = (
                await session.execute(select(CircleRow).where(CircleRow.public_id == public_id))
            ).scalar()
            return None if row is None else await _circle(session, row)

    async def circles_of(self, profile_id: int) -> list[tuple[Circle, int]]:
        """The circles ``profile_id`` belongs to, by name, each with its number of members."""
        async with self.db.read() as session:
            rows = (
                (
                    await session.execute(
                        select(CircleRow)
                        .join(CircleMemberRow, CircleMemberRow.circle_id == CircleRow.id)
                        .where(CircleMemberRow.profile_id == profile_id)
                        .order_by(CircleRow.name, CircleRow.id)
                    )
                )
                .scalars()
                .all()
            )
            if not rows:
                return []
            counts = dict(
                (
                    await session.execute(
                        select(CircleMemberRow.circle_id, func.count())
                        .where(CircleMemberRow.circle_id.in_([r.id for r in rows]))
                        .group_by(CircleMemberRow.circle_id)
                    )
                ).all()
            )
            circles = await _circles(session, rows)
            return [(c, int(counts.get(c.id, 0))) for c in circles]

    async def count_circles_of(self, profile_id: int) -> int:
        async with self.db.read() as session:
            count = (
                await session.execute(
                    select(func.count()).where(CircleMemberRow.profile_id == profile_id)
                )
            ).scalar_one()
        return int(count)

    async def rename(self, circle_id: int, name: str) -> None:
        async with self.db.write() as session:
            await session.execute(
                update(CircleRow).where(CircleRow.id == circle_id).values(name=name)
            )

    # -- members ------------------------------------------------------------------------------

    async def members(self, circle_id: int) -> list[Member]:
        """The members, the longest-standing first."""
        async with self.db.read() as session:
            rows = (
                await session.execute(
                    select(
                        ProfileRow.id,
                        ProfileRow.public_id,
                        ProfileRow.name,
                        ProfileRow.listed,
                        CircleMemberRow.joined_at,
                    )
                    .join(CircleMemberRow, CircleMemberRow.profile_id == ProfileRow.id)
                    .where(CircleMemberRow.circle_id == circle_id)
                    .order_by(CircleMemberRow.joined_at, ProfileRow.id)
                )
            ).all()
        return [Member(*row) for row in rows]

    async def is_member(self, circle_id: int, profile_id: int) -> bool:
        async with self.db.read() as session:
            found = (
                await session.execute(
                    select(CircleMemberRow.joined_at).where(
                        CircleMemberRow.circle_id == circle_id,
                        CircleMemberRow.profile_id == profile_id,
                    )
                )
            ).first()
        return found is not None

    async def member_count(self, circle_id: int) -> int:
        async with self.db.read() as session:
            return await _member_count(session, circle_id)

    async def add_member(
        self, circle_id: int, profile_id: int, now: float, max_members: int
    ) -> bool:
        """Add ``profile_id``; ``False`` if already a member. ``CircleFull`` when the circle
        has ``max_members`` already (counted under the circle's row lock on PostgreSQL, so two
        joins cannot both take the last place; SQLite writes one at a time)."""
        try:
            async with self.db.write() as session:
                await session.execute(
                    select(CircleRow.id).where(CircleRow.id == circle_id).with_for_update()
                )
                if await _is_member(session, circle_id, profile_id):
                    return False
                if await _member_count(session, circle_id) >= max_members:
                    raise CircleFull
                session.add(
                    CircleMemberRow(circle_id=circle_id, profile_id=profile_id, joined_at=now)
                )
            return True
        except IntegrityError:
            # The same profile joining twice at once: the other request added her.
            return False

    async def remove_member(self, circle_id: int, profile_id: int) -> None:
        """``profile_id`` is no longer a member. A keeper who leaves hands the circle to the
        member who joined first; the last one to leave ends the circle (its invite links and
        the marks on its tables go with it; the tables and matches stay)."""
        async with self.db.write() as session:
            row = (
                await session.execute(
                    select(CircleRow).where(CircleRow.id == circle_id).with_for_update()
                )
            ).scalar()
            if row is None:
                return
            await session.execute(
                delete(CircleMemberRow).where(
                    CircleMemberRow.circle_id == circle_id,
                    CircleMemberRow.profile_id == profile_id,
                )
            )
            first = await _first_member(session, circle_id)
            if first is None:
                await session.execute(delete(CircleRow).where(CircleRow.id == circle_id))
            elif row.created_by == profile_id:
                row.created_by = first

    # -- invite links -------------------------------------------------------------------------

    async def invite(self, code_hash: str) -> tuple[Circle, bool] | None:
        """The circle an invite code opens and whether that link was revoked; ``None`` for a
        code no circle ever had."""
        async with self.db.read() as session:
            found = (
                await session.execute(
                    select(CircleRow, CircleInviteRow.revoked_at)
                    .join(CircleInviteRow, CircleInviteRow.circle_id == CircleRow.id)
                    .where(CircleInviteRow.code_hash == code_hash)
                )
            ).first()
            if found is None:
                return None
            row, revoked_at = found
            return await _circle(session, row), revoked_at is not None

    async def renew_invite(self, circle_id: int, code_hash: str, now: float) -> int:
        """Revoke the circle's current link and give it a new one; the new link's id."""
        async with self.db.write() as session:
            await session.execute(
                select(CircleRow.id).where(CircleRow.id == circle_id).with_for_update()
            )
            await session.execute(
                update(CircleInviteRow)
                .where(CircleInviteRow.circle_id == circle_id, CircleInviteRow.revoked_at.is_(None))
                .values(revoked_at=now)
            )
            invite = CircleInviteRow(circle_id=circle_id, code_hash=code_hash, created_at=now)
            session.add(invite)
            await session.flush()
            return invite.id

    # -- tables opened for a circle -----------------------------------------------------------

    async def attach_room(self, room_id: int, circle_id: int) -> None:
        async with self.db.write() as session:
            session.add(CircleRoomRow(room_id=room_id, circle_id=circle_id))

    async def open_tables(
        self, circle_ids: Collection[int], *, waiting_since: float, per_circle: int
    ) -> dict[int, list[OpenTable]]:
        """Per circle, its tables not finished, the newest first: being played, or waiting for
        players and opened after ``waiting_since`` (a table nobody started for days is not
        worth showing); at most ``per_circle`` each."""
        if not circle_ids:
            return {}
        if self.rooms is not None:
            return await self._open_tables_everywhere(
                self.rooms, circle_ids, waiting_since=waiting_since, per_circle=per_circle
            )
        async with self.db.read() as session:
            rows = (
                await session.execute(
                    select(CircleRoomRow.circle_id, RoomRow)
                    .join(RoomRow, RoomRow.id == CircleRoomRow.room_id)
                    .where(
                        CircleRoomRow.circle_id.in_(list(circle_ids)),
                        (RoomRow.status == "playing")
                        | ((RoomRow.status == "open") & (RoomRow.created_at >= waiting_since)),
                    )
                    .order_by(RoomRow.created_at.desc())
                )
            ).all()
            tables: dict[int, list[RoomRow]] = {}
            for circle_id, room in rows:
                listed = tables.setdefault(circle_id, [])
                if len(listed) < per_circle:
                    listed.append(room)
            seats = await room_seats(session, [r.id for rs in tables.values() for r in rs])
        return {
            circle_id: [open_table(r, seats.get(r.id, ())) for r in rooms]
            for circle_id, rooms in tables.items()
        }

    async def _open_tables_everywhere(
        self,
        rooms: RoomDatabases,
        circle_ids: Collection[int],
        *,
        waiting_since: float,
        per_circle: int,
    ) -> dict[int, list[OpenTable]]:
        """``open_tables`` with room databases: the circles' rooms from ``db``, each room and
        its seats from its own database (one read of each that holds some)."""
        async with self.db.readers() as session:
            marks = (
                await session.execute(
                    select(CircleRoomRow.circle_id, CircleRoomRow.room_id).where(
                        CircleRoomRow.circle_id.in_(list(circle_ids))
                    )
                )
            ).all()
        circles_of: dict[int, list[int]] = {}
        for circle_id, room_id in marks:
            circles_of.setdefault(room_id, []).append(circle_id)
        found: list[RoomRow] = []
        seats: dict[int, tuple[TableSeat, ...]] = {}
        for db, ids in rooms.grouped(circles_of).items():
            async with db.readers() as session:
                held = (
                    (
                        await session.execute(
                            select(RoomRow).where(
                                RoomRow.id.in_(ids),
                                (RoomRow.status == "playing")
                                | (
                                    (RoomRow.status == "open")
                                    & (RoomRow.created_at >= waiting_since)
                                ),
                            )
                        )
                    )
                    .scalars()
                    .all()
                )
                found += held
                seats.update(await room_seats(session, [r.id for r in held]))
        tables: dict[int, list[RoomRow]] = {}
        for room in sorted(found, key=lambda r: -r.created_at):
            for circle_id in circles_of[room.id]:
                listed = tables.setdefault(circle_id, [])
                if len(listed) < per_circle:
                    listed.append(room)
        return {
            circle_id: [open_table(r, seats.get(r.id, ())) for r in rooms]
            for circle_id, rooms in tables.items()
        }

    # -- what the circle's page reads ---------------------------------------------------------

    async def standings(self, profile_ids: Collection[int]) -> list[Standing]:
        """The ratings of these profiles, per game (by game id), the best ordinal first."""
        if not profile_ids:
            return []
        async with self.db.read() as session:
            rows = (
                await session.execute(
                    select(
                        RatingRow.game_id,
                        ProfileRow.id,
                        ProfileRow.public_id,
                        ProfileRow.name,
                        ProfileRow.listed,
                        RatingRow.ordinal,
                        RatingRow.mu,
                        RatingRow.sigma,
                        RatingRow.matches,
                    )
                    .join(ProfileRow, ProfileRow.id == RatingRow.profile_id)
                    .where(RatingRow.profile_id.in_(list(profile_ids)))
                    .order_by(RatingRow.game_id, RatingRow.ordinal.desc(), ProfileRow.id)
                )
            ).all()
        return [Standing(*row) for row in rows]

    async def recent_matches(
        self, circle_id: int, profile_ids: Collection[int], limit: int
    ) -> list[PlayedMatch]:
        """The circle's finished matches, the newest first: those at least two of these
        members played together, and those of the tables opened for the circle."""
        # Each member's newest matches only (one index range each), not all of their history:
        # a match two members played is "recent" while it is among the newest of both.
        newest = [
            select(MatchPlayerRow.match_id, MatchPlayerRow.profile_id)
            .where(MatchPlayerRow.profile_id == profile_id)
            .order_by(MatchPlayerRow.finished_at.desc())
            .limit(SCAN_PER_MEMBER)
            .subquery()
            for profile_id in profile_ids
        ]
        seen = union_all(*(select(rows) for rows in newest)).subquery()
        together = (
            select(seen.c.match_id)
            .group_by(seen.c.match_id)
            .having(func.count(func.distinct(seen.c.profile_id)) >= 2)
        )
        for_circle = select(CircleRoomRow.room_id).where(CircleRoomRow.circle_id == circle_id)
        recent = (
            select(
                MatchResultRow.match_id,
                RoomRow.code,
                MatchResultRow.game_id,
                MatchResultRow.finished_at,
            )
            .where(MatchResultRow.match_id.in_(together) | MatchResultRow.room_id.in_(for_circle))
            .order_by(MatchResultRow.finished_at.desc(), MatchResultRow.match_id.desc())
            .limit(limit)
        )
        async with self.db.read() as session:
            if self.rooms is None:
                recent = recent.join(RoomRow, RoomRow.id == MatchResultRow.room_id)
                matches: Sequence[Any] = (await session.execute(recent)).all()
            else:
                # The rooms' codes from their own databases (history is in ``db``).
                matches = await self._with_codes(
                    self.rooms,
                    (
                        await session.execute(
                            recent.with_only_columns(
                                MatchResultRow.match_id,
                                MatchResultRow.room_id,
                                MatchResultRow.game_id,
                                MatchResultRow.finished_at,
                            )
                        )
                    ).all(),
                )
            if not matches:
                return []
            players = (
                await session.execute(
                    select(MatchPlayerRow, ProfileRow.public_id, ProfileRow.listed)
                    .outerjoin(ProfileRow, ProfileRow.id == MatchPlayerRow.profile_id)
                    .where(MatchPlayerRow.match_id.in_([m[0] for m in matches]))
                    .order_by(MatchPlayerRow.place, MatchPlayerRow.seat)
                )
            ).all()
        seats: dict[int, list[PlayedSeat]] = {}
        for player, public_id, listed in players:
            seats.setdefault(player.match_id, []).append(
                PlayedSeat(
                    seat=player.seat,
                    name=player.name,
                    place=player.place,
                    score=player.score,
                    bot_level=player.bot_level,
                    former=player.former,
                    profile_id=player.profile_id,
                    public_id=public_id,
                    listed=bool(listed),
                )
            )
        return [
            PlayedMatch(code, game_id, finished_at, tuple(seats.get(match_id, ())))
            for match_id, code, game_id, finished_at in matches
        ]

    @staticmethod
    async def _with_codes(
        rooms: RoomDatabases, found: Sequence[Any]
    ) -> list[tuple[int, str, str, float]]:
        """(match, room id, game, finished at) rows as (match, code, game, finished at), each
        code read in its room's database (a room gone since: its match is left out)."""
        codes = await rooms.codes({row[1] for row in found})
        return [
            (match_id, codes[room_id], game_id, finished_at)
            for match_id, room_id, game_id, finished_at in found
            if room_id in codes
        ]


# -- shared reads (the home page's tables use them too) ---------------------------------------


async def room_seats(
    session: AsyncSession, room_ids: Sequence[int]
) -> dict[int, tuple[TableSeat, ...]]:
    if not room_ids:
        return {}
    rows = (
        await session.execute(
            select(SeatRow.room_id, SeatRow.seat, SeatRow.name, SeatRow.bot_level)
            .where(SeatRow.room_id.in_(list(room_ids)))
            .order_by(SeatRow.room_id, SeatRow.seat)
        )
    ).all()
    seats: dict[int, list[TableSeat]] = {}
    for room_id, seat, name, bot_level in rows:
        seats.setdefault(room_id, []).append(TableSeat(seat, name, bot_level is not None))
    return {room_id: tuple(listed) for room_id, listed in seats.items()}


def open_table(room: RoomRow, seats: tuple[TableSeat, ...]) -> OpenTable:
    return OpenTable(
        room_id=room.id,
        code=room.code,
        game_id=room.game_id,
        name=room.name,
        status=room.status,
        seat_count=room.seat_count,
        created_at=room.created_at,
        seats=seats,
    )


async def _circle(session: AsyncSession, row: CircleRow) -> Circle:
    return (await _circles(session, [row]))[0]


async def _circles(session: AsyncSession, rows: Sequence[CircleRow]) -> list[Circle]:
    """The records of these circle rows, with their current invite link and keeper (read for
    all of them in two queries)."""
    ids = [r.id for r in rows]
    invites = dict(
        (
            await session.execute(
                select(CircleInviteRow.circle_id, CircleInviteRow.id).where(
                    CircleInviteRow.circle_id.in_(ids), CircleInviteRow.revoked_at.is_(None)
                )
            )
        ).all()
    )
    members: dict[int, list[int]] = {}
    for circle_id, profile_id in await session.execute(
        select(CircleMemberRow.circle_id, CircleMemberRow.profile_id)
        .where(CircleMemberRow.circle_id.in_(ids))
        .order_by(CircleMemberRow.joined_at, CircleMemberRow.profile_id)
    ):
        members.setdefault(circle_id, []).append(profile_id)
    circles = []
    for row in rows:
        joined = members.get(row.id, [])
        keeper = row.created_by if row.created_by in joined else (joined[0] if joined else None)
        circles.append(
            Circle(row.id, row.public_id, row.name, keeper, row.created_at, invites.get(row.id))
        )
    return circles


async def _is_member(session: AsyncSession, circle_id: int, profile_id: int) -> bool:
    found: Any = (
        await session.execute(
            select(CircleMemberRow.joined_at).where(
                CircleMemberRow.circle_id == circle_id, CircleMemberRow.profile_id == profile_id
            )
        )
    ).first()
    return found is not None


async def _member_count(session: AsyncSession, circle_id: int) -> int:
    count = (
        await session.execute(select(func.count()).where(CircleMemberRow.circle_id == circle_id))
    ).scalar_one()
    return int(count)


async def _first_member(session: AsyncSession, circle_id: int) -> int | None:
    first: int | None = (
        await session.execute(
            select(CircleMemberRow.profile_id)
            .where(CircleMemberRow.circle_id == circle_id)
            .order_by(CircleMemberRow.joined_at, CircleMemberRow.profile_id)
            .limit(1)
        )
    ).scalar()
    return first
