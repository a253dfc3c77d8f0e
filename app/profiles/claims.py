"""Claims: a profile takes the seats this browser held as a guest (or the seat a profile holder
just took), and their finished matches' rows in history, with what those rows add to her
running totals (``app/results/totals.py``).

A claim and the recording of the same match never miss each other: the claim locks the seats
it takes (``FOR UPDATE``, in id order) before it gives their recorded matches to the profile,
and the results ledger reads who holds a room's seats inside its own transaction, with those
seats locked ``FOR SHARE``. Whichever commits second sees the first (the reasoning is in
``app/results/ledger.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select, update

from app.profiles.records import SeatToken
from app.results import totals
from app.rooms.keys import hash_token
from app.store.database import Database
from app.store.models import MatchPlayerRow, MatchResultRow, RoomRow, SeatRow


class Claims:
    def __init__(self, db: Database) -> None:
        self.db = db

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
        async with self.db.write() as session:
            found = (
                await session.execute(
                    select(
                        SeatRow.id, SeatRow.room_id, SeatRow.seat, SeatRow.token_hash, RoomRow.code
                    )
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
                given = await session.execute(
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
