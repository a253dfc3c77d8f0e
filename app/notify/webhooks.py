"""Webhooks to group chats (being built): formats, the sender."""

from __future__ import annotations

from app.clock import Clock
from app.notify.records import Notification, Outcome, Retry
from app.settings import Settings
from app.store.database import Database


class WebhookSender:
    channel = "webhook"

    def __init__(self, db: Database, settings: Settings, clock: Clock) -> None:
        self.db = db
        self.settings = settings
        self.clock = clock

    async def start(self) -> None:
        return None

    async def send(self, note: Notification) -> Outcome:
        return Retry("webhooks are not built yet")

    async def close(self) -> None:
        return None
