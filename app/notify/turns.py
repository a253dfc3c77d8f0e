"""What to tell whom after a match moved: the notifications a move (or the start) calls for.

``notes_for`` is the one rule, pure: from a match's facts (who owes a decision since when,
who is a person, whether it ended) and the room's targets (push subscriptions per seat, the
table's and its circle's webhooks) it makes the notifications, each under a key that says what
it is about — a push subscription and the start of a seat's clock, a webhook and the start of
a turn, a webhook and a match's end. The reaction after a commit (``TurnNotices.after_move``)
and the sweep after a crash (``TurnNotices.sweep``) both use it, so they write the same keys
and each notification exists once however many workers and restarts saw the move.

- A **push** "your turn" goes to each subscription of a person's seat (not a bot's, not one a
  bot plays for) when its clock starts; a **reminder** when a fifth of a correspondence turn
  is left. Both are dropped at sending time if the seat has moved meanwhile (app/notify/outbox.py)
  or a tab of it is in view (the push sender).
- A **webhook** gets one post when a turn starts for a person (a seat that began to owe at that
  moment is a person's), naming every seat that owes a decision then, and one when the match
  ends.
- Only what happens after a target was set up: a subscription or a webhook made now does not
  bring up the turns that started before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import or_, select

from app.clock import CORRESPONDENCE_SECONDS, Clock
from app.notify.outbox import Outbox, since_key
from app.notify.records import NewNotification
from app.rooms.notices import Moved, Notices
from app.rooms.tables import Table, Tables
from app.store.database import Database
from app.store.models import (
    CircleRoomRow,
    MatchResultRow,
    MatchRow,
    NotificationRow,
    PushSubscriptionRow,
    RoomRow,
    SeatRow,
    WebhookRow,
)
from app.store.room_shards import RoomDatabases, position_of_id
from engine import registry

log = logging.getLogger(__name__)

# A reminder goes out when this share of a correspondence turn is left.
REMINDER_SHARE = 0.2
# A room's targets are read again after this long (a subscription or webhook made in another
# worker; one made here is seen at once: ``targets_changed``).
TARGETS_SECONDS = 5.0
# The sweep's pace (it also runs once as the worker starts).
SWEEP_SECONDS = 15.0
# How many written notification keys a worker remembers (oldest forgotten first).
WRITTEN_KEYS = 10_000


@dataclass(frozen=True, slots=True)
class Subscription:
    id: int
    seat: int
    created_at: float


@dataclass(frozen=True, slots=True)
class Hook:
    id: int
    created_at: float


@dataclass(frozen=True, slots=True)
class Targets:
    subscriptions: tuple[Subscription, ...] = ()
    hooks: tuple[Hook, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.subscriptions or self.hooks)


@dataclass(frozen=True, slots=True)
class MatchFacts:
    room_id: int
    code: str
    title: str
    names: tuple[str, ...]
    people: frozenset[int]  # seats a person plays now (no bot seat, none a bot plays for)
    match_id: int
    owing: tuple[float | None, ...]
    turn_seconds: float | None
    # None while the match runs; the winning seats once it ended.
    winners: tuple[int, ...] | None = None


def notes_for(facts: MatchFacts, targets: Targets) -> list[NewNotification]:
    """Every notification ``facts`` call for at ``targets`` (keys make repeats harmless)."""
    base: dict[str, Any] = {
        "match": facts.match_id,
        "code": facts.code,
        "title": facts.title,
        "names": list(facts.names),
        "url": f"/r/{facts.code}",
    }
    notes: list[NewNotification] = []
    if facts.winners is not None:
        for hook in targets.hooks:
            notes.append(
                NewNotification(
                    key=f"hook:end:{hook.id}:{facts.match_id}",
                    channel="webhook",
                    target=hook.id,
                    room_id=facts.room_id,
                    payload={**base, "kind": "end", "winners": list(facts.winners)},
                    send_after=0.0,
                )
            )
        return notes
    turn = facts.turn_seconds
    for sub in targets.subscriptions:
        since = facts.owing[sub.seat] if sub.seat < len(facts.owing) else None
        if since is None or sub.seat not in facts.people or since < sub.created_at:
            continue
        mark = f"{sub.id}:{facts.match_id}:{sub.seat}:{since_key(since)}"
        payload = {**base, "kind": "turn", "seat": sub.seat, "since": since}
        notes.append(
            NewNotification(f"push:turn:{mark}", "push", sub.id, facts.room_id, payload, since)
        )
        if turn and turn >= CORRESPONDENCE_SECONDS:
            due = since + turn
            notes.append(
                NewNotification(
                    f"push:remind:{mark}",
                    "push",
                    sub.id,
                    facts.room_id,
                    {**payload, "kind": "reminder", "due": due},
                    due - turn * REMINDER_SHARE,
                )
            )
    starts = [s for s in facts.owing if s is not None]
    if targets.hooks and starts:
        latest = max(starts)
        began = [seat for seat, since in enumerate(facts.owing) if since == latest]
        # Posted when a person's clock starts; it names everyone who owes a decision now.
        seats = [seat for seat, since in enumerate(facts.owing) if since is not None]
        if any(seat in facts.people for seat in began):
            for hook in targets.hooks:
                if latest < hook.created_at:
                    continue
                notes.append(
                    NewNotification(
                        key=f"hook:turn:{hook.id}:{facts.match_id}:{since_key(latest)}",
                        channel="webhook",
                        target=hook.id,
                        room_id=facts.room_id,
                        payload={**base, "kind": "turn", "seats": seats, "since": latest},
                        send_after=latest,
                    )
                )
    return notes


def facts_of_table(table: Table) -> MatchFacts:
    room, match = table.room, table.match
    owing = match.owing_since or tuple(
        match.stage_since if s in table.to_move else None for s in range(match.players)
    )
    winners = table.result.get("winners", []) if table.result is not None else None
    return MatchFacts(
        room_id=room.id,
        code=room.code,
        title=table.game.title,
        names=tuple(seat_names(room.seats, match.players)),
        people=frozenset(s.seat for s in room.seats if s.bot_level is None and not s.away),
        match_id=match.id,
        owing=tuple(owing),
        turn_seconds=room.turn_seconds,
        winners=tuple(winners) if winners is not None else None,
    )


def seat_names(seats: Sequence[Any], players: int) -> list[str]:
    by_seat = {s.seat: s.name for s in seats}
    return [by_seat.get(n, "?") for n in range(players)]


@dataclass(slots=True)
class _Cached:
    targets: Targets
    read_at: float


@dataclass(slots=True)
class TurnNotices:
    """The reaction after a commit, and the sweep behind it."""

    db: Database
    outbox: Outbox
    tables: Tables
    clock: Clock
    sweep_seconds: float = SWEEP_SECONDS
    # Where rooms are when room databases are listed (targets and the outbox stay in ``db``).
    rooms: RoomDatabases | None = None
    _targets: dict[int, _Cached] = field(default_factory=dict)
    # The read of a room's targets in flight: the moves that come meanwhile wait for it
    # instead of each reading them again (every move of a busy room did, before the first
    # read came back).
    _reading: dict[int, asyncio.Future[Targets]] = field(default_factory=dict)
    # The rooms whose targets were asked for in this turn of the loop, read together.
    _asking: list[int] = field(default_factory=list)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _sweeper: asyncio.Task[None] | None = None
    # Keys this worker wrote lately: a move that changes no turn (a sub-action, a pick of a
    # simultaneous round) calls for the same notifications, and writing them again would cost
    # a write transaction per move for nothing (INSERT … DO NOTHING still takes the lock).
    _written: dict[str, None] = field(default_factory=dict)

    def subscribe(self, notices: Notices) -> None:
        notices.on_move.append(self.after_move)
        notices.on_change.append(self.after_change)

    def targets_changed(self, room_id: int) -> None:
        """A subscription or a webhook of this room was made or removed in this worker."""
        self._targets.pop(room_id, None)
        self._reading.pop(room_id, None)  # a read begun before the change is not kept

    # -- the reaction ----------------------------------------------------------------------

    def after_move(self, moved: Moved) -> None:
        self._spawn(self._write(facts_of_table(moved.table)))

    def after_change(self, code: str) -> None:
        """The start (and seats handed over): the first turn's notifications."""
        table = self.tables.cached(code)
        if table is not None and table.version == 0 and table.result is None:
            self._spawn(self._write(facts_of_table(table)))

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _write(self, facts: MatchFacts) -> None:
        try:
            targets = await self.targets(facts.room_id)
            if targets:
                notes = [n for n in notes_for(facts, targets) if n.key not in self._written]
                if notes:
                    await self.outbox.add(notes)
                    self._written.update(dict.fromkeys(n.key for n in notes))
                    while len(self._written) > WRITTEN_KEYS:
                        del self._written[next(iter(self._written))]
        except Exception:
            log.exception("notifications of room %s could not be written", facts.code)

    async def targets(self, room_id: int) -> Targets:
        now = time.monotonic()
        cached = self._targets.get(room_id)
        if cached is not None and now - cached.read_at < TARGETS_SECONDS:
            return cached.targets
        reading = self._reading.get(room_id)
        if reading is None:
            # Read with every other room asking in this turn of the loop: one read for all
            # (a worker whose many tables started together read each room's apart).
            reading = self._reading[room_id] = asyncio.get_running_loop().create_future()
            self._asking.append(room_id)
            if len(self._asking) == 1:
                self._spawn(self._read_asked())
        return await asyncio.shield(reading)

    async def _read_asked(self) -> None:
        await asyncio.sleep(0)  # the rest of this loop turn's moves ask meanwhile
        room_ids, self._asking = self._asking, []
        readings = {room_id: self._reading.get(room_id) for room_id in room_ids}
        try:
            found = await self._read_targets(room_ids)
        except BaseException as exc:
            for room_id, reading in readings.items():
                if reading is None or reading.done():
                    continue
                if self._reading.get(room_id) is reading:
                    del self._reading[room_id]
                if isinstance(exc, Exception):
                    reading.set_exception(exc)
                    reading.exception()  # retrieved: its waiters raise it, nobody else logs it
                else:
                    reading.cancel()  # the worker stopping: its waiters stop too
            if isinstance(exc, Exception):
                return  # each waiter logs it with its room
            raise
        now = time.monotonic()
        for room_id, reading in readings.items():
            if reading is None or reading.done():
                continue
            targets = found.get(room_id, Targets())
            reading.set_result(targets)
            # A read begun before a change of this room's targets is not kept.
            if self._reading.get(room_id) is reading:
                del self._reading[room_id]
                self._targets[room_id] = _Cached(targets, now)
        if len(self._targets) > 10_000:
            self._targets = {k: v for k, v in self._targets.items() if now - v.read_at < 60}

    def _sharded(self) -> RoomDatabases | None:
        return self.rooms if self.rooms is not None and self.rooms.sharded else None

    async def _subscriptions(
        self, rooms: RoomDatabases, room_ids: list[int]
    ) -> dict[int, list[Subscription]]:
        """The rooms' push subscriptions with room databases: their seats from each room's
        database, the subscriptions of those seats from ``db``."""
        by_position: dict[int, list[int]] = {}
        for room_id in room_ids:
            by_position.setdefault(position_of_id(room_id), []).append(room_id)
        seats: dict[int, tuple[int, int]] = {}  # seat row id: (room id, seat number)
        for position, ids in by_position.items():
            async with rooms.all[position].readers() as session:
                for seat_id, room_id, seat in await session.execute(
                    select(SeatRow.id, SeatRow.room_id, SeatRow.seat).where(
                        SeatRow.room_id.in_(ids)
                    )
                ):
                    # A seat numbered in its database's range (one made there before seats
                    # were numbered so has an id another database may use: left out).
                    if position_of_id(seat_id) == position:
                        seats[seat_id] = (room_id, seat)
        subs: dict[int, list[Subscription]] = {}
        if not seats:
            return subs
        async with self.db.readers() as session:
            for sub_id, seat_id, created in await session.execute(
                select(
                    PushSubscriptionRow.id,
                    PushSubscriptionRow.seat_id,
                    PushSubscriptionRow.created_at,
                ).where(PushSubscriptionRow.seat_id.in_(list(seats)))
            ):
                room_id, seat = seats[seat_id]
                subs.setdefault(room_id, []).append(Subscription(sub_id, seat, created))
        return subs

    async def _read_targets(self, room_ids: list[int]) -> dict[int, Targets]:
        subs: dict[int, list[Subscription]] = {}
        hooks: dict[int, list[Hook]] = {}
        sharded = self._sharded()
        if sharded is not None:
            subs = await self._subscriptions(sharded, room_ids)
        async with self.db.readers() as session:
            for sub_id, room_id, seat, created in (
                []
                if sharded is not None
                else await session.execute(
                    select(
                        PushSubscriptionRow.id,
                        SeatRow.room_id,
                        SeatRow.seat,
                        PushSubscriptionRow.created_at,
                    )
                    .join(SeatRow, SeatRow.id == PushSubscriptionRow.seat_id)
                    .where(SeatRow.room_id.in_(room_ids))
                )
            ):
                subs.setdefault(room_id, []).append(Subscription(sub_id, seat, created))
            for hook_id, table_id, created in await session.execute(
                select(WebhookRow.id, WebhookRow.room_id, WebhookRow.created_at).where(
                    WebhookRow.room_id.in_(room_ids)
                )
            ):
                if table_id is not None:
                    hooks.setdefault(table_id, []).append(Hook(hook_id, created))
            for hook_id, room_id, created in await session.execute(
                select(WebhookRow.id, CircleRoomRow.room_id, WebhookRow.created_at)
                .join(CircleRoomRow, CircleRoomRow.circle_id == WebhookRow.circle_id)
                .where(CircleRoomRow.room_id.in_(room_ids))
            ):
                hooks.setdefault(room_id, []).append(Hook(hook_id, created))
        return {
            room_id: Targets(tuple(subs.get(room_id, ())), tuple(hooks.get(room_id, ())))
            for room_id in room_ids
        }

    # -- the sweep ---------------------------------------------------------------------------

    async def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="notify-sweep")

    async def close(self) -> None:
        tasks = [*self._tasks]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    async def _sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the notification sweep failed")
            await asyncio.sleep(self.sweep_seconds)

    async def sweep(self) -> int:
        """Write what a crash may have left unwritten: every match in play (and every match
        ended since its webhook was made, without its end post) of a room with targets.
        Returns how many matches it looked at.

        Which rooms have targets, and which ended matches lack their end post, is read in
        ``db``; the rooms, matches and seats where the rooms are (``db`` itself, or each room
        database)."""
        sharded = self._sharded()
        async with self.db.readers() as session:
            hooked = set(
                (
                    await session.execute(
                        select(WebhookRow.room_id)
                        .where(WebhookRow.room_id.is_not(None))
                        .union(
                            select(CircleRoomRow.room_id).join(
                                WebhookRow, WebhookRow.circle_id == CircleRoomRow.circle_id
                            )
                        )
                    )
                ).scalars()
            )
            ended = dict(
                (
                    await session.execute(
                        select(MatchResultRow.room_id, MatchResultRow.finished_at).where(
                            MatchResultRow.room_id.in_(hooked),
                            ~select(NotificationRow.id)
                            .where(
                                NotificationRow.room_id == MatchResultRow.room_id,
                                NotificationRow.key.like("hook:end:%"),
                            )
                            .exists(),
                        )
                    )
                ).all()
            )
            if sharded is None:
                # Rooms and subscriptions in one database: the pushed rooms as a subquery.
                dbs = [self.db]
                pushed: Any = select(SeatRow.room_id).join(
                    PushSubscriptionRow, PushSubscriptionRow.seat_id == SeatRow.id
                )
                anyone = await session.scalar(select(PushSubscriptionRow.id).limit(1)) is not None
            else:
                # Subscriptions name their seats by id (numbered by range in each database).
                dbs = list(sharded.all)
                seat_ids = list(
                    (
                        await session.execute(select(PushSubscriptionRow.seat_id).distinct())
                    ).scalars()
                )
                pushed = select(SeatRow.room_id).where(SeatRow.id.in_(seat_ids))
                anyone = bool(seat_ids)
        if not hooked and not anyone:
            return 0

        async def of(db: Database) -> tuple[list[Any], dict[int, list[SeatRow]]]:
            async with db.readers() as session:
                rows = (
                    await session.execute(
                        select(RoomRow, MatchRow)
                        .join(MatchRow, MatchRow.room_id == RoomRow.id)
                        .where(
                            or_(
                                (RoomRow.status == "playing")
                                & or_(RoomRow.id.in_(hooked), RoomRow.id.in_(pushed)),
                                (RoomRow.status == "finished") & RoomRow.id.in_(list(ended)),
                            )
                        )
                    )
                ).all()
                seats: dict[int, list[SeatRow]] = {}
                if rows:
                    for seat in (
                        await session.execute(
                            select(SeatRow).where(SeatRow.room_id.in_([r.id for r, _ in rows]))
                        )
                    ).scalars():
                        seats.setdefault(seat.room_id, []).append(seat)
                return list(rows), seats

        rows: list[Any] = []
        seats: dict[int, list[SeatRow]] = {}
        for found, held in await asyncio.gather(*(of(db) for db in dbs)):
            rows += found
            seats.update(held)
        if not rows:
            return 0
        return await self._add_for(rows, seats, ended)

    async def _add_for(
        self,
        rows: Sequence[Any],
        seats: dict[int, list[SeatRow]],
        finished_at: dict[int, float],
    ) -> int:
        """Write the notifications of these (room, match) rows; how many it looked at."""
        ids = [room.id for room, _ in rows]
        targets = await self._read_targets(ids)
        notes: list[NewNotification] = []
        for room, match in rows:
            facts = _facts_of_rows(room, match, seats.get(room.id, []))
            if facts is None:
                continue
            found = targets.get(room.id, Targets())
            if facts.winners is not None:
                # An end post only to webhooks made before the match ended.
                ended = finished_at.get(room.id, 0.0)
                found = Targets((), tuple(h for h in found.hooks if h.created_at <= ended))
            notes.extend(notes_for(facts, found))
        await self.outbox.add(notes)
        return len(rows)


def _facts_of_rows(room: RoomRow, match: MatchRow, seats: list[SeatRow]) -> MatchFacts | None:
    try:
        game = registry.get(room.game_id)
    except Exception:
        return None
    winners: tuple[int, ...] | None = None
    if match.finished:
        result = game.result(game.load(match.snapshot))
        winners = tuple(result.winners) if result is not None else ()
    owing = match.owing_since or [None] * match.players
    return MatchFacts(
        room_id=room.id,
        code=room.code,
        title=game.title,
        names=tuple(seat_names(seats, match.players)),
        people=frozenset(s.seat for s in seats if s.bot_level is None and not s.away),
        match_id=match.id,
        owing=tuple(owing),
        turn_seconds=room.turn_seconds,
        winners=winners,
    )
