"""The Redis bus on sharded pub/sub (``COVEN_REDIS_SHARDED=1``): room channels go through
SPUBLISH / SSUBSCRIBE, the lobby's channel stays plain, and two workers play as they do on
the plain bus (the outage test of tests/server/test_hardening_outage.py runs here again,
sharded)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
import redis.asyncio as redis

from app.bus.redis import RedisBus
from tests.server.conftest import worker_env
from tests.server.test_hardening_outage import (
    PrivateRedis,
    private_redis,
    test_redis_stopped_and_restarted_mid_match,
)
from tests.support.client import open_room
from tests.support.server import ProcessServer, two_process_servers
from tests.support.table import play_to_end
from tests.support.workers import split_table

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

# Collected here too, with this module's (sharded) ``two_workers``.
__all__ = ["private_redis", "test_redis_stopped_and_restarted_mid_match"]


@pytest.fixture
def two_workers(
    pg_schema: str, private_redis: PrivateRedis
) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    with two_process_servers(
        worker_env(pg_schema, private_redis.url, COVEN_REDIS_SHARDED="1")
    ) as pair:
        yield pair


async def _until(condition: Any, what: str, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def test_room_channels_are_sharded_and_the_lobby_plain(redis_url: str) -> None:
    one = RedisBus(redis_url, "room:")
    other = RedisBus(redis_url, "room:")
    probe = redis.Redis.from_url(redis_url, decode_responses=True)
    channel = f"room:SHARD{random.randrange(10**9)}"
    lobby = f"lobby-{random.randrange(10**9)}"
    await one.start()
    await other.start()
    try:
        room_sub = await other.subscribe(channel)
        lobby_sub = await other.subscribe(lobby)
        # Redis counts the room channel among the sharded subscriptions only.
        assert await _shard_subscribers(probe, channel) == 1
        assert dict(await probe.pubsub_numsub(channel)) == {channel: 0}
        assert dict(await probe.pubsub_numsub(lobby)) == {lobby: 1}

        await one.publish(channel, {"type": "version", "version": 1})
        await one.publish(lobby, {"type": "room", "code": "X"})
        got = await asyncio.wait_for(room_sub.get(), 10)
        assert got == {"type": "version", "version": 1}
        assert await asyncio.wait_for(lobby_sub.get(), 10) == {"type": "room", "code": "X"}

        # A plain SUBSCRIBE to the room channel hears nothing: the bus really used SPUBLISH.
        plain = probe.pubsub()
        await plain.subscribe(channel)
        sharded = probe.pubsub()
        await sharded.ssubscribe(channel)
        for listener in (plain, sharded):
            await asyncio.wait_for(_confirmed(listener), 10)
        await one.publish(channel, {"type": "version", "version": 2})
        assert await asyncio.wait_for(room_sub.get(), 10) == {"type": "version", "version": 2}
        heard = await asyncio.wait_for(_next_message(sharded), 10)
        assert heard["type"] == "smessage"
        assert json.loads(heard["data"])["version"] == 2
        assert await plain.get_message(timeout=0.5) is None
        await plain.aclose()
        await sharded.aclose()

        # The last local listener gone, the worker leaves the sharded channel.
        room_sub.close()

        async def left() -> bool:
            return await _shard_subscribers(probe, channel) == 0

        await _until(left, "SUNSUBSCRIBE")
    finally:
        await one.close()
        await other.close()
        await probe.aclose()


async def _shard_subscribers(probe: redis.Redis, channel: str) -> int:
    name, count = await probe.execute_command("PUBSUB", "SHARDNUMSUB", channel)  # type: ignore[no-untyped-call]
    assert name == channel
    return int(count)


async def _confirmed(pubsub: Any) -> None:
    while True:
        message = await pubsub.get_message(timeout=1.0)
        if message is not None and message["type"] in ("subscribe", "ssubscribe"):
            return


async def _next_message(pubsub: Any) -> dict[str, Any]:
    while True:
        message = await pubsub.get_message(timeout=1.0)
        if message is not None and message["type"] in ("message", "smessage"):
            return dict(message)


async def test_two_sharded_workers_share_one_table(
    two_workers: tuple[ProcessServer, ProcessServer], private_redis: PrivateRedis
) -> None:
    a, b = two_workers
    code, seated = await open_room(a.url, "whirling-witchcraft", ["Agnes", "Brigid", "Circe"])
    players, spectator = split_table(a, b, seated)
    probe = redis.Redis.from_url(private_redis.url, decode_responses=True)
    listener = probe.pubsub()
    await listener.ssubscribe(f"room:{code}")
    await asyncio.wait_for(_confirmed(listener), 10)
    announced: list[dict[str, Any]] = []

    async def record() -> None:
        while True:
            announced.append(json.loads((await _next_message(listener))["data"]))

    recorder = asyncio.create_task(record())
    try:
        for client in [*players, spectator]:
            await client.connect(code)

        async def both_listen() -> bool:
            # Worker A, worker B and this test.
            return await _shard_subscribers(probe, f"room:{code}") == 3

        await _until(both_listen, "both workers on the sharded room channel")
        assert (await players[0].http.post(f"/api/rooms/{code}/start")).status_code == 200
        final = await play_to_end(players, spectator, random.Random(11))
        assert final["result"] is not None
        # The spectator on B saw every action, whichever worker committed it.
        log = (await spectator.http.get(f"/api/rooms/{code}/log")).json()
        seen = [e for m in spectator.messages if m["type"] == "state" for e in m["events"]]
        assert seen == [{k: v for k, v in e.items() if k != "version"} for e in log["events"]]

        async def all_announced() -> bool:
            versions = sorted(m["version"] for m in announced if m["type"] == "version")
            # Match versions (every action, private steps too), not the spectator's own.
            return versions == list(range(0, len(log["replay"]["actions"]) + 1))

        await _until(all_announced, "every version on the sharded channel once")
        for message in announced:
            assert not {"view", "legal", "state", "snapshot", "token"} & message.keys()
    finally:
        recorder.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await recorder
        await listener.aclose()
        await probe.aclose()
        for client in [*players, spectator]:
            await client.close()
