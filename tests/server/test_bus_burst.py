"""A burst of Redis calls on one worker (a few hundred sockets joining at once, each setting its
presence) waits for the worker's pooled connections: none fails as "Too many connections", the
bus is not taken for down, and the moves published meanwhile reach the other workers. Before,
such a burst dropped them, and the other workers' sockets waited for versions that never came.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from app.bus import redis as redis_bus
from app.bus.redis import RedisBus

pytestmark = pytest.mark.redis


@asynccontextmanager
async def two_buses(redis_url: str) -> AsyncIterator[tuple[RedisBus, RedisBus]]:
    """Two workers' buses on one Redis, started for the block and closed after it."""
    one, other = RedisBus(redis_url), RedisBus(redis_url)
    await one.start()
    await other.start()
    try:
        yield one, other
    finally:
        await one.close()
        await other.close()


async def test_a_burst_of_presence_waits_for_connections_and_loses_no_move(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_bus, "POOL_SIZE", 6)  # a burst far larger than the pool
    room = f"BURST{random.randrange(10**9)}"
    channel = f"room:{room}"
    async with two_buses(redis_url) as (one, other):
        theirs = await other.subscribe(channel)
        joins = [
            one.set_presence(room, f"socket-{n}", {"seat": n % 4, "name": f"p{n}"})
            for n in range(300)
        ]
        moves = [one.publish(channel, {"type": "version", "version": v}) for v in range(1, 41)]
        await asyncio.gather(*joins, *moves)
        assert not one.down
        heard = []
        while len(heard) < 40:
            heard.append(await asyncio.wait_for(theirs.get(), 5))
        assert [m["version"] for m in heard] == list(range(1, 41))
        assert len(await other.presence(room)) == 300  # every socket's presence landed


async def test_moves_published_while_the_bus_is_down_reach_the_others_after(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A burst that outgrows the pool at once (no waiting for a connection here) fails some
    calls, and the worker takes Redis for down for a moment. What it publishes meanwhile is not
    lost for the other workers: the latest move of the room goes out once the pause is over
    (they catch up to it from the database)."""
    monkeypatch.setattr(redis_bus, "POOL_SIZE", 2)
    monkeypatch.setattr(redis_bus, "POOL_WAIT", 0.001)
    room = f"DOWN{random.randrange(10**9)}"
    channel = f"room:{room}"
    async with two_buses(redis_url) as (one, other):
        theirs = await other.subscribe(channel)
        await asyncio.gather(
            *(one.set_presence(room, f"socket-{n}", {"seat": 0}) for n in range(50))
        )
        assert one.down  # some of the burst found no connection
        for version in range(1, 6):
            await one.publish(channel, {"type": "version", "version": version})
        heard = await asyncio.wait_for(theirs.get(), 10)
        assert heard == {"type": "version", "version": 5}
        assert not one.down
        await one.publish(channel, {"type": "version", "version": 6})  # and on as before
        assert await asyncio.wait_for(theirs.get(), 5) == {"type": "version", "version": 6}
