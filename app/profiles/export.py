"""Everything Coven holds about a profile, as one JSON-ready dict (``GET /api/profile/export``).

Secrets are never in it: of the browser keys only how and when each was made and last used,
of the passkeys their public credential ids and dates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Executable, select

from app.store.database import Database
from app.store.models import (
    MatchPlayerRow,
    MatchResultRow,
    PasskeyRow,
    ProfileKeyRow,
    ProfileRow,
    RatingRow,
    RoomRow,
    SeatRow,
)
from app.store.room_shards import RoomDatabases

FORMAT = "coven-profile-export/1"


class ProfileExport:
    def __init__(self, db: Database, rooms: RoomDatabases | None = None) -> None:
        self.db = db
        # Where seats and rooms are when room databases are listed (history stays in ``db``).
        self.rooms = rooms if rooms is not None and rooms.sharded else None

    async def export(self, profile_id: int, now: float) -> dict[str, Any]:
        async with self.db.read() as session:
            profile = (
                await session.execute(select(ProfileRow).where(ProfileRow.id == profile_id))
            ).scalar_one()
            keys = (
                await session.execute(
                    select(ProfileKeyRow.via, ProfileKeyRow.created_at, ProfileKeyRow.last_used_at)
                    .where(ProfileKeyRow.profile_id == profile_id)
                    .order_by(ProfileKeyRow.created_at)
                )
            ).all()
            passkeys = (
                await session.execute(
                    select(PasskeyRow.credential_id, PasskeyRow.created_at, PasskeyRow.last_used_at)
                    .where(PasskeyRow.profile_id == profile_id)
                    .order_by(PasskeyRow.created_at)
                )
            ).all()
            seats_query = (
                select(
                    RoomRow.code,
                    RoomRow.game_id,
                    RoomRow.name,
                    RoomRow.status,
                    RoomRow.created_at,
                    SeatRow.seat,
                    SeatRow.name,
                )
                .join(RoomRow, RoomRow.id == SeatRow.room_id)
                .where(SeatRow.profile_id == profile_id)
                .order_by(RoomRow.created_at)
            )
            matches_query = (
                select(
                    MatchPlayerRow,
                    MatchResultRow.room_id,
                    MatchResultRow.players,
                    MatchResultRow.rated,
                )
                .join(MatchResultRow, MatchResultRow.match_id == MatchPlayerRow.match_id)
                .where(MatchPlayerRow.profile_id == profile_id)
                .order_by(MatchPlayerRow.finished_at)
            )
            if self.rooms is None:
                seats: Sequence[Any] = (await session.execute(seats_query)).all()
                matches: Sequence[Any] = (
                    await session.execute(
                        matches_query.add_columns(RoomRow.code).join(
                            RoomRow, RoomRow.id == MatchResultRow.room_id
                        )
                    )
                ).all()
            else:
                matches = (await session.execute(matches_query)).all()
            ratings = (
                (await session.execute(select(RatingRow).where(RatingRow.profile_id == profile_id)))
                .scalars()
                .all()
            )
        if self.rooms is not None:
            seats, matches = await self._in_room_databases(self.rooms, seats_query, matches)
        return {
            "format": FORMAT,
            "exported_at": now,
            "profile": {
                "public_id": profile.public_id,
                "name": profile.name,
                "listed": profile.listed,
                "created_at": profile.created_at,
            },
            "browsers": [
                {"via": via, "created_at": created, "last_used_at": used}
                for via, created, used in keys
            ],
            "passkeys": [
                {"credential_id": credential, "created_at": created, "last_used_at": used}
                for credential, created, used in passkeys
            ],
            "seats": [
                {
                    "room": code,
                    "game": game,
                    "room_name": room_name,
                    "status": status,
                    "created_at": created,
                    "seat": seat,
                    "name": name,
                }
                for code, game, room_name, status, created, seat, name in seats
            ],
            "matches": [
                {
                    "room": code,
                    "game": row.game_id,
                    "finished_at": row.finished_at,
                    "players": players,
                    "rated": rated,
                    "seat": row.seat,
                    "name": row.name,
                    "place": row.place,
                    "score": row.score,
                    "stats": row.stats,
                }
                for row, _, players, rated, code in matches
            ],
            "ratings": [
                {
                    "game": r.game_id,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "ordinal": r.ordinal,
                    "matches": r.matches,
                    "updated_at": r.updated_at,
                }
                for r in ratings
            ],
        }

    @staticmethod
    async def _in_room_databases(
        rooms: RoomDatabases, seats_query: Executable, matches: Sequence[Any]
    ) -> tuple[list[Any], list[Any]]:
        """Her seats from every database (oldest room first), and her matches with each
        room's code read in its own database (a room gone since: no code)."""
        seats: list[Any] = []
        for db in rooms.all:
            async with db.readers() as session:
                seats += (await session.execute(seats_query)).all()
        seats.sort(key=lambda row: row[4])
        codes = await rooms.codes({row[1] for row in matches})
        return seats, [(*row, codes.get(row[1])) for row in matches]
