"""The one place that reads and writes the tables. Callers get plain records, never ORM rows."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import ColumnElement, Table, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app import wire
from app.clock import due_at
from app.fairness.seeds import Secret
from app.store.database import Database, insert_ignoring
from app.store.models import (
    ActionRow,
    ChatRow,
    MatchRow,
    RoomRow,
    RoomSeedRow,
    SeatRow,
    ServerKeyRow,
)
from app.store.moves import (
    ClientIdCollision,
    LockedMatch,
    Move,
    MoveWriter,
    PostgresMoves,
    SqliteMoves,
)

MATCHES = cast(Table, MatchRow.__table__)
ACTIONS = cast(Table, ActionRow.__table__)
SEATS = cast(Table, SeatRow.__table__)
ROOMS = cast(Table, RoomRow.__table__)


@dataclass(frozen=True, slots=True)
class Committed:
    """A move that landed: when the match's current stage began, and whether the mover's seat
    was taken back from a bot by it."""

    stage_since: float
    came_back: bool


class ClientIdTaken(Exception):
    """Another transaction committed an action with this client_id first."""


class SeatsChanged(Exception):
    """A seat was taken while the match was being set up: set it up again for the seats
    the room has now."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    name: str
    bot_level: str | None
    away: bool
    token_hash: str | None
    # The level playing for an away seat (``None``: random).
    away_level: str | None = None
    # The profile that held this seat was deleted: its name reads "a former player".
    former: bool = False
    # Handed to a bot for good by the turn clock's "seat" rule: the player cannot take it back.
    for_good: bool = False
    # Its part of the match seed (hex) and who drew it, "player" | "server" (app/fairness).
    contribution: str | None = None
    contribution_by: str | None = None


@dataclass(frozen=True, slots=True)
class RoomRecord:
    id: int
    code: str
    game_id: str
    name: str
    visibility: str
    options: dict[str, Any]
    status: str
    seat_count: int
    turn_seconds: float | None
    created_at: float
    seats: list[SeatRecord] = field(default_factory=list)
    # Who may start a rematch once the match is over: "host" | "anyone" (app/rooms/rematch.py).
    rematch_by: str = "host"
    # When a seat's turn clock runs out: "move" (a bot plays the overdue turn) | "seat" (the
    # seat is handed to a bot for good).
    clock_rule: str = "move"
    # The seed proof's public commitment (None: a room from before migration 0008).
    commitment: str | None = None

    def seat(self, number: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.seat == number), None)

    def seat_for_token_hash(self, token_hash: str) -> SeatRecord | None:
        return next((s for s in self.seats if s.token_hash == token_hash), None)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    id: int
    room_id: int
    game_id: str
    seed: int
    players: int
    options: dict[str, Any]
    snapshot: dict[str, Any]
    version: int
    stage: str
    stage_since: float
    finished: bool
    # Per seat: the version its latest action produced (0: none). ``None`` on rows from
    # before migration 0002: ask ``Repository.last_acted``.
    acted: tuple[int, ...] | None = None
    # Per seat: since when it owes its current decision (epoch seconds), ``None`` if it owes
    # none. ``None`` as a whole on rows from before migration 0002 (use ``stage_since``).
    owing_since: tuple[float | None, ...] | None = None
    # The version of the game's rules it is played under (engine.registry.rules_version).
    rules_version: str | None = None
    # The room's secret seed and salt: revealed only once the match is over (app/fairness).
    secret: Secret | None = None


@dataclass(frozen=True, slots=True)
class ActionRecord:
    version: int
    seat: int
    action: dict[str, Any]
    client_id: str
    stage: str
    events: list[dict[str, Any]]
    by_bot: bool
    created_at: float
    # The seat it is visible to alone (a private step), None: everyone (app/rooms/private_steps)
    private_to: int | None = None


@dataclass(frozen=True, slots=True)
class ChatRecord:
    seat: int | None
    name: str
    text: str
    created_at: float


