"""Issue 11.8: Redis going away degrades, never lies; losing PostgreSQL connections costs a
retry, not a 500.

Two workers over PostgreSQL and a private ``redis-server`` on a free port (started here;
the machine's own Redis is never touched), stopped and restarted mid-match.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import PG_URL, worker_env
from tests.support.client import Client, open_room
from tests.support.server import ProcessServer, ThreadServer, free_port, two_process_servers
from tests.support.table import play_to_end

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


class PrivateRedis:
    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed")
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=self.port, socket_timeout=1).ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def two_workers(
    pg_schema: str, private_redis: PrivateRedis
) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    with two_process_servers(worker_env(pg_schema, private_redis.url)) as pair:
        yield pair


async def test_redis_stopped_and_restarted_mid_match(
    two_workers: tuple[ProcessServer, ProcessServer], private_redis: PrivateRedis
) -> None:
    a, b = two_workers
    code, seated = await open_room(a.url, "test-guess", ["Agnes", "Brigid"], options={"rounds": 4})
    agnes = Client(a.url, seated[0].token, 0)  # plays through worker A
    brigid = Client(b.url, seated[1].token, 1)  # plays through worker B
    watcher = Client(b.url)
    for client in (agnes, brigid, watcher):
        await client.connect(code)
    assert (await agnes.http.post(f"/api/rooms/{code}/start")).status_code == 200
    for client in (agnes, brigid, watcher):
        await client.at_version(0)
    assert (await agnes.act({"type": "pick", "value": 1}, version=0))["type"] == "ack"
    await watcher.at_version(1)

    private_redis.stop()
    # A committed move is acknowledged as committed, over the socket and over HTTP.
    ack = await brigid.act({"type": "pick", "value": 2}, version=1)
    assert ack == {"type": "ack", "client_id": ack["client_id"], "version": 2, "duplicate": False}
    await brigid.at_version(2, timeout=5)  # B's own sockets still hear B's commits
    over_http = await agnes.http.post(
        f"/api/rooms/{code}/actions",
        json={"action": {"type": "call", "guess": "high"}, "client_id": "during-outage"},
    )
    assert over_http.status_code == 200, over_http.text
    assert over_http.json()["version"] == 3
    # Rooms are created, joined, listed and read with no 500 (nor one created behind a 500).
    async with httpx.AsyncClient(base_url=b.url, timeout=10) as http:
        created = await http.post("/api/rooms", json={"game": "test-guess", "name": "Circe"})
        assert created.status_code == 201, created.text
        new_code = created.json()["room"]["code"]
        joined = await http.post(f"/api/rooms/{new_code}/join", json={"name": "Dora"})
        assert joined.status_code == 200, joined.text
        assert (await http.get(f"/api/rooms/{code}")).status_code == 200
        assert (await http.get("/api/rooms")).status_code == 200
        assert (await http.get(f"/api/rooms/{code}/log")).json()["version"] == 3
    late = Client(a.url)
    await late.connect(code)  # a socket opened during the outage works too
    assert (await late.at_version(3, timeout=5))["version"] == 3

    # Worker B's sockets have not heard of A's commit (no bus): they are behind.
    await asyncio.sleep(0.5)
    assert brigid.state is not None and brigid.state["version"] == 2
    assert watcher.state is not None and watcher.state["version"] == 2
    # Redis is back: every socket re-syncs at once, without waiting for the next move.
    private_redis.start()
    for client in (agnes, brigid, watcher, late):
        state = await client.at_version(3, timeout=8)
        assert state["version"] == 3
    # And the match plays on across both workers to the end.
    final = await play_to_end([agnes, brigid], watcher, random.Random(3))
    assert final["result"] is not None
    for client in (agnes, brigid, watcher, late):
        await client.close()


async def test_a_worker_starts_without_redis_and_catches_up_when_it_comes(
    pg_schema: str, tmp_path: Path
) -> None:
    redis_server = PrivateRedis(tmp_path)  # its port, not started yet
    worker = ProcessServer(worker_env(pg_schema, redis_server.url)).start()
    try:
        code, (a, b) = await open_room(worker.url, "test-guess", ["A", "B"])
        for client in (a, b):
            await client.connect(code)
        assert (await a.http.post(f"/api/rooms/{code}/start")).status_code == 200
        assert (await a.act({"type": "pick", "value": 1}))["type"] == "ack"
        await b.at_version(1, timeout=5)
        redis_server.start()
        await asyncio.sleep(1.5)  # the bus reader subscribes
        assert (await b.act({"type": "pick", "value": 2}))["type"] == "ack"
        await a.at_version(2, timeout=5)
        for client in (a, b):
            await client.close()
    finally:
        worker.stop()
        redis_server.stop()


def _our_postgres_ports() -> set[int]:
    """Local ports of this process's TCP connections to PostgreSQL (port 5432)."""
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                local, remote, inode = fields[1], fields[2], fields[9]
                if inode in inodes and remote.endswith(":1538"):  # 5432
                    ports.add(int(local.rsplit(":", 1)[1], 16))
    return ports


async def _terminate_backends(ports: set[int]) -> int:
    import asyncpg

    conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        rows = await conn.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE client_port = ANY($1::int[]) AND pid <> pg_backend_pid()",
            sorted(ports),
        )
        return len(rows)
    finally:
        await conn.close()


async def test_losing_postgres_connections_costs_a_retry_not_a_500(pg_schema: str) -> None:
    from app.settings import Settings

    settings = Settings(
        database_url=PG_URL,
        database_schema=pg_schema,
        bot_delay=0,
        sweep_seconds=0.5,
        migrate_on_start=False,
    )
    with ThreadServer(settings) as server:
        code, (a, b) = await open_room(server.url, "test-guess", ["A", "B"], options={"rounds": 3})
        for client in (a, b):
            await client.connect(code)
        assert (await a.http.post(f"/api/rooms/{code}/start")).status_code == 200
        await a.at_version(0)
        for version, (client, action) in enumerate(
            [
                (a, {"type": "pick", "value": 1}),
                (b, {"type": "pick", "value": 2}),
                (a, {"type": "call", "guess": "low"}),
            ]
        ):
            before = _our_postgres_ports()
            assert before, "no pooled PostgreSQL connection found"
            assert await _terminate_backends(before) > 0
            await asyncio.sleep(0.2)
            # Every kind of request right after its connections were cut.
            over_http = await client.http.post(
                f"/api/rooms/{code}/actions",
                json={"action": action, "client_id": f"cut-{version}"},
            )
            assert over_http.status_code == 200, over_http.text
            assert (await client.http.get(f"/api/rooms/{code}/state")).status_code == 200
            assert (await client.http.get(f"/api/rooms/{code}/log")).status_code == 200
            assert (await client.http.get("/api/rooms")).status_code == 200
        _terminate = await _terminate_backends(_our_postgres_ports())
        del _terminate
        await asyncio.sleep(0.2)
        ack = await b.act({"type": "pick", "value": 0})
        assert ack["type"] == "ack", ack
        for client in (a, b):
            await client.close()
