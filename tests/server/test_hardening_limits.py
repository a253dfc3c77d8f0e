"""Issue 11.6: rate limits where they matter, per client address and per token, with clear
429 errors."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import websockets

from tests.server.hardening import sqlite_with
from tests.support.client import Client, open_room
from tests.support.server import ThreadServer


async def test_room_creation_is_limited_per_address(tmp_path: Path) -> None:
    with ThreadServer(sqlite_with(tmp_path, rooms_burst=5, rooms_per_minute=6)) as server:
        async with httpx.AsyncClient(base_url=server.url) as http:
            body = {"game": "test-guess", "name": "Flood"}
            statuses = [(await http.post("/api/rooms", json=body)).status_code for _ in range(30)]
            assert statuses[:5] == [201] * 5
            refused = await http.post("/api/rooms", json=body)
            assert refused.status_code == 429
            assert refused.json()["error"]["code"] == "rate_limited"
            assert "retry" in refused.json()["error"]["message"]
            assert int(refused.headers["retry-after"]) >= 1
            # The lobby is not flooded out.
            assert len((await http.get("/api/rooms")).json()) == 5


async def test_chat_is_limited_across_all_sockets_of_a_client(sqlite_server: ThreadServer) -> None:
    code, (_a, b) = await open_room(sqlite_server.url, "test-guess", ["A", "B"])
    sockets = [Client(sqlite_server.url) for _ in range(6)]
    for client in [b, *sockets]:
        await client.connect(code)
    await asyncio.sleep(0.2)
    # Each spectator socket stays under its own 5 lines per 10 s; together they do not.
    mark = len(b.messages)
    for i, client in enumerate(sockets):
        for j in range(4):
            await client.send({"type": "chat", "text": f"{i}.{j}"})
    await asyncio.sleep(1.0)
    refused = sum(
        m["type"] == "error" and m["code"] == "rate_limited"
        for client in sockets
        for m in client.messages
    )
    delivered = sum(m["type"] == "chat" for m in b.messages[mark:])
    assert refused > 0
    assert delivered <= 10
    for client in [b, *sockets]:
        await client.close()


async def test_sockets_per_client_are_limited(tmp_path: Path) -> None:
    with ThreadServer(sqlite_with(tmp_path, sockets_per_client=4)) as server:
        code, (host,) = await open_room(server.url, "test-guess", ["A"])
        url = server.url.replace("http://", "ws://") + f"/ws/rooms/{code}"
        held = [await websockets.connect(url) for _ in range(4)]
        async with websockets.connect(url) as extra:
            message = await extra.recv()
            assert '"too_many_sockets"' in str(message)
            try:
                await asyncio.wait_for(extra.recv(), 5)
            except websockets.ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 4429
        await held.pop().close()
        await asyncio.sleep(0.2)
        async with websockets.connect(url) as again:
            assert '"presence"' in str(await again.recv())
        for socket in held:
            await socket.close()
        await host.close()


async def test_a_client_spamming_refused_moves_is_cut_off_and_others_play_on(
    server: ThreadServer,
) -> None:
    code, (a, b, c) = await open_room(server.url, "test-guess", ["A", "B", "C"])
    for client in (a, b, c):
        await client.connect(code)
    assert (await a.http.post(f"/api/rooms/{code}/start")).status_code == 200
    await b.at_version(0)

    async def spam() -> list[str]:
        codes = []
        for _ in range(60):
            reply = await a.act({"type": "pick", "value": 99})
            codes.append(reply["code"])
        return codes

    codes = await spam()
    assert codes[0] == "bad_value"
    assert codes[-1] == "rate_limited"
    # Refused over HTTP too, answered before the table is touched.
    over_http = await a.http.post(
        f"/api/rooms/{code}/actions",
        json={"action": {"type": "pick", "value": 1}, "client_id": "h1"},
    )
    assert over_http.status_code == 429 and over_http.json()["error"]["code"] == "rate_limited"

    # Meanwhile the others' legal moves go through at once.
    spammer = asyncio.create_task(spam())
    started = time.monotonic()
    assert (await b.act({"type": "pick", "value": 1}))["type"] == "ack"
    assert (await c.act({"type": "pick", "value": 2}))["type"] == "ack"
    assert time.monotonic() - started < 2.0
    await spammer
    for client in (a, b, c):
        await client.close()


async def test_a_client_repeating_one_client_id_is_cut_off(sqlite_server: ThreadServer) -> None:
    """A duplicate is answered from the database under the table's lock: a flood of them is
    limited like refused moves."""
    code, (a, b) = await open_room(sqlite_server.url, "test-guess", ["A", "B"])
    for client in (a, b):
        await client.connect(code)
    assert (await a.http.post(f"/api/rooms/{code}/start")).status_code == 200
    await a.at_version(0)
    replies = [await a.act({"type": "pick", "value": 1}, client_id="same") for _ in range(40)]
    assert replies[0]["type"] == "ack" and not replies[0]["duplicate"]
    assert replies[1]["type"] == "ack" and replies[1]["duplicate"]
    assert replies[-1]["type"] == "error" and replies[-1]["code"] == "rate_limited"
    assert (await b.act({"type": "pick", "value": 2}))["type"] == "ack"
    for client in (a, b):
        await client.close()
