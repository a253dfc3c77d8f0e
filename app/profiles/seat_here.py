"""A profile's seat, played from whichever browser holds the profile.

Seat tokens live in one browser (localStorage) and the server keeps only their hash, so a seat
taken on a phone is out of reach from the laptop that holds the same profile. A browser holding
the profile takes the seat here: it gets a fresh token, whose hash replaces the seat's. The
other browser's token stops working then (a seat has one token, and the move path trusts
nothing else); that browser is offered the same one click to take the seat back.
"""

from __future__ import annotations

from sqlalchemy import select, update

from app.errors import CovenError
from app.rooms.keys import hash_token, new_token
from app.store.database import Database
from app.store.models import RoomRow, SeatRow
from app.store.room_shards import RoomDatabases


def _no_seat() -> CovenError:
    return CovenError("no_profile_seat", "your profile holds no seat at this table", 404)


class ProfileSeats:
    def __init__(self, db: Database, rooms: RoomDatabases | None = None) -> None:
        self.db = db
        # The databases that may hold a room (by its code): ``db`` alone without room
        # databases.
        self.rooms = rooms if rooms is not None and rooms.sharded else None

    def _where(self, code: str) -> list[Database]:
        return [self.db] if self.rooms is None else self.rooms.by_code(code)

    async def held(self, profile_id: int, code: str) -> list[int]:
        """The seats ``profile_id`` holds in room ``code`` (a person's, never a bot's)."""
        for db in self._where(code):
            seats = await self._held_in(db, profile_id, code)
            if seats:
                return seats
        return []

    @staticmethod
    async def _held_in(db: Database, profile_id: int, code: str) -> list[int]:
        async with db.read() as session:
            return list(
                (
                    await session.execute(
                        select(SeatRow.seat)
                        .join(RoomRow, RoomRow.id == SeatRow.room_id)
                        .where(
                            RoomRow.code == code,
                            SeatRow.profile_id == profile_id,
                            SeatRow.bot_level.is_(None),
                        )
                        .order_by(SeatRow.seat)
                    )
                )
                .scalars()
                .all()
            )

    async def take_here(self, profile_id: int, code: str, seat: int | None) -> tuple[int, str]:
        """A fresh token for the seat ``profile_id`` holds in room ``code`` (``seat``, or her
        first one): its hash replaces the seat's, so only this token holds it from now on.
        The seat number and the token; ``no_profile_seat`` (404) if she holds no such seat."""
        token = new_token()
        for db in self._where(code):
            taken = await self._take_in(db, profile_id, code, seat, token)
            if taken is not None:
                return taken, token
        raise _no_seat()

    @staticmethod
    async def _take_in(
        db: Database, profile_id: int, code: str, seat: int | None, token: str
    ) -> int | None:
        async with db.write() as session:
            query = (
                select(SeatRow.id, SeatRow.seat)
                .join(RoomRow, RoomRow.id == SeatRow.room_id)
                .where(
                    RoomRow.code == code,
                    SeatRow.profile_id == profile_id,
                    SeatRow.bot_level.is_(None),
                )
                .order_by(SeatRow.seat)
                .limit(1)
            )
            if seat is not None:
                query = query.where(SeatRow.seat == seat)
            found = (await session.execute(query)).first()
            if found is None:
                return None
            seat_id, number = found
            # Guarded by the same conditions: a seat handed to a bot for good, or a profile
            # deleted, in between is not taken.
            changed = await session.execute(
                update(SeatRow)
                .where(
                    SeatRow.id == seat_id,
                    SeatRow.profile_id == profile_id,
                    SeatRow.bot_level.is_(None),
                )
                .values(token_hash=hash_token(token))
            )
            if getattr(changed, "rowcount", 0) != 1:
                raise _no_seat()
        return int(number)
