"""Pub/sub between workers: "room X is at version N", public events and presence, never a
seat's secrets. ``make_bus(settings)`` picks Redis when ``COVEN_REDIS_URL`` is set."""

from __future__ import annotations

from app.bus.base import Bus, Subscription
from app.bus.memory import MemoryBus
from app.settings import Settings


def make_bus(settings: Settings) -> Bus:
    if settings.redis_url:
        from app.bus.redis import RedisBus

        # Room channels are "room:{code}" (app/rooms/keys.py): sharded when asked.
        return RedisBus(settings.redis_url, "room:" if settings.redis_sharded else None)
    return MemoryBus()


__all__ = ["Bus", "MemoryBus", "Subscription", "make_bus"]
