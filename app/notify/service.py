"""``Notify``: the notification machinery of one worker, wired together.

The senders (Web Push, webhooks), the outbox that sends what is due, and the reaction (with
its sweep) that writes what a move calls for. ``app.main`` makes one and starts it; the API
reaches the senders' stores through it.
"""

from __future__ import annotations

from app.bus import Bus
from app.notify.outbox import Outbox
from app.notify.push import PushSender
from app.notify.turns import TurnNotices
from app.notify.webhooks import WebhookSender
from app.rooms.service import RoomService
from app.settings import Settings
from app.store.database import Database
from app.store.room_shards import RoomDatabases


class Notify:
    def __init__(
        self,
        db: Database,
        bus: Bus,
        settings: Settings,
        rooms: RoomService,
        where: RoomDatabases | None = None,
    ) -> None:
        """``where``: the rooms' databases when room databases are listed (subscriptions,
        webhooks and the outbox stay in ``db``)."""
        clock = rooms.clock
        self.push = PushSender(db, bus, settings, clock, where)
        self.webhooks = WebhookSender(db, settings, clock)
        self.outbox = Outbox(
            db,
            clock,
            [self.push, self.webhooks],
            sweep_seconds=settings.notify_sweep_seconds,
            backoff=settings.notify_backoff,
            rooms=where,
        )
        self.turns = TurnNotices(db, self.outbox, rooms.tables, clock, rooms=where)
        self.turns.subscribe(rooms.notices)

    async def start(self) -> None:
        await self.outbox.start()
        await self.turns.start()

    async def close(self) -> None:
        await self.turns.close()
        await self.outbox.close()
