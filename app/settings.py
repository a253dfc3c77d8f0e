"""Runtime settings, read from ``COVEN_*`` environment variables (see README)."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from urllib.parse import urlsplit

from app.observability.json_logs import log_format
from engine.brew import cards as brew_cards

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./coven.db"


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    return float(raw) if raw not in (None, "") else default


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw not in (None, "") else default


def _int_or_none(name: str) -> int | None:
    raw = os.environ.get(name)
    return int(raw) if raw not in (None, "") else None


def _list(name: str) -> tuple[str, ...]:
    raw = os.environ.get(name) or ""
    return tuple(item.strip().rstrip("/") for item in raw.split(",") if item.strip())


def _public_url(raw: str | None) -> str | None:
    """``COVEN_PUBLIC_URL`` without its trailing slash; refused unless it is an http(s) origin
    (a typo would otherwise put broken links in every invite)."""
    url = (raw or "").strip().rstrip("/")
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"COVEN_PUBLIC_URL must look like https://coven.example, not {raw!r}")
    return url


def _brew_printed_values(raw: str | None) -> str | None:
    """``COVEN_BREW_PRINTED_VALUES``: the file of Witch's Brew's printed potion values, loaded
    for the tables that ask for them; refused when it breaks the rulebook's facts (engine/brew/
    cards.py ``read_printed_values``), so ``coven serve`` stops saying what is wrong."""
    path = (raw or "").strip() or None
    if path is None:
        return None
    try:
        brew_cards.use_printed_values(path)
    except brew_cards.PrintedValuesError as exc:
        raise ValueError(f"COVEN_BREW_PRINTED_VALUES: {exc}") from None
    return path


def _trusted_proxies(raw: str | None) -> tuple[str, ...]:
    """``COVEN_TRUSTED_PROXIES``: the proxies whose ``X-Forwarded-For`` / ``-Proto`` are
    believed, as addresses or networks ("10.0.0.0/8"), or "*" (any: only where nothing but
    the proxy can reach the workers). A typo is refused, not silently ignored (uvicorn would
    take it as a name no peer ever has)."""
    items = tuple(item.strip() for item in (raw or "").split(",") if item.strip())
    for item in items:
        if item == "*":
            continue
        try:
            if "/" in item:
                ipaddress.ip_network(item)
            else:
                ipaddress.ip_address(item)
        except ValueError:
            raise ValueError(
                f"COVEN_TRUSTED_PROXIES: {item!r} is not an address, a network or '*'"
            ) from None
    return items


def _room_database_urls(raw: str | None, database_url: str) -> tuple[str, ...]:
    """``COVEN_ROOM_DATABASE_URLS``: PostgreSQL only (a room's move takes its match row
    ``FOR UPDATE``, and the ids that say which database holds a room are sequences)."""
    urls = tuple(item.strip() for item in (raw or "").split(",") if item.strip())
    if urls and not database_url.startswith("postgresql"):
        raise ValueError("COVEN_ROOM_DATABASE_URLS needs COVEN_DATABASE_URL on PostgreSQL too")
    for url in urls:
        if not url.startswith("postgresql"):
            raise ValueError(f"COVEN_ROOM_DATABASE_URLS: {url!r} is not a PostgreSQL URL")
    if len(set(urls)) != len(urls) or database_url in urls:
        raise ValueError(
            "COVEN_ROOM_DATABASE_URLS: each database once, and not COVEN_DATABASE_URL itself"
        )
    return urls


def _push_contact(raw: str | None) -> str | None:
    contact = (raw or "").strip()
    if not contact:
        return None
    if not contact.startswith(("mailto:", "https://")):
        raise ValueError(f"COVEN_PUSH_CONTACT must be a mailto: or https: address, not {raw!r}")
    return contact


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
    # Every bot answer takes its level's fixed time, whatever its seat knows (app/rooms/pacing.py);
    # False (COVEN_BOT_PACE=0): answer as soon as decided, which lets the clock tell secrets.
    bot_pace: bool = True
    # How often each worker looks for matches whose bot or turn clock owes a move
    # (covers a worker that died between its commit and its bot's move).
    sweep_seconds: float = 2.0
    # How often each worker looks for finished matches that history has not recorded yet (a
    # worker killed right after a match ended; matches older than history): the move that ends
    # a match has it recorded at once, and each worker sweeps once as it starts.
    results_sweep_seconds: float = 30.0
    max_frame_bytes: int = 16 * 1024
    # Request bodies, however they are framed (Content-Length or chunked).
    max_body_bytes: int = 64 * 1024
    # Path plus query string of a request or WebSocket handshake.
    max_url_bytes: int = 4096
    chat_max_chars: int = 500
    chat_burst: int = 5
    chat_window_seconds: float = 10.0
    # Chat lines of one seat across all its sockets, per window (a seat's flood never
    # touches another seat's allowance, whoever shares its address).
    chat_seat_burst: int = 10
    # Chat lines of the spectators (no seat: anonymous) of one client address, per window.
    chat_client_burst: int = 10
    migrate_on_start: bool = True
    # permessage-deflate on sockets: less traffic for views but ~35 KiB more per socket,
    # so off unless COVEN_WS_DEFLATE=1.
    ws_deflate: bool = False
    # Keepalive: a socket silent this long gets a ping, and is closed if no pong comes within
    # the timeout. A socket that talks (the browser client says ``ping`` every 25 s) is never
    # pinged: what it sent already shows the connection alive.
    ws_ping_interval: float = 30.0
    ws_ping_timeout: float = 15.0
    # Messages (and bytes) waiting for one socket; a socket further behind is dropped (it
    # reconnects and re-syncs) so that it never slows its room.
    ws_send_queue: int = 256
    ws_send_queue_bytes: int = 1024 * 1024
    # Seconds one send to a socket may take before the socket counts as gone.
    ws_send_timeout: float = 10.0
    # Other origins whose pages may open room sockets (the server's own always may), e.g.
    # "https://coven.example"; "*" allows any.
    allowed_origins: tuple[str, ...] = ()
    # Rooms one client address may create: a burst, then this many per minute.
    rooms_burst: int = 20
    rooms_per_minute: float = 10.0
    # Open sockets per client address (across rooms).
    sockets_per_client: int = 32
    # Refused actions per seat, and per client address (several players may share one),
    # within ``refused_window_seconds`` before that seat's or address's further actions are
    # answered "rate_limited" without touching the table.
    refused_burst: int = 20
    refused_client_burst: int = 100
    refused_window_seconds: float = 10.0
    # The address friends reach this server at behind a proxy, e.g. "https://coven.example":
    # every invite and rejoin link starts with it. None: the address the host's browser used.
    public_url: str | None = None
    # Profiles' public pages and the leaderboards; False (COVEN_PUBLIC_PROFILES=0): each player
    # still sees her own page and history, nobody else's.
    public_profiles: bool = True
    # How long a rematch waits for its players (from "Play again"): then whoever has not come
    # is replaced by a bot or left out, as the host chose, and the new match starts.
    rematch_seconds: float = 60.0
    # Tests only: a file holding seconds added to the server's clock (app/clock.py).
    clock_file: str | None = None
    # Webhooks (and Web Push endpoints) may reach private, loopback and link-local addresses
    # (COVEN_WEBHOOK_ALLOW_PRIVATE=1): off, so a webhook cannot probe the operator's network.
    webhook_allow_private: bool = False
    # How often each worker looks for notifications due to be sent (a notification made in
    # this worker wakes it at once; the look covers reminders and other workers' rows).
    notify_sweep_seconds: float = 1.0
    # The contact push services see in the VAPID claims ("mailto:ops@example.org" or an https
    # URL); None: COVEN_PUBLIC_URL when it is https, else a placeholder some services refuse.
    push_contact: str | None = None
    # The waits (seconds) before each new try of a notification whose receiver failed; one
    # more failure after the last gives it up.
    notify_backoff: tuple[float, ...] = (5.0, 30.0, 120.0, 600.0, 1800.0)
    # Witch's Brew's printed potion values (a JSON file, engine/brew/README.md), for the tables
    # whose host picks them; None: only the reconstruction.
    brew_printed_values: str | None = None
    # GET /metrics in the Prometheus format (COVEN_METRICS=1; docs/OPERATING.md), and the
    # bearer token it then asks for (COVEN_METRICS_TOKEN; None: open to whoever reaches it).
    metrics: bool = False
    metrics_token: str | None = None
    # Log lines as plain text (the default) or one JSON object per line (COVEN_LOG_FORMAT=json).
    log_format: str = "text"
    # Proxies (addresses, networks, or "*") whose X-Forwarded-For and X-Forwarded-Proto are
    # believed; none by default: every client is the address that reached the worker.
    trusted_proxies: tuple[str, ...] = ()
    # A draining worker (SIGTERM) answers not-ready this long before it closes its sockets
    # with 1012 (app/drain.py): the balancer's health check sees it first.
    drain_seconds: float = 3.0
    # Room channels through Redis 7's sharded pub/sub (COVEN_REDIS_SHARDED=1): SPUBLISH and
    # SSUBSCRIBE, which a Redis Cluster keeps on the node owning the channel (docs/CAPACITY.md).
    redis_sharded: bool = False
    # PostgreSQL databases for the rooms' rows (COVEN_ROOM_DATABASE_URLS, comma-separated):
    # each room lives in the one a hash of its code picks; everything else (profiles,
    # circles, results, ...) stays in ``database_url``. Empty: rooms live there too.
    # Order matters: the n-th database's ids are numbered from n x 100,000,000 (append only).
    room_database_urls: tuple[str, ...] = ()
    # PostgreSQL connections one worker may hold (app/store/db.py ``PoolSizes``): SQLAlchemy's
    # pool (kept, and opened for a burst then closed) and the move writer's asyncpg pool.
    db_pool_size: int = 8
    db_pool_overflow: int = 7
    move_pool_size: int = 10
    # Every this many seconds each worker freezes what survived its young collections, so the
    # collector's full passes skip the open sockets' objects (app/gc_tuning.py); 0: only once,
    # at startup (COVEN_GC_FREEZE_SECONDS=0). Each tick's collection holds the loop for what was
    # made since the last: at 3 s, move p99 stayed under 0.1 s beside 19,000 sockets (benchmarks/
    # README.md, "The tick's own count").
    gc_freeze_seconds: float = 3.0

    @classmethod
    def from_env(cls) -> Settings:
        base = cls()
        return cls(
            database_url=os.environ.get("COVEN_DATABASE_URL") or DEFAULT_DATABASE_URL,
            database_schema=os.environ.get("COVEN_DATABASE_SCHEMA") or None,
            redis_url=os.environ.get("COVEN_REDIS_URL") or None,
            bot_delay=_float("COVEN_BOT_DELAY", base.bot_delay),
            bot_processes=_int_or_none("COVEN_BOT_PROCESSES"),
            bot_budget_ms=_int_or_none("COVEN_BOT_BUDGET_MS"),
            bot_pace=os.environ.get("COVEN_BOT_PACE", "1") != "0",
            sweep_seconds=_float("COVEN_SWEEP_SECONDS", base.sweep_seconds),
            results_sweep_seconds=_float("COVEN_RESULTS_SWEEP_SECONDS", base.results_sweep_seconds),
            max_frame_bytes=_int("COVEN_MAX_FRAME_BYTES", base.max_frame_bytes),
            max_body_bytes=_int("COVEN_MAX_BODY_BYTES", base.max_body_bytes),
            max_url_bytes=_int("COVEN_MAX_URL_BYTES", base.max_url_bytes),
            chat_max_chars=_int("COVEN_CHAT_MAX_CHARS", base.chat_max_chars),
            chat_burst=_int("COVEN_CHAT_BURST", base.chat_burst),
            chat_window_seconds=_float("COVEN_CHAT_WINDOW_SECONDS", base.chat_window_seconds),
            chat_seat_burst=_int("COVEN_CHAT_SEAT_BURST", base.chat_seat_burst),
            chat_client_burst=_int("COVEN_CHAT_CLIENT_BURST", base.chat_client_burst),
            migrate_on_start=os.environ.get("COVEN_MIGRATE_ON_START", "1") != "0",
            ws_deflate=os.environ.get("COVEN_WS_DEFLATE", "0") == "1",
            ws_ping_interval=_float("COVEN_WS_PING_INTERVAL", base.ws_ping_interval),
            ws_ping_timeout=_float("COVEN_WS_PING_TIMEOUT", base.ws_ping_timeout),
            ws_send_queue=_int("COVEN_WS_SEND_QUEUE", base.ws_send_queue),
            ws_send_queue_bytes=_int("COVEN_WS_SEND_QUEUE_BYTES", base.ws_send_queue_bytes),
            ws_send_timeout=_float("COVEN_WS_SEND_TIMEOUT", base.ws_send_timeout),
            allowed_origins=_list("COVEN_ALLOWED_ORIGINS"),
            rooms_burst=_int("COVEN_ROOMS_BURST", base.rooms_burst),
            rooms_per_minute=_float("COVEN_ROOMS_PER_MINUTE", base.rooms_per_minute),
            sockets_per_client=_int("COVEN_SOCKETS_PER_CLIENT", base.sockets_per_client),
            refused_burst=_int("COVEN_REFUSED_BURST", base.refused_burst),
            refused_client_burst=_int("COVEN_REFUSED_CLIENT_BURST", base.refused_client_burst),
            refused_window_seconds=_float(
                "COVEN_REFUSED_WINDOW_SECONDS", base.refused_window_seconds
            ),
            public_url=_public_url(os.environ.get("COVEN_PUBLIC_URL")),
            public_profiles=os.environ.get("COVEN_PUBLIC_PROFILES", "1") != "0",
            rematch_seconds=_float("COVEN_REMATCH_SECONDS", base.rematch_seconds),
            clock_file=os.environ.get("COVEN_TEST_CLOCK_FILE") or None,
            push_contact=_push_contact(os.environ.get("COVEN_PUSH_CONTACT")),
            webhook_allow_private=os.environ.get("COVEN_WEBHOOK_ALLOW_PRIVATE", "0") == "1",
            notify_sweep_seconds=_float("COVEN_NOTIFY_SWEEP_SECONDS", base.notify_sweep_seconds),
            brew_printed_values=_brew_printed_values(os.environ.get("COVEN_BREW_PRINTED_VALUES")),
            metrics=os.environ.get("COVEN_METRICS", "0") == "1",
            metrics_token=os.environ.get("COVEN_METRICS_TOKEN") or None,
            log_format=log_format(os.environ.get("COVEN_LOG_FORMAT")),
            trusted_proxies=_trusted_proxies(os.environ.get("COVEN_TRUSTED_PROXIES")),
            drain_seconds=_float("COVEN_DRAIN_SECONDS", base.drain_seconds),
            redis_sharded=os.environ.get("COVEN_REDIS_SHARDED", "0") == "1",
            room_database_urls=_room_database_urls(
                os.environ.get("COVEN_ROOM_DATABASE_URLS"),
                os.environ.get("COVEN_DATABASE_URL") or DEFAULT_DATABASE_URL,
            ),
            db_pool_size=_int("COVEN_DB_POOL_SIZE", base.db_pool_size),
            db_pool_overflow=_int("COVEN_DB_POOL_OVERFLOW", base.db_pool_overflow),
            move_pool_size=_int("COVEN_MOVE_POOL_SIZE", base.move_pool_size),
            gc_freeze_seconds=_float("COVEN_GC_FREEZE_SECONDS", base.gc_freeze_seconds),
        )
