"""The async engine and the migrations that shape its tables."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Engine, create_engine, event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app import wire


def _migrations_dir() -> Path:
    """``migrations/`` at the repository root (beside ``app/``), else in the working dir."""
    beside = Path(__file__).resolve().parents[2] / "migrations"
    return beside if beside.is_dir() else Path.cwd() / "migrations"


MIGRATIONS = _migrations_dir()


def connect_args(url: str, schema: str | None) -> dict[str, Any]:
    if url.startswith("postgresql") and schema:
        return {"server_settings": {"search_path": schema}}
    if url.startswith("sqlite"):
        # Several writers (bot runner, sockets, a second worker) wait instead of failing.
        return {"timeout": 30}
    return {}


def _tune_sqlite(engine: AsyncEngine | Engine) -> None:
    sync_engine = engine.sync_engine if isinstance(engine, AsyncEngine) else engine

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        # WAL lets readers go on while one writer commits; NORMAL still survives a killed
        # process (only a power cut can lose the last transactions).
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()


@dataclass(frozen=True, slots=True)
class PoolSizes:
    """How many PostgreSQL connections one worker may hold (``COVEN_DB_POOL_SIZE``,
    ``COVEN_DB_POOL_OVERFLOW``, ``COVEN_MOVE_POOL_SIZE``; the README's settings): SQLAlchemy's pool
    (kept + opened for a burst and closed after) for everything but moves, and asyncpg's pool
    of the move writer (``app/store/moves.py``). At the defaults a worker holds at most 25, so
    two workers and a few tools fit in PostgreSQL's default ``max_connections`` of 100; with
    more workers, put PgBouncer in front (docs/CAPACITY.md)."""

    size: int = 8
    overflow: int = 7
    moves: int = 10


DEFAULT_POOLS = PoolSizes()
RECYCLE_SECONDS = 1800


def make_engine(
    url: str, schema: str | None = None, pools: PoolSizes = DEFAULT_POOLS
) -> AsyncEngine:
    if url.startswith("sqlite"):
        # Sessions and ``engine.begin()`` always end their transaction; the pool's extra
        # rollback on return would be one more hop to the driver thread per query.
        # A connection of aiosqlite is a thread: opening one (with its PRAGMAs) blocks the
        # loop for a while, so keep enough of them that the pool rarely opens overflow ones.
        engine = create_async_engine(
            url,
            connect_args=connect_args(url, schema),
            pool_reset_on_return=None,
            json_serializer=wire.dumps,
            json_deserializer=wire.loads,
            pool_size=20,
            max_overflow=20,
        )
        _tune_sqlite(engine)
        return engine
    # No pool_pre_ping: it costs a BEGIN and a ROLLBACK (two round trips) at every checkout,
    # about a sixth of a worker's CPU on the move path (benchmarks/README.md). Instead:
    # - a connection PostgreSQL closed (a restart, a failover, a killed backend, an idle
    #   timeout) is known closed without a round trip: the loop reads the socket's end while
    #   the connection sits in the pool, and ``_replace_closed`` swaps it at checkout;
    # - one that fails at its use (a link cut without a word) fails that request, and
    #   SQLAlchemy then drops every pooled connection opened before the failure;
    # - ``pool_recycle`` replaces a connection older than that many seconds at checkout
    #   (a NAT or a proxy that forgets idle links silently).
    engine = create_async_engine(
        url,
        connect_args=connect_args(url, schema),
        json_serializer=wire.dumps,
        json_deserializer=wire.loads,
        pool_size=pools.size,
        max_overflow=pools.overflow,
        pool_recycle=RECYCLE_SECONDS,
    )
    event.listen(engine.sync_engine, "checkout", _replace_closed)
    return engine


def _replace_closed(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """The pool's checkout hook: a connection the server closed is replaced (the pool opens
    another and tries again) instead of failing the request that would use it."""
    driver = getattr(dbapi_connection, "driver_connection", None)
    if driver is not None and driver.is_closed():
        raise DisconnectionError("the server closed this pooled connection")


def make_sync_sqlite_engine(url: URL) -> Engine:
    """The same SQLite file through the plain ``sqlite3`` driver (the move writer's thread)."""
    engine = create_engine(
        url.set(drivername="sqlite"),
        connect_args={"timeout": 30, "check_same_thread": False},
        json_serializer=wire.dumps,
        json_deserializer=wire.loads,
    )
    _tune_sqlite(engine)
    return engine


def migrate(url: str, schema: str | None = None, revision: str = "head") -> None:
    """Apply the Alembic migrations (blocking: call it outside the event loop or in a thread)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["schema"] = schema
    command.upgrade(config, revision)
