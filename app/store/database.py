"""The app's database as every store uses it: write transactions, and reads without one.

One instance per worker, shared by the room layer's repository and the stores beside it
(profiles, circles, results), so that on SQLite all of this worker's writers queue on one
asyncio lock: SQLite has one writer at a time, and its busy handler would sleep in steps of
up to 100 ms where the lock lets a commit wait only as long as the commits before it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import Insert
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker


def insert_ignoring(dialect: str, table: Any) -> Insert:
    """INSERT … ON CONFLICT DO NOTHING in this database's dialect: a row written once by a
    unique key, whoever writes it first (a reaction, a sweep, another worker)."""
    if dialect == "postgresql":
        return postgresql.insert(table).on_conflict_do_nothing()
    return sqlite.insert(table).on_conflict_do_nothing()


class Database:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        # Reads run without a transaction: no BEGIN/ROLLBACK round trips around one SELECT.
        self.readers = async_sessionmaker(
            engine.execution_options(isolation_level="AUTOCOMMIT"), expire_on_commit=False
        )
        self.write_lock = asyncio.Lock() if self.dialect == "sqlite" else None

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """One write transaction, committed when the block ends (rolled back on an error)."""
        if self.write_lock is None:
            async with self.sessions.begin() as session:
                yield session
            return
        async with self.write_lock, self.sessions.begin() as session:
            yield session

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """A session for reads that must see one snapshot together (a transaction)."""
        async with self.sessions() as session:
            yield session
