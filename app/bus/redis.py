"""Redis pub/sub bus for several workers.

One PubSub connection per worker carries every channel this worker's sockets need; messages
fan out to local ``Subscription`` queues. Presence is a Redis hash per room, one field per
worker, each entry stamped so a killed worker's sockets expire after ``PRESENCE_TTL``.

Redis going away degrades, never lies: a commit is already durable when it is published, so
a failed publish is logged and delivered to this worker's own sockets; presence falls back
to this worker's own entries. What this worker could not send keeps, per channel, its latest
message of each kind, and goes out once Redis answers again: a worker that hears a version
after a gap catches up from the database, so its sockets are not left waiting for a move
they missed. When the reader reaches Redis again it re-subscribes and calls the
``on_reconnect`` callbacks (the hub re-syncs every socket at once).

Sharded (``COVEN_REDIS_SHARDED=1``): the room channels go through Redis 7's sharded pub/sub
(SPUBLISH / SSUBSCRIBE), whose messages stay on the node that owns the channel's hash slot
instead of being broadcast to every node of a Redis Cluster; the few channels every worker
hears (the lobby's) stay plain. On one Redis server both behave alike (docs/CAPACITY.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from typing import Any

import redis.asyncio as redis
from redis.asyncio.connection import AbstractConnection
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app import wire
from app.bus.base import PRESENCE_TTL, Message, Subscription
from app.observability import metrics

log = logging.getLogger(__name__)

SUBSCRIBE_WAIT = 5.0
ORIGIN = "@w"  # the publishing worker's mark on a bus message
Outgoing = tuple[str, str, str]  # channel, the message's type, its text
# After a failure, skip Redis this long (every publish would otherwise wait on a refused
# connection); the reader keeps trying and says when it is back.
DOWN_SECONDS = 1.0
RETRY_READ = 0.5
POOL_SIZE = 100  # connections to Redis per worker (the pub/sub reader and publisher hold one each)
POOL_WAIT = 5.0  # seconds a call waits for one of them
_DONE = asyncio.Event()
_DONE.set()


class RedisBus:
    def __init__(self, url: str, sharded_prefix: str | None = None) -> None:
        # Channels starting with this go through sharded pub/sub (None: none do).
        self._sharded_prefix = sharded_prefix
        # One immediate retry: a pooled connection that died with a restarted Redis costs a
        # reconnect, not an error; a Redis that is down fails at once. A burst of calls (a
        # few hundred sockets joining at once, each setting its presence) waits for a pooled
        # connection instead of failing as "Too many connections", which would take the bus
        # for down and drop the moves published meanwhile.
        self._pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=POOL_SIZE,
            timeout=POOL_WAIT,
            decode_responses=True,
            socket_connect_timeout=1.0,
            socket_timeout=5.0,
            retry=Retry(NoBackoff(), 1),
        )
        self._client = redis.Redis(connection_pool=self._pool)
        self._pubsub = self._client.pubsub()
        self._subscribers: dict[str, set[Subscription]] = defaultdict(set)
        self._reader: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        # Channels whose SUBSCRIBE Redis has not confirmed yet: a publish before the
        # confirmation would not reach this worker.
        self._confirming: dict[str, asyncio.Event] = {}
        # This worker's own presence entries: what presence falls back to without Redis.
        self._mine: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
        self._down_until = 0.0
        self._lost = False
        self._reconnected: list[Callable[[], None]] = []
        # Published messages carry this worker's mark: they reach this worker's subscribers
        # at once, and their echo from Redis is dropped. Sent by one task, in order, as many
        # as are waiting in one pipeline (one round trip for all the moves of a loop turn).
        self._origin = uuid.uuid4().hex[:12]
        # The mark is the first key of every message this worker sends, so its echo is known
        # by its first bytes and dropped unparsed (a worker hears each of its moves back).
        self._own_echo = wire.dumps({ORIGIN: self._origin})[:-1] + ","
        self._outbox: deque[Outgoing] = deque()
        # What could not be sent (Redis down, a send failed): the latest message of each kind
        # per channel, sent before the outbox once Redis answers.
        self._unsent: dict[tuple[str, str], str] = {}
        self._pending = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        # The connection the publishes go out on (see ``_publish_all``), and who uses it now
        # (the sender task, or ``close`` sending what is left).
        self._publisher: AbstractConnection | None = None
        self._publishing = asyncio.Lock()

    @property
    def down(self) -> bool:
        return self._lost or time.monotonic() < self._down_until

    def _failed(self, what: str, exc: BaseException) -> None:
        metrics.bus_error(what)
        if not self.down:
            log.warning(
                "redis %s failed (%s); degrading to this worker until it is back", what, exc
            )
        self._down_until = time.monotonic() + DOWN_SECONDS

    def on_reconnect(self, callback: Callable[[], None]) -> None:
        self._reconnected.append(callback)

    def _is_sharded(self, channel: str) -> bool:
        return self._sharded_prefix is not None and channel.startswith(self._sharded_prefix)

    async def _listen_to(self, channel: str) -> None:
        if self._is_sharded(channel):
            await self._pubsub.ssubscribe(channel)
        else:
            await self._pubsub.subscribe(channel)

    async def start(self) -> None:
        try:
            await self._client.ping()
            # A placeholder channel keeps the PubSub connection subscribed (and listenable).
            await self._pubsub.subscribe("coven:keepalive")
        except Exception as exc:
            # A worker starts without Redis too (degraded, like an outage): the reader
            # subscribes when Redis is reachable and every socket re-syncs then.
            log.warning("redis unreachable at start (%s); degrading to this worker", exc)
            self._lost = True
        self._reader = asyncio.create_task(self._read(), name="redis-bus-reader")
        self._sender = asyncio.create_task(self._send(), name="redis-bus-sender")

    async def close(self) -> None:
        self._take_unsent()
        if self._outbox and not self.down:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._flush(), 2.0)
        for task in (self._sender, self._reader):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._client.aclose()
        with contextlib.suppress(Exception):
            await self._pool.disconnect()

    async def _read(self) -> None:
        while True:
            try:
                if self._lost:
                    await self._resubscribe()
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a dropped connection: messages may be lost meanwhile
                if not self._lost:
                    log.warning("redis bus connection lost (%s); retrying", exc)
                self._lost = True
                self._failed("read", exc)
                await asyncio.sleep(RETRY_READ)
                continue
            if self._lost:
                self._lost = False
                self._down_until = 0.0
                log.warning("redis bus is back; re-syncing every socket")
                for callback in list(self._reconnected):
                    try:
                        callback()
                    except Exception:
                        log.exception("redis reconnect callback failed")
            if message is not None and message.get("type") in ("subscribe", "ssubscribe"):
                confirmed = self._confirming.pop(str(message["channel"]), None)
                if confirmed is not None:
                    confirmed.set()
            if message is None or message.get("type") not in ("message", "smessage"):
                continue
            data = message["data"]
            if data.startswith(self._own_echo):
                continue  # this worker's own message: its subscribers already have it
            try:
                payload = wire.loads(data)
            except ValueError:
                continue
            if not isinstance(payload, dict) or payload.pop(ORIGIN, None) == self._origin:
                continue
            self._deliver(message["channel"], payload)

    async def _resubscribe(self) -> None:
        channels = ["coven:keepalive", *self._subscribers]
        plain = [c for c in channels if not self._is_sharded(c)]
        await self._pubsub.subscribe(*plain)
        # One SSUBSCRIBE per channel: on a Redis Cluster one command's channels must share
        # a hash slot.
        for channel in channels:
            if self._is_sharded(channel):
                await self._pubsub.ssubscribe(channel)
        for channel in channels:
            confirmed = self._confirming.pop(channel, None)
            if confirmed is not None:
                confirmed.set()

    def _deliver(self, channel: str, payload: Message) -> None:
        for sub in list(self._subscribers.get(channel, ())):
            sub.deliver(payload)

    async def publish(self, channel: str, message: Message) -> None:
        # What is published is already committed: this worker's sockets hear it now, other
        # workers through Redis (or, if it is down, when they re-sync as it comes back).
        self._deliver(channel, message)
        entry = (channel, str(message.get("type")), wire.dumps({ORIGIN: self._origin, **message}))
        if self.down:
            self._keep_unsent([entry])
        else:
            self._outbox.append(entry)
        self._pending.set()

    def _keep_unsent(self, entries: Iterable[Outgoing]) -> None:
        for channel, kind, text in entries:
            self._unsent.pop((channel, kind), None)  # the latest goes last
            self._unsent[channel, kind] = text

    def _take_unsent(self) -> None:
        """What was kept back goes out first, before the messages that came after it."""
        if self._unsent:
            kept = [(channel, kind, text) for (channel, kind), text in self._unsent.items()]
            self._unsent.clear()
            self._outbox.extendleft(reversed(kept))

    async def _send(self) -> None:
        while True:
            await self._pending.wait()
            self._pending.clear()
            if self.down:
                # Try again once the pause after the failure is over (or the reader is back).
                await asyncio.sleep(max(self._down_until - time.monotonic(), RETRY_READ))
                if self._unsent or self._outbox:
                    self._pending.set()
                continue
            self._take_unsent()
            try:
                await self._flush()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._failed("publish", exc)
                self._pending.set()

    async def _flush(self) -> None:
        while self._outbox:
            batch = [self._outbox.popleft() for _ in range(min(len(self._outbox), 256))]
            commands = [
                ("SPUBLISH" if self._is_sharded(channel) else "PUBLISH", channel, text)
                for channel, _, text in batch
            ]
            try:
                async with self._publishing:
                    try:
                        await self._publish_all(commands)
                    except (RedisConnectionError, RedisTimeoutError):
                        # As the client's own one retry: a connection that died with a
                        # restarted Redis costs a reconnect, not an error.
                        await self._publish_all(commands)
            except BaseException:
                self._keep_unsent([*batch, *self._outbox])
                self._outbox.clear()
                raise

    async def _publish_all(self, commands: list[tuple[str, str, str]]) -> None:
        """Every command in one write, then every reply, on this worker's publishing
        connection: held by the publisher (one at a time), not taken from the pool and given
        back, nor wrapped in a pipeline object, for every batch. A failure, or an error reply,
        closes it (replies may be left unread); the next batch connects again."""
        conn = self._publisher
        if conn is None:
            pool = self._client.connection_pool
            conn = self._publisher = await pool.get_connection()  # type: ignore[no-untyped-call]
        try:
            await conn.send_packed_command(conn.pack_commands(commands), check_health=False)
            for _ in commands:
                await conn.read_response()
        except BaseException:
            await conn.disconnect(nowait=True)
            raise

    async def subscribe(self, channel: str) -> Subscription:
        sub = Subscription(channel, self._unsubscribe)
        async with self._lock:
            first = not self._subscribers.get(channel)
            self._subscribers[channel].add(sub)
            confirmed = self._confirming.get(channel) or _DONE
            if first and not self.down:
                confirmed = self._confirming.setdefault(channel, asyncio.Event())
                try:
                    await self._listen_to(channel)
                except Exception as exc:
                    # Subscribed again (with every channel) when the reader is back.
                    self._failed("subscribe", exc)
                    self._confirming.pop(channel, None)
                    confirmed = _DONE
        # Return once Redis delivers this channel to us, so that what the caller announces
        # next (and every later notice of other workers) is heard.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(confirmed.wait(), SUBSCRIBE_WAIT)
        return sub

    def _unsubscribe(self, sub: Subscription) -> None:
        subs = self._subscribers.get(sub.channel)
        if subs is None:
            return
        subs.discard(sub)
        if not subs:
            del self._subscribers[sub.channel]
            task = asyncio.get_running_loop().create_task(self._drop(sub.channel))
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def _drop(self, channel: str) -> None:
        async with self._lock:
            if not self._subscribers.get(channel) and not self.down:
                with contextlib.suppress(Exception):
                    if self._is_sharded(channel):
                        await self._pubsub.sunsubscribe(channel)
                    else:
                        await self._pubsub.unsubscribe(channel)

    async def set_presence(self, room: str, worker: str, entry: dict[str, Any]) -> None:
        key = f"coven:presence:{room}"
        if entry:
            stamped = {**entry, "at": time.time()}
            self._mine[room][worker] = stamped
        else:
            self._mine[room].pop(worker, None)
            if not self._mine[room]:
                del self._mine[room]
        if self.down:
            return
        try:
            if entry:
                async with self._client.pipeline(transaction=False) as pipe:
                    pipe.hset(key, worker, json.dumps(stamped))
                    pipe.expire(key, int(PRESENCE_TTL * 4))
                    await pipe.execute()
            else:
                await self._client.hdel(key, worker)
        except Exception as exc:
            self._failed("presence", exc)

    async def presence(self, room: str) -> list[dict[str, Any]]:
        if not self.down:
            try:
                raw = await self._client.hgetall(f"coven:presence:{room}")
            except Exception as exc:
                self._failed("presence", exc)
            else:
                now = time.time()
                entries = []
                for value in raw.values():
                    entry = json.loads(value)
                    if now - float(entry.get("at", 0)) <= PRESENCE_TTL:
                        entries.append(entry)
                return entries
        return list(self._mine.get(room, {}).values())
