"""A burst of Redis calls on one worker (a few hundred sockets joining at once, each setting its
presence) waits for the worker's pooled connections: none fails as "Too many connections", the
bus is not taken for down, and the moves published meanwhile reach the other workers. Before,
such a burst dropped them, and the other workers' sockets waited for versions that never came.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from app.bus import redis as redis_bus
from app.bus.redis import RedisBus

pytestmark = pytest.mark.redis


async def test_a_burst_of_presence_waits_for_connections_and_loses_no_move(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_bus, "POOL_SIZE", 6)  # a burst far larger than the pool
    one, other = RedisBus(redis_url), RedisBus(redis_url)
    room = f"BURST{random.randrange(10**9)}"
    channel = f"room:{room}"
    await one.start()
    await other.start()
    try:
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
    finally:
        await one.close()
        await other.close()