@dataclass(frozen=True, slots=True)
class NewAction:
    """One action to append, with the snapshot it produced."""

    seat: int
    action: dict[str, Any]
    client_id: str
    stage_before: str
    events: list[dict[str, Any]]
    by_bot: bool
    snapshot: dict[str, Any]
    stage_after: str
    finished: bool
    clear_away: bool
    # The match's per-seat bookkeeping after this action (see ``MatchRecord``).
    acted: list[int]
    owing_since: list[float | None]
    at: float = 0.0  # when it was applied (epoch seconds): the action's time, the stage's start
    # The earliest end of a turn clock after it (``MatchRow.due_at``; None: no clock runs).
    due_at: float | None = None
    # The seat it is visible to alone (a private step), None: everyone (app/rooms/private_steps)
    private_to: int | None = None


def _room(row: RoomRow, seats: Sequence[SeatRow]) -> RoomRecord:
    return RoomRecord(
        id=row.id,
        code=row.code,
        game_id=row.game_id,
        name=row.name,
        visibility=row.visibility,
        options=dict(row.options),
        status=row.status,
        seat_count=row.seat_count,
        turn_seconds=row.turn_seconds,
        created_at=row.created_at,
        seats=[
            SeatRecord(
                s.seat,
                s.name,
                s.bot_level,
                s.away,
                s.token_hash,
                s.away_level,
                bool(s.former),
                bool(s.for_good),
                s.contribution,
                s.contribution_by,
            )
            for s in sorted(seats, key=lambda s: s.seat)
        ],
        rematch_by=row.rematch_by,
        clock_rule=row.clock_rule,
        commitment=row.seed_commitment,
    )


def _match(row: MatchRow) -> MatchRecord:
    return MatchRecord(
        id=row.id,
        room_id=row.room_id,
        game_id=row.game_id,
        seed=row.seed,
        players=row.players,
        options=dict(row.options),
        snapshot=row.snapshot,
        version=row.version,
        stage=row.stage,
        stage_since=row.stage_since,
        finished=row.finished,
        acted=tuple(row.acted) if row.acted is not None else None,
        owing_since=tuple(row.owing_since) if row.owing_since is not None else None,
        rules_version=row.rules_version,
        secret=(
            Secret(row.server_seed, row.seed_salt)
            if row.server_seed is not None and row.seed_salt is not None
            else None
        ),
    )


def _action(row: ActionRow) -> ActionRecord:
    return ActionRecord(
        version=row.version,
        seat=row.seat,
        action=row.action,
        client_id=row.client_id,
        stage=row.stage,
        events=list(row.events),
        by_bot=row.by_bot,
        created_at=row.created_at,
        private_to=row.private_to,
    )


def stage_since_after(match: MatchRecord, new: NewAction) -> float:
    """When the match's current stage began, once ``new`` is applied."""
    return new.at if new.stage_after != new.stage_before else match.stage_since


def move_of(match: MatchRecord, new: NewAction) -> Move:
    """What committing ``new`` onto ``match`` writes."""
    return Move(
        match_id=match.id,
        room_id=match.room_id,
        seen=match.version,
        snapshot=new.snapshot,
        stage_before=new.stage_before,
        stage_after=new.stage_after,
        stage_since=stage_since_after(match, new),
        finished=new.finished,
        acted=new.acted,
        owing_since=new.owing_since,
        due_at=new.due_at,
        seat=new.seat,
        action=new.action,
        client_id=new.client_id,
        events=new.events,
        by_bot=new.by_bot,
        clear_away=new.clear_away,
        at=new.at,
        private_to=new.private_to,
    )


async def landed_action(
    match: MatchRecord, new: NewAction, sent: asyncio.Future[bool | None]
) -> Committed | None:
    """``Repository.send_action``'s answer, as ``commit_action`` gives it."""
    try:
        came_back = await sent
    except ClientIdCollision as exc:
        raise ClientIdTaken(new.client_id) from exc
    return Committed(stage_since_after(match, new), came_back) if came_back is not None else None


