"""Issue 11.2: a slow or silent socket never slows a room."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from tests.server.hardening import peer_closed, silent_socket, sqlite_with
from tests.support.client import Client, open_room
from tests.support.server import ThreadServer

LINE = 15_000  # big chat lines fill a silent socket's kernel buffers (~3 MB) within seconds


async def test_a_spectator_that_stops_reading_never_delays_the_room(tmp_path: Path) -> None:
    settings = sqlite_with(
        tmp_path,
        chat_max_chars=LINE,
        chat_burst=1_000_000,
        chat_seat_burst=1_000_000,
        chat_client_burst=1_000_000,
        ws_send_queue=64,
    )
    with ThreadServer(settings) as server:
        code, (a, b) = await open_room(server.url, "test-guess", ["A", "B"])
        for client in (a, b):
            await client.connect(code)
        silent = silent_socket(server.port, f"/ws/rooms/{code}")
        try:
            await b.until(
                lambda: any(m["type"] == "presence" and m["spectators"] == 1 for m in b.messages),
                what="the silent spectator in presence",
            )
            # 400 lines of 15 KB = 6 MB for the silent socket: far more than the kernel holds.
            for i in range(400):
                mark = len(b.messages)
                sent = time.monotonic()
                await a.send({"type": "chat", "text": f"{i:04d}" + "x" * (LINE - 10)})
                await b.next_of("chat", mark, timeout=3)
                # Each line reaches B at once, however full the silent socket is.
                lag = time.monotonic() - sent
                assert lag < 1.0, f"line {i} took {lag:.2f} s to reach B"

            # A move is pushed at once too, and the silent socket has been dropped.
            assert (await a.http.post(f"/api/rooms/{code}/start")).status_code == 200
            await b.at_version(0, timeout=2)
            started = time.monotonic()
            assert (await a.act({"type": "pick", "value": 1}))["type"] == "ack"
            await b.at_version(1, timeout=2)
            assert time.monotonic() - started < 1.0
            closed = await asyncio.to_thread(peer_closed, silent)
            assert closed, "the silent socket is still open"
            await b.until(
                lambda: any(
                    m["type"] == "presence" and m["spectators"] == 0 for m in b.messages[-5:]
                ),
                what="presence without the dropped spectator",
            )
        finally:
            silent.close()
            for client in (a, b):
                await client.close()


async def test_a_dropped_reader_reconnects_and_resyncs(tmp_path: Path) -> None:
    """The socket that was dropped for falling behind comes back like any reconnect: the full
    state and recent chat."""
    settings = sqlite_with(
        tmp_path, chat_burst=1_000_000, chat_seat_burst=1_000_000, chat_client_burst=1_000_000
    )
    with ThreadServer(settings) as server:
        code, (a, b) = await open_room(server.url, "test-guess", ["A", "B"])
        await a.connect(code)
        assert (await a.http.post(f"/api/rooms/{code}/start")).status_code == 200
        await a.at_version(0)
        assert (await a.act({"type": "pick", "value": 2}))["type"] == "ack"
        again = Client(server.url, b.token, 1)
        await again.connect(code)
        state = await again.at_version(1)
        assert state["seat"] == 1 and state["legal"]
        for client in (a, again):
            await client.close()


class NeverSends:
    """A socket whose every send blocks forever (its peer's buffers are full)."""

    def __init__(self) -> None:
        self.started = 0

    async def send_text(self, data: str) -> None:
        self.started += 1
        await asyncio.Event().wait()


async def test_queueing_for_a_stuck_socket_never_waits_and_drops_it() -> None:
    from app.rooms.hub import Connection

    stuck = NeverSends()
    conn = Connection(stuck, "room", None, queue_limit=32)
    try:
        began = time.monotonic()
        results = []
        for i in range(100):
            sent = conn.send(f"message {i}")
            if asyncio.iscoroutine(sent):  # a send that waits for the socket
                sent = await asyncio.wait_for(sent, 10)
            results.append(sent)
            await asyncio.sleep(0)
        assert time.monotonic() - began < 0.5, "queueing waited for the socket"
        assert conn.dropped.is_set() and "behind" in conn.drop_reason
        assert results[:32] == [True] * 32 and results[-1] is False
        assert stuck.started == 1  # one send in flight, the rest never handed to it
    finally:
        conn.close()
