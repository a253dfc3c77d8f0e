"""Pub/sub between workers: "room X is at version N", public events and presence, never a
seat's secrets. ``make_bus(settings)`` picks Redis when ``COVEN_REDIS_URL`` is set."""

from __future__ import annotations

from app.bus.base import Bus, Subscription
from app.bus.memory import MemoryBus
from app.settings import Settings


def make_bus(settings: Settings) -> Bus:
    if settings.redis_url:
        from app.bus.redis import RedisBus

        return RedisBus(settings.redis_url)
    return MemoryBus()


__all__ = ["Bus", "MemoryBus", "Subscription", "make_bus"]
