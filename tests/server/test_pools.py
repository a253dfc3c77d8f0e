"""How many PostgreSQL connections a worker holds (app/store/db.py ``PoolSizes``): never more
than its pools allow, even when many matches play and end at once (their recordings queue for
a connection instead of opening more), and every one of those matches is still recorded.

(A pooled connection PostgreSQL closed is replaced at checkout without a round trip:
tests/server/test_hardening_outage.py cuts them under a running server.)
"""

from __future__ import annotations

import asyncio
import os
import random

import httpx
import pytest

from app.settings import Settings
from tests.server.conftest import PG_URL
from tests.support.client import TIMEOUT, Client, open_room
from tests.support.server import ThreadServer
from tests.support.table import at_table, play_to_end


def _our_postgres_connections() -> int:
    """TCP connections of this process to PostgreSQL's port 5432 (the in-process server's)."""
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                # remote port 5432 (hex 1538), state 01: established
                if fields[9] in inodes and fields[2].endswith(":1538") and fields[3] == "01":
                    count += 1
    return count


async def _play(url: str, seed: int) -> str:
    code, players = await open_room(url, "test-guess", ["A", "B", "C"], options={"rounds": 2})
    spectator = Client(url)
    async with at_table(code, [*players, spectator]):
        # A fresh HTTP connection: the host's may have idled past the server's keep-alive
        # while forty sockets connected on a loaded machine (and race its closing).
        headers = players[0].http.headers
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=TIMEOUT) as http:
            assert (await http.post(f"/api/rooms/{code}/start")).status_code == 200
        await play_to_end(players, spectator, random.Random(seed))
    return code


async def _recorded(url: str, code: str) -> bool:
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as http:
        for _ in range(600):
            answer = await http.get(f"/api/rooms/{code}/results")
            assert answer.status_code == 200, answer.text
            if answer.json()["recorded"]:
                return True
            await asyncio.sleep(0.05)
    return False


@pytest.mark.postgres
async def test_a_worker_stays_within_its_pools_and_records_every_match(pg_schema: str) -> None:
    sizes = {"db_pool_size": 2, "db_pool_overflow": 1, "move_pool_size": 2}
    settings = Settings(
        database_url=PG_URL,
        database_schema=pg_schema,
        bot_delay=0,
        migrate_on_start=False,
        rooms_burst=0,
        sockets_per_client=0,
        # Only the move that ends a match records it: no sweep picks up what it dropped.
        results_sweep_seconds=3600,
        **sizes,
    )
    most = 0
    playing = True

    async def sample() -> None:
        nonlocal most
        while playing:
            most = max(most, _our_postgres_connections())
            await asyncio.sleep(0.01)

    with ThreadServer(settings) as server:
        sampler = asyncio.create_task(sample())
        try:
            codes = await asyncio.gather(*(_play(server.url, seed) for seed in range(10)))
            recorded = await asyncio.gather(*(_recorded(server.url, code) for code in codes))
        finally:
            playing = False
            await sampler
    assert recorded == [True] * len(codes)
    assert 0 < most <= sum(sizes.values())


def test_pool_sizes_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COVEN_DB_POOL_SIZE", "3")
    monkeypatch.setenv("COVEN_DB_POOL_OVERFLOW", "4")
    monkeypatch.setenv("COVEN_MOVE_POOL_SIZE", "5")
    settings = Settings.from_env()
    assert (settings.db_pool_size, settings.db_pool_overflow, settings.move_pool_size) == (3, 4, 5)
