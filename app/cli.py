"""The ``coven`` command: ``serve``, ``migrate``, ``simulate``, ``arena``."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from typing import Any

from app.settings import Settings

# Frames over this close the socket with 1009 (uvicorn); frames between the app's limit
# (16 KiB) and this get a ``frame_too_large`` error and the socket survives.
WS_MAX_SIZE = 1024 * 1024
# uvicorn's WebSocket protocol, plus an answer to handshakes it cannot parse (app/README.md).
WS_PROTOCOL = "app.api.ws_protocol:CovenWebSocketProtocol"
# After a drain (app/drain.py) HTTP requests still in flight get this long to finish.
GRACEFUL_SECONDS = 5


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """What every Coven uvicorn server runs with (``coven serve``, the subprocess tests):
    forwarded headers believed only from ``COVEN_TRUSTED_PROXIES`` (none: from nobody, not
    uvicorn's default of 127.0.0.1), and a bounded graceful shutdown."""
    return {
        "ws_max_size": WS_MAX_SIZE,
        "ws": WS_PROTOCOL,
        "ws_per_message_deflate": settings.ws_deflate,
        "ws_ping_interval": settings.ws_ping_interval or None,
        "ws_ping_timeout": settings.ws_ping_timeout or None,
        "proxy_headers": bool(settings.trusted_proxies),
        "forwarded_allow_ips": list(settings.trusted_proxies) or None,
        "timeout_graceful_shutdown": GRACEFUL_SECONDS,
    }


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.lan import banner
    from app.store.db import migrate
    from app.store.room_shards import migrate_room_databases

    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"coven serve: {exc}", file=sys.stderr)
        return 2
    if args.workers > 1:
        if not settings.redis_url:
            print(
                "coven serve: --workers > 1 needs COVEN_REDIS_URL (the in-process bus cannot "
                "reach other workers, so sockets would miss moves made through them).",
                file=sys.stderr,
            )
            return 2
        if settings.database_url.startswith("sqlite"):
            print(
                "coven serve: warning: several workers on SQLite stay correct (the version "
                "check) but writers queue on one file lock; use PostgreSQL in production.",
                file=sys.stderr,
            )
    # Migrate once here rather than in every worker's start-up (a deployment that runs
    # `coven migrate` itself sets COVEN_MIGRATE_ON_START=0).
    if settings.migrate_on_start:
        migrate(settings.database_url, settings.database_schema)
        migrate_room_databases(settings.room_database_urls, settings.database_schema)
    os.environ["COVEN_MIGRATE_ON_START"] = "0"
    try:
        log_config = _observing(settings, args.log_level)
    except ValueError as exc:
        print(f"coven serve: {exc}", file=sys.stderr)
        return 2
    # Where friends join: the LAN addresses when serving on every interface.
    print("\n".join(banner(args.host, args.port, settings.public_url)), flush=True)
    uvicorn.run(
        "app.asgi:app",
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        log_config=log_config,
        **uvicorn_options(settings),
    )
    return 0


def _observing(settings: Settings, level: str) -> dict[str, object]:
    """Set up before any worker starts: the directory where every worker writes its metrics
    (COVEN_METRICS=1), and uvicorn's logging: JSON lines (COVEN_LOG_FORMAT=json) or its own."""
    from uvicorn.config import LOGGING_CONFIG

    from app.observability.json_logs import uvicorn_log_config
    from app.observability.tracing import exporters_from_env

    exporters_from_env()  # a wrong OTEL_* setting says so now, not in every worker
    if settings.metrics:
        from app.observability.multiproc import prepare_multiprocess_dir

        prepare_multiprocess_dir()
    return uvicorn_log_config(level) if settings.log_format == "json" else LOGGING_CONFIG


def _migrate(_: argparse.Namespace) -> int:
    from app.store.db import migrate
    from app.store.room_shards import migrate_room_databases

    settings = Settings.from_env()
    migrate(settings.database_url, settings.database_schema)
    migrate_room_databases(settings.room_database_urls, settings.database_schema)
    for url in (settings.database_url, *settings.room_database_urls):
        print(f"migrated {url.split('@')[-1]}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from engine.protocol import IllegalAction
    from engine.simulate import simulate

    try:
        options = json.loads(args.options) if args.options else None
    except ValueError:
        options = None
    if args.options and not isinstance(options, dict):
        print("coven simulate: --options must be a JSON object", file=sys.stderr)
        return 2
    try:
        result = simulate(args.game, args.players, args.games, args.seed, args.bot, options)
    except IllegalAction as exc:
        print(f"coven simulate: {exc.message} ({exc.code})", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


def _arena(args: argparse.Namespace) -> int:
    from engine.arena import arena
    from engine.protocol import IllegalAction

    try:
        options = json.loads(args.options) if args.options else None
    except ValueError:
        options = None
    if args.options and not isinstance(options, dict):
        print("coven arena: --options must be a JSON object", file=sys.stderr)
        return 2
    levels = [level.strip() for level in args.seats.split(",")]
    try:
        result = arena(
            args.game,
            levels,
            args.games,
            args.seed,
            budget_ms=args.budget_ms,
            iterations=args.iterations,
            jobs=args.jobs,
            options=options,
        )
    except IllegalAction as exc:
        print(f"coven arena: {exc.message} ({exc.code})", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


def _verify(args: argparse.Namespace) -> int:
    from app.fairness.verify import command

    return command(args.file, sys.stdout, sys.stderr)


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="coven", description="Coven, a witch card tabletop")
    commands = root.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.add_argument("--log-level", default="info")
    serve.set_defaults(run=_serve)

    migrate = commands.add_parser("migrate", help="apply database migrations")
    migrate.set_defaults(run=_migrate)

    verify = commands.add_parser(
        "verify",
        help="check an exported match: its seed proof, every action and the result (offline)",
    )
    verify.add_argument("file", help="the export (GET /api/rooms/{code}/export); - reads stdin")
    verify.set_defaults(run=_verify)

    simulate = commands.add_parser("simulate", help="bot-against-bot matches through the engine")
    simulate.add_argument("game")
    simulate.add_argument("--players", type=int, required=True)
    simulate.add_argument("--games", type=int, default=100)
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument("--bot", default="random")
    simulate.add_argument(
        "--options", default=None, help="""setup options as JSON: '{"personalities": "choose"}'"""
    )
    simulate.set_defaults(run=_simulate)

    arena = commands.add_parser("arena", help="bots of chosen levels against each other")
    arena.add_argument("game")
    arena.add_argument(
        "--seats",
        required=True,
        help="one bot level or module:callable policy per seat, in seat order: strong,random",
    )
    arena.add_argument("--games", type=int, default=100)
    arena.add_argument("--seed", type=int, default=1)
    budget = arena.add_mutually_exclusive_group()
    budget.add_argument("--budget-ms", type=int, default=None, help="strong: time per decision")
    budget.add_argument(
        "--iterations", type=int, default=None, help="strong: search iterations per decision"
    )
    arena.add_argument("--jobs", type=int, default=1, help="matches played in parallel processes")
    arena.add_argument("--options", default=None, help="setup options as JSON")
    arena.set_defaults(run=_arena)
    return root


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
