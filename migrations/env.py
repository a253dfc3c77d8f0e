"""Alembic environment, async: runs migrations over an ``AsyncEngine`` (SQLite or PostgreSQL)."""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from app.settings import DEFAULT_DATABASE_URL
from app.store.db import make_engine
from app.store.models import Base

config = context.config
url = (
    config.get_main_option("sqlalchemy.url")
    or os.environ.get("COVEN_DATABASE_URL")
    or DEFAULT_DATABASE_URL
)
schema = config.attributes.get("schema") or os.environ.get("COVEN_DATABASE_SCHEMA") or None


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite cannot ALTER most things; batch mode rebuilds tables instead.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_online() -> None:
    engine = make_engine(url, schema)
    try:
        if schema and url.startswith("postgresql"):
            async with engine.begin() as conn:
                await conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
        async with engine.connect() as conn:
            await conn.run_sync(_run)
            await conn.commit()
    finally:
        await engine.dispose()


if context.is_offline_mode():
    context.configure(url=url, target_metadata=Base.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_run_online())
