"""uvicorn's WebSocket protocol, answering handshakes it cannot parse.

A handshake whose request line or headers exceed the parser's limits (8 KiB a line) gets a
414 / 431 prepared by ``websockets`` that uvicorn 0.54 never writes: the client then waits
forever on a half-open connection. This protocol writes that answer and closes.

Its keepalive pings only a socket that has been silent for the ping interval: one that
talks (the browser client says ``ping`` every 25 s) already shows it is alive, and a ping, its
pong and their timers for every socket every interval cost an idle worker most of its CPU.

It also lets the hub write a frame synchronously (``send_text_now``) when the transport can
take it, instead of one awaited ASGI ``send`` (and a task wake-up) per message per socket; the
frames one socket is sent in one turn of the event loop leave in one write.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState


class Inbox:
    """The part of ``asyncio.Queue`` uvicorn uses for a socket's incoming events, for its one
    reader: a list and at most one waiting future (an ``asyncio.Queue`` is three deques, an
    event and more, for every open socket). A list, not a deque (624 bytes empty, against 56):
    it holds one or two events at most, since uvicorn stops reading the socket while an event
    waits in it."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)

    async def get(self) -> Any:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


class Gate:
    """The part of ``asyncio.Event`` uvicorn uses for "the transport is writable"."""

    __slots__ = ("_open", "_waiters")

    def __init__(self) -> None:
        self._open = True
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._open

    def set(self) -> None:
        self._open = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._open = False

    async def wait(self) -> None:
        while not self._open:
            waiter = asyncio.get_running_loop().create_future()
            if self._waiters is None:
                self._waiters = []
            self._waiters.append(waiter)
            await waiter


class CovenWebSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Gate()  # type: ignore[assignment]
        self.heard_at = self.loop.time()  # when the peer last sent anything
        self.flush_soon = False  # frames wait in ``conn`` for ``_flush``, scheduled once

    def send_keepalive_ping(self) -> None:
        interval = self.ping_interval
        if interval:
            quiet = self.loop.time() - self.heard_at
            if quiet < interval:  # it spoke meanwhile: look again when it has been silent
                self.ping_timer = self.loop.call_later(interval - quiet, self.send_keepalive_ping)
                return
        super().send_keepalive_ping()

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message.get("type") == "websocket.accept" and self.handshake_complete:
            # The handshake's request and response are not needed again; every idle socket
            # would keep their headers otherwise. Emptied, not just let go: ``websockets``'
            # parser keeps the request in its frame for the life of the socket, and the scope
            # (and Starlette's view of it) keeps the headers as a list.
            self.request.headers.clear()
            self.request = None  # type: ignore[assignment]
            self.response = None  # type: ignore[assignment]
            headers = self.scope.get("headers")
            if isinstance(headers, list):
                headers.clear()

    def send_text_now(self, text: str) -> bool:
        """Write one text frame at once, when the connection is open and its transport is not
        paused (the peer keeps up); ``False``: send it the ASGI way, which waits."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        try:
            self.conn.send_text(text.encode())
        except InvalidState:
            return False
        # Written at the end of this turn of the loop, with whatever else this socket is sent
        # meanwhile: a mover's acknowledgement and her new state go out in one write. Any
        # other write of the connection (a pong, a close) takes the frame along, in order.
        if not self.flush_soon:
            self.flush_soon = True
            self.loop.call_soon(self._flush)
        return True

    def _flush(self) -> None:
        self.flush_soon = False
        if self.transport.is_closing():
            return
        data = self.conn.data_to_send()
        if data:
            self.transport.write(b"".join(data))

    def data_received(self, data: bytes) -> None:
        self.heard_at = self.loop.time()
        super().data_received(data)
        if (
            not self.handshake_initiated
            and self.conn.handshake_exc is not None
            and not self.transport.is_closing()
        ):
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.transport.close()
