"""Runtime settings, read from ``COVEN_*`` environment variables (see README)."""

from __future__ import annotations

import os
from dataclasses import dataclass

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./coven.db"


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    return float(raw) if raw not in (None, "") else default


def _int_or_none(name: str) -> int | None:
    raw = os.environ.get(name)
    return int(raw) if raw not in (None, "") else None


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    # PostgreSQL only: put every table in this schema (tests use one schema per run).
    database_schema: str | None = None
    redis_url: str | None = None
    # Seconds a bot waits before it plays, so humans can follow what happened.
    bot_delay: float = 0.3
    # Processes that run search bots (greedy, strong) off the event loop; None: cores - 1
    # (at least 1); 0: decide inline (debugging only: a thinking bot stalls the loop).
    bot_processes: int | None = None
    # Thinking time of a search bot per decision (ms); None: the engine's default.
    bot_budget_ms: int | None = None
    # How often each worker looks for matches whose bot or turn clock owes a move
    # (covers a worker that died between its commit and its bot's move).
    sweep_seconds: float = 2.0
    max_frame_bytes: int = 16 * 1024
    chat_max_chars: int = 500
    chat_burst: int = 5
    chat_window_seconds: float = 10.0
    migrate_on_start: bool = True
    # permessage-deflate on sockets: less traffic for views but ~35 KiB more per socket,
    # so off unless COVEN_WS_DEFLATE=1.
    ws_deflate: bool = False

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            database_url=os.environ.get("COVEN_DATABASE_URL") or DEFAULT_DATABASE_URL,
            database_schema=os.environ.get("COVEN_DATABASE_SCHEMA") or None,
            redis_url=os.environ.get("COVEN_REDIS_URL") or None,
            bot_delay=_float("COVEN_BOT_DELAY", 0.3),
            bot_processes=_int_or_none("COVEN_BOT_PROCESSES"),
            bot_budget_ms=_int_or_none("COVEN_BOT_BUDGET_MS"),
            sweep_seconds=_float("COVEN_SWEEP_SECONDS", 2.0),
            migrate_on_start=os.environ.get("COVEN_MIGRATE_ON_START", "1") != "0",
            ws_deflate=os.environ.get("COVEN_WS_DEFLATE", "0") == "1",
        )
