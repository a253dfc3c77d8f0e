"""Redis pub/sub bus for several workers.

One PubSub connection per worker carries every channel this worker's sockets need; messages
fan out to local ``Subscription`` queues. Presence is a Redis hash per room, one field per
worker, each entry stamped so a killed worker's sockets expire after ``PRESENCE_TTL``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import defaultdict
from typing import Any

import redis.asyncio as redis

from app import wire
from app.bus.base import PRESENCE_TTL, Message, Subscription

log = logging.getLogger(__name__)

SUBSCRIBE_WAIT = 5.0
_DONE = asyncio.Event()
_DONE.set()


class RedisBus:
    def __init__(self, url: str) -> None:
        self._client = redis.Redis.from_url(url, decode_responses=True)
        self._pubsub = self._client.pubsub()
        self._subscribers: dict[str, set[Subscription]] = defaultdict(set)
        self._reader: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._lock = asyncio.Lock()
        # Channels whose SUBSCRIBE Redis has not confirmed yet: a publish before the
        # confirmation would not reach this worker.
        self._confirming: dict[str, asyncio.Event] = {}

    async def start(self) -> None:
        await self._client.ping()
        # A placeholder channel keeps the PubSub connection subscribed (and listenable).
        await self._pubsub.subscribe("coven:keepalive")
        self._reader = asyncio.create_task(self._read(), name="redis-bus-reader")

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        with contextlib.suppress(Exception):
            await self._client.aclose()

    async def _read(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # a dropped connection: pub/sub may lose messages (clients re-sync)
                log.exception("redis bus read failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if message is not None and message.get("type") == "subscribe":
                confirmed = self._confirming.pop(str(message["channel"]), None)
                if confirmed is not None:
                    confirmed.set()
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"]
            try:
                payload = wire.loads(message["data"])
            except ValueError:
                continue
            for sub in list(self._subscribers.get(channel, ())):
                sub.deliver(payload)

    async def publish(self, channel: str, message: Message) -> None:
        await self._client.publish(channel, wire.dumps(message))

    async def subscribe(self, channel: str) -> Subscription:
        sub = Subscription(channel, self._unsubscribe)
        async with self._lock:
            first = not self._subscribers.get(channel)
            self._subscribers[channel].add(sub)
            if first:
                confirmed = self._confirming.setdefault(channel, asyncio.Event())
                await self._pubsub.subscribe(channel)
            else:
                confirmed = self._confirming.get(channel) or _DONE
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
            if not self._subscribers.get(channel):
                await self._pubsub.unsubscribe(channel)

    async def set_presence(self, room: str, worker: str, entry: dict[str, Any]) -> None:
        key = f"coven:presence:{room}"
        if entry:
            stamped = {**entry, "at": time.time()}
            async with self._client.pipeline(transaction=False) as pipe:
                pipe.hset(key, worker, json.dumps(stamped))
                pipe.expire(key, int(PRESENCE_TTL * 4))
                await pipe.execute()
        else:
            await self._client.hdel(key, worker)

    async def presence(self, room: str) -> list[dict[str, Any]]:
        raw = await self._client.hgetall(f"coven:presence:{room}")
        now = time.time()
        entries = []
        for value in raw.values():
            entry = json.loads(value)
            if now - float(entry.get("at", 0)) <= PRESENCE_TTL:
                entries.append(entry)
        return entries
