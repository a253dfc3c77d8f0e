"""The room WebSocket: one per tab. The seat token takes the seat; no token watches.

The token comes as the subprotocol ``coven.token.{token}`` (offered with ``coven``, which the
server selects: browsers use this, so the token never sits in a URL), or as ``?token=`` (the
DESIGN contract, for outside clients; redacted from every log line).

Server → client: ``state``, ``presence``, ``chat``, ``ack``, ``error``, ``pong``.
Client → server: ``act``, ``chat``, ``ping``. A bad frame (malformed JSON, over the size
limit, too deep, unknown type) gets an ``error`` and the socket stays open. Everything sent to
a socket goes through its own bounded queue (``Connection``): a socket that stops reading is
dropped (close code 4408) and never slows its room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect, WebSocketState

from app import wire
from app.api.deps import Services
from app.drain import CLOSE_RESTART, Drain
from app.errors import CovenError
from app.limits import Window
from app.messages import AckMessage, ActMessage, ChatIn, ChatOut, ErrorMessage
from app.observability import metrics
from app.rooms.hub import CLOSE_TOO_SLOW, DROPPED, Connection, Hub
from app.rooms.keys import hash_token, room_channel
from app.text import MAX_JSON_DEPTH, clean_display, json_depth, valid_room_code

log = logging.getLogger(__name__)

router = APIRouter()

CLOSE_BAD_TOKEN = 4401
CLOSE_BAD_ORIGIN = 4403
CLOSE_NO_ROOM = 4404
CLOSE_TOO_MANY = 4429
SUBPROTOCOL = "coven"
TOKEN_PROTOCOL = "coven.token."
CLOSE_WAIT = 2.0
# The cancel message of a socket's task woken because its worker drains (app/drain.py).
DRAINING = "coven: worker draining"


def _error(code: str, message: str, client_id: str | None = None) -> str:
    metrics.refused(code)
    return ErrorMessage(code=code, message=message, client_id=client_id).model_dump_json()


def _origin_allowed(websocket: WebSocket, allowed: tuple[str, ...]) -> bool:
    """A browser page may open a socket only from this server's own origin (the Host it was
    reached by) or a configured one; clients that send no Origin (not browsers) may."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/")
    if "*" in allowed or origin in allowed:
        return True
    host = websocket.headers.get("host", "")
    return bool(host) and urlsplit(origin).netloc.lower() == host.lower()


def _token_and_protocol(
    websocket: WebSocket, query_token: str | None
) -> tuple[str | None, str | None]:
    offered: list[str] = list(websocket.scope.get("subprotocols") or [])
    token = query_token
    for protocol in offered:
        if protocol.startswith(TOKEN_PROTOCOL):
            token = protocol[len(TOKEN_PROTOCOL) :] or None
    return token, SUBPROTOCOL if SUBPROTOCOL in offered else None


async def _refuse(
    websocket: WebSocket, subprotocol: str | None, code: str, text: str, close: int
) -> None:
    """Open the socket only to say why it closes (a browser sees no HTTP error body)."""
    with contextlib.suppress(Exception):
        await websocket.accept(subprotocol=subprotocol)
        await asyncio.wait_for(websocket.send_text(_error(code, text)), CLOSE_WAIT)
        await asyncio.wait_for(websocket.close(close), CLOSE_WAIT)