class Repository:
    def __init__(
        self, engine: AsyncEngine, schema: str | None = None, move_pool_size: int = 10
    ) -> None:
        self.engine = engine
        # Shared with the stores beside the room layer (profiles, circles, results).
        self.db = Database(engine)
        self.sessions = self.db.sessions
        self.readers = self.db.readers
        self._write_lock = self.db.write_lock
        self.moves: MoveWriter = (
            SqliteMoves(engine.url)
            if self._write_lock is not None
            else PostgresMoves(engine.url, schema, move_pool_size)
        )

    async def close(self) -> None:
        await self.moves.close()
        await self.engine.dispose()

    def _write(self) -> contextlib.AbstractAsyncContextManager[AsyncSession]:
        return self.db.write()

    def transaction(self) -> contextlib.AbstractAsyncContextManager[AsyncSession]:
        """One write transaction, queued with this worker's other writes (SQLite has one
        writer at a time): for the stores of features beside the room layer."""
        return self._write()

    # -- rooms and seats --------------------------------------------------------------------

    async def _load_room(self, session: AsyncSession, code: str) -> RoomRecord | None:
        row = (await session.execute(select(RoomRow).where(RoomRow.code == code))).scalar()
        if row is None:
            return None
        seats = (
            (await session.execute(select(SeatRow).where(SeatRow.room_id == row.id)))
            .scalars()
            .all()
        )
        return _room(row, seats)

    async def room(self, code: str) -> RoomRecord | None:
        async with self.readers() as session:
            return await self._load_room(session, code)

    async def create_room(
        self,
        *,
        code: str,
        game_id: str,
        name: str,
        visibility: str,
        options: dict[str, Any],
        seat_count: int,
        turn_seconds: float | None,
        host_name: str,
        host_token_hash: str,
        rematch_by: str = "host",
        clock_rule: str = "move",
        secret: Secret | None = None,
        host_contribution: tuple[str, str] | None = None,
    ) -> RoomRecord:
        async with self._write() as session:
            row = RoomRow(
                code=code,
                game_id=game_id,
                name=name,
                visibility=visibility,
                options=options,
                status="open",
                seat_count=seat_count,
                turn_seconds=turn_seconds,
                created_at=time.time(),
                rematch_by=rematch_by,
                clock_rule=clock_rule,
                seed_commitment=secret.commitment if secret is not None else None,
            )
            session.add(row)
            await session.flush()
            if secret is not None:
                session.add(
                    RoomSeedRow(room_id=row.id, server_seed=secret.server_seed, salt=secret.salt)
                )
            value, by = host_contribution if host_contribution is not None else (None, None)
            host = SeatRow(
                room_id=row.id,
                seat=0,
                name=host_name,
                token_hash=host_token_hash,
                contribution=value,
                contribution_by=by,
            )
            session.add(host)
            await session.flush()
            return _room(row, [host])

    async def open_public_rooms(self, limit: int = 100) -> list[RoomRecord]:
        async with self.readers() as session:
            rows = (
                (
                    await session.execute(
                        select(RoomRow)
                        .where(RoomRow.status == "open", RoomRow.visibility == "public")
                        .order_by(RoomRow.created_at.desc())
                        .limit(limit)
                    )
                )
                .scalars()
                .all()
            )
            if not rows:
                return []
            seats = (
                (
                    await session.execute(
                        select(SeatRow).where(SeatRow.room_id.in_([r.id for r in rows]))
                    )
                )
                .scalars()
                .all()
            )
            return [_room(r, [s for s in seats if s.room_id == r.id]) for r in rows]

    async def take_seat(
        self,
        room: RoomRecord,
        *,
        name: str,
        token_hash: str | None,
        bot_level: str | None,
        contribution: tuple[str, str] | None = None,
    ) -> int | None:
        """The lowest free seat of an open room, or ``None`` when it is full or started.

        Two joins racing for one seat collide on the (room, seat) unique key; the loser retries
        on the next free seat.
        """
        for _ in range(room.seat_count + 1):
            try:
                async with self._write() as session:
                    # FOR UPDATE: a start waits for this seat (and counts it), or this join
                    # waits for the start and finds the room no longer open (PostgreSQL;
                    # SQLite writes one at a time anyway).
                    if not await _still_open(session, room.id):
                        return None
                    taken = set(
                        (
                            await session.execute(
                                select(SeatRow.seat).where(SeatRow.room_id == room.id)
                            )
                        )
                        .scalars()
                        .all()
                    )
                    free = [n for n in range(room.seat_count) if n not in taken]
                    if not free:
                        return None
                    value, by = contribution if contribution is not None else (None, None)
                    session.add(
                        SeatRow(
                            room_id=room.id,
                            seat=free[0],
                            name=name,
                            token_hash=token_hash,
                            bot_level=bot_level,
                            contribution=value,
                            contribution_by=by,
                        )
                    )
                return free[0]
            except IntegrityError:
                continue
        return None

    async def free_seat(self, room: RoomRecord, seat: int) -> bool:
        """Empty ``seat`` of an open room (a bot removed, a player gone); ``False`` when the
        room has started or the seat was already empty. The gap stays until a join fills it
        (the lowest free seat first) or the start closes it up (``start_match``)."""
        async with self._write() as session:
            # FOR UPDATE: a start either counts this seat or sees it gone, never half.
            if not await _still_open(session, room.id):
                return False
            gone = await session.execute(
                delete(SeatRow).where(SeatRow.room_id == room.id, SeatRow.seat == seat)
            )
            return bool(gone.rowcount)  # type: ignore[attr-defined]

    async def swap_seats(self, room: RoomRecord, one: int, other: int) -> bool:
        """Exchange two seats of an open room (either may be empty); ``False`` when the room
        has started."""
        async with self._write() as session:
            if not await _still_open(session, room.id):
                return False
            # Through a number no seat uses, so (room, seat) stays unique at every statement.
            for old, new in ((one, -1), (other, one), (-1, other)):
                await session.execute(
                    update(SeatRow)
                    .where(SeatRow.room_id == room.id, SeatRow.seat == old)
                    .values(seat=new)
                )
            return True

    async def room_secret(self, room_id: int) -> Secret | None:
        """The room's secret seed and salt, to start its match (None: a room without a proof)."""
        async with self.readers() as session:
            row = await session.get(RoomSeedRow, room_id)
            return Secret(row.server_seed, row.salt) if row is not None else None

    async def set_contribution(self, room: RoomRecord, seat: int, value: str, by: str) -> bool:
        """``seat``'s part of the seed, before the start; ``False`` once the room has started
        or the seat is empty."""
        async with self._write() as session:
            if not await _still_open(session, room.id):
                return False
            done = await session.execute(
                update(SeatRow)
                .where(SeatRow.room_id == room.id, SeatRow.seat == seat)
                .values(contribution=value, contribution_by=by)
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    async def set_away(self, room_id: int, seat: int, away: bool, level: str | None = None) -> None:
        """Mark a person's seat away (a bot of ``level`` plays for it) or back."""
        async with self._write() as session:
            await session.execute(
                update(SeatRow)
                .where(SeatRow.room_id == room_id, SeatRow.seat == seat)
                .values(away=away, away_level=level if away else None)
            )

    async def hand_over_for_good(
        self, room_id: int, seat: int, level: str, match_version: int
    ) -> bool:
        """The turn clock's "seat" rule: a bot of ``level`` plays ``seat`` for good (away and
        ``for_good``; the player can no longer act nor take it back). Only while the match is
        still at ``match_version`` (a last-moment move first makes the runner look again) and
        the seat is not already a bot's; ``False`` otherwise."""
        async with self._write() as session:
            still = (
                select(MatchRow.id)
                .where(MatchRow.room_id == room_id, MatchRow.version == match_version)
                .exists()
            )
            done = await session.execute(
                update(SeatRow)
                .where(
                    SeatRow.room_id == room_id,
                    SeatRow.seat == seat,
                    SeatRow.bot_level.is_(None),
                    SeatRow.away.is_(False),
                    still,
                )
                .values(away=True, away_level=level, for_good=True)
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    async def take_seat_back(self, room_id: int, seat: int) -> bool:
        """A seat the host handed to a bot is its player's again (never one handed over for
        good); ``False`` when it was not away (or is for good)."""
        async with self._write() as session:
            done = await session.execute(
                update(SeatRow)
                .where(
                    SeatRow.room_id == room_id,
                    SeatRow.seat == seat,
                    SeatRow.away.is_(True),
                    SeatRow.for_good.is_(False),
                )
                .values(away=False, away_level=None)
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    # -- matches ----------------------------------------------------------------------------

    async def restart_clock(
        self, match: MatchRecord, seat: int, now: float, turn_seconds: float | None
    ) -> bool:
        """``seat`` owes its decision from ``now`` (a player took her seat back: her turn clock
        starts afresh), and the match's ``due_at`` follows. Only while the match is still at
        ``match.version`` (its ``owing_since`` is the one this starts from); ``False`` when it
        moved meanwhile: read it again."""
        if match.owing_since is None or match.owing_since[seat] is None:
            return True  # she owes nothing: no clock to restart
        owing = list(match.owing_since)
        owing[seat] = now
        async with self._write() as session:
            done = await session.execute(
                update(MatchRow)
                .where(MatchRow.id == match.id, MatchRow.version == match.version)
                .values(owing_since=owing, due_at=due_at(owing, turn_seconds))
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    async def start_match(
        self,
        room: RoomRecord,
        *,
        seed: int,
        players: int,
        options: dict[str, Any],
        snapshot: dict[str, Any],
        stage: str,
        to_move: Collection[int] | None = None,
        now: float | None = None,
        rules_version: str | None = None,
        secret: Secret | None = None,
        contributions: Sequence[str] | None = None,
    ) -> MatchRecord | None:
        """Open → playing, once: a second start finds the room no longer open. The seats in
        ``to_move`` begin to owe a decision ``now`` (their turn clocks start; the server's
        clock, app/clock.py)."""
        now = time.time() if now is None else now
        async with self._write() as session:
            flipped = await session.execute(
                update(RoomRow)
                .where(RoomRow.id == room.id, RoomRow.status == "open")
                .values(status="playing")
            )
            if flipped.rowcount != 1:  # type: ignore[attr-defined]
                return None
            # The UPDATE holds the room's row: every join that took a seat before it has
            # committed, and none can take one after; the match is set up for exactly these.
            seated = (
                await session.execute(
                    select(func.count()).select_from(SeatRow).where(SeatRow.room_id == room.id)
                )
            ).scalar_one()
            if seated != players:
                raise SeatsChanged(room.code)
            # Seats left or removed before the start leave gaps: the match numbers its seats
            # 0…players-1, so close them up in seat order (ascending, so no two rows ever
            # share a number on the way). The host's seat 0 never moves.
            numbers = (
                (
                    await session.execute(
                        select(SeatRow.seat)
                        .where(SeatRow.room_id == room.id)
                        .order_by(SeatRow.seat)
                    )
                )
                .scalars()
                .all()
            )
            if contributions is not None:
                # The seed was drawn from these contributions in this seat order: a seat
                # without one gets the one the server drew for it; a seat moved or changed
                # meanwhile makes the start draw the seed again.
                seat_rows = (
                    (
                        await session.execute(
                            select(SeatRow).where(SeatRow.room_id == room.id).order_by(SeatRow.seat)
                        )
                    )
                    .scalars()
                    .all()
                )
                for seat_row, value in zip(seat_rows, contributions, strict=True):
                    if seat_row.contribution is None:
                        seat_row.contribution, seat_row.contribution_by = value, "server"
                    elif seat_row.contribution != value:
                        raise SeatsChanged(room.code)
                await session.flush()
            for new_number, old_number in enumerate(numbers):
                if new_number != old_number:
                    await session.execute(
                        update(SeatRow)
                        .where(SeatRow.room_id == room.id, SeatRow.seat == old_number)
                        .values(seat=new_number)
                    )
            owing = (
                [now if seat in to_move else None for seat in range(players)]
                if to_move is not None
                else None
            )
            row = MatchRow(
                room_id=room.id,
                game_id=room.game_id,
                seed=seed,
                players=players,
                options=options,
                snapshot=snapshot,
                version=0,
                stage=stage,
                stage_since=now,
                finished=False,
                created_at=now,
                acted=[0] * players,
                owing_since=owing,
                due_at=due_at(owing, room.turn_seconds),
                rules_version=rules_version,
                server_seed=secret.server_seed if secret is not None else None,
                seed_salt=secret.salt if secret is not None else None,
            )
            session.add(row)
            await session.flush()
            return _match(row)

    async def match(self, room_id: int) -> MatchRecord | None:
        async with self.readers() as session:
            row = (
                await session.execute(select(MatchRow).where(MatchRow.room_id == room_id))
            ).scalar()
            return _match(row) if row is not None else None

    async def match_head(self, room_id: int) -> tuple[MatchRecord, list[dict[str, Any]]] | None:
        """The match and the events of the step that made its current version, in one query
        (what a worker needs to render every socket's view after a move elsewhere)."""
        query = (
            select(MatchRow, ACTIONS.c.events)
            .outerjoin(
                ACTIONS,
                (ACTIONS.c.match_id == MatchRow.id) & (ACTIONS.c.version == MatchRow.version),
            )
            .where(MatchRow.room_id == room_id)
        )
        async with self.readers() as session:
            row = (await session.execute(query)).first()
            if row is None:
                return None
            return _match(row[0]), list(row[1] or [])

    async def action_by_client_id(self, match_id: int, client_id: str) -> ActionRecord | None:
        async with self.readers() as session:
            row = (
                await session.execute(
                    select(ActionRow).where(
                        ActionRow.match_id == match_id, ActionRow.client_id == client_id
                    )
                )
            ).scalar()
            return _action(row) if row is not None else None

    async def action_at(self, match_id: int, version: int) -> ActionRecord | None:
        """The action that produced ``version`` (its ``stage`` is the stage at version - 1)."""
        async with self.readers() as session:
            row = (
                await session.execute(
                    select(ActionRow).where(
                        ActionRow.match_id == match_id, ActionRow.version == version
                    )
                )
            ).scalar()
            return _action(row) if row is not None else None

    async def last_acted(self, match_id: int, seat: int) -> int:
        """The version ``seat``'s latest action produced (0: none): for matches stored before
        the ``acted`` column existed."""
        async with self.readers() as session:
            found = (
                await session.execute(
                    select(func.max(ActionRow.version)).where(
                        ActionRow.match_id == match_id, ActionRow.seat == seat
                    )
                )
            ).scalar()
            return int(found or 0)

    async def actions(self, match_id: int) -> list[ActionRecord]:
        async with self.readers() as session:
            rows = (
                (
                    await session.execute(
                        select(ActionRow)
                        .where(ActionRow.match_id == match_id)
                        .order_by(ActionRow.version)
                    )
                )
                .scalars()
                .all()
            )
            return [_action(r) for r in rows]

    async def actions_between(self, match_id: int, after: int, upto: int) -> list[ActionRecord]:
        """The actions that produced versions ``after + 1`` … ``upto``, in order."""
        async with self.readers() as session:
            rows = (
                (
                    await session.execute(
                        select(ActionRow)
                        .where(
                            ActionRow.match_id == match_id,
                            ActionRow.version > after,
                            ActionRow.version <= upto,
                        )
                        .order_by(ActionRow.version)
                    )
                )
                .scalars()
                .all()
            )
            return [_action(r) for r in rows]

    async def hidden_steps(self, match_id: int, upto: int) -> dict[int, int]:
        """Per seat, its private steps among the actions up to version ``upto``."""
        query = (
            select(ActionRow.private_to, func.count())
            .where(
                ActionRow.match_id == match_id,
                ActionRow.version <= upto,
                ActionRow.private_to.is_not(None),
            )
            .group_by(ActionRow.private_to)
        )
        async with self.readers() as session:
            rows = (await session.execute(query)).all()
            return {int(seat): int(n) for seat, n in rows if seat is not None}

    async def visible_actions(
        self, match_id: int, viewer: int | None, after: int, upto: int
    ) -> list[ActionRecord]:
        """The actions ``viewer`` (a seat, None: a spectator) sees as her versions ``after +
        1`` … ``upto``: the public ones and her own private steps, in order."""
        if upto <= after:
            return []
        visible: ColumnElement[bool] = ActionRow.private_to.is_(None)
        if viewer is not None:
            visible = visible | (ActionRow.private_to == viewer)
        query = (
            select(ActionRow)
            .where(ActionRow.match_id == match_id, visible)
            .order_by(ActionRow.version)
            .offset(after)
            .limit(upto - after)
        )
        async with self.readers() as session:
            return [_action(r) for r in (await session.execute(query)).scalars().all()]

    async def since_public(self, match_id: int, upto: int) -> list[ActionRecord]:
        """The latest public action up to version ``upto`` and the private steps after it (what
        each viewer's latest events are read from)."""
        last = (
            select(func.coalesce(func.max(ActionRow.version), 0))
            .where(
                ActionRow.match_id == match_id,
                ActionRow.version <= upto,
                ActionRow.private_to.is_(None),
            )
            .scalar_subquery()
        )
        query = (
            select(ActionRow)
            .where(
                ActionRow.match_id == match_id,
                ActionRow.version >= last,
                ActionRow.version <= upto,
            )
            .order_by(ActionRow.version)
        )
        async with self.readers() as session:
            return [_action(r) for r in (await session.execute(query)).scalars().all()]

    async def commit_action(
        self, match: MatchRecord, new: NewAction, locked: LockedMatch | None = None
    ) -> Committed | None:
        """Append ``new`` and move the match to ``match.version + 1`` in one transaction.

        Returns when the match's current stage began and whether the seat came back from a
        bot, or ``None`` when another writer moved the match first (the caller retries under
        ``locked_match``); raises ``ClientIdTaken`` when the same client_id was committed
        meanwhile. Inside ``locked_match`` (``locked``) the commit cannot lose.
        """
        move = move_of(match, new)
        try:
            if locked is not None:
                came_back: bool | None = await locked.commit(move)
            elif self._write_lock is not None:
                async with self._write_lock:
                    came_back = await self.moves.commit(move)
            else:
                came_back = await self.moves.commit(move)
        except ClientIdCollision as exc:
            # The version guard already serialised writers, so the only key left to collide
            # is (match, client_id); the caller reloads and finds the committed twin.
            raise ClientIdTaken(new.client_id) from exc
        return Committed(move.stage_since, came_back) if came_back is not None else None

    @property
    def sends_ahead(self) -> bool:
        """Whether a move can be sent while the last one of its match is still out
        (PostgreSQL's group commit chains them: ``send_action``)."""
        return isinstance(self.moves, PostgresMoves)

    def send_action(
        self, match: MatchRecord, new: NewAction, after: asyncio.Future[bool | None] | None
    ) -> asyncio.Future[bool | None]:
        """Queue ``new``'s commit now and return its answer to come (``sends_ahead``):
        ``None`` if not moved, else whether the seat came back. ``after``: the answer of the
        match's move ``new`` was applied after, while it is out; ``new`` lands only with or
        after it, never once it did not."""
        assert isinstance(self.moves, PostgresMoves), "send_action needs PostgreSQL"
        return self.moves.group.submit(move_of(match, new), after)

    @property
    def locks_rows(self) -> bool:
        """Whether a move can wait for the match row (PostgreSQL) instead of retrying."""
        return isinstance(self.moves, PostgresMoves)

    @contextlib.asynccontextmanager
    async def locked_match(
        self, match_id: int
    ) -> AsyncIterator[tuple[LockedMatch, tuple[MatchRecord, list[dict[str, Any]]] | None]]:
        """The match held ``FOR UPDATE`` until the block ends, with its current version's
        events (PostgreSQL): a move retried in here cannot lose the version race again."""
        # Only PostgreSQL holds rows (``locks_rows``); SQLite, one writer at a time, retries.
        assert isinstance(self.moves, PostgresMoves), "locked_match needs PostgreSQL"
        async with self.moves.locked(match_id) as locked:
            row = locked.row
            if row is None:
                yield locked, None
                return
            record = MatchRecord(
                id=row["id"],
                room_id=row["room_id"],
                game_id=row["game_id"],
                seed=row["seed"],
                players=row["players"],
                options=wire.loads(row["options"]),
                snapshot=wire.loads(row["snapshot"]),
                version=row["version"],
                stage=row["stage"],
                stage_since=row["stage_since"],
                finished=row["finished"],
                acted=tuple(wire.loads(row["acted"])) if row["acted"] is not None else None,
                owing_since=(
                    tuple(wire.loads(row["owing_since"]))
                    if row["owing_since"] is not None
                    else None
                ),
                rules_version=row["rules_version"],
                secret=(
                    Secret(row["server_seed"], row["seed_salt"])
                    if row["server_seed"] is not None and row["seed_salt"] is not None
                    else None
                ),
            )
            events = wire.loads(row["events"]) if row["events"] is not None else []
            yield locked, (record, list(events))

    async def rooms_needing_bots(self) -> list[tuple[str, int, int, float | None]]:
        """Rooms in play where a bot may owe a move (bot seats, away seats, or a turn clock),
        each with its match version and how many seats are away: what the bot sweep compares
        to decide whether a room changed since it last looked; and its match's ``due_at`` (the
        earliest end of a turn clock, by the server's clock), so a clock days long is found
        when it runs out with nothing kept in memory."""
        async with self.readers() as session:
            helped = select(SeatRow.room_id).where(
                (SeatRow.bot_level.is_not(None)) | (SeatRow.away.is_(True))
            )
            away = (
                select(func.count(SeatRow.id))
                .where(SeatRow.room_id == RoomRow.id, SeatRow.away.is_(True))
                .scalar_subquery()
            )
            rows = await session.execute(
                select(RoomRow.code, MatchRow.version, away, MatchRow.due_at)
                .join(MatchRow, MatchRow.room_id == RoomRow.id)
                .where(
                    RoomRow.status == "playing",
                    (RoomRow.turn_seconds.is_not(None)) | (RoomRow.id.in_(helped)),
                )
            )
            return [
                (code, int(version), int(count), due) for code, version, count, due in rows.all()
            ]

    # -- chat -------------------------------------------------------------------------------

    async def add_chat(self, room_id: int, seat: int | None, name: str, text: str) -> ChatRecord:
        now = time.time()
        async with self._write() as session:
            session.add(ChatRow(room_id=room_id, seat=seat, name=name, text=text, created_at=now))
        return ChatRecord(seat, name, text, now)

    async def recent_chat(self, room_id: int, limit: int = 50) -> list[ChatRecord]:
        async with self.readers() as session:
            rows = (
                (
                    await session.execute(
                        select(ChatRow)
                        .where(ChatRow.room_id == room_id)
                        .order_by(ChatRow.id.desc())
                        .limit(limit)
                    )
                )
                .scalars()
                .all()
            )
            return [ChatRecord(r.seat, r.name, r.text, r.created_at) for r in reversed(rows)]

    async def recent_chat_by_code(self, code: str, limit: int = 50) -> list[ChatRecord]:
        """``recent_chat`` of the room with this code (none for an unknown code)."""
        async with self.readers() as session:
            rows = (
                (
                    await session.execute(
                        select(ChatRow)
                        .join(RoomRow, RoomRow.id == ChatRow.room_id)
                        .where(RoomRow.code == code)
                        .order_by(ChatRow.id.desc())
                        .limit(limit)
                    )
                )
                .scalars()
                .all()
            )
            return [ChatRecord(r.seat, r.name, r.text, r.created_at) for r in reversed(rows)]

    async def count_rooms(self) -> int:
        async with self.readers() as session:
            return int((await session.execute(select(func.count(RoomRow.id)))).scalar_one())

    async def server_key(self, name: str, make: Callable[[], str]) -> str:
        """The server's key ``name``: the stored one, or ``make()``'s stored first (whoever
        writes first wins, and every worker reads the winner)."""
        query = select(ServerKeyRow.value).where(ServerKeyRow.name == name)
        async with self.readers() as session:
            stored: str | None = (await session.execute(query)).scalar_one_or_none()
        if stored is None:
            async with self._write() as session:
                await session.execute(
                    insert_ignoring(self.db.dialect, ServerKeyRow).values(
                        name=name, value=make(), created_at=time.time()
                    )
                )
            async with self.readers() as session:
                stored = (await session.execute(query)).scalar_one()
        return stored


async def _still_open(session: AsyncSession, room_id: int) -> bool:
    """Whether the room is still open, its row locked until the transaction ends (FOR UPDATE:
    a start either counts what this transaction changes in its seats, or this transaction finds
    the room started)."""
    status = (
        await session.execute(select(RoomRow.status).where(RoomRow.id == room_id).with_for_update())
    ).scalar_one()
    return bool(status == "open")
