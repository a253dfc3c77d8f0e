"""Web Push (being built): VAPID keys kept by the server, a seat's subscriptions, the sender."""

from __future__ import annotations

from app.bus import Bus
from app.clock import Clock
from app.notify.records import Notification, Outcome, Retry
from app.settings import Settings
from app.store.database import Database


class PushSender:
    channel = "push"

    def __init__(self, db: Database, bus: Bus, settings: Settings, clock: Clock) -> None:
        self.db = db
        self.bus = bus
        self.settings = settings
        self.clock = clock

    async def start(self) -> None:
        return None

    async def send(self, note: Notification) -> Outcome:
        return Retry("push is not built yet")

    async def close(self) -> None:
        return None
