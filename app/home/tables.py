"""A player's tables in progress ("My tables" and the home page): the rooms not finished where
her profile holds a seat or her browser holds a seat token; whose turn it is in each, when the
owing seats' turn clocks run out, when the last move was made; yours to play first."""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Executable, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.circles.records import OpenTable, TableSeat
from app.circles.service import WAITING_SECONDS
from app.circles.store import open_table, room_seats
from app.clock import due_at, pace_of
from app.store.database import Database
from app.store.models import ActionRow, CircleRoomRow, CircleRow, MatchRow, RoomRow, SeatRow
from app.store.room_shards import RoomDatabases, position_of_id

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
    turn_seconds: float | None  # the room's time per move (None: no clock)
    pace: Literal["none", "live", "correspondence"]
    # Per seat, when its turn clock runs out (epoch seconds by the server's clock; None: it
    # owes nothing, or no clock), as the table's own ``state.clock.due``.
    seat_due: tuple[float | None, ...]
    due: float | None  # the earliest of ``seat_due`` (the match's ``due_at``)
    # When the match last moved: its latest action, or its start before any (None: waiting
    # for players).
    last_move_at: float | None

    @property
    def urgent_at(self) -> float | None:
        """The clock that matters to this player: her own on her turn, else the earliest."""
        if self.your_turn and self.seat < len(self.seat_due):
            return self.seat_due[self.seat]
        return self.due


def _order(table: TableInProgress) -> tuple[int, int, float, float]:
    # Yours to play first, then the other matches being played, then the waiting rooms; the
    # clock that runs out first first (tables without one after), then the newest.
    group = 0 if table.your_turn else 1 if table.table.status == "playing" else 2
    urgent = table.urgent_at
    return (group, urgent is None, urgent or 0.0, -table.table.created_at)


@dataclass(frozen=True, slots=True)
class _MatchClock:
    owing_since: list[float | None]
    started_at: float
    last_action_at: float | None


class HomeTables:
    def __init__(self, db: Database, rooms: RoomDatabases | None = None) -> None:
        self.db = db
        # Where rooms are when room databases are listed (circles stay in ``db``).
        self.rooms = rooms if rooms is not None and rooms.sharded else None

    async def in_progress(
        self, profile_id: int | None, rooms_by_token_hash: Mapping[str, str], *, now: float
    ) -> list[TableInProgress]:
        """``rooms_by_token_hash``: the sha256 of each seat token the browser holds, with the
        room code it holds it for (a token counts only in its own room). ``now``: the server's
        clock (app/clock.py), which waiting rooms are judged old by.

        Four reads whatever the number of tables (rooms with seats, matches with their last
        action, circles, every seat): never one per table."""
        holds = []
        if profile_id is not None:
            holds.append(SeatRow.profile_id == profile_id)
        if rooms_by_token_hash:
            holds.append(SeatRow.token_hash.in_(list(rooms_by_token_hash)))
        if not holds:
            return []
        waiting_since = now - WAITING_SECONDS
        held_rooms = (
            select(RoomRow, SeatRow.seat, SeatRow.profile_id, SeatRow.token_hash)
            .join(SeatRow, SeatRow.room_id == RoomRow.id)
            .where(
                or_(*holds),
                (RoomRow.status == "playing")
                | ((RoomRow.status == "open") & (RoomRow.created_at >= waiting_since)),
            )
            .order_by(RoomRow.created_at.desc(), SeatRow.seat)
        )
        if self.rooms is not None:
            found = await self._everywhere(self.rooms, held_rooms, profile_id, rooms_by_token_hash)
            if found is None:
                return []
            mine, clocks, circles, seats = found
        else:
            async with self.db.read() as session:
                mine = _held(
                    (await session.execute(held_rooms)).all(), profile_id, rooms_by_token_hash
                )
                if not mine:
                    return []
                ids = list(mine)
                clocks = await _clocks(session, ids)
                circles = await _circles(session, ids)
                seats = await room_seats(session, ids)
        tables = []
        for room_id, (room, seat) in mine.items():
            clock = clocks.get(room_id)
            # A seat owes a decision while its turn clock runs (``owing_since`` not null).
            since = clock.owing_since if clock is not None else []
            to_move = tuple(s for s, at in enumerate(since) if at is not None)
            turn = room.turn_seconds or None
            seat_due = tuple(None if at is None or turn is None else at + turn for at in since)
            tables.append(
                TableInProgress(
                    table=open_table(room, seats.get(room_id, ())),
                    seat=seat,
                    to_move=to_move,
                    your_turn=seat in to_move,
                    circle=circles.get(room_id),
                    turn_seconds=turn,
                    pace=pace_of(turn),
                    seat_due=seat_due,
                    due=due_at(since, turn),
                    last_move_at=(
                        None
                        if clock is None
                        else clock.last_action_at
                        if clock.last_action_at is not None
                        else clock.started_at
                    ),
                )
            )
        return sorted(tables, key=_order)

    async def _everywhere(
        self,
        rooms: RoomDatabases,
        held_rooms: Executable,
        profile_id: int | None,
        rooms_by_token_hash: Mapping[str, str],
    ) -> _Found | None:
        """The reads of ``in_progress`` with room databases: her rooms in every database,
        merged newest first; each database's clocks and seats of them; circles in ``db``."""

        async def rows_of(db: Database) -> list[Any]:
            async with db.readers() as session:
                return list((await session.execute(held_rooms)).all())

        found = await asyncio.gather(*(rows_of(db) for db in rooms.all))
        mine = _held(
            heapq.merge(*found, key=lambda row: -row[0].created_at),
            profile_id,
            rooms_by_token_hash,
        )
        if not mine:
            return None
        by_position: dict[int, list[int]] = {}
        for room_id in mine:
            by_position.setdefault(position_of_id(room_id), []).append(room_id)
        clocks: dict[int, _MatchClock] = {}
        seats: dict[int, tuple[TableSeat, ...]] = {}
        for position, ids in by_position.items():
            async with rooms.all[position].readers() as session:
                clocks.update(await _clocks(session, ids))
                seats.update(await room_seats(session, ids))
        async with self.db.readers() as session:
            circles = await _circles(session, list(mine))
        return mine, clocks, circles, seats


