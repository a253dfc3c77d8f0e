"""Changes to what a worker's copy of a *started* room holds (a seat's token, a seat's name)
reach every worker, not only those with sockets in the room.

A room's own channel ("room" on ``room:{code}``) is heard only where sockets are open in it:
before the start that is enough, since a room copy without a match is let go within seconds
(``Tables.release_idle``). A started room's copy stays as long as its match, in any worker that
served its moves over HTTP or ran its bots, and it keeps trusting the seat tokens it read. So a
change after the start (a profile taking her seat on another device, a deleted profile's name)
is also said once on ``rooms``, which every worker hears from its start, and each drops its
copies of that room; the next look reads it.
"""

from __future__ import annotations

import asyncio
import contextlib

from app.bus import Bus, Subscription
from app.rooms.keys import room_channel
from app.rooms.tables import Tables

ROOMS_CHANNEL = "rooms"


class RoomChanges:
    def __init__(self, bus: Bus, tables: Tables) -> None:
        self.bus = bus
        self.tables = tables
        self._subscription: Subscription | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._subscription = await self.bus.subscribe(ROOMS_CHANNEL)
        self._reader = asyncio.create_task(self._read(self._subscription), name="room-changes")
        # Messages lost while Redis was away may have said any room changed.
        self.bus.on_reconnect(self.tables.forget_all)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self._subscription is not None:
            self._subscription.close()

    async def announce(self, code: str) -> None:
        """The room's seats changed in the database (committed): every worker drops its copies
        and every page of the room redraws (the hub looks each socket's seat up again, so a
        socket whose token no longer holds a seat is closed as a bad token)."""
        self.tables.room_changed(code)
        await self.bus.publish(ROOMS_CHANNEL, {"type": "room", "code": code})
        await self.bus.publish(room_channel(code), {"type": "room"})

    async def _read(self, subscription: Subscription) -> None:
        while True:
            message = await subscription.get()
            code = message.get("code")
            if isinstance(code, str):
                self.tables.room_changed(code)
