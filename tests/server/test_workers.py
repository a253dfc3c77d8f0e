"""Two app instances in separate processes sharing PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
import redis.asyncio as redis

from tests.server.conftest import PG_URL
from tests.support.client import Client, open_room
from tests.support.server import ProcessServer
from tests.support.table import play_to_end

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def two_workers(pg_schema: str, redis_url: str) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    env = {
        "COVEN_DATABASE_URL": PG_URL,
        "COVEN_DATABASE_SCHEMA": pg_schema,
        "COVEN_REDIS_URL": redis_url,
        "COVEN_BOT_DELAY": "0",
        "COVEN_MIGRATE_ON_START": "0",
    }
    a = ProcessServer(env)
    b = ProcessServer(env)
    try:
        a.start()
        b.start()
        yield a, b
    finally:
        a.stop()
        b.stop()


async def listen(
    url: str, channel: str, into: list[dict[str, Any]], subscribed: asyncio.Event
) -> None:
    client = redis.Redis.from_url(url, decode_responses=True)
    pubsub = client.pubsub()
    await pubsub.subscribe(channel)
    try:
        while True:
            message = await pubsub.get_message(timeout=1.0)
            if message is None:
                continue
            if message["type"] == "subscribe":
                subscribed.set()  # Redis confirmed: nothing published from now on is missed
            elif message["type"] == "message":
                into.append(json.loads(message["data"]))
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call]
        await client.aclose()


@pytest.mark.parametrize("game", ["whirling-witchcraft", "test-guess"])
async def test_two_workers_share_one_table(
    two_workers: tuple[ProcessServer, ProcessServer], redis_url: str, game: str
) -> None:
    a, b = two_workers
    code, seated = await open_room(a.url, game, ["Agnes", "Brigid", "Circe"])
    # Seats 0 and 2 play through A, seat 1 through B; the spectator watches on B.
    players = [
        Client(a.url, seated[0].token, 0),
        Client(b.url, seated[1].token, 1),
        Client(a.url, seated[2].token, 2),
    ]
    spectator = Client(b.url)
    bus: list[dict[str, Any]] = []
    subscribed = asyncio.Event()
    listener = asyncio.create_task(listen(redis_url, f"room:{code}", bus, subscribed))
    await asyncio.wait_for(subscribed.wait(), 10)
    for client in [*players, spectator]:
        await client.connect(code)
    # Presence agrees across workers: B's room page shows A's sockets too.
    await spectator.until(
        lambda: any(
            m["type"] == "presence" and all(s["connected"] for s in m["seats"])
            for m in spectator.messages
        ),
        timeout=25,  # a dropped notice is mended by the next presence refresh (10 s)
        what="presence from both workers",
    )
    assert (await players[0].http.post(f"/api/rooms/{code}/start")).status_code == 200

    final = await play_to_end(players, spectator, random.Random(11))
    assert final["result"] is not None

    # The spectator on B saw every action submitted anywhere: its events are the public log.
    log = (await spectator.http.get(f"/api/rooms/{code}/log")).json()
    seen = [e for m in spectator.messages if m["type"] == "state" for e in m["events"]]
    assert seen == [{k: v for k, v in e.items() if k != "version"} for e in log["events"]]

    # The bus carried versions, public events and presence, never a view or a secret.
    listener.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await listener
    # Every version announced once; two workers' announcements may cross on the way.
    versions = [m["version"] for m in bus if m["type"] == "version"]
    assert sorted(versions) == list(range(0, final["version"] + 1))
    for message in bus:
        assert not {"view", "legal", "state", "snapshot", "token"} & message.keys()
        assert all("@to" not in e for e in message.get("events", []))
    for client in [*players, spectator]:
        await client.close()