_Found = tuple[
    dict[int, tuple[RoomRow, int]],
    dict[int, _MatchClock],
    dict[int, CircleMark],
    dict[int, tuple[TableSeat, ...]],
]


def _held(
    found: Iterable[Any], profile_id: int | None, rooms_by_token_hash: Mapping[str, str]
) -> dict[int, tuple[RoomRow, int]]:
    """Her rooms (newest first, at most ``MAX_TABLES``) and her seat in each, from the rows of
    the rooms where her profile or one of the browser's tokens holds a seat."""
    mine: dict[int, tuple[RoomRow, int]] = {}
    for room, seat, holder, token_hash in found:
        held = (profile_id is not None and holder == profile_id) or (
            token_hash is not None and rooms_by_token_hash.get(token_hash) == room.code
        )
        if held and room.id not in mine and len(mine) < MAX_TABLES:
            mine[room.id] = (room, seat)
    return mine


async def _clocks(session: AsyncSession, ids: list[int]) -> dict[int, _MatchClock]:
    # The latest public action by the (match, version) index: a few steps back from the
    # top of each match's actions, not a scan of them. Never a private step: its moment
    # is its seat's alone (app/rooms/private_steps.py).
    last_action = (
        select(ActionRow.created_at)
        .where(ActionRow.match_id == MatchRow.id, ActionRow.private_to.is_(None))
        .order_by(ActionRow.version.desc())
        .limit(1)
        .correlate(MatchRow)
        .scalar_subquery()
    )
    return {
        room_id: _MatchClock(owing or [], started, last)
        for room_id, owing, started, last in (
            await session.execute(
                select(
                    MatchRow.room_id, MatchRow.owing_since, MatchRow.created_at, last_action
                ).where(MatchRow.room_id.in_(ids), MatchRow.finished.is_(False))
            )
        ).all()
    }


async def _circles(session: AsyncSession, ids: list[int]) -> dict[int, CircleMark]:
    return {
        room_id: CircleMark(public_id, name)
        for room_id, public_id, name in (
            await session.execute(
                select(CircleRoomRow.room_id, CircleRow.public_id, CircleRow.name)
                .join(CircleRow, CircleRow.id == CircleRoomRow.circle_id)
                .where(CircleRoomRow.room_id.in_(ids))
            )
        )
    }
