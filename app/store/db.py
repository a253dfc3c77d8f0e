"""The async engine and the migrations that shape its tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import URL, Engine, create_engine, event
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


def make_engine(url: str, schema: str | None = None) -> AsyncEngine:
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
    # pool_pre_ping: a pooled connection that PostgreSQL dropped (a restart, a failover, an
    # idle timeout) is replaced when it is checked out, instead of failing the request.
    return create_async_engine(
        url,
        connect_args=connect_args(url, schema),
        json_serializer=wire.dumps,
        json_deserializer=wire.loads,
        pool_pre_ping=True,
        pool_size=20,
        max_overflow=20,
    )


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
