"""What the tests of several workers share: a table split across two workers, and a listener
on a room's bus channel."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import redis.asyncio as redis

from tests.support.client import Client
from tests.support.server import ProcessServer


def split_table(
    a: ProcessServer, b: ProcessServer, seated: list[Client]
) -> tuple[list[Client], Client]:
    """Three seated players and a spectator across two workers: seats 0 and 2 play through
    ``a``, seat 1 through ``b``; the spectator watches on ``b``."""
    players = [
        Client(a.url, seated[0].token, 0),
        Client(b.url, seated[1].token, 1),
        Client(a.url, seated[2].token, 2),
    ]
    return players, Client(b.url)


async def listen(
    url: str, channel: str, into: list[dict[str, Any]], subscribed: asyncio.Event
) -> None:
    """Every message published on ``channel`` (plain pub/sub), decoded, into ``into``;
    ``subscribed`` is set once Redis confirmed the subscription (nothing published from then
    on is missed)."""
    client = redis.Redis.from_url(url, decode_responses=True)
    pubsub = client.pubsub()
    await pubsub.subscribe(channel)
    try:
        while True:
            message = await pubsub.get_message(timeout=1.0)
            if message is None:
                continue
            if message["type"] == "subscribe":
                subscribed.set()
            elif message["type"] == "message":
                into.append(json.loads(message["data"]))
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call]
        await client.aclose()
