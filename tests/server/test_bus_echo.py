"""The Redis bus hears its own messages back from Redis and drops them unread: each worker's
subscribers get every message once (its own at publish time, the others' through Redis), the
worker's mark never reaches them, and a worker parses only what other workers sent."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
import redis.asyncio as redis

from app import wire
from app.bus import redis as redis_bus
from app.bus.redis import ORIGIN, RedisBus

pytestmark = pytest.mark.redis


async def _drain(sub: Any, seconds: float = 0.5) -> list[Any]:
    got = []
    while True:
        try:
            got.append(await asyncio.wait_for(sub.get(), seconds))
        except TimeoutError:
            return got


async def test_each_worker_hears_every_message_once_and_parses_only_the_others(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[Any] = []
    loads = wire.loads

    def counting_loads(text: str | bytes) -> Any:
        parsed.append(text)
        return loads(text)

    monkeypatch.setattr(redis_bus.wire, "loads", counting_loads)
    one, other = RedisBus(redis_url), RedisBus(redis_url)
    probe = redis.Redis.from_url(redis_url, decode_responses=True)
    channel = f"room:ECHO{random.randrange(10**9)}"
    await one.start()
    await other.start()
    try:
        mine, theirs = await one.subscribe(channel), await other.subscribe(channel)
        for version in range(1, 21):
            await one.publish(channel, {"type": "version", "version": version})
        # Redis keeps one connection's order: once `one` hears `other`'s line, its own 20
        # echoes came back before it.
        await other.publish(channel, {"type": "chat", "text": "last"})
        # An older worker's message (its mark last) still arrives, unmarked.
        await probe.publish(channel, wire.dumps({"type": "chat", "text": "old", ORIGIN: "x"}))
        versions = [{"type": "version", "version": v} for v in range(1, 21)]
        for heard in (await _drain(mine), await _drain(theirs)):
            # One sender's messages in its order, once each; the senders interleave as they may.
            assert [m for m in heard if m["type"] == "version"] == versions
            assert sorted(m["text"] for m in heard if m["type"] == "chat") == ["last", "old"]
            assert len(heard) == 22
        # `one` parsed `other`'s line and the old one; `other` parsed one's 20 and the old one.
        assert len(parsed) == 2 + 21, len(parsed)
    finally:
        await one.close()
        await other.close()
        await probe.aclose()
