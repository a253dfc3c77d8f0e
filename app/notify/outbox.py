"""The outbox: notifications waiting to be sent, and the dispatcher that sends them.

Rows are written once by key (``add``: INSERT … ON CONFLICT DO NOTHING), so the reaction
after a commit and the sweep after a crash may both write the same notification. Every worker
runs a dispatcher: it claims due rows (``claimed_until`` moved forward in one guarded UPDATE,
so two workers never hold the same row), hands each to the sender of its channel, and records
the outcome. A worker killed mid-send leaves its claim to run out; the row is then sent again
by whoever claims it next — the one way a notification can go out twice, and only when a
worker dies between a receiver's answer and the row's update.

Sending never blocks a move: the move path only schedules the reaction that writes rows;
senders run here, at most ``concurrency`` at a time, each with its own time-out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Sequence

from sqlalchemy import select, update

from app.clock import Clock
from app.notify.records import (
    Gone,
    NewNotification,
    Notification,
    Outcome,
    Refused,
    Retry,
    Sender,
    Sent,
    Skip,
)
from app.store.database import Database, insert_ignoring
from app.store.models import MatchRow, NotificationRow
from app.store.room_shards import RoomDatabases

log = logging.getLogger(__name__)

# How long a claim holds a row: longer than any sender's time-out.
LEASE_SECONDS = 60.0
BATCH = 50
# Kinds that speak of one seat's decision: not sent once that seat no longer owes it.
OWED_KINDS = frozenset({"turn", "reminder"})


class Outbox:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        senders: Iterable[Sender],
        *,
        sweep_seconds: float = 1.0,
        backoff: Sequence[float] = (5.0, 30.0, 120.0, 600.0, 1800.0),
        concurrency: int = 8,
        rooms: RoomDatabases | None = None,
    ) -> None:
        self.db = db
        # Where matches are when room databases are listed (the outbox stays in ``db``).
        self.rooms = rooms if rooms is not None and rooms.sharded else None
        self.clock = clock
        self.senders = {s.channel: s for s in senders}
        self.sweep_seconds = sweep_seconds
        # The waits after each failed try; one more failure after the last gives up.
        self.backoff = tuple(backoff)
        self.concurrency = concurrency
        self._wake = asyncio.Event()
        self._loop_task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._slots = asyncio.Semaphore(concurrency)

    # -- writing ---------------------------------------------------------------------------------

    async def add(self, notes: Sequence[NewNotification]) -> None:
        """Write ``notes``, each once by its key (a key already written is left as it is)."""
        if not notes:
            return
        # In key order: two writers of overlapping rows (a reaction and a sweep, two workers)
        # then take the keys' locks in one order, and never deadlock on PostgreSQL.
        notes = sorted(notes, key=lambda n: n.key)
        now = self.clock.now()
        async with self.db.write() as session:
            await session.execute(
                insert_ignoring(self.db.dialect, NotificationRow),
                [
                    {
                        "key": n.key,
                        "channel": n.channel,
                        "target": n.target,
                        "room_id": n.room_id,
                        "payload": n.payload,
                        "send_after": n.send_after,
                        "claimed_until": 0.0,
                        "attempts": 0,
                        "done": False,
                        "created_at": now,
                    }
                    for n in notes
                ],
            )
        if any(n.send_after <= now for n in notes):
            self._wake.set()

    # -- sending -----------------------------------------------------------------------------

    async def start(self) -> None:
        for sender in self.senders.values():
            await sender.start()
        self._loop_task = asyncio.create_task(self._run(), name="notify-outbox")

    async def close(self) -> None:
        tasks = [*self._sending]
        if self._loop_task is not None:
            tasks.append(self._loop_task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for sender in self.senders.values():
            with contextlib.suppress(Exception):
                await sender.close()

    async def _run(self) -> None:
        while True:
            try:
                claimed = await self.claim_due()
                for note in claimed:
                    await self._slots.acquire()
                    task = asyncio.create_task(self._send(note), name=f"notify:{note.id}")
                    self._sending.add(task)
                    task.add_done_callback(self._sending.discard)
                if len(claimed) == BATCH:
                    continue  # more are due: no wait
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the notification dispatcher failed; trying again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.sweep_seconds)
            self._wake.clear()

    async def claim_due(self, limit: int = BATCH) -> list[Notification]:
        """Claim up to ``limit`` rows due now that nobody holds (this worker holds them for
        ``LEASE_SECONDS``)."""
        now = self.clock.now()
        # One statement: the rows are picked and claimed together, and on PostgreSQL a row
        # another worker is claiming this instant is skipped rather than waited for (two
        # claims of overlapping rows in different orders would deadlock).
        due = (
            select(NotificationRow.id)
            .where(
                NotificationRow.done.is_(False),
                NotificationRow.send_after <= now,
                NotificationRow.claimed_until <= now,
                NotificationRow.channel.in_(list(self.senders)),
            )
            .order_by(NotificationRow.send_after)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        async with self.db.write() as session:
            rows = (
                await session.execute(
                    update(NotificationRow)
                    .where(NotificationRow.id.in_(due.scalar_subquery()))
                    .values(claimed_until=now + LEASE_SECONDS)
                    .returning(
                        NotificationRow.id,
                        NotificationRow.key,
                        NotificationRow.channel,
                        NotificationRow.target,
                        NotificationRow.room_id,
                        NotificationRow.payload,
                        NotificationRow.attempts,
                    )
                )
            ).all()
        return [Notification(*row) for row in rows]

    async def _send(self, note: Notification) -> None:
        try:
            outcome = await self._outcome(note)
            await self._record(note, outcome)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("notification %s could not be sent", note.key)
            with contextlib.suppress(Exception):
                await self._record(note, Retry("internal error"))
        finally:
            self._slots.release()

    async def _outcome(self, note: Notification) -> Outcome:
        if not await self._still_owed(note):
            return Skip("no longer owed")
        sender = self.senders[note.channel]
        return await sender.send(note)

    async def _still_owed(self, note: Notification) -> bool:
        """A turn or a reminder is sent only while its seat still owes the decision it speaks
        of (the clock's start it was written for)."""
        payload = note.payload
        if payload.get("kind") not in OWED_KINDS or "seat" not in payload:
            return True
        match_id = payload.get("match")
        matches = self.db
        if self.rooms is not None:
            if not isinstance(match_id, int):
                return False
            matches = self.rooms.of(match_id)
        async with matches.readers() as session:
            found = (
                await session.execute(
                    select(MatchRow.owing_since, MatchRow.finished).where(
                        MatchRow.id == payload.get("match")
                    )
                )
            ).first()
        if found is None or found.finished or found.owing_since is None:
            return False
        seat = payload["seat"]
        owing = list(found.owing_since)
        since = owing[seat] if isinstance(seat, int) and 0 <= seat < len(owing) else None
        return since is not None and since_key(since) == since_key(payload.get("since"))

    async def _record(self, note: Notification, outcome: Outcome) -> None:
        now = self.clock.now()
        attempts = note.attempts + 1
        values: dict[str, object] = {"attempts": attempts, "claimed_until": 0.0}
        if isinstance(outcome, Sent):
            values |= {"done": True, "outcome": "sent", "sent_at": now, "last_error": None}
        elif isinstance(outcome, Skip):
            values |= {"done": True, "outcome": "skipped", "last_error": outcome.reason[:300]}
        elif isinstance(outcome, Gone):
            values |= {"done": True, "outcome": "gone", "last_error": outcome.error[:300]}
        elif isinstance(outcome, Refused) or attempts > len(self.backoff):
            values |= {"done": True, "outcome": "failed", "last_error": outcome.error[:300]}
        else:
            wait = self.backoff[attempts - 1]
            if outcome.after is not None:
                wait = max(wait, min(outcome.after, 3600.0))
            values |= {"send_after": now + wait, "last_error": outcome.error[:300]}
        async with self.db.write() as session:
            await session.execute(
                update(NotificationRow).where(NotificationRow.id == note.id).values(**values)
            )


def since_key(since: object) -> int | None:
    """A clock's start as the notification keys write it (milliseconds)."""
    return round(float(since) * 1000) if isinstance(since, int | float) else None
