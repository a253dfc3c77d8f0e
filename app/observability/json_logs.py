"""JSON log lines (``COVEN_LOG_FORMAT=json``): one object per line, for a log collector.

Each line has ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``; ``request_id``
(an HTTP request) or ``socket_id`` (a room socket) and ``room`` (its code) when the line was
written while serving one; ``exception`` (the traceback) when there is one. The message and
the traceback pass through ``app.logs.redact`` like every other log line: no seat token and
no rejoin link (its ``#…&token=…``) is ever written.

The ids live in context variables set once per connection (``bind``), at the entry of the
ASGI app: uvicorn serves each request and each socket in a task of its own, so they never
leak from one connection to the next. Off (plain text), ``bind`` is a flag test.
"""

from __future__ import annotations

import json
import logging
import os
import re
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from starlette.types import Scope

from app.logs import redact
from app.text import valid_room_code

FORMATS = ("text", "json")
ROOM_PATH = re.compile(r"/(?:api/rooms|ws/rooms|r)/([^/?#]+)")
_context: ContextVar[dict[str, str] | None] = ContextVar("coven_log_context", default=None)
_on = False


def log_format(raw: str | None) -> str:
    """``COVEN_LOG_FORMAT``: ``text`` (the default) or ``json``; anything else is refused."""
    value = (raw or "text").strip().lower()
    if value not in FORMATS:
        raise ValueError(f"COVEN_LOG_FORMAT must be 'text' or 'json', not {raw!r}")
    return value


def enable() -> None:
    """Connections bound from now on carry their ids into the log lines."""
    global _on
    _on = True


def bind(scope: Scope) -> None:
    """The ids of the connection this task serves: a request id (the proxy's ``X-Request-ID``
    when it sent a short one, else a fresh one) or a socket id, and the room in the path."""
    if not _on or scope["type"] not in ("http", "websocket"):
        return
    fields: dict[str, str] = {}
    if scope["type"] == "websocket":
        fields["socket_id"] = os.urandom(6).hex()
    else:
        given = dict(scope.get("headers") or ()).get(b"x-request-id", b"")
        ok = 0 < len(given) <= 64 and given.isascii() and given.replace(b"-", b"").isalnum()
        fields["request_id"] = given.decode() if ok else os.urandom(6).hex()
    found = ROOM_PATH.match(scope.get("path", ""))
    if found is not None and valid_room_code(found.group(1)):
        fields["room"] = found.group(1)
    _context.set(fields)


class JsonFormatter(logging.Formatter):
    """One JSON object per record (uvicorn's loggers and Coven's alike)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        context = _context.get()
        if context:
            line.update(context)
        room = getattr(record, "room", None)
        if isinstance(room, str):
            line["room"] = room
        if record.exc_info:
            line["exception"] = redact(self.formatException(record.exc_info))
        elif record.exc_text:
            line["exception"] = redact(record.exc_text)
        return json.dumps(line, ensure_ascii=False, default=str)


def uvicorn_log_config(level: str = "info") -> dict[str, Any]:
    """uvicorn's ``log_config`` writing every line (its own and Coven's) as JSON to stderr;
    each worker process applies it as it starts."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {"json": handler},
        "loggers": {
            "uvicorn": {"handlers": ["json"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper()},
            "uvicorn.access": {"handlers": ["json"], "level": level.upper(), "propagate": False},
        },
        "root": {"handlers": ["json"], "level": "INFO"},
    }
