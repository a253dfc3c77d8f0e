"""Whom a room's turn notifications go to (its push subscriptions and webhooks) is read once
for every room that asks in the same turn of the event loop — a worker whose tables all
started together read each room's apart — and kept a few seconds; each room gets its own."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import event

from app.clock import SystemClock
from app.notify.outbox import Outbox
from app.notify.turns import TurnNotices
from app.rooms.tables import Tables
from app.settings import Settings
from app.store.database import Database
from app.store.db import make_engine, migrate
from app.store.models import WebhookRow
from app.store.repository import Repository
from tests.server.test_notify_outbox import new_room

ROOMS = 12


@pytest.fixture
async def rooms(settings: Settings) -> AsyncIterator[tuple[Settings, list[int]]]:
    if settings.database_url.startswith("sqlite"):
        await asyncio.to_thread(migrate, settings.database_url, None)
    engine = make_engine(settings.database_url, settings.database_schema)
    repo = Repository(engine, settings.database_schema)
    ids = [await new_room(repo) for _ in range(ROOMS)]
    await repo.close()
    yield settings, ids


async def test_rooms_asking_together_are_read_together(
    rooms: tuple[Settings, list[int]],
) -> None:
    settings, ids = rooms
    engine = make_engine(settings.database_url, settings.database_schema)
    db = Database(engine)
    hooked = ids[3]
    async with db.write() as session:
        session.add(
            WebhookRow(
                room_id=hooked,
                url="https://chat.example/hook",
                format="discord",
                lang="en",
                link_base="https://coven.example",
                created_at=time.time(),
            )
        )
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(str(args[2]))

    event.listen(engine.sync_engine, "before_cursor_execute", count)
    repo = Repository(engine, settings.database_schema)
    clock = SystemClock()
    notices = TurnNotices(db, Outbox(db, clock, []), Tables(repo), clock)
    try:
        found = await asyncio.gather(*(notices.targets(room_id) for room_id in ids))
        # One read for the twelve rooms: its three statements (pushes, table and circle hooks).
        assert len(statements) == 3, statements
        assert [bool(t.hooks) for t in found] == [room_id == hooked for room_id in ids]
        assert not any(t.subscriptions for t in found)
        # Kept: asked again at once, nothing is read.
        again = await asyncio.gather(*(notices.targets(room_id) for room_id in ids))
        assert again == found and len(statements) == 3
        # A change of one room's targets: that room alone is read again.
        notices.targets_changed(hooked)
        assert (await notices.targets(hooked)).hooks
        assert len(statements) == 6
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", count)
        await notices.close()
        await repo.close()
