"""Helpers of the hardening tests: raw sockets that misbehave, settings that tolerate older
``Settings`` (so the tests also run, and fail, against code without the new limits)."""

from __future__ import annotations

import base64
import dataclasses
import os
import socket
import time
from pathlib import Path
from typing import Any

from app.settings import Settings


def settings_with(base: Settings, **overrides: Any) -> Settings:
    """``base`` with the overrides this version of ``Settings`` knows."""
    known = {f.name for f in dataclasses.fields(Settings)}
    return dataclasses.replace(base, **{k: v for k, v in overrides.items() if k in known})


def sqlite_with(tmp_path: Path, **overrides: Any) -> Settings:
    base = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}", bot_delay=0, sweep_seconds=0.5
    )
    return settings_with(base, **overrides)


def handshake(path: str, port: int, extra: str = "") -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"{extra}\r\n"
    ).encode()


def silent_socket(port: int, path: str) -> socket.socket:
    """A WebSocket that completes its handshake, then never reads again (a tiny receive
    buffer, so the server's side fills up as soon as its kernel buffer does)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    sock.sendall(handshake(path, port))
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(1)
        if not chunk:
            raise ConnectionError("closed during the handshake")
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def peer_closed(sock: socket.socket, within: float = 5.0) -> bool:
    """Whether the server closes (or resets) this silent socket within ``within`` seconds:
    read what it had buffered, up to the end of the stream."""
    sock.settimeout(0.2)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if not sock.recv(1 << 20):
                return True
        except TimeoutError:
            continue
        except ConnectionError:
            return True
    return False
