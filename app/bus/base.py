"""The ``Bus`` protocol every implementation follows."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

Message = dict[str, Any]

# A worker's presence entry is trusted this long without a refresh (a killed worker's
# sockets stop counting after this).
PRESENCE_TTL = 30.0
PRESENCE_REFRESH = 10.0


class Subscription:
    """Messages of one channel for one local listener, in order. Iterate, then ``close()``."""

    def __init__(self, channel: str, on_close: Callable[[Subscription], None]) -> None:
        self.channel = channel
        self._queue: asyncio.Queue[Message] = asyncio.Queue()
        self._on_close = on_close

    def deliver(self, message: Message) -> None:
        self._queue.put_nowait(message)

    async def get(self) -> Message:
        return await self._queue.get()

    def __aiter__(self) -> AsyncIterator[Message]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Message]:
        while True:
            yield await self._queue.get()

    def close(self) -> None:
        self._on_close(self)


class Bus(Protocol):
    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def publish(self, channel: str, message: Message) -> None:
        """Deliver ``message`` (JSON-ready, no secrets) to every subscriber in every worker."""
        ...

    async def subscribe(self, channel: str) -> Subscription: ...

    async def set_presence(self, room: str, worker: str, entry: dict[str, Any]) -> None:
        """Record what ``worker`` holds open in ``room`` (``{}`` removes it)."""
        ...

    async def presence(self, room: str) -> list[dict[str, Any]]:
        """The live presence entries of every worker for ``room``."""
        ...

    def on_reconnect(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` when the bus comes back after losing its server (messages may
        have been lost meanwhile: every socket should re-sync)."""
        ...
