"""``coven serve`` with the benchmark game registered in every worker.

python -m benchmarks.games.serve --port P [--workers N]   (settings from COVEN_* env)
"""

from __future__ import annotations

import argparse
import os
import sys

import uvicorn

from app.cli import WS_MAX_SIZE, WS_PROTOCOL
from app.settings import Settings
from app.store.db import migrate


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    settings = Settings.from_env()
    if args.workers > 1 and not settings.redis_url:
        print("--workers > 1 needs COVEN_REDIS_URL", file=sys.stderr)
        return 2
    if settings.migrate_on_start:
        migrate(settings.database_url, settings.database_schema)
    os.environ["COVEN_MIGRATE_ON_START"] = "0"
    uvicorn.run(
        "benchmarks.games.asgi:app",
        host="127.0.0.1",
        port=args.port,
        workers=args.workers,
        ws_max_size=WS_MAX_SIZE,
        ws=WS_PROTOCOL,
        ws_per_message_deflate=settings.ws_deflate,
        log_level="warning",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
