"""A player's tables in progress: the rooms not finished where her profile holds a seat or
her browser holds a seat token, whose turn it is in each, "your turn" first."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from sqlalchemy import or_, select

from app.circles.records import OpenTable
from app.circles.service import WAITING_SECONDS
from app.circles.store import open_table, room_seats
from app.store.database import Database
from app.store.models import CircleRoomRow, CircleRow, MatchRow, RoomRow, SeatRow

MAX_TABLES = 50


@dataclass(frozen=True, slots=True)
class CircleMark:
    public_id: str
    name: str


@dataclass(frozen=True, slots=True)
class TableInProgress:
    table: OpenTable
    seat: int  # the player's own seat
    to_move: tuple[int, ...]  # the seats that owe a decision now
    your_turn: bool
    circle: CircleMark | None  # the circle it was opened for


def _order(table: TableInProgress) -> tuple[int, int, float]:
    # Yours to play first, then the other matches being played, then the waiting rooms;
    # the newest first within each.
    return (
        0 if table.your_turn else 1,
        0 if table.table.status == "playing" else 1,
        -table.table.created_at,
    )


class HomeTables:
    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    async def in_progress(
        self, profile_id: int | None, rooms_by_token_hash: Mapping[str, str]
    ) -> list[TableInProgress]:
        """``rooms_by_token_hash``: the sha256 of each seat token the browser holds, with the
        room code it holds it for (a token counts only in its own room)."""
        holds = []
        if profile_id is not None:
            holds.append(SeatRow.profile_id == profile_id)
        if rooms_by_token_hash:
            holds.append(SeatRow.token_hash.in_(list(rooms_by_token_hash)))
        if not holds:
            return []
        waiting_since = self.clock() - WAITING_SECONDS
        async with self.db.read() as session:
            found = (
                await session.execute(
                    select(RoomRow, SeatRow.seat, SeatRow.profile_id, SeatRow.token_hash)
                    .join(SeatRow, SeatRow.room_id == RoomRow.id)
                    .where(
                        or_(*holds),
                        (RoomRow.status == "playing")
                        | ((RoomRow.status == "open") & (RoomRow.created_at >= waiting_since)),
                    )
                    .order_by(RoomRow.created_at.desc(), SeatRow.seat)
                )
            ).all()
            mine: dict[int, tuple[RoomRow, int]] = {}
            for room, seat, holder, token_hash in found:
                held = (profile_id is not None and holder == profile_id) or (
                    token_hash is not None and rooms_by_token_hash.get(token_hash) == room.code
                )
                if held and room.id not in mine and len(mine) < MAX_TABLES:
                    mine[room.id] = (room, seat)
            if not mine:
                return []
            ids = list(mine)
            owing = dict(
                (
                    await session.execute(
                        select(MatchRow.room_id, MatchRow.owing_since).where(
                            MatchRow.room_id.in_(ids), MatchRow.finished.is_(False)
                        )
                    )
                ).all()
            )
            circles = {
                room_id: CircleMark(public_id, name)
                for room_id, public_id, name in (
                    await session.execute(
                        select(CircleRoomRow.room_id, CircleRow.public_id, CircleRow.name)
                        .join(CircleRow, CircleRow.id == CircleRoomRow.circle_id)
                        .where(CircleRoomRow.room_id.in_(ids))
                    )
                )
            }
            seats = await room_seats(session, ids)
        tables = []
        for room_id, (room, seat) in mine.items():
            # A seat owes a decision while its turn clock runs (``owing_since`` not null).
            since = owing.get(room_id) or []
            to_move = tuple(s for s, at in enumerate(since) if at is not None)
            tables.append(
                TableInProgress(
                    table=open_table(room, seats.get(room_id, ())),
                    seat=seat,
                    to_move=to_move,
                    your_turn=seat in to_move,
                    circle=circles.get(room_id),
                )
            )
        return sorted(tables, key=_order)
