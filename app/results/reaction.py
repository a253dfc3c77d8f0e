"""When a finished match is recorded: right after the move that ended it (the room layer's
notice, in the worker that committed it), and by a sweep that finds finished matches not yet
recorded (``matches.recorded``, set with the result row) — what a worker killed between the two
missed, and matches that ended before history existed. Both go through ``Recorder.record``; the
ledger's primary key makes any number of tries across workers record a match once.

Recording never touches the match: it runs in its own task and transaction, after the move's
commit, and a failure is logged and tried again by a later sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import DBAPIError, IntegrityError

from app.results.finish import match_outcome
from app.results.ledger import Ledger
from app.rooms.notices import Moved
from engine.protocol import Game, IllegalAction

log = logging.getLogger(__name__)

# A match whose recording failed this many times is left alone until the worker restarts (a
# game no longer installed, a snapshot the engine refuses): the sweep must not spin on it.
MAX_FAILURES = 3
SWEEP_BATCH = 20
# How long closing waits for a recording or a sweep in progress.
CLOSE_SECONDS = 5.0
# Recordings in flight at once in one worker. Matches that end together (a tournament round,
# a benchmark's tables) queue here instead of each taking a database connection: a burst
# of 50 used to grow the pool to its limit, paying a new connection (TLS attempt, startup)
# for most of them and holding PostgreSQL backends the moves then lacked.
AT_ONCE = 2


class Recorder:
    def __init__(
        self,
        ledger: Ledger,
        games: Callable[[str], Game],
        sweep_seconds: float,
    ) -> None:
        self.ledger = ledger
        self.games = games
        self.sweep_seconds = sweep_seconds
        self._sweeper: asyncio.Task[None] | None = None
        self._pending: dict[int, asyncio.Task[bool]] = {}
        self._failures: dict[int, int] = {}
        self._stopping = asyncio.Event()
        self._slots = asyncio.Semaphore(AT_ONCE)

    async def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep(), name="results-sweep")

    async def close(self) -> None:
        """Let a recording or a sweep in progress finish (a task cancelled inside a database
        call would leave its connection to the garbage collector), then stop."""
        self._stopping.set()
        tasks: list[asyncio.Task[Any]] = list(self._pending.values())
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        if not tasks:
            return
        _, late = await asyncio.wait(tasks, timeout=CLOSE_SECONDS)
        for task in late:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def after_move(self, moved: Moved) -> None:
        """The room layer's notice of a move committed in this worker (``notices.on_move``):
        the move that ended a match has it recorded now."""
        if moved.finished:
            self.match_finished(moved.table.match.id)

    def match_finished(self, match_id: int) -> None:
        """Record ``match_id`` soon (called in line on the move path: it only schedules)."""
        if match_id in self._pending or self._stopping.is_set():
            return
        task = asyncio.create_task(self.record(match_id), name=f"results:{match_id}")
        self._pending[match_id] = task
        task.add_done_callback(lambda _: self._pending.pop(match_id, None))

    async def record(self, match_id: int) -> bool:
        """Record one finished match; ``True`` if this call wrote it. Never raises for a bad
        match (logged, counted, retried by a later sweep)."""
        async with self._slots:
            return await self._record(match_id)

    async def _record(self, match_id: int) -> bool:
        for attempt in range(2):
            try:
                stored = await self.ledger.load(match_id)
                if stored is None:
                    return False
                outcome = match_outcome(
                    match_id=stored.match_id,
                    room_id=stored.room_id,
                    game=self.games(stored.game_id),
                    snapshot=stored.snapshot,
                    events=stored.events,
                    finished_at=stored.finished_at,
                )
                if outcome is None:
                    return False
                written = await self.ledger.write(outcome)
                self._failures.pop(match_id, None)
                return written is not None
            except asyncio.CancelledError:
                raise
            except (IntegrityError, DBAPIError) as exc:
                # A deadlock victim, a connection lost: read again, once.
                if attempt == 0:
                    log.info("recording match %s: retrying after %s", match_id, type(exc).__name__)
                    continue
                self._failed(match_id)
            except IllegalAction as exc:
                log.warning("match %s cannot be recorded: %s", match_id, exc)
                self._failed(match_id, permanent=True)
            except Exception:
                self._failed(match_id)
                log.exception("recording match %s failed", match_id)
            return False
        return False

    def _failed(self, match_id: int, *, permanent: bool = False) -> None:
        count = MAX_FAILURES if permanent else self._failures.get(match_id, 0) + 1
        self._failures[match_id] = count

    def _given_up(self) -> list[int]:
        return [m for m, n in self._failures.items() if n >= MAX_FAILURES]

    async def sweep_once(self) -> int:
        """Record what is finished and unrecorded now; how many this pass wrote."""
        written = 0
        for match_id in await self.ledger.unrecorded(SWEEP_BATCH, skip=self._given_up()):
            pending = self._pending.get(match_id)
            if pending is not None:
                await asyncio.wait({pending})
                continue
            written += await self.record(match_id)
        return written

    async def _sweep(self) -> None:
        while not self._stopping.is_set():
            try:
                while await self.sweep_once() == SWEEP_BATCH and not self._stopping.is_set():
                    pass  # a backlog (a restart after a long outage): go on at once
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("results sweep failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.sweep_seconds)
