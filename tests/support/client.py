"""A table client for tests: HTTP calls plus one WebSocket whose messages a reader task keeps."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

TIMEOUT = 10.0
# A kept-alive connection is dropped after this long idle, well before the server's own limit
# (uvicorn closes one idle for 5 s): at the same 5 s a request could go out on a connection the
# server was closing ("Server disconnected" on a loaded machine).
LIMITS = httpx.Limits(keepalive_expiry=2.0)


class Client:
    def __init__(self, url: str, token: str | None = None, seat: int | None = None) -> None:
        self.url = url
        self.token = token
        self.seat = seat
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.AsyncClient(
            base_url=url, headers=headers, timeout=TIMEOUT, limits=LIMITS
        )
        self.ws: ClientConnection | None = None
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.versions: list[int] = []
        self._changed = asyncio.Condition()
        self._reader: asyncio.Task[None] | None = None
        self.code: str | None = None

    async def connect(self, code: str) -> Client:
        self.code = code
        query = f"?token={self.token}" if self.token else ""
        ws_url = self.url.replace("http://", "ws://") + f"/ws/rooms/{code}{query}"
        self.ws = await websockets.connect(ws_url, max_size=None)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                message = json.loads(raw)
                async with self._changed:
                    self.messages.append(message)
                    if message.get("type") == "state" and (
                        self.state is None or message["version"] >= self.state["version"]
                    ):
                        self.state = message
                        self.versions.append(message["version"])
                    self._changed.notify_all()

    async def until(
        self, predicate: Callable[[], bool], timeout: float = TIMEOUT, what: str = ""
    ) -> None:
        async def wait() -> None:
            async with self._changed:
                await self._changed.wait_for(predicate)

        try:
            await asyncio.wait_for(wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"timed out waiting for {what or predicate}") from None

    async def at_version(self, version: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        await self.until(
            lambda: self.state is not None and self.state["version"] >= version,
            timeout,
            f"version {version} at seat {self.seat}",
        )
        assert self.state is not None
        return self.state

    async def synced(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The state once this socket has what ``GET …/state`` says now. Versions are each
        reader's own (another seat's private step moves no one else's), so a test waits for
        each client by what the server holds for it, not by a version another client got."""
        answer = await self.http.get(f"/api/rooms/{self.code}/state")
        assert answer.status_code == 200, answer.text
        return await self.at_version(answer.json()["version"], timeout)

    async def next_of(self, kind: str, after: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The first message of ``kind`` received after the first ``after`` messages."""
        await self.until(
            lambda: any(m.get("type") == kind for m in self.messages[after:]),
            timeout,
            f"a {kind!r} message",
        )
        return next(m for m in self.messages[after:] if m.get("type") == kind)

    async def send(self, message: dict[str, Any] | str) -> None:
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def request(self, message: dict[str, Any] | str, kind: str) -> dict[str, Any]:
        """Send, then wait for the next ``kind`` message (``ack``, ``error``, ``pong``…)."""
        mark = len(self.messages)
        await self.send(message)
        return await self.next_of(kind, mark)

    async def act(
        self, action: dict[str, Any], version: int | None = None, client_id: str | None = None
    ) -> dict[str, Any]:
        """Act over the socket; returns the ``ack`` or ``error`` for this client_id."""
        cid = client_id or uuid.uuid4().hex
        mark = len(self.messages)
        message: dict[str, Any] = {"type": "act", "action": action, "client_id": cid}
        if version is not None:
            message["version"] = version
        await self.send(message)
        await self.until(
            lambda: any(
                m.get("type") in ("ack", "error") and m.get("client_id") == cid
                for m in self.messages[mark:]
            ),
            what=f"ack for {cid}",
        )
        return next(
            m
            for m in self.messages[mark:]
            if m.get("type") in ("ack", "error") and m.get("client_id") == cid
        )

    def random_legal(self, rng: random.Random) -> dict[str, Any] | None:
        if self.state is None or not self.state["legal"]:
            return None
        legal: list[dict[str, Any]] = self.state["legal"]
        return rng.choice(legal)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._reader, 2)
        await self.http.aclose()


async def open_room(
    url: str,
    game: str,
    names: list[str],
    *,
    options: dict[str, Any] | None = None,
    visibility: str = "public",
    turn_seconds: float | None = None,
) -> tuple[str, list[Client]]:
    """Create a room with ``names[0]`` as host, seat the others; returns unconnected clients."""
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT, limits=LIMITS) as http:
        body: dict[str, Any] = {
            "game": game,
            "name": names[0],
            "visibility": visibility,
            "options": options or {},
        }
        if turn_seconds is not None:
            body["turn_seconds"] = turn_seconds
        created = await http.post("/api/rooms", json=body)
        assert created.status_code == 201, created.text
        code = created.json()["room"]["code"]
        clients = [Client(url, created.json()["token"], 0)]
        for name in names[1:]:
            joined = await http.post(f"/api/rooms/{code}/join", json={"name": name})
            assert joined.status_code == 200, joined.text
            clients.append(Client(url, joined.json()["token"], joined.json()["seat"]))
    return code, clients
