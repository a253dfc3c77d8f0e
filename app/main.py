"""The app factory: ``create_app(settings)`` wires store, bus, RoomService, hub and bots."""

from __future__ import annotations

import asyncio
import gc
import importlib
import importlib.util
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api import http, ws
from app.api.deps import Services
from app.bus import make_bus
from app.errors import CovenError
from app.rooms.bots import BotRunner
from app.rooms.hub import Hub
from app.rooms.service import RoomService
from app.settings import Settings
from app.store.db import make_engine, migrate
from app.store.repository import Repository

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 * 1024

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    429: "rate_limited",
}


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


class BodyLimit:
    """Refuse request bodies over ``MAX_BODY_BYTES`` before reading them (413)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            length = dict(scope.get("headers") or []).get(b"content-length")
            if length is not None and length.isdigit() and int(length) > MAX_BODY_BYTES:
                response = _error(413, "too_large", f"bodies are limited to {MAX_BODY_BYTES} bytes")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _install_error_handlers(app: FastAPI) -> None:
    async def coven_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, CovenError)
        return JSONResponse(exc.body(), status_code=exc.status)

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


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.migrate_on_start:
            await asyncio.to_thread(migrate, settings.database_url, settings.database_schema)
        engine = make_engine(settings.database_url, settings.database_schema)
        bus = make_bus(settings)
        await bus.start()
        repo = Repository(engine)
        service = RoomService(repo, bus)
        hub = Hub(service, bus)
        bots = BotRunner(service, settings)
        await hub.start()
        await bots.start()
        app.state.coven = Services(settings, bus, service, hub, bots)
        # Everything alive now (modules, mappers, schemas) lives as long as the process: keep
        # it out of the cyclic collector, whose full passes otherwise stall the loop ~100 ms.
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            await bots.close()
            await hub.close()
            await bus.close()
            await repo.close()

    app = FastAPI(
        title="Coven",
        version="0.1.0",
        summary="An online tabletop for witch card games",
        lifespan=lifespan,
    )
    _install_error_handlers(app)
    app.include_router(http.router)
    app.include_router(ws.router)
    _include_pages(app)
    app.add_middleware(BodyLimit)
    return app