def _client(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client is not None else "unknown"


# The room socket's path. ``RequestGuard`` (app/main.py) hands these handshakes straight to
# ``room_socket_asgi``; the router's route below stays for any other way in.
ROOM_SOCKET = re.compile(r"/ws/rooms/([^/]+)")


async def room_socket_asgi(scope: Scope, receive: Receive, send: Send) -> None:
    """The room socket as a bare ASGI app (what the router does, without its layers)."""
    match = ROOM_SOCKET.fullmatch(scope.get("path", ""))
    assert match is not None
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    token = query.get("token", [None])[-1]
    await room_socket(WebSocket(scope, receive, send), match.group(1), token)


@router.websocket("/ws/rooms/{code}")
async def room_socket(websocket: WebSocket, code: str, token: str | None = None) -> None:
    coven: Services = websocket.app.state.coven
    token, subprotocol = _token_and_protocol(websocket, token)
    drain: Drain = websocket.app.state.drain
    if drain.draining:
        # Not an error for the player: her client reconnects, to another worker.
        with contextlib.suppress(Exception):
            await websocket.accept(subprotocol=subprotocol)
            await asyncio.wait_for(websocket.close(CLOSE_RESTART, "service restart"), CLOSE_WAIT)
        return
    if not _origin_allowed(websocket, coven.settings.allowed_origins):
        await _refuse(
            websocket,
            subprotocol,
            "bad_origin",
            "this origin may not open room sockets",
            CLOSE_BAD_ORIGIN,
        )
        return
    client = _client(websocket)
    try:
        coven.limits.sockets.acquire(client)
    except CovenError as exc:
        await _refuse(websocket, subprotocol, exc.code, exc.message, CLOSE_TOO_MANY)
        return
    try:
        await _open(websocket, coven, code, token, subprotocol, client)
    finally:
        coven.limits.sockets.release(client)


async def _open(
    websocket: WebSocket,
    coven: Services,
    code: str,
    token: str | None,
    subprotocol: str | None,
    client: str,
) -> None:
    try:
        if not valid_room_code(code):
            raise CovenError("room_not_found", "no such room")
        # This worker's copy of the room when it knows the token (a crowd of spectators
        # joining reads the room once, not once each).
        room, seat = await coven.service.seat_for(code, token)
    except CovenError as exc:
        close = CLOSE_NO_ROOM if exc.code == "room_not_found" else CLOSE_BAD_TOKEN
        await _refuse(websocket, subprotocol, exc.code, exc.message, close)
        return
    except Exception:
        log.exception("socket for room %s could not open", code)
        await _refuse(websocket, subprotocol, "unavailable", "try again in a moment", 1011)
        return
    try:
        await websocket.accept(subprotocol=subprotocol)
    except Exception:
        return  # the peer left during the handshake
    settings = coven.settings
    conn = Connection(
        websocket,
        code,
        seat,
        client=client,
        token_hash=hash_token(token) if seat is not None and token else None,
        queue_limit=settings.ws_send_queue,
        queue_bytes_limit=settings.ws_send_queue_bytes,
        send_timeout=settings.ws_send_timeout,
        direct=websocket.scope.get("coven.send_now"),
    )
    try:
        await coven.hub.join(conn)
        if room.turn_seconds:
            # The server's time, which the table's turn clocks count down from (a table
            # without a clock needs none).
            conn.send(wire.dumps({"type": "clock", "now": coven.service.clock.now()}))
        with contextlib.suppress(CovenError):
            table = await coven.service.table(code)
            conn.sent_version = max(conn.sent_version, table.version_for(seat))
            conn.sent_match = max(conn.sent_match, table.version)
            conn.send(table.message_text(seat))
        for line in coven.hub.recent_chat(code):
            conn.send(line)
        # Served in this task (no task per socket beyond the one uvicorn gives it): a drop
        # wakes it while it waits for a frame.
        await _serve(websocket, coven, conn)
    except asyncio.CancelledError as exc:
        reason = exc.args[0] if exc.args else None
        if not (
            (conn.dropped.is_set() and reason == DROPPED)
            or (conn.close_code == CLOSE_RESTART and reason == DRAINING)
        ):
            raise
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()
    except (WebSocketDisconnect, ConnectionError):
        pass
    except Exception:
        if not conn.dropped.is_set() and websocket.client_state == WebSocketState.CONNECTED:
            log.exception("socket in room %s failed", code)
    finally:
        conn.receiving = None
        if conn.close_code == CLOSE_RESTART:
            await conn.flush(CLOSE_WAIT)  # its last acknowledgements go out before the close
        conn.close()
        with contextlib.suppress(BaseException):
            await coven.hub.leave(conn)
        await _close(websocket, conn)


async def _close(websocket: WebSocket, conn: Connection) -> None:
    if websocket.client_state != WebSocketState.CONNECTED:
        return
    abort = websocket.scope.get("coven.abort")
    if conn.dropped.is_set() and callable(abort) and not conn.close_code:
        # A peer that stopped reading would never take a close frame: cut the connection
        # (it reconnects and re-syncs like after any network loss).
        abort()
        return
    code = conn.close_code or (CLOSE_TOO_SLOW if conn.dropped.is_set() else 1000)
    try:
        await asyncio.wait_for(websocket.close(code, conn.drop_reason[:100] or None), CLOSE_WAIT)
    except Exception:
        if callable(abort):
            abort()


async def _serve(websocket: WebSocket, coven: Services, conn: Connection) -> None:
    limit = coven.settings.max_frame_bytes
    # A draining worker (app/drain.py) ends the loop after the message in hand.
    while not conn.dropped.is_set() and conn.close_code != CLOSE_RESTART:
        conn.receiving = asyncio.current_task()
        try:
            frame = await websocket.receive()
        finally:
            conn.receiving = None
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        raw = frame.get("text")
        if raw is None and frame.get("bytes") is not None:
            raw = frame["bytes"].decode("utf-8", errors="replace")
        if raw is None:
            continue
        if len(raw) * 4 > limit and len(raw.encode("utf-8", errors="replace")) > limit:
            conn.send(_error("frame_too_large", f"frames are limited to {limit} bytes"))
            continue
        try:
            message = wire.loads(raw)
        except ValueError as exc:
            if "depth" in str(exc):
                conn.send(_error("too_deep", f"JSON is nested deeper than {MAX_JSON_DEPTH}"))
            else:
                conn.send(_error("bad_json", f"this frame is not valid JSON ({exc})"))
            continue
        if not isinstance(message, dict):
            conn.send(_error("bad_message", "a message is a JSON object"))
            continue
        if json_depth(message) > MAX_JSON_DEPTH + 1:
            conn.send(_error("too_deep", f"JSON is nested deeper than {MAX_JSON_DEPTH}"))
            continue
        kind = message.get("type")
        try:
            if kind == "ping":
                conn.send('{"type":"pong"}')
            elif kind == "act":
                await _act(coven, conn, message)
            elif kind == "chat":
                await _chat(coven, conn, message)
            elif kind == "visible":
                await coven.hub.page_visible(conn, message.get("visible") is not False)
            else:
                shown = kind if isinstance(kind, str) and len(kind) <= 40 else "?"
                known = "act, chat, visible, ping"
                conn.send(_error("unknown_message", f"unknown message type {shown!r} ({known})"))
        except CovenError as exc:
            conn.send(_error(exc.code, exc.message))
        except asyncio.CancelledError:
            raise
        except Exception:
            # The database or the bus failed under this message: say so, keep the socket.
            log.exception("message %r in room %s failed", kind, conn.code)
            conn.send(_error("unavailable", "the server could not do this now; try again"))


def _drain_socket(conn: Connection) -> None:
    """Close this socket with 1012 once the message it is handling (a move in flight) is
    done; at once when it is waiting for the next frame."""
    conn.close_code = CLOSE_RESTART
    conn.drop_reason = "service restart"
    task = conn.receiving
    if task is not None and not task.done():
        task.cancel(DRAINING)


async def drain_sockets(hub: Hub) -> None:
    """Step 3 of the drain (app/drain.py): every room socket of this worker finishes what it
    is doing and closes with 1012; returns once they are all gone."""
    while hub.sockets():
        for room in list(hub.rooms.values()):
            for conn in list(room.connections):
                if conn.close_code != CLOSE_RESTART and not conn.dropped.is_set():
                    _drain_socket(conn)
        await asyncio.sleep(0.05)


def _chat_window(coven: Services, conn: Connection) -> tuple[Window, str]:
    """A seat's lines count for that seat alone (whoever shares its address); spectators'
    lines (no seat: anonymous) count per client address."""
    if conn.seat is not None:
        return coven.limits.chat, f"seat:{conn.code}:{conn.seat}"
    return coven.limits.spectator_chat, f"addr:{conn.client}"


async def _act(coven: Services, conn: Connection, message: dict[str, Any]) -> None:
    raw_id = message.get("client_id")
    client_id = raw_id if isinstance(raw_id, str) and len(raw_id) <= 100 else None
    try:
        act = ActMessage.model_validate(message)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        conn.send(_error("bad_message", f"{where}: {first.get('msg', 'invalid')}", client_id))
        return
    except CovenError as exc:
        conn.send(_error(exc.code, exc.message, client_id))
        return
    keys = (conn.client, f"{conn.code}:{conn.seat}")
    try:
        await coven.limits.refused.check(*keys)
    except CovenError as exc:
        conn.send(_error(exc.code, exc.message, act.client_id))
        return
    try:
        ack = await coven.service.act(conn.code, conn.seat, act.action, act.client_id, act.version)
    except CovenError as exc:
        await coven.limits.refused.note(*keys)
        conn.send(_error(exc.code, exc.message, act.client_id))
        return
    if ack.duplicate:
        # A repeat costs a database look-up under the table's lock: counted like a refusal.
        await coven.limits.refused.note(*keys)
    conn.send(
        AckMessage(
            client_id=ack.client_id, version=ack.version, duplicate=ack.duplicate
        ).model_dump_json()
    )


async def _chat(coven: Services, conn: Connection, message: dict[str, Any]) -> None:
    settings = coven.settings
    try:
        text = clean_display(ChatIn.model_validate(message).text)
    except ValidationError:
        conn.send(_error("bad_message", "chat needs a 'text' string"))
        return
    if not text:
        conn.send(_error("bad_message", "empty chat line"))
        return
    if len(text) > settings.chat_max_chars:
        conn.send(
            _error("chat_too_long", f"chat lines are limited to {settings.chat_max_chars} chars")
        )
        return
    now = time.monotonic()
    conn.chat_times = [t for t in conn.chat_times if now - t < settings.chat_window_seconds]
    if len(conn.chat_times) >= settings.chat_burst:
        conn.send(
            _error(
                "rate_limited",
                f"at most {settings.chat_burst} lines per {settings.chat_window_seconds:g} s",
            )
        )
        return
    window, key = _chat_window(coven, conn)
    await window.take(key)  # across every socket of this seat (or spectating address)
    conn.chat_times.append(now)
    room = await coven.service.room(conn.code, cached=True)
    record = room.seat(conn.seat) if conn.seat is not None else None
    name = record.name if record is not None else "spectator"
    line = await coven.service.repo.add_chat(room.id, conn.seat, name, text)
    await coven.bus.publish(
        room_channel(conn.code),
        ChatOut(seat=line.seat, name=line.name, text=line.text, at=line.created_at).model_dump(),
    )
