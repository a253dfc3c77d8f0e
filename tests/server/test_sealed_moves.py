"""Two workers (PostgreSQL + Redis): a committed move reaches the other worker sealed in its
``version`` message. Redis sees ciphertext only; the key is the one in the database's
``server_keys``; the other worker's sockets still get every state and event."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from prometheus_client.parser import text_string_to_metric_families

from tests.server.conftest import PG_URL, worker_env
from tests.support.client import open_room
from tests.support.server import ProcessServer, two_process_servers
from tests.support.table import play_to_end, played
from tests.support.workers import listen, split_table

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


async def stored_key(schema: str) -> bytes:
    conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        value = await conn.fetchval(
            f'SELECT value FROM "{schema}".server_keys WHERE name = $1', "bus-seal"
        )
    finally:
        await conn.close()
    assert isinstance(value, str), "the first move made the key"
    return base64.b64decode(value)


def unseal(key: bytes, code: str, text: str) -> dict[str, Any]:
    raw = base64.b64decode(text)
    opened: dict[str, Any] = json.loads(AESGCM(key).decrypt(raw[:12], raw[12:], code.encode()))
    return opened


async def test_moves_cross_the_bus_sealed_and_replay_on_the_other_worker(
    two_workers: tuple[ProcessServer, ProcessServer], redis_url: str, pg_schema: str
) -> None:
    a, b = two_workers
    code, seated = await open_room(a.url, "test-guess", ["Agnes", "Brigid", "Circe"])
    # Seats 0 and 2 play through A, seat 1 through B; the spectator watches on B.
    players, spectator = split_table(a, b, seated)
    bus: list[dict[str, Any]] = []
    subscribed = asyncio.Event()
    listener = asyncio.create_task(listen(redis_url, f"room:{code}", bus, subscribed))
    await asyncio.wait_for(subscribed.wait(), 10)
    for client in [*players, spectator]:
        await client.connect(code)
    assert (await players[0].http.post(f"/api/rooms/{code}/start")).status_code == 200
    final = await play_to_end(players, spectator, random.Random(5))
    assert final["result"] is not None

    # Every worker's sockets saw every action, whichever worker committed it.
    log = (await spectator.http.get(f"/api/rooms/{code}/log")).json()
    seen = [e for m in spectator.messages if m["type"] == "state" for e in m["events"]]
    assert seen == [{k: v for k, v in e.items() if k != "version"} for e in log["events"]]
    actions = {a["version"]: a for a in log["replay"]["actions"]}

    listener.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await listener
    moves = [m for m in bus if m["type"] == "version" and m["version"] > 0]
    assert sorted(m["version"] for m in moves) == list(range(1, len(actions) + 1))
    key = await stored_key(pg_schema)
    for message in moves:
        # Nothing of the move in the clear: only the version, public events and the seal.
        assert set(message) - {"@w"} <= {"type", "version", "events", "move"}
        sealed = message["move"]
        assert "action" not in sealed and "pick" not in sealed
        opened = unseal(key, code, sealed)
        done = actions[message["version"]]
        assert opened["version"] == message["version"]
        assert (opened["seat"], opened["action"]) == (done["seat"], done["action"])
        # Sealed for this room: the same text does not open as another room's.
        with pytest.raises(InvalidTag):
            unseal(key, code + "x", sealed)
        with pytest.raises(InvalidTag):
            unseal(AESGCM.generate_key(bit_length=256), code, sealed)
    for client in [*players, spectator]:
        await client.close()


@pytest.fixture
def two_counting_workers(
    pg_schema: str, redis_url: str
) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    """``two_workers`` with metrics on (each worker scraped on its own)."""
    env = worker_env(pg_schema, redis_url, COVEN_METRICS="1")
    with two_process_servers(env) as workers:
        yield workers


def lost_commits(url: str) -> dict[str, float]:
    text = httpx.get(f"{url}/metrics", timeout=30).text
    return {
        sample.labels["resolved"]: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "coven_lost_commits_total"
    }


async def test_a_move_that_lost_its_commit_replays_the_winners_sealed_move(
    two_counting_workers: tuple[ProcessServer, ProcessServer],
) -> None:
    """Seats of one table on two workers, all picking at once: a worker whose commit another
    worker's beat hears the winner's sealed move, replays it and commits after it — no read
    holding the match row — and every match still ends as the rules say."""
    a, b = two_counting_workers
    for seed in range(3):
        code, seated = await open_room(a.url, "test-guess", ["Agnes", "Brigid", "Circe"])
        players, spectator = split_table(a, b, seated)
        final = await played(code, players, spectator, random.Random(seed))
        assert final["result"] is not None
    counted = [lost_commits(worker.url) for worker in (a, b)]
    replayed = sum(c.get("replayed", 0) for c in counted)
    locked = sum(c.get("locked", 0) for c in counted)
    assert replayed > 0, counted
    # Most races end in a replay: a lock only when the winner's message was not heard in time.
    assert replayed >= locked, counted
