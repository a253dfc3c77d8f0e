"""Claims: a profile takes the seats this browser held as a guest (or the seat a profile holder
just took), and their finished matches' rows in history, with what those rows add to her
running totals (``app/results/totals.py``).

A claim and the recording of the same match never miss each other: the claim locks the seats
it takes (``FOR UPDATE``, in id order) before it gives their recorded matches to the profile,
and the results ledger reads who holds a room's seats inside its own transaction, with those
seats locked ``FOR SHARE``. Whichever commits second sees the first (the reasoning is in
``app/results/ledger.py``).

With room databases (``app/store/room_shards.py``) the seats are in the rooms' databases and
history in the default one: each room database's seats are locked and given in a transaction
there, around the transaction in the default database that gives their matches' rows (as the
ledger records a match inside the transaction that holds its seats), one database after the
other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.profiles.records import SeatToken
from app.results import totals
from app.rooms.keys import hash_token
from app.store.database import Database
from app.store.models import MatchPlayerRow, MatchResultRow, RoomRow, SeatRow
from app.store.room_shards import RoomDatabases


class Claims:
    def __init__(self, db: Database, rooms: RoomDatabases | None = None) -> None:
        self.db = db
        # Where seats are when room databases are listed (history stays in ``db``).
        self.rooms = rooms if rooms is not None and rooms.sharded else None

    async def claim(self, profile_id: int, seats: Sequence[SeatToken]) -> int:
        """Give ``profile_id`` every seat of ``seats`` whose token matches, that no profile
        holds yet and whose profile was never deleted; how many it got.

        A seat token proves its holder sat there. A seat another profile holds stays its, and
        a deleted profile's seats stay "a former player": deleting is for good. The matches
        those seats finished enter the profile's history and her totals (ratings were settled
        when each match ended and do not move)."""
        wanted = {hash_token(s.token): s.room for s in seats}
        if not wanted:
            return 0
        if self.rooms is not None:
            taken = 0
            for rooms in self.rooms.all:
                async with rooms.write() as seat_session, self.db.write() as session:
                    taken += await self._claim(seat_session, session, profile_id, wanted)
            return taken
        async with self.db.write() as session:
            return await self._claim(session, session, profile_id, wanted)

    @staticmethod
    async def _claim(
        seat_session: AsyncSession,
        session: AsyncSession,
        profile_id: int,
        wanted: dict[str, str],
    ) -> int:
        """The claim in ``seat_session``'s seats and ``session``'s history (one session
        without room databases)."""
        found: Sequence[Any] = (
            await seat_session.execute(
                select(SeatRow.id, SeatRow.room_id, SeatRow.seat, SeatRow.token_hash, RoomRow.code)
                .join(RoomRow, RoomRow.id == SeatRow.room_id)
                .where(
                    SeatRow.token_hash.in_(list(wanted)),
                    SeatRow.profile_id.is_(None),
                    SeatRow.former.is_(False),
                )
                # The seats locked before anything else, always in the same order: a
                # recording of one of their matches waits, or is waited for, never both.
                .order_by(SeatRow.id)
                .with_for_update(of=SeatRow)
            )
        ).all()
        taken = 0
        played: list[totals.PlayedSeat] = []
        for seat_id, room_id, seat, token_hash, code in found:
            if token_hash is None or wanted.get(token_hash) != code:
                continue
            given = await seat_session.execute(
                update(SeatRow)
                .where(SeatRow.id == seat_id, SeatRow.profile_id.is_(None))
                .values(profile_id=profile_id)
            )
            if getattr(given, "rowcount", 0) != 1:
                continue  # another claim took it since it was read (SQLite reads unlocked)
            taken += 1
            finished = select(MatchResultRow.match_id).where(MatchResultRow.room_id == room_id)
            rows = await session.execute(
                update(MatchPlayerRow)
                .where(
                    MatchPlayerRow.match_id.in_(finished),
                    MatchPlayerRow.seat == seat,
                    MatchPlayerRow.profile_id.is_(None),
                    MatchPlayerRow.former.is_(False),
                )
                .values(profile_id=profile_id)
                .returning(MatchPlayerRow.game_id, MatchPlayerRow.place, MatchPlayerRow.stats)
                .execution_options(synchronize_session=False)
            )
            played += [
                totals.PlayedSeat(profile_id, game_id, place, stats or {})
                for game_id, place, stats in rows
            ]
        await totals.add(session, session.get_bind().dialect.name, played)
        return taken
