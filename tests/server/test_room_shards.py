"""Rooms in several PostgreSQL databases (COVEN_ROOM_DATABASE_URLS, app/store/room_shards.py):
rooms land in both room databases by the hash of their code, whole matches play, a kill -9
restart recovers them (bots included), lookups find every room, a reordered list is refused.

Two databases are created for this module and dropped after it; the default database is the
test run's PostgreSQL schema."""

from __future__ import annotations

import asyncio
import inspect
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest

from app.store.db import make_engine, migrate
from app.store.repository import Repository
from app.store.room_shards import (
    ID_STRIDE,
    RoomDatabaseMismatch,
    RoomShards,
    open_room_databases,
    room_database_index,
)
from tests.server.conftest import PG_URL
from tests.server.coven_serve import refused_start
from tests.support.client import Client, open_room
from tests.support.server import ProcessServer
from tests.support.table import at_table, play_to_end, played

pytestmark = [pytest.mark.postgres]

PLAIN_PG = PG_URL.replace("postgresql+asyncpg://", "postgresql://")


def _url_of(database: str) -> str:
    base, _, _ = PG_URL.rpartition("/")
    return f"{base}/{database}"


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(PLAIN_PG)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="module")
def pg_schema() -> Iterator[str]:
    """This module's own default schema (the run's one is left as it is): opening room
    databases drops the default database's foreign keys from history to rooms and matches
    (``drop_cross_database_keys``), which the other tests of the run keep."""
    schema = f"coven_shards_{uuid.uuid4().hex[:8]}"
    asyncio.run(_admin(f'CREATE SCHEMA "{schema}"'))
    try:
        migrate(PG_URL, schema)
        yield schema
    finally:
        asyncio.run(_admin(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))


@pytest.fixture(scope="module")
def room_databases(pg_schema: str) -> Iterator[list[str]]:
    """Two fresh databases (coven_shard_a_…, coven_shard_b_…), migrated, dropped after."""
    suffix = uuid.uuid4().hex[:8]
    names = [f"coven_shard_a_{suffix}", f"coven_shard_b_{suffix}"]
    for name in names:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    urls = [_url_of(name) for name in names]
    try:
        for url in urls:
            migrate(url, pg_schema)
        yield urls
    finally:
        for name in names:
            asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _codes_in(url: str, schema: str) -> dict[str, int]:
    conn = await asyncpg.connect(
        url.replace("postgresql+asyncpg://", "postgresql://"),
        server_settings={"search_path": schema},
    )
    try:
        return {row["code"]: row["id"] for row in await conn.fetch("SELECT id, code FROM rooms")}
    finally:
        await conn.close()


def _env(pg_schema: str, room_urls: list[str]) -> dict[str, str]:
    return {
        "COVEN_DATABASE_URL": PG_URL,
        "COVEN_DATABASE_SCHEMA": pg_schema,
        "COVEN_ROOM_DATABASE_URLS": ",".join(room_urls),
        "COVEN_BOT_DELAY": "0",
        "COVEN_MIGRATE_ON_START": "0",
    }


