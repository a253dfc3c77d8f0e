"""Seat tokens never reach a log line.

Outside clients may still open ``/ws/rooms/{code}?token=…`` (the DESIGN contract), and
uvicorn writes every request and handshake path, query included, to its logs; this filter
rewrites the token's value before any handler formats the line.
"""

from __future__ import annotations

import logging
import re
from typing import Any

_TOKEN = re.compile(r"((?:^|[?&;\s])token=)[^&\s\"']*", re.IGNORECASE)
REDACTED = "[redacted]"
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn")


def redact(text: str) -> str:
    return _TOKEN.sub(rf"\g<1>{REDACTED}", text) if "oken=" in text or "OKEN=" in text else text


def _clean(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        return True


def redact_tokens_in_logs() -> None:
    """Attach the filter to uvicorn's loggers (once; their handlers come and go)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
