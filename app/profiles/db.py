"""Sessions on the app's database for the profile tables."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker


class ProfileDatabase:
    """One transaction per use case. On SQLite this worker's profile writes queue on a lock
    (SQLite has one writer at a time; the busy handler would sleep in steps instead)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self._write_lock = asyncio.Lock() if engine.dialect.name == "sqlite" else None

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        if self._write_lock is None:
            async with self.sessions.begin() as session:
                yield session
            return
        async with self._write_lock, self.sessions.begin() as session:
            yield session

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as session:
            yield session