async def _state(url: str, code: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        response = await http.get(f"/api/rooms/{code}/state")
        assert response.status_code == 200, response.text
        state: dict[str, Any] = response.json()
        return state


async def _play_some(url: str, code: str, tokens: list[str], moves: int) -> int:
    """``moves`` acknowledged random moves over HTTP; the version reached."""
    rng = random.Random(code)
    version = 0
    clients = [
        httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {t}"}, timeout=10)
        for t in tokens
    ]
    try:
        while version < moves:
            for http in clients:
                state = (await http.get(f"/api/rooms/{code}/state")).json()
                if not state["legal"] or state["result"] is not None:
                    continue
                acked = await http.post(
                    f"/api/rooms/{code}/actions",
                    json={
                        "action": rng.choice(state["legal"]),
                        "client_id": uuid.uuid4().hex,
                        "version": state["version"],
                    },
                )
                if acked.status_code == 200:
                    version = max(version, acked.json()["version"])
    finally:
        for http in clients:
            await http.aclose()
    return version


async def test_rooms_spread_over_both_databases_play_and_survive_kill_9(
    pg_schema: str, room_databases: list[str]
) -> None:
    env = _env(pg_schema, room_databases)
    server = ProcessServer(env).start()
    try:
        # Rooms until each database holds at least two (the hash of random codes decides).
        rooms: dict[str, list[Client]] = {}
        for _ in range(40):
            code, seated = await open_room(server.url, "test-guess", ["Agnes", "Brigid"])
            rooms[code] = seated
            placed = [room_database_index(c, 2) for c in rooms]
            if placed.count(0) >= 2 and placed.count(1) >= 2:
                break
        held = [await _codes_in(url, pg_schema) for url in room_databases]
        default = await _codes_in(PG_URL, pg_schema)
        for code in rooms:
            position = room_database_index(code, 2)
            assert code in held[position] and code not in held[1 - position]
            assert code not in default  # nothing of a new room in the default database
            # Its id says where it is: the n-th room database numbers from n x ID_STRIDE.
            assert held[position][code] // ID_STRIDE == position + 1
        by_database = [[c for c in rooms if c in held[i]] for i in range(2)]
        assert all(len(codes) >= 2 for codes in by_database), by_database

        # The lobby reads both databases.
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
            listed = {room["code"] for room in (await http.get("/api/rooms")).json()}
        assert set(rooms) <= listed

        # A whole match in each database, over sockets.
        for codes in by_database:
            code = codes[0]
            players = [Client(server.url, s.token, n) for n, s in enumerate(rooms[code])]
            final = await played(code, players, Client(server.url), random.Random(code))
            assert final["result"] is not None

        # Mid-match in each database (people), and a host with a bot in each: kill -9.
        midway: dict[str, int] = {}
        for codes in by_database:
            code = codes[1]
            tokens = [s.token for s in rooms[code] if s.token is not None]
            assert (await rooms[code][0].http.post(f"/api/rooms/{code}/start")).status_code == 200
            midway[code] = await _play_some(server.url, code, tokens, 3)
        with_bots: list[tuple[str, Client]] = []
        for position in range(2):
            for _ in range(40):
                code, seated = await open_room(server.url, "test-guess", ["Circe"])
                if room_database_index(code, 2) == position:
                    break
            host = seated[0]
            bot = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random"})
            assert bot.status_code == 200, bot.text
            assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
            with_bots.append((code, host))
        before = {code: await _state(server.url, code) for code in midway}
        server.kill()
    finally:
        server.kill()

    server = ProcessServer(env).start()
    try:
        # The same versions after the restart: nothing acknowledged was lost, both databases.
        for code, state in before.items():
            after = await _state(server.url, code)
            assert after["version"] == state["version"] >= midway[code]
            players = [Client(server.url, s.token, n) for n, s in enumerate(rooms[code])]
            spectator = Client(server.url)
            async with at_table(code, [*players, spectator]):
                final = await play_to_end(players, spectator, random.Random(7))
            assert final["result"] is not None
        # The bots of both databases play on after the restart (the sweep reads every one).
        for code, host in with_bots:
            final = await _host_plays_with_bot(server.url, code, host.token or "")
            assert final["result"] is not None
            assert any(step["bot"] for step in await _steps(server.url, code))
    finally:
        server.stop()


async def _host_plays_with_bot(url: str, code: str, token: str) -> dict[str, Any]:
    """The host answers whenever she owes; the bot (run by the server) the rest, to the end."""
    rng = random.Random(code)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120
    async with httpx.AsyncClient(
        base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=10
    ) as http:
        while loop.time() < deadline:
            state: dict[str, Any] = (await http.get(f"/api/rooms/{code}/state")).json()
            if state["result"] is not None:
                return state
            if state["legal"]:
                await http.post(
                    f"/api/rooms/{code}/actions",
                    json={
                        "action": rng.choice(state["legal"]),
                        "client_id": uuid.uuid4().hex,
                        "version": state["version"],
                    },
                )
            else:
                await asyncio.sleep(0.05)  # the bot owes: its answer comes from the server
    raise AssertionError(f"{code}: the match with a bot did not end")


async def _steps(url: str, code: str) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        timeline = await http.get(f"/api/rooms/{code}/replay")
        assert timeline.status_code == 200, timeline.text
        steps: list[dict[str, Any]] = timeline.json()["steps"]
        return steps


async def test_lookups_find_old_rooms_and_a_reordered_list_is_refused(
    pg_schema: str, room_databases: list[str]
) -> None:
    default = make_engine(PG_URL, pg_schema)
    plain = Repository(default, pg_schema)
    old_code = f"OLD{uuid.uuid4().hex[:8].upper()}"
    old = await plain.create_room(**_room_fields(old_code))
    assert old.id < ID_STRIDE  # made before the room databases: it stays in the default one
    repo = await open_room_databases(make_engine(PG_URL, pg_schema), room_databases, pg_schema)
    try:
        assert isinstance(repo, RoomShards)
        found = await repo.room(old_code)
        assert found is not None and found.id == old.id
        new_code = f"NEW{uuid.uuid4().hex[:8].upper()}"
        new = await repo.create_room(**_room_fields(new_code))
        assert new.id // ID_STRIDE == room_database_index(new_code, 2) + 1
        found = await repo.room(new_code)
        assert found is not None and found.id == new.id
        assert await repo.room("NOSUCHROOM") is None
        # Each database counted once.
        total = await repo.count_rooms()
        each = [await plain.count_rooms()] + [
            len(await _codes_in(url, pg_schema)) for url in room_databases
        ]
        assert total == sum(each)
        # Listed the other way round, the databases' ids say they are not where they were.
        with pytest.raises(RoomDatabaseMismatch):
            await open_room_databases(
                make_engine(PG_URL, pg_schema), room_databases[::-1], pg_schema
            )
    finally:
        await repo.close()
        await plain.close()


def _room_fields(code: str) -> dict[str, Any]:
    return {
        "code": code,
        "game_id": "test-guess",
        "name": "Morgan",
        "visibility": "private",
        "options": {},
        "seat_count": 2,
        "turn_seconds": None,
        "host_name": "Morgan",
        "host_token_hash": uuid.uuid4().hex,
    }


# The repository's methods that are not one room's: they stay on the default database
# (``server_key``: the server's own keys, e.g. for sealed moves).
NOT_A_ROOMS = {"transaction", "server_key"}


def test_every_room_method_goes_to_the_rooms_database() -> None:
    """A method added to Repository must be routed here too (or named as not a room's)."""
    public = {
        name
        for name, member in inspect.getmembers(Repository)
        if not name.startswith("_") and (inspect.isfunction(member) or isinstance(member, property))
    }
    routed = {name for name in vars(RoomShards) if not name.startswith("_")}
    assert public - routed - NOT_A_ROOMS == set()


def test_coven_serve_refuses_room_databases_it_cannot_use(tmp_path: Path) -> None:
    """Room databases are PostgreSQL only, each listed once, and never the default one:
    ``coven serve`` says so and exits, instead of starting half right."""
    on_sqlite = refused_start(
        tmp_path, {"COVEN_ROOM_DATABASE_URLS": "postgresql+asyncpg://db/rooms1"}
    )
    assert "COVEN_ROOM_DATABASE_URLS needs COVEN_DATABASE_URL on PostgreSQL" in on_sqlite
    not_pg = refused_start(
        tmp_path,
        {
            "COVEN_DATABASE_URL": PG_URL,
            "COVEN_ROOM_DATABASE_URLS": f"sqlite+aiosqlite:///{tmp_path / 'rooms.db'}",
        },
    )
    assert "is not a PostgreSQL URL" in not_pg
    twice = refused_start(
        tmp_path,
        {"COVEN_DATABASE_URL": PG_URL, "COVEN_ROOM_DATABASE_URLS": f"{PG_URL},{PG_URL}"},
    )
    assert "each database once" in twice
