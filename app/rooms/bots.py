"""The bot runner: plays bot seats, and seats whose turn clock ran out, through RoomService.

One small task per room in this worker, woken after every local commit and by a periodic
sweep (which also covers matches another worker left mid-turn, and a restarted server).
With several workers two runners may play the same turn: the bot's choice and client_id are
deterministic in (match, seat, version), so the second submission is a harmless duplicate.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from app.errors import CovenError
from app.rooms.service import RoomService, room_channel
from app.settings import Settings

log = logging.getLogger(__name__)


class BotRunner:
    def __init__(self, service: RoomService, settings: Settings) -> None:
        self.service = service
        self.delay = settings.bot_delay
        self.sweep_seconds = settings.sweep_seconds
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._wake: dict[str, asyncio.Event] = {}
        self._fresh: set[str] = set()
        self._sweeper: asyncio.Task[None] | None = None
        service.on_change.append(self.kick)

    async def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep(), name="bot-sweep")

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()

    def kick(self, code: str, fresh: bool = False) -> None:
        """Look at ``code`` soon; ``fresh`` reads the database rather than this worker's copy
        (another worker may have moved the match)."""
        if fresh:
            self._fresh.add(code)
        task = self._tasks.get(code)
        if task is not None and not task.done():
            self._wake[code].set()
            return
        self._wake[code] = asyncio.Event()
        self._tasks[code] = asyncio.create_task(self._run(code), name=f"bots:{code}")

    async def _sweep(self) -> None:
        while True:
            try:
                for code in await self.service.repo.rooms_needing_bots():
                    self.kick(code, fresh=True)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot sweep failed")
            await asyncio.sleep(self.sweep_seconds)

    async def _run(self, code: str) -> None:
        wake = self._wake[code]
        try:
            while True:
                wake.clear()
                wait = await self._play_once(code)
                if wait is None:
                    return
                if wait > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), wait)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot runner failed in room %s", code)
        finally:
            if self._tasks.get(code) is asyncio.current_task():
                del self._tasks[code]
                self._wake.pop(code, None)

    async def _play_once(self, code: str) -> float | None:
        """Play what is owed now; return how long to wait before looking again (``None``:
        nothing will fall due without a new commit)."""
        table = self.service.cached(code)
        if code in self._fresh:
            self._fresh.discard(code)
            self.service.room_changed(code)  # away flags may have moved in another worker
            table = None
        try:
            table = table or await self.service.table(code)
        except CovenError:
            return None
        room = table.room
        if table.result is not None or not (
            room.turn_seconds or any(s.bot_level or s.away for s in room.seats)
        ):
            return None
        due = []
        deadline: float | None = None
        for seat in sorted(table.to_move):
            record = room.seat(seat)
            if record is None:
                continue
            if record.bot_level is not None or record.away:
                due.append((seat, record.bot_level or "random"))
            elif room.turn_seconds:
                ends = table.match.stage_since + room.turn_seconds
                if ends <= time.time():
                    # Time ran out: mark the seat away; a bot plays for it until the player
                    # acts again.
                    await self.service.repo.set_away(room.id, seat, True)
                    await self.service.bus.publish(room_channel(code), {"type": "room"})
                    self.service.forget(code)
                    return 0
                deadline = ends if deadline is None else min(deadline, ends)
        if due:
            if self.delay > 0:
                await asyncio.sleep(self.delay)
            for seat, level in due:
                try:
                    await self.service.bot_act(code, table, seat, level)
                except CovenError as exc:
                    # Somebody else moved first (another worker, the player coming back).
                    log.debug("bot seat %s in %s: %s", seat, code, exc.code)
            return 0
        if deadline is not None:
            return max(0.05, deadline - time.time())
        return None
