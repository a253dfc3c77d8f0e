"""This worker's sockets, per room: fans committed versions, presence and chat out to them.

The bus says *that* a room changed; the hub renders each socket's own view from the
committed state, so no seat's secret ever crosses the bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from app import wire
from app.bus import Bus, Subscription
from app.bus.base import PRESENCE_REFRESH
from app.errors import CovenError
from app.fairness.public import fairness
from app.observability import metrics, move_watch
from app.rooms.keys import room_channel
from app.rooms.service import RoomService
from app.store.repository import ChatRecord

log = logging.getLogger(__name__)

SEND_TIMEOUT = 10.0
SEND_QUEUE = 256
SEND_QUEUE_BYTES = 1024 * 1024
RELEASE_SECONDS = 5.0
CLOSE_TOO_SLOW = 4408  # the client reconnects and re-syncs from the committed state
CLOSE_BAD_TOKEN = 4401  # the token holds no seat (any more): the client watches instead


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...


class Flag:
    """Set once, read often: what ``asyncio.Event`` would be here, without its waiters."""

    __slots__ = ("_set",)

    def __init__(self) -> None:
        self._set = False

    def set(self) -> None:
        self._set = True

    def is_set(self) -> bool:
        return self._set


@dataclass(eq=False, slots=True)
class Connection:
    """One socket: what it has seen, and its own bounded outgoing queue.

    Fan-out never awaits a socket. A message goes straight onto the socket's transport when
    nothing is waiting before it and the transport takes it (``direct``: the usual case, no
    task and no wake-up per message); otherwise it waits in the queue, which a writer task
    (started then, gone once the queue is empty) sends in order. A consumer that lets
    ``queue_limit`` messages pile up, or whose send takes longer than ``send_timeout``, or
    whose queue holds over ``queue_bytes_limit``, is dropped: its room never waits for it.
    """

    socket: Socket
    code: str
    seat: int | None
    client: str = ""  # the client's address (rate limits)
    # The seat token's hash: seats move (a gap closed at the start) or vanish (removed, left)
    # before the start, and each "room" message looks the socket's seat up again.
    token_hash: str | None = None
    close_code: int = 0  # when set, the close code this socket is dropped with
    # The version last sent, in this socket's own numbering (its seat's, or a spectator's:
    # app/rooms/private_steps.py), and the match version it was sent at.
    sent_version: int = -1
    sent_match: int = -1
    # Whether the page is in view (the page says so with a ``visible`` message; a page that
    # never does counts as visible): a seat with a visible tab gets no push for its turn.
    visible: bool = True
    chat_times: list[float] = field(default_factory=list)
    queue_limit: int = SEND_QUEUE
    queue_bytes_limit: int = SEND_QUEUE_BYTES
    send_timeout: float = SEND_TIMEOUT
    # Writes one text frame at once if the transport can take it now (``False``: it cannot,
    # queue it). ``None``: always queue.
    direct: Callable[[str], bool] | None = None
    # The task serving this socket, while it waits for the peer's next frame: woken
    # (cancelled with ``DROPPED``) when the socket is dropped.
    receiving: asyncio.Task[Any] | None = None
    dropped: Flag = field(default_factory=lambda: Flag())
    drop_reason: str = ""
    # Made when a message must wait, let go once the writer has sent it all: an empty deque
    # is 624 bytes, on every idle socket.
    _queue: deque[str] | None = None
    _queued_bytes: int = 0  # characters, a lower bound of the bytes
    _writer: asyncio.Task[None] | None = None

    def send(self, text: str) -> bool:
        """Send or queue ``text`` for this socket; ``False`` when it is (now) dropped."""
        if self.dropped.is_set():
            return False
        if self._writer is None and self.direct is not None and self.direct(text):
            return True
        queue = self._queue
        if queue is None:
            queue = self._queue = deque()
        if len(queue) >= self.queue_limit:
            self.drop(f"fell {self.queue_limit} messages behind")
            return False
        if queue and self._queued_bytes + len(text) > self.queue_bytes_limit:
            self.drop(f"fell {self.queue_bytes_limit} bytes behind")
            return False
        self._queued_bytes += len(text)
        queue.append(text)
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())
        return True

    def drop(self, reason: str) -> None:
        if self.dropped.is_set():
            return
        self.drop_reason = reason
        self._queue = None
        self._queued_bytes = 0
        self.dropped.set()
        current = asyncio.current_task()
        for task in (self._writer, self.receiving):
            if task is not None and task is not current and not task.done():
                task.cancel(DROPPED)

    def close(self) -> None:
        """The socket is gone: stop its writer."""
        if self._writer is not None and self._writer is not asyncio.current_task():
            self._writer.cancel()
        self._writer = None

    def pending(self) -> int:
        return len(self._queue) if self._queue is not None else 0

    async def flush(self, seconds: float) -> None:
        """Wait, at most ``seconds``, until what is queued for this socket has been sent (a
        socket closed on purpose still gets its acknowledgements first)."""
        writer = self._writer
        if writer is None or writer is asyncio.current_task():
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(writer), seconds)

    async def _write(self) -> None:
        """The writer: send queued messages in order, then end (the next message that finds
        the transport ready goes straight to it again)."""
        try:
            while (queue := self._queue) and not self.dropped.is_set():
                text = queue.popleft()
                self._queued_bytes -= len(text)
                try:
                    await asyncio.wait_for(self.socket.send_text(text), self.send_timeout)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    self.drop(f"send failed: {type(exc).__name__}")
        finally:
            if self._writer is asyncio.current_task():
                self._writer = None
                if not self._queue:
                    self._queue = None


# The cancel message of a task woken because its socket was dropped.
DROPPED = "coven: socket dropped"


def chat_text(line: ChatRecord) -> str:
    """A chat line as every socket gets it (the same text the bus message makes)."""
    return wire.dumps(
        {
            "type": "chat",
            "seat": line.seat,
            "name": line.name,
            "text": line.text,
            "at": line.created_at,
        }
    )


class Throttle:
    """Runs ``action`` soon after ``poke()``: at once if it has not run for ``interval``,
    else once when the interval ends, however often it was poked meanwhile."""

    __slots__ = ("_last", "_task", "action", "interval")

    def __init__(self, action: Callable[[], Awaitable[None]], interval: float) -> None:
        self.action = action
        self.interval = interval
        self._last = -interval
        self._task: asyncio.Task[None] | None = None

    def poke(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        wait = self._last + self.interval - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self._task = None  # a poke from now on runs it again (after the interval)
        self._last = loop.time()
        try:
            await self.action()
        except Exception:
            log.exception("presence update failed")

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None


CHAT_KEPT = 50  # chat lines a (re)connecting socket gets

# Public notices every socket of a room gets as they are (no seat's secret in them): a rematch
# opened (``{"code"}``: the new room) and a change of its rules (app/rooms/rematch.py).
PUBLIC_NOTICES = frozenset({"rematch", "rematch_rules"})

# Presence changes (sockets joining and leaving) reach a room's sockets at most this often:
# a crowd of spectators arriving costs a few messages to each socket, not one per arrival.
PRESENCE_INTERVAL = 0.2
# Rooms refreshed between two turns of the event loop (the periodic presence refresh).
PRESENCE_SLICE = 16


@dataclass(eq=False, slots=True)
class RoomHub:
    code: str
    subscription: Subscription
    connections: set[Connection] = field(default_factory=set)
    reader: asyncio.Task[None] | None = None
    last_presence: str = ""  # the presence text this worker last sent to the room's sockets
    announce: Throttle | None = None  # tells every worker that this worker's sockets changed
    show: Throttle | None = None  # sends the room's presence to this worker's sockets
    # The latest chat lines as sent (what a new socket gets), read once when the room opens
    # here, then kept from the bus: a crowd joining does not read the chat once each.
    chat: deque[str] = field(default_factory=lambda: deque(maxlen=CHAT_KEPT))
    # The reader is handling a message (it may be inside a database read), and whether the
    # room has closed here meanwhile (its last socket left): it stops after that message.
    dispatching: bool = False
    closed: bool = False


class Hub:
    def __init__(self, service: RoomService, bus: Bus) -> None:
        self.service = service
        self.tables = service.tables
        self.bus = bus
        self.worker = uuid.uuid4().hex
        self.rooms: dict[str, RoomHub] = {}
        self._opening: dict[str, asyncio.Lock] = {}
        self._refresher: asyncio.Task[None] | None = None
        self._releaser: asyncio.Task[None] | None = None
        self._resyncs: set[asyncio.Task[None]] = set()
        bus.on_reconnect(self._on_reconnect)

    async def start(self) -> None:
        self._refresher = asyncio.create_task(self._refresh_presence(), name="presence-refresh")
        self._releaser = asyncio.create_task(self._release_idle(), name="release-idle")

    async def _release_idle(self) -> None:
        """Ended matches and rooms nobody here watches are released (bot matches, HTTP-only
        clients, lobby look-ups): a long-running worker's memory stays flat."""
        while True:
            await asyncio.sleep(RELEASE_SECONDS)
            self.tables.release_idle(set(self.rooms))

    async def close(self) -> None:
        stopping: list[asyncio.Task[Any]] = []
        for task in (self._refresher, self._releaser, *self._resyncs):
            if task is not None:
                task.cancel()
                stopping.append(task)
        for room in list(self.rooms.values()):
            if room.reader is not None:
                room.reader.cancel()
                stopping.append(room.reader)
            for throttle in (room.announce, room.show):
                if throttle is not None:
                    throttle.cancel()
            room.subscription.close()
            with contextlib.suppress(Exception):
                await self.bus.set_presence(room.code, self.worker, {})
        self.rooms.clear()
        # Wait for them to end: one cancelled in the middle of a read must hand its pooled
        # connection back before the store closes, not be collected with it later.
        for task in stopping:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 5)

    def _on_reconnect(self) -> None:
        task = asyncio.get_running_loop().create_task(self.resync_all(), name="hub-resync")
        self._resyncs.add(task)
        task.add_done_callback(self._resyncs.discard)

    async def resync_all(self) -> None:
        """Every socket of this worker gets the committed state and presence now (the bus
        lost messages: Redis went away and came back)."""
        for code, room in list(self.rooms.items()):
            try:
                self.tables.room_changed(code)
                await self.bus.set_presence(code, self.worker, self._local_presence(code))
                await self.push_state(room, None)
                await self._send_presence(room, always=True)
            except CovenError:
                continue
            except Exception:
                log.exception("re-sync of room %s failed", code)

    def sockets(self) -> int:
        return sum(len(r.connections) for r in self.rooms.values())

    # -- joining and leaving ----------------------------------------------------------------

    async def join(self, conn: Connection) -> None:
        # One subscription per room: a second socket arriving while the first one's
        # subscription is being set up must join the same RoomHub, not make its own.
        async with self._opening.setdefault(conn.code, asyncio.Lock()):
            room = self.rooms.get(conn.code)
            if room is None:
                subscription = await self.bus.subscribe(room_channel(conn.code))
                room = RoomHub(conn.code, subscription)
                code = conn.code
                room.announce = Throttle(lambda: self._publish_presence(code), PRESENCE_INTERVAL)
                room.show = Throttle(
                    lambda: self._send_presence(room, always=True), PRESENCE_INTERVAL
                )
                # After subscribing: a line said meanwhile comes both ways (kept once).
                for line in await self.service.repo.recent_chat_by_code(code, CHAT_KEPT):
                    room.chat.append(chat_text(line))
                self.rooms[conn.code] = room
                self.tables.listening.add(code)
                room.reader = asyncio.create_task(self._read(room), name=f"hub:{conn.code}")
                metrics.rooms_live(len(self.rooms))
            room.connections.add(conn)
            metrics.socket_opened()
        await self.bus.set_presence(conn.code, self.worker, self._local_presence(conn.code))
        if room.announce is not None:
            room.announce.poke()

    async def leave(self, conn: Connection) -> None:
        room = self.rooms.get(conn.code)
        if room is None or conn not in room.connections:
            return
        room.connections.discard(conn)
        metrics.socket_closed()
        if not room.connections:
            del self.rooms[conn.code]
            metrics.rooms_live(len(self.rooms))
            self._opening.pop(conn.code, None)
            room.closed = True
            # A reader in the middle of a message finishes it, then stops: cancelled inside
            # a database read it would leave its pooled connection to the garbage collector.
            # (The last socket leaves that way when the reader's own re-seat closed it.)
            if room.reader is not None and not room.dispatching:
                room.reader.cancel()
            room.subscription.close()
            for throttle in (room.announce, room.show):
                if throttle is not None:
                    throttle.cancel()
            self.tables.listening.discard(conn.code)
            self.tables.forget(conn.code)
            await self._announce_presence(conn.code)
            return
        await self.bus.set_presence(conn.code, self.worker, self._local_presence(conn.code))
        if room.announce is not None:
            room.announce.poke()

    def recent_chat(self, code: str) -> list[str]:
        """The room's latest chat lines, as sent, oldest first (the socket has joined)."""
        room = self.rooms.get(code)
        return list(room.chat) if room is not None else []

    def connected_seats(self, code: str) -> set[int]:
        room = self.rooms.get(code)
        return {c.seat for c in room.connections if c.seat is not None} if room else set()

    def _local_presence(self, code: str) -> dict[str, Any]:
        room = self.rooms.get(code)
        if room is None or not room.connections:
            return {}
        seats = Counter(str(c.seat) for c in room.connections if c.seat is not None)
        visible = Counter(str(c.seat) for c in room.connections if c.seat is not None and c.visible)
        spectators = sum(1 for c in room.connections if c.seat is None)
        return {"seats": dict(seats), "visible": dict(visible), "spectators": spectators}

    async def page_visible(self, conn: Connection, visible: bool) -> None:
        """The page of ``conn`` came into view or left it (every worker sees it)."""
        if conn.visible != visible:
            conn.visible = visible
            await self.bus.set_presence(conn.code, self.worker, self._local_presence(conn.code))

    async def _announce_presence(self, code: str) -> None:
        await self.bus.set_presence(code, self.worker, self._local_presence(code))
        await self._publish_presence(code)

    async def _publish_presence(self, code: str) -> None:
        await self.bus.publish(room_channel(code), {"type": "presence"})

    async def _refresh_presence(self) -> None:
        """Keep this worker's entry alive, and resend presence where it changed unannounced
        (pub/sub may drop a notice, and a worker that died never announced its sockets' end)."""
        while True:
            await asyncio.sleep(PRESENCE_REFRESH)
            for n, (code, room) in enumerate(list(self.rooms.items()), 1):
                with contextlib.suppress(Exception):
                    await self.bus.set_presence(code, self.worker, self._local_presence(code))
                    await self._send_presence(room)
                if n % PRESENCE_SLICE == 0:
                    # The in-process bus never suspends: without a pause, a worker holding a
                    # thousand rooms would stall every move behind the whole refresh.
                    await asyncio.sleep(0)

    async def presence(self, code: str) -> tuple[set[int], int]:
        """Every worker's view of who is here: connected seats and the spectator count."""
        seats: set[int] = set()
        spectators = 0
        for entry in await self.bus.presence(code):
            seats.update(int(s) for s, n in entry.get("seats", {}).items() if n > 0)
            spectators += int(entry.get("spectators", 0))
        return seats, spectators

    async def presence_message(self, code: str) -> dict[str, Any]:
        room = await self.tables.room(code, cached=True)
        seats, spectators = await self.presence(code)
        table = self.tables.cached(code)
        return {
            "type": "presence",
            # The latest public version this worker knows (one text for every socket, so never
            # one that another seat's private step moves): a client behind it re-syncs.
            "version": table.public_version if table is not None else None,
            "status": room.status,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "bot": s.bot_level,
                    "away": s.away,
                    "connected": s.bot_level is not None or s.seat in seats,
                    "former": s.former,
                    "for_good": s.for_good,
                }
                for s in room.seats
            ],
            "spectators": spectators,
            "fairness": fairness(room),  # the commitment and contributions, never the secret
        }

    # -- fan-out ----------------------------------------------------------------------------

    async def _read(self, room: RoomHub) -> None:
        while not room.closed:
            message = await room.subscription.get()
            room.dispatching = True
            try:
                await self._dispatch(room, message)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("fan-out failed in room %s", room.code)
            finally:
                room.dispatching = False

    async def _dispatch(self, room: RoomHub, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "version":
            version = int(message.get("version", 0))
            self.tables.heard(room.code, message)  # another worker's move, sealed
            with move_watch.fan_out(room.code, version):
                await self.push_state(room, version)
        elif kind == "room" and isinstance(message.get("status"), str):
            # Only the status moved (a match ended): no seat changed, nothing to reload.
            self.tables.room_status(room.code, message["status"])
            await self._send_presence(room, always=True)
        elif kind == "presence":
            if room.show is not None:
                room.show.poke()
        elif kind == "room":
            self.tables.room_changed(room.code)
            with contextlib.suppress(CovenError):
                await self._reseat(room)
            await self._send_presence(room, always=True)
            with contextlib.suppress(CovenError):
                await self.push_state(room, None)
        elif kind == "chat":
            text = wire.dumps(message)
            if text not in room.chat:
                room.chat.append(text)
            await self._broadcast(room, text)
        elif kind in PUBLIC_NOTICES:
            if kind == "rematch_rules":
                self.tables.room_changed(room.code)  # the room's record holds ``rematch_by``
            await self._broadcast(room, wire.dumps(message))

    async def _reseat(self, room: RoomHub) -> None:
        """Each seated socket's seat, looked up again by its token: a socket whose seat is
        gone is closed as a bad token (its page then watches, like any lost seat)."""
        record = await self.tables.room(room.code)
        for conn in list(room.connections):
            if conn.token_hash is None:
                continue
            seat = record.seat_for_token_hash(conn.token_hash)
            if seat is None:
                conn.seat, conn.token_hash, conn.close_code = None, None, CLOSE_BAD_TOKEN
                conn.drop("this seat was given up or removed")
            elif seat.seat != conn.seat:
                conn.seat = seat.seat
                # The page learns its new number (its "you", its rejoin link) at once.
                conn.send(wire.dumps({"type": "seat", "seat": seat.seat}))
        await self.bus.set_presence(room.code, self.worker, self._local_presence(room.code))

    async def push_state(self, room: RoomHub, version: int | None) -> None:
        try:
            table = await self.tables.table(room.code, at_least=version)
        except CovenError:
            return
        # A socket is sent a message only when an action visible to it happened: another
        # seat's private step sends it nothing (app/rooms/private_steps.py).
        targets: list[Connection] = []
        behind: dict[Connection, int] = {}
        for conn in room.connections:
            now = table.version_for(conn.seat)
            if conn.sent_version >= now:
                if conn.sent_version == now:
                    conn.sent_match = max(conn.sent_match, table.version)
                continue
            targets.append(conn)
            # Sockets that missed versions (commits coalesced, a dropped bus message) get
            # every event since the match version they saw, so no action goes unseen.
            if 0 <= conn.sent_version < now - 1:
                behind[conn] = max(conn.sent_match, 0)
        if not targets:
            return
        missed: list[tuple[int, list[dict[str, Any]]]] | None = None
        if behind and table.events_since(min(behind.values())) is None:
            history = await self.service.repo.actions_between(
                table.match.id, min(behind.values()), table.version
            )
            missed = [(a.version, a.events) for a in history]
        texts: dict[Connection, str] = {}
        catch_up: dict[tuple[int | None, int], str] = {}  # one text per (seat, seen)
        for conn in targets:
            seen = behind.get(conn)
            if seen is None:
                texts[conn] = table.message_text(conn.seat)
            else:
                text = catch_up.get((conn.seat, seen))
                if text is None:
                    events = table.events_since(seen) if missed is None else None
                    if events is None:
                        events = [e for v, step in missed or () if v > seen for e in step]
                    # ``since``: the version it had, in its own numbering.
                    text = table.catch_up_text(conn.seat, events, conn.sent_version)
                    catch_up[(conn.seat, seen)] = text
                texts[conn] = text
            conn.sent_version = table.version_for(conn.seat)
            conn.sent_match = table.version
        for conn in targets:
            conn.send(texts[conn])

    async def _send_presence(self, room: RoomHub, *, always: bool = False) -> None:
        # The state first: presence names the latest version this worker knows, and a socket
        # not yet pushed it (the commit's bus message still on its way to the reader) would
        # re-sync over HTTP for a push already coming. Pushed here, it is not pushed twice.
        table = self.tables.cached(room.code)
        if table is not None and any(c.sent_match < table.version for c in room.connections):
            await self.push_state(room, table.version)
        text = wire.dumps(await self.presence_message(room.code))
        if always or text != room.last_presence:
            room.last_presence = text
            await self._broadcast(room, text)

    async def _broadcast(self, room: RoomHub, text: str) -> None:
        for conn in list(room.connections):
            conn.send(text)
