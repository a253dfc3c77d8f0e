"""The rematch rows (``rematches``) and the rematch columns of ``rooms``: what
``app/rooms/rematch.py`` reads and writes. Each use case is one transaction, queued with the
repository's other writes (``Repository.transaction``).

With room databases (``app/store/room_shards.py``) each call goes to the finished room's
database: the new room is opened there too, under a code whose hash picks that database
(``code_beside``), so the rematch row, the new room and its seats stay one transaction; a
circle's mark of the new room is written in the default database, where circles are."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import insert, literal, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.fairness.seeds import draw_secret
from app.store.models import CircleRoomRow, RematchRow, RoomRow, RoomSeedRow, SeatRow
from app.store.repository import Repository, RoomRecord
from app.store.room_shards import RoomShards, position_of_id, room_database_index

# Codes drawn for a rematch before one hashes to the finished room's database (each draw
# hits it with a chance of 1 in the number of room databases).
MAX_CODE_DRAWS = 1000


@dataclass(frozen=True, slots=True)
class RematchRules:
    """Who may press "Play again" ("host" | "anyone"), and the host's standing choice: seats
    "keep" | "rotate", and who has not come by the deadline: a "bot" or "leave_out"."""

    by: str = "host"
    seats: str = "keep"
    absent: str = "bot"


@dataclass(frozen=True, slots=True)
class SeatCopy:
    """A seat as a rematch carries it from the finished room to the new one."""

    seat: int
    name: str
    token_hash: str | None
    bot_level: str | None
    profile_id: int | None
    former: bool


@dataclass(frozen=True, slots=True)
class Rematch:
    room_id: int  # the finished room
    new_room_id: int
    new_code: str
    game_id: str
    seats: str
    absent: str
    created_at: float
    deadline: float
    arrived: tuple[int, ...]  # seat row ids of the new room whose player came
    started: bool


@dataclass(frozen=True, slots=True)
class Arrival:
    """A player came to the new room: her seat there (``None``: her token holds none any more,
    the deadline gave it away), and whether every invited person is now in."""

    seat: int | None
    everyone: bool
    room_id: int  # the finished room


def _rematch(row: RematchRow, code: str, game_id: str) -> Rematch:
    return Rematch(
        room_id=row.room_id,
        new_room_id=row.new_room_id,
        new_code=code,
        game_id=game_id,
        seats=row.seats,
        absent=row.absent,
        created_at=row.created_at,
        deadline=row.deadline,
        arrived=tuple(row.arrived),
        started=row.started,
    )


_WITH_NEW_ROOM = select(RematchRow, RoomRow.code, RoomRow.game_id).join(
    RoomRow, RoomRow.id == RematchRow.new_room_id
)


async def _invited(session: AsyncSession, row: RematchRow) -> Sequence[SeatRow]:
    """The new room's seats of the people the rematch brought: their seats hold the tokens of
    the finished room (a seat taken later by a join has a token of its own)."""
    old_tokens = select(SeatRow.token_hash).where(
        SeatRow.room_id == row.room_id, SeatRow.token_hash.is_not(None)
    )
    return (
        (
            await session.execute(
                select(SeatRow).where(
                    SeatRow.room_id == row.new_room_id, SeatRow.token_hash.in_(old_tokens)
                )
            )
        )
        .scalars()
        .all()
    )


async def _renumber(session: AsyncSession, room_id: int, old: int, new: int) -> None:
    await session.execute(
        update(SeatRow).where(SeatRow.room_id == room_id, SeatRow.seat == old).values(seat=new)
    )


async def _person_first(session: AsyncSession, room_id: int) -> None:
    """Seat 0 holds the host's tools (and the start closes gaps up towards it): when the
    lowest seat is a bot's, the first person's seat and it change places."""
    seats = (
        (await session.execute(select(SeatRow).where(SeatRow.room_id == room_id))).scalars().all()
    )
    ordered = sorted(seats, key=lambda s: s.seat)
    person = next((s for s in ordered if s.bot_level is None), None)
    if not ordered or person is None or ordered[0].bot_level is None:
        return
    first, theirs = ordered[0].seat, person.seat
    # Through a number no seat uses, so (room, seat) stays unique at every statement.
    for old, new in ((first, -1), (theirs, first), (-1, theirs)):
        await _renumber(session, room_id, old, new)


async def _same_circle(session: AsyncSession, old_id: int, new_id: int) -> None:
    """A table opened for a circle: its rematch is the circle's too."""
    await session.execute(
        insert(CircleRoomRow).from_select(
            ["room_id", "circle_id"],
            select(literal(new_id), CircleRoomRow.circle_id).where(CircleRoomRow.room_id == old_id),
        )
    )


