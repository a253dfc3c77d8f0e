"""The room WebSocket: one per tab. ``?token=`` takes the seat; no token watches.

Server → client: ``state``, ``presence``, ``chat``, ``ack``, ``error``, ``pong``.
Client → server: ``act``, ``chat``, ``ping``. A bad frame (malformed JSON, over the size
limit, unknown type) gets an ``error`` and the socket stays open.
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from app.api.deps import Services
from app.errors import CovenError
from app.messages import AckMessage, ActMessage, ChatIn, ChatOut, ErrorMessage
from app.rooms.hub import Connection
from app.rooms.service import room_channel

router = APIRouter()

CLOSE_BAD_TOKEN = 4401
CLOSE_NO_ROOM = 4404


def _error(code: str, message: str, client_id: str | None = None) -> str:
    return ErrorMessage(code=code, message=message, client_id=client_id).model_dump_json()


@router.websocket("/ws/rooms/{code}")
async def room_socket(websocket: WebSocket, code: str, token: str | None = None) -> None:
    coven: Services = websocket.app.state.coven
    await websocket.accept()
    try:
        room = await coven.service.room(code)
        seat = coven.service.seat_of(room, token)
    except CovenError as exc:
        await websocket.send_text(_error(exc.code, exc.message))
        await websocket.close(CLOSE_NO_ROOM if exc.code == "room_not_found" else CLOSE_BAD_TOKEN)
        return
    conn = Connection(websocket, code, seat)
    await coven.hub.join(conn)
    try:
        with contextlib.suppress(CovenError):
            table = await coven.service.table(code)
            conn.sent_version = max(conn.sent_version, table.version)
            await websocket.send_text(table.message_text(seat))
        for line in await coven.service.repo.recent_chat(room.id):
            await websocket.send_text(
                ChatOut(
                    seat=line.seat, name=line.name, text=line.text, at=line.created_at
                ).model_dump_json()
            )
        await _serve(websocket, coven, conn, room.seats)
    except WebSocketDisconnect:
        pass
    except RuntimeError:
        # Sending on a socket the peer already closed (starlette's WebSocketDisconnected).
        if websocket.application_state == WebSocketState.CONNECTED and (
            websocket.client_state == WebSocketState.CONNECTED
        ):
            raise
    finally:
        await coven.hub.leave(conn)
        if websocket.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close()


async def _serve(websocket: WebSocket, coven: Services, conn: Connection, seats: Any) -> None:
    limit = coven.settings.max_frame_bytes
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        raw = frame.get("text")
        if raw is None and frame.get("bytes") is not None:
            raw = frame["bytes"].decode("utf-8", errors="replace")
        if raw is None:
            continue
        if len(raw) * 4 > limit and len(raw.encode("utf-8")) > limit:
            await websocket.send_text(
                _error("frame_too_large", f"frames are limited to {limit} bytes")
            )
            continue
        try:
            message = json.loads(raw)
        except ValueError:
            await websocket.send_text(_error("bad_json", "this frame is not valid JSON"))
            continue
        if not isinstance(message, dict):
            await websocket.send_text(_error("bad_message", "a message is a JSON object"))
            continue
        kind = message.get("type")
        if kind == "ping":
            await websocket.send_text('{"type":"pong"}')
        elif kind == "act":
            await _act(websocket, coven, conn, message)
        elif kind == "chat":
            await _chat(websocket, coven, conn, message)
        else:
            await websocket.send_text(
                _error("unknown_message", f"unknown message type {kind!r} (act, chat, ping)")
            )


async def _act(
    websocket: WebSocket, coven: Services, conn: Connection, message: dict[str, Any]
) -> None:
    client_id = message.get("client_id") if isinstance(message.get("client_id"), str) else None
    try:
        act = ActMessage.model_validate(message)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        await websocket.send_text(
            _error("bad_message", f"{where}: {first.get('msg', 'invalid')}", client_id)
        )
        return
    try:
        ack = await coven.service.act(conn.code, conn.seat, act.action, act.client_id, act.version)
    except CovenError as exc:
        await websocket.send_text(_error(exc.code, exc.message, act.client_id))
        return
    await websocket.send_text(
        AckMessage(
            client_id=ack.client_id, version=ack.version, duplicate=ack.duplicate
        ).model_dump_json()
    )


async def _chat(
    websocket: WebSocket, coven: Services, conn: Connection, message: dict[str, Any]
) -> None:
    settings = coven.settings
    try:
        text = ChatIn.model_validate(message).text.strip()
    except ValidationError:
        await websocket.send_text(_error("bad_message", "chat needs a 'text' string"))
        return
    if not text:
        await websocket.send_text(_error("bad_message", "empty chat line"))
        return
    if len(text) > settings.chat_max_chars:
        await websocket.send_text(
            _error("chat_too_long", f"chat lines are limited to {settings.chat_max_chars} chars")
        )
        return
    now = time.monotonic()
    conn.chat_times = [t for t in conn.chat_times if now - t < settings.chat_window_seconds]
    if len(conn.chat_times) >= settings.chat_burst:
        await websocket.send_text(
            _error(
                "rate_limited",
                f"at most {settings.chat_burst} lines per {settings.chat_window_seconds:g} s",
            )
        )
        return
    conn.chat_times.append(now)
    room = await coven.service.room(conn.code, cached=True)
    record = room.seat(conn.seat) if conn.seat is not None else None
    name = record.name if record is not None else "spectator"
    line = await coven.service.repo.add_chat(room.id, conn.seat, name, text)
    await coven.bus.publish(
        room_channel(conn.code),
        ChatOut(seat=line.seat, name=line.name, text=line.text, at=line.created_at).model_dump(),
    )
