"""Issue 11.5: seat tokens never reach a log or another site."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.typing import Origin, Subprotocol

from tests.server.conftest import sqlite_settings
from tests.server.hardening import settings_with
from tests.support.client import Client, open_room
from tests.support.server import ROOT, ThreadServer, free_port, wait_healthy


def ws_url(server: ThreadServer, code: str, query: str = "") -> str:
    return server.url.replace("http://", "ws://") + f"/ws/rooms/{code}{query}"


async def test_the_token_can_travel_as_a_subprotocol(sqlite_server: ThreadServer) -> None:
    code, (host, guest) = await open_room(sqlite_server.url, "test-guess", ["A", "B"])
    assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
    protocols = [Subprotocol("coven"), Subprotocol(f"coven.token.{guest.token}")]
    async with websockets.connect(ws_url(sqlite_server, code), subprotocols=protocols) as socket:
        assert socket.subprotocol == "coven"
        state = next(m for m in [await socket.recv() for _ in range(2)] if '"state"' in m)
        assert '"seat":1' in state
    # A forged one is refused like a forged ?token=.
    forged = [Subprotocol("coven"), Subprotocol("coven.token.forged")]
    async with websockets.connect(ws_url(sqlite_server, code), subprotocols=forged) as socket:
        assert '"bad_token"' in await socket.recv()
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await socket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    for client in (host, guest):
        await client.close()


async def test_sockets_from_another_site_are_refused(tmp_path: Path) -> None:
    base = settings_with(sqlite_settings(tmp_path), allowed_origins=("https://tables.example",))
    with ThreadServer(base) as server:
        code, (host,) = await open_room(server.url, "test-guess", ["A"])
        evil = Origin("https://evil.example")
        async with websockets.connect(ws_url(server, code), origin=evil) as socket:
            assert '"bad_origin"' in await socket.recv()
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await socket.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        for origin in (Origin(server.url), Origin("https://tables.example")):
            async with websockets.connect(ws_url(server, code), origin=origin) as socket:
                assert '"presence"' in await socket.recv()
        async with websockets.connect(ws_url(server, code)) as socket:  # no Origin: no browser
            assert '"presence"' in await socket.recv()
        await host.close()


async def test_pages_and_api_send_security_headers(sqlite_server: ThreadServer) -> None:
    code, (host,) = await open_room(sqlite_server.url, "test-guess", ["A"])
    async with httpx.AsyncClient(base_url=sqlite_server.url) as http:
        for path in ["/", f"/r/{code}", "/api/games", f"/api/rooms/{code}", "/static/js/client.js"]:
            headers = (await http.get(path)).headers
            assert headers.get("x-content-type-options") == "nosniff", path
            assert headers.get("referrer-policy") == "no-referrer", path
            assert headers.get("x-frame-options") == "DENY", path
            csp = headers.get("content-security-policy", "")
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        created = await http.post("/api/rooms", json={"game": "test-guess", "name": "B"})
        assert created.headers.get("cache-control") == "no-store"
    await host.close()


def test_no_token_reaches_the_access_log(tmp_path: Path) -> None:
    """``coven serve`` at log level info, a socket and a request with ``?token=``: the log
    has neither token."""
    port = free_port()
    log_path = tmp_path / "serve.log"
    env = {
        **os.environ,
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}",
        "COVEN_BOT_DELAY": "0",
    }
    command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--log-level", "info"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process)

        async def visit() -> list[str]:
            code, (host, guest) = await open_room(url, "whirling-witchcraft", ["A", "B"])
            await host.connect(code)  # ?token= in the URL
            watcher = Client(url, guest.token, 1)
            await watcher.connect(code)
            await host.until(lambda: any(m["type"] == "presence" for m in host.messages))
            async with httpx.AsyncClient(base_url=url) as http:
                await http.get(f"/api/rooms/{code}?token={guest.token}")
            for client in (host, guest, watcher):
                await client.close()
            return [t for t in (host.token, guest.token) if t]

        tokens = asyncio.run(visit())
        time.sleep(0.5)
    finally:
        process.terminate()
        process.wait(timeout=10)
    text = log_path.read_text()
    assert "WebSocket /ws/rooms/" in text, text[-2000:]  # the handshake was logged…
    for token in tokens:
        assert token not in text  # …without its token
    assert "token=[redacted]" in text
