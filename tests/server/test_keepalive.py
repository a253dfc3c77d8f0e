"""Keepalive: a socket silent for the ping interval gets a ping and is closed when no pong
comes in time; a socket that talks (the browser client says ``ping`` every 25 s) is never
pinged — what it sent already shows it alive — and stays open without answering any ping."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from websockets.frames import Frame, Opcode

from tests.support.client import open_room
from tests.support.server import ProcessServer

INTERVAL = 2.0
TIMEOUT = 1.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ProcessServer]:
    env = {
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}",
        "COVEN_WS_PING_INTERVAL": str(INTERVAL),
        "COVEN_WS_PING_TIMEOUT": str(TIMEOUT),
    }
    process = ProcessServer(env).start()
    try:
        yield process
    finally:
        process.stop()


async def spectator(url: str, code: str, pings: list[float]) -> Any:
    """A spectator's socket that notes every ping the server sends and never answers one."""
    ws = await websockets.connect(url.replace("http://", "ws://") + f"/ws/rooms/{code}")
    protocol = ws.protocol
    answer = protocol.recv_frame

    def no_pong(frame: Frame) -> None:
        if frame.opcode is Opcode.PING:
            pings.append(asyncio.get_running_loop().time())
            return
        answer(frame)

    protocol.recv_frame = no_pong  # type: ignore[method-assign]
    return ws


async def read_all(ws: Any) -> None:
    with contextlib.suppress(websockets.ConnectionClosed):
        async for _ in ws:
            pass


async def test_a_silent_socket_is_pinged_and_closed_a_talking_one_never_pinged(
    server: ProcessServer,
) -> None:
    code, (host,) = await open_room(server.url, "test-guess", ["Host"])
    await host.http.aclose()
    loop = asyncio.get_running_loop()
    silent_pings: list[float] = []
    talking_pings: list[float] = []
    silent = await spectator(server.url, code, silent_pings)
    talking = await spectator(server.url, code, talking_pings)
    opened = loop.time()
    readers = [asyncio.create_task(read_all(ws)) for ws in (silent, talking)]

    async def talk() -> None:  # as the browser client does, only more often
        while loop.time() - opened < 3 * INTERVAL:
            await talking.send(json.dumps({"type": "ping"}))
            await asyncio.sleep(0.1)

    talker = asyncio.create_task(talk())
    # The silent one: pinged once the interval passed, closed when its pong never came.
    await asyncio.wait_for(readers[0], INTERVAL + TIMEOUT + 10)
    assert silent_pings, "the silent socket was closed without a ping"
    assert silent_pings[0] - opened >= INTERVAL - 0.5
    assert silent.close_code == 1011, silent.close_code

    # The talking one, meanwhile and for three intervals: never pinged, still open.
    await talker
    assert talking_pings == []
    assert not readers[1].done()
    await talking.close()
    await readers[1]
