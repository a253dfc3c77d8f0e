"""Server test fixtures: backends (SQLite file, PostgreSQL schema), Redis, real servers."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.settings import Settings
from app.store.db import migrate
from engine import registry
from tests.support.guess import GuessGame
from tests.support.server import ProcessServer, ThreadServer, two_process_servers

PG_URL = os.environ.get(
    "COVEN_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("COVEN_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(autouse=True)
def guess_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test-only game, registered for this test only (servers in threads share it;
    subprocess servers register it themselves: tests/support/serve.py)."""
    registry.games()  # the built-in games first
    monkeypatch.setitem(registry._GAMES, GuessGame.id, GuessGame())


def unavailable(what: str, exc: BaseException) -> None:
    message = f"{what} unreachable: {exc!r}"
    if IN_CI:
        pytest.fail(message + " (CI=true: the server tests must run on it)")
    pytest.skip(message)


async def _pg_execute(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    """A fresh schema for this test run, migrated once, dropped at the end."""
    schema = f"coven_test_{uuid.uuid4().hex[:10]}"
    try:
        asyncio.run(asyncio.wait_for(_pg_execute(f'CREATE SCHEMA "{schema}"'), 5))
    except Exception as exc:
        unavailable("PostgreSQL", exc)
    migrate(PG_URL, schema)
    yield schema
    asyncio.run(_pg_execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))


@pytest.fixture(scope="session")
def redis_url() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_timeout=2).ping()
    except Exception as exc:
        unavailable("Redis", exc)
    return REDIS_URL


def sqlite_settings(tmp_path: Path, **overrides: object) -> Settings:
    values: dict[str, Any] = {
        "database_url": f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}",
        "bot_delay": 0,
        "sweep_seconds": 0.5,
        **overrides,
    }
    return Settings(**values)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    if request.param == "sqlite":
        return sqlite_settings(tmp_path)
    schema = request.getfixturevalue("pg_schema")
    return Settings(
        database_url=PG_URL,
        database_schema=schema,
        bot_delay=0,
        sweep_seconds=0.5,
        migrate_on_start=False,
    )


@pytest.fixture
def sqlite(tmp_path: Path) -> Settings:
    return sqlite_settings(tmp_path)


@pytest.fixture
def server(settings: Settings) -> Iterator[ThreadServer]:
    with ThreadServer(settings) as running:
        yield running


@pytest.fixture
def sqlite_server(sqlite: Settings) -> Iterator[ThreadServer]:
    with ThreadServer(sqlite) as running:
        yield running


def worker_env(pg_schema: str, redis_url: str, **extra: str) -> dict[str, str]:
    """The environment of a ``coven serve`` worker of these tests: PostgreSQL in the test's
    schema (migrated by ``pg_schema``), the Redis bus, bots that answer at once; ``extra`` adds
    or overrides. The schema is one per test session and the room limit is counted in Redis per
    schema and address, so every test's rooms from 127.0.0.1 would share one allowance: the
    burst is raised here, and the tests of that limit set their own."""
    return {
        "COVEN_ROOMS_BURST": "1000",
        "COVEN_DATABASE_URL": PG_URL,
        "COVEN_DATABASE_SCHEMA": pg_schema,
        "COVEN_REDIS_URL": redis_url,
        "COVEN_BOT_DELAY": "0",
        "COVEN_MIGRATE_ON_START": "0",
        **extra,
    }


@pytest.fixture
def two_workers(pg_schema: str, redis_url: str) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    """Two ``coven serve`` processes over the same PostgreSQL schema and Redis."""
    with two_process_servers(worker_env(pg_schema, redis_url)) as workers:
        yield workers
