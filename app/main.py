"""The app factory: ``create_app(settings)`` wires store, bus, RoomService, hub and bots."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import importlib.util
import logging
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import wire
from app.api import circles, http, probes, profiles, ws
from app.api import fairness as fairness_api
from app.api import metrics as metrics_api
from app.api import push as push_api
from app.api import rematch as rematch_api
from app.api import results as results_api
from app.api import webhooks as webhooks_api
from app.api.deps import Limits, Services
from app.api.same_origin import SameOriginGuard
from app.bus import make_bus
from app.clock import make_clock
from app.drain import Drain
from app.errors import CovenError
from app.fairness.document import DOCUMENT_PATHS, MAX_DOCUMENT_BYTES
from app.gc_tuning import GcTuning
from app.logs import redact_tokens_in_logs
from app.notify.service import Notify
from app.observability import json_logs, metrics, tracing
from app.profiles.service import ProfileService
from app.results.service import Results
from app.rooms.bots import BotRunner
from app.rooms.hub import Hub
from app.rooms.rematch import Rematches
from app.rooms.service import RoomService
from app.settings import Settings
from app.static_assets import static_assets
from app.store.db import PoolSizes, make_engine, migrate
from app.store.rematches import RematchStore
from app.store.room_shards import (
    migrate_room_databases,
    open_room_databases,
    room_databases,
)
from app.text import MAX_JSON_DEPTH, json_depth

log = logging.getLogger(__name__)

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    429: "rate_limited",
}

# Pages may load only this server's own scripts, styles, images and sockets, and no other
# site may frame them (the one inline script: the pages' import map, by its hash,
# app/static_assets.py). The API docs (Swagger UI, ReDoc) load their assets from a CDN.
CSP = (
    f"default-src 'self'; script-src 'self' {static_assets().import_map_hash}; "
    "style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
_NO_CSP = ("/docs", "/redoc")
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
_BODY_METHODS = {"POST", "PUT", "PATCH"}
DRAIN_BYTES = 1024 * 1024
DRAIN_SECONDS = 2.0


def _error(status: int, code: str, message: str) -> JSONResponse:
    metrics.refused(code)
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


class RequestGuard:
    """Limits that hold however a request is framed, before any handler runs:

    - bodies over ``max_body_bytes`` get 413 whether announced by Content-Length or sent
      chunked (the body is counted as it arrives, never read past the limit);
    - an API body must be JSON nested at most ``MAX_JSON_DEPTH`` deep, with no lone surrogate
      (400 ``bad_json`` / 422 ``too_deep``), checked once here for every route;
    - a request or WebSocket handshake whose path and query exceed ``max_url_bytes`` gets 414;
    - every response carries the security headers (CSP, nosniff, no referrer, no framing).
    """

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.max_body = settings.max_body_bytes
        self.max_url = settings.max_url_bytes

    def _url_bytes(self, scope: Scope) -> int:
        return len(scope.get("raw_path") or scope.get("path", "").encode()) + len(
            scope.get("query_string", b"")
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if self._url_bytes(scope) > self.max_url:
                await _deny_websocket(receive, send, 414, "too_large", self._url_message())
                return
            # uvicorn's protocol object is behind its ``send``: a socket whose peer stopped
            # reading can then be cut (ws.py) instead of waiting forever to flush.
            protocol = getattr(send, "__self__", None)
            abort = getattr(getattr(protocol, "transport", None), "abort", None)
            # Added to the scope in place (uvicorn made it for this socket alone): a copy
            # would stay alive beside it as long as the socket is open.
            if callable(abort):
                scope["coven.abort"] = abort
            send_now = getattr(protocol, "send_text_now", None)
            if callable(send_now):
                scope["coven.send_now"] = send_now  # the hub writes frames without awaiting
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_security_headers(scope, send)
        if self._url_bytes(scope) > self.max_url:
            await _error(414, "too_large", self._url_message())(scope, receive, send)
            return
        # An exported match is posted whole to be verified or opened (app/fairness).
        limit = MAX_DOCUMENT_BYTES if scope["path"] in DOCUMENT_PATHS else self.max_body
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            await self._too_large(scope, receive, send)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > limit:
                await self._too_large(scope, receive, send)
                return
            more = bool(message.get("more_body", False))
        if body and scope.get("method") in _BODY_METHODS and scope["path"].startswith("/api/"):
            refusal = _json_refusal(bytes(body))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, replay, sending)
        except Exception:
            # Never a bare 500 with a traceback for the user: the database or the bus failed
            # under this request; the client may retry.
            log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if not started:
                response = _error(503, "unavailable", "the server could not do this now; retry")
                response.headers["retry-after"] = "1"
                await response(scope, replay, send)

    def _url_message(self) -> str:
        return f"the path and query are limited to {self.max_url} bytes"

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = wire.dumps(
            {
                "error": {
                    "code": "too_large",
                    "message": f"bodies are limited to {self.max_body} bytes",
                }
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body, "more_body": True})
        # The answer is out; read (and drop) a little more of what the client is still
        # sending, so it can read the answer before the connection closes under it. Never
        # more than DRAIN_BYTES: the rest of the body is not read at all.
        drained = 0
        with contextlib.suppress(Exception):
            async with asyncio.timeout(DRAIN_SECONDS):
                while drained < DRAIN_BYTES:
                    message = await receive()
                    if message["type"] != "http.request":
                        break
                    drained += len(message.get("body", b""))
                    if not message.get("more_body", False):
                        break
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def _json_refusal(body: bytes) -> JSONResponse | None:
    try:
        value = wire.loads(body)
    except ValueError as exc:
        if "depth" in str(exc):
            return _error(422, "too_deep", f"JSON is nested deeper than {MAX_JSON_DEPTH}")
        return _error(400, "bad_json", f"the body is not valid JSON ({exc})")
    if json_depth(value) > MAX_JSON_DEPTH:
        return _error(422, "too_deep", f"JSON is nested deeper than {MAX_JSON_DEPTH}")
    return None


async def _deny_websocket(receive: Receive, send: Send, status: int, code: str, text: str) -> None:
    """Answer a WebSocket handshake with a plain HTTP error (the socket never opens)."""
    await receive()  # websocket.connect
    body = wire.dumps({"error": {"code": code, "message": text}}).encode()
    await send(
        {
            "type": "websocket.http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), *SECURITY_HEADERS],
        }
    )
    await send({"type": "websocket.http.response.body", "body": body})


def _with_security_headers(scope: Scope, send: Send) -> Send:
    path: str = scope.get("path", "")
    csp = not path.startswith(_NO_CSP)
    api = path.startswith("/api/")

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers") or [])
            present = {name.lower() for name, _ in headers}
            extra = [h for h in SECURITY_HEADERS if h[0] not in present]
            if csp and b"content-security-policy" not in present:
                extra.append((b"content-security-policy", CSP.encode()))
            if api and b"cache-control" not in present:
                # Create and join answers carry a seat token: never keep them in a cache.
                extra.append((b"cache-control", b"no-store"))
            message = {**message, "headers": headers + extra}
        await send(message)

    return sending


def _install_error_handlers(app: FastAPI) -> None:
    async def coven_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, CovenError)
        metrics.refused(exc.code)
        response = JSONResponse(exc.body(), status_code=exc.status)
        if exc.status == 429:
            response.headers["retry-after"] = str(max(1, math.ceil(exc.retry_after or 1)))
        return response

    async def validation_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        first = errors[0] if errors else {}
        if first.get("type") == "json_invalid":
            return _error(400, "bad_json", "the body is not valid JSON")
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
        return _error(422, "validation_error", f"{where}: {first.get('msg', 'invalid')}")

    async def http_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail))

    app.add_exception_handler(CovenError, coven_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)


def _include_pages(app: FastAPI) -> None:
    """The browser pages live in ``app.pages`` (owned by the front-end); optional here."""
    if importlib.util.find_spec("app.pages") is None:
        return
    pages = importlib.import_module("app.pages")
    app.include_router(pages.router)
    app.include_router(importlib.import_module("app.rules_pages").router)


class CovenApp(FastAPI):
    """FastAPI, with the room socket taken before its stack: a socket lives for hours, and
    every layer it passes through (telemetry, body limit, error and exception middleware,
    router, exit stack) keeps a frame alive for all that time. The guard's checks still
    apply (``RequestGuard`` wraps the socket handler alone)."""

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.socket_guard = RequestGuard(ws.room_socket_asgi, settings=settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        json_logs.bind(scope)  # this connection's ids in its log lines (COVEN_LOG_FORMAT=json)
        if scope["type"] == "websocket" and ws.ROOM_SOCKET.fullmatch(scope.get("path", "")):
            scope["app"] = self
            await self.socket_guard(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    if settings.metrics:
        metrics.enable()
    if settings.log_format == "json":
        json_logs.enable()
    tracing.configure_from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.migrate_on_start:
            await asyncio.to_thread(migrate, settings.database_url, settings.database_schema)
            await asyncio.to_thread(
                migrate_room_databases, settings.room_database_urls, settings.database_schema
            )
        pools = PoolSizes(settings.db_pool_size, settings.db_pool_overflow, settings.move_pool_size)
        engine = make_engine(settings.database_url, settings.database_schema, pools)
        metrics.watch_store(engine)
        bus = make_bus(settings)
        await bus.start()
        # Rooms in their own databases when COVEN_ROOM_DATABASE_URLS lists some.
        repo = await open_room_databases(
            engine, settings.room_database_urls, settings.database_schema, pools
        )
        rooms = room_databases(repo)  # where rooms are, for the stores beside them
        app.state.profiles = ProfileService(repo.db, settings, rooms=rooms)
        service = RoomService(repo, bus, make_clock(settings.clock_file))
        hub = Hub(service, bus)
        bots = BotRunner(service, settings)
        rematches = Rematches(service, RematchStore(repo), settings)
        results = app.state.results = Results(
            repo.db,
            public_profiles=settings.public_profiles,
            sweep_seconds=settings.results_sweep_seconds,
            rooms=rooms,
        )
        service.notices.on_move.append(results.recorder.after_move)
        notify = app.state.notify = Notify(repo.db, bus, settings, service, rooms)
        await service.changes.start()
        await hub.start()
        await bots.start()
        await rematches.start()
        await results.start()
        await notify.start()
        app.state.coven = Services(settings, bus, service, hub, bots, Limits(settings), rematches)
        # SIGTERM drains this worker first (app/drain.py), then uvicorn shuts it down.
        drain = app.state.drain = Drain(settings.drain_seconds, lambda: ws.drain_sockets(hub))
        drain.install()
        # Everything alive now (modules, mappers, schemas) lives as long as the process: keep
        # it out of the cyclic collector, whose full passes otherwise stall the loop ~100 ms.
        # Then every COVEN_GC_FREEZE_SECONDS what survived since, and sometimes one whole pass
        # that frees closed sockets' cycles (app/gc_tuning.py).
        gc.collect()
        gc.freeze()
        gc_tuning = app.state.gc_tuning = GcTuning(settings.gc_freeze_seconds)
        await gc_tuning.start()
        try:
            yield
        finally:
            await gc_tuning.close()
            await drain.close()
            await notify.close()
            await results.close()
            await rematches.close()
            await bots.close()
            await hub.close()
            await service.changes.close()
            await bus.close()
            await app.state.coven.limits.close()
            await repo.close()
            tracing.shutdown()
            metrics.process_exits()

    app = CovenApp(
        settings,
        title="Coven",
        version="0.1.0",
        summary="An online tabletop for witch card games",
        lifespan=lifespan,
    )
    _install_error_handlers(app)
    app.include_router(http.router)
    app.include_router(fairness_api.router)
    app.include_router(probes.router)
    app.include_router(ws.router)
    app.include_router(results_api.router)
    app.include_router(rematch_api.router)
    app.include_router(profiles.router)
    app.include_router(circles.router)
    app.include_router(push_api.router)
    app.include_router(webhooks_api.router)
    if settings.metrics:
        app.include_router(metrics_api.router)
    _include_pages(app)
    # Inside the guard: a refused request still gets the security headers.
    app.add_middleware(SameOriginGuard, settings=settings)
    app.add_middleware(RequestGuard, settings=settings)
    redact_tokens_in_logs()
    return app
