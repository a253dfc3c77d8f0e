"""The in-process bus: one worker, no network. The default."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from app.bus.base import Message, Subscription


class MemoryBus:
    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscription]] = defaultdict(set)
        self._presence: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        self._subscribers.clear()

    async def publish(self, channel: str, message: Message) -> None:
        for sub in list(self._subscribers.get(channel, ())):
            sub.deliver(message)

    async def subscribe(self, channel: str) -> Subscription:
        sub = Subscription(channel, self._unsubscribe)
        self._subscribers[channel].add(sub)
        return sub

    def _unsubscribe(self, sub: Subscription) -> None:
        subs = self._subscribers.get(sub.channel)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subscribers[sub.channel]

    async def set_presence(self, room: str, worker: str, entry: dict[str, Any]) -> None:
        if entry:
            self._presence[room][worker] = entry
        else:
            self._presence[room].pop(worker, None)
            if not self._presence[room]:
                del self._presence[room]

    async def presence(self, room: str) -> list[dict[str, Any]]:
        return list(self._presence.get(room, {}).values())

    def on_reconnect(self, callback: Callable[[], None]) -> None:
        return None  # in-process: never lost