class RematchStore:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        # With room databases: 0 the default database's own rooms, n the n-th room database.
        self._shards = repo if isinstance(repo, RoomShards) else None

    def _at(self, room_id: int) -> Repository:
        """The repository of the database that holds room ``room_id`` (and its rematch)."""
        if self._shards is None:
            return self.repo
        return self._shards.by_position[position_of_id(room_id)]

    def code_beside(self, room_id: int, draw: Callable[[], str]) -> str:
        """A code for the rematch of room ``room_id`` that places the new room in the same
        database (any code without room databases, and for a room of the default one, which
        a lookup by code finds after the hashed database)."""
        code = draw()
        if self._shards is None or position_of_id(room_id) == 0:
            return code
        count = len(self._shards.by_position) - 1
        for _ in range(MAX_CODE_DRAWS):
            if room_database_index(code, count) + 1 == position_of_id(room_id):
                return code
            code = draw()
        return code  # (never in practice) found by code after the hashed database

    # -- the rules of a room ------------------------------------------------------------------

    async def rules(self, room_id: int) -> RematchRules:
        async with self._at(room_id).readers() as session:
            row = (
                await session.execute(
                    select(RoomRow.rematch_by, RoomRow.rematch_seats, RoomRow.rematch_absent).where(
                        RoomRow.id == room_id
                    )
                )
            ).one()
            return RematchRules(row[0], row[1], row[2])

    async def set_rules(self, room_id: int, rules: RematchRules) -> None:
        async with self._at(room_id).transaction() as session:
            await session.execute(
                update(RoomRow)
                .where(RoomRow.id == room_id)
                .values(rematch_by=rules.by, rematch_seats=rules.seats, rematch_absent=rules.absent)
            )

    # -- opening ------------------------------------------------------------------------------

    async def seats(self, room_id: int) -> list[SeatCopy]:
        async with self._at(room_id).readers() as session:
            rows = (
                (
                    await session.execute(
                        select(SeatRow).where(SeatRow.room_id == room_id).order_by(SeatRow.seat)
                    )
                )
                .scalars()
                .all()
            )
            return [
                SeatCopy(r.seat, r.name, r.token_hash, r.bot_level, r.profile_id, r.former)
                for r in rows
            ]

    async def of_room(self, room_id: int) -> Rematch | None:
        """The rematch of the finished room ``room_id``, if "Play again" was pressed."""
        async with self._at(room_id).readers() as session:
            found = (
                await session.execute(_WITH_NEW_ROOM.where(RematchRow.room_id == room_id))
            ).first()
            return _rematch(*found) if found is not None else None

    async def into(self, new_room_id: int) -> Rematch | None:
        """The rematch that opened room ``new_room_id``, if it is one."""
        async with self._at(new_room_id).readers() as session:
            found = (
                await session.execute(_WITH_NEW_ROOM.where(RematchRow.new_room_id == new_room_id))
            ).first()
            return _rematch(*found) if found is not None else None

    async def open(
        self,
        old: RoomRecord,
        *,
        code: str,
        rules: RematchRules,
        seats: Sequence[SeatCopy],
        now: float,
        deadline: float,
    ) -> Rematch | None:
        """The new room, its seats and the rematch row, all or nothing; ``None`` when the finished
        room already has its rematch (somebody pressed at the same moment: read theirs)."""
        secret = draw_secret()
        try:
            async with self._at(old.id).transaction() as session:
                room = RoomRow(
                    code=code,
                    game_id=old.game_id,
                    name=old.name,
                    visibility=old.visibility,
                    options=old.options,
                    status="open",
                    seat_count=old.seat_count,
                    turn_seconds=old.turn_seconds,
                    created_at=now,
                    rematch_by=rules.by,
                    rematch_seats=rules.seats,
                    rematch_absent=rules.absent,
                    seed_commitment=secret.commitment,  # its own seed proof (app/fairness)
                )
                session.add(room)
                await session.flush()
                session.add(
                    RoomSeedRow(room_id=room.id, server_seed=secret.server_seed, salt=secret.salt)
                )
                row = RematchRow(
                    room_id=old.id,
                    new_room_id=room.id,
                    seats=rules.seats,
                    absent=rules.absent,
                    created_at=now,
                    deadline=deadline,
                    arrived=[],
                    started=False,
                )
                session.add(row)
                # The primary key is the finished room: the second of two presses fails here.
                await session.flush()
                session.add_all(
                    SeatRow(
                        room_id=room.id,
                        seat=s.seat,
                        name=s.name,
                        token_hash=s.token_hash,
                        bot_level=s.bot_level,
                        profile_id=s.profile_id,
                        former=s.former,
                    )
                    for s in seats
                )
                if self._shards is None:
                    await _same_circle(session, old.id, room.id)
        except IntegrityError:
            return None
        if self._shards is not None:
            # Circles are in the default database (after the room's commit: a crash in
            # between leaves the rematch out of the circle's list, nothing worse).
            async with self.repo.transaction() as session:
                await _same_circle(session, old.id, row.new_room_id)
        return _rematch(row, code, old.game_id)

    # -- arriving and starting ------------------------------------------------------------------

    async def arrive(self, new_room_id: int, token_hash: str) -> Arrival | None:
        """Mark the player holding ``token_hash`` arrived in the new room; ``None`` when that
        room is no rematch."""
        async with self._at(new_room_id).transaction() as session:
            row = (
                await session.execute(
                    select(RematchRow)
                    .where(RematchRow.new_room_id == new_room_id)
                    .with_for_update()
                )
            ).scalar()
            if row is None:
                return None
            seat = (
                await session.execute(
                    select(SeatRow).where(
                        SeatRow.room_id == new_room_id, SeatRow.token_hash == token_hash
                    )
                )
            ).scalar()
            if seat is None:
                return Arrival(None, False, row.room_id)
            if seat.id not in row.arrived:
                row.arrived = [*row.arrived, seat.id]
            invited = await _invited(session, row)
            everyone = not row.started and all(s.id in row.arrived for s in invited)
            return Arrival(seat.seat, everyone, row.room_id)

    async def due(self, now: float) -> list[Rematch]:
        """Rematches still waiting whose deadline has passed (in every database)."""
        query = _WITH_NEW_ROOM.where(RematchRow.started.is_(False), RematchRow.deadline <= now)

        async def of(repo: Repository) -> list[Rematch]:
            async with repo.readers() as session:
                return [_rematch(*found) for found in (await session.execute(query)).all()]

        if self._shards is None:
            return await of(self.repo)
        found = await asyncio.gather(*(of(repo) for repo in self._shards.by_position))
        return [rematch for each in found for rematch in each]

    async def settle(self, rematch: Rematch, *, level: str, min_players: int) -> bool:
        """At the deadline: who has not come gets a bot of ``level`` in her seat, or her seat
        is freed (then bots fill up to ``min_players``); a person ends up in the lowest seat.
        ``True``: start the match now. ``False``: nothing to start — the rematch is done (the
        host started it herself, or nobody came and the room waits for its host) or another
        worker got here first. Run twice, it changes nothing the second time."""
        async with self._at(rematch.room_id).transaction() as session:
            row = (
                await session.execute(
                    select(RematchRow)
                    .where(RematchRow.room_id == rematch.room_id)
                    .with_for_update()
                )
            ).scalar()
            if row is None or row.started:
                return False
            status = (
                await session.execute(
                    select(RoomRow.status).where(RoomRow.id == row.new_room_id).with_for_update()
                )
            ).scalar_one()
            invited = await _invited(session, row)
            came = [s for s in invited if s.id in row.arrived]
            if status != "open" or not came:
                row.started = True
                return False
            absent = [s for s in invited if s.id not in row.arrived]
            for seat in absent:
                if row.absent == "bot":
                    # Replaced for good: her token, name and profile leave the seat (she may
                    # still watch), so no rating of hers rides on a bot's play.
                    seat.name = f"Bot {seat.seat + 1}"
                    seat.token_hash = None
                    seat.bot_level = level
                    seat.profile_id = None
                    seat.former = False
                    seat.away = False
                    seat.away_level = None
                else:
                    await session.delete(seat)
            await session.flush()
            await self._fill_to(session, row.new_room_id, min_players, level)
            await _person_first(session, row.new_room_id)
            return True

    async def _fill_to(
        self, session: AsyncSession, room_id: int, min_players: int, level: str
    ) -> None:
        taken = set(
            (await session.execute(select(SeatRow.seat).where(SeatRow.room_id == room_id)))
            .scalars()
            .all()
        )
        free = (n for n in itertools.count() if n not in taken)  # the lowest free seats
        for number in itertools.islice(free, max(0, min_players - len(taken))):
            session.add(
                SeatRow(room_id=room_id, seat=number, name=f"Bot {number + 1}", bot_level=level)
            )
        await session.flush()

    async def finish(self, room_id: int) -> None:
        """The rematch of ``room_id`` is done: its match started (or was left to its host)."""
        async with self._at(room_id).transaction() as session:
            await session.execute(
                update(RematchRow).where(RematchRow.room_id == room_id).values(started=True)
            )
