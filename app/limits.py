"""Rate limits per client address and per seat, counted where every worker sees them.

With ``COVEN_REDIS_URL`` the counts live in Redis (moving windows of the ``limits`` library,
one Lua call per key), so a client spreading a flood over N workers gets one allowance, not
N. Without Redis they live in this worker's memory. When Redis fails, this worker counts in
its own memory, logs it once, and tries Redis again every ``REDIS_RETRY_SECONDS``: an outage
never fails a request, it only makes the allowances per worker until Redis is back.

Open sockets (``Counter``) stay per worker: a socket lives in one worker.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import redis.asyncio as redis
from limits import RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from sqlalchemy.engine import make_url

from app.errors import CovenError

log = logging.getLogger(__name__)

# After a Redis failure, count in memory this long before asking Redis again (every check
# would otherwise wait on a refused or silent connection).
REDIS_RETRY_SECONDS = 5.0
# A check waits at most this long for Redis: it sits on every move's path.
REDIS_TIMEOUT_SECONDS = 1.0

# Keys this worker remembers refusing before it forgets the stale ones.
REFUSED_KEYS_KEPT = 10_000

T = TypeVar("T")


def deployment_key(database_url: str, database_schema: str | None) -> str:
    """Workers of one deployment share one database: their counts share this prefix, and two
    deployments (or two test runs) on one Redis never count each other's clients."""
    where = make_url(database_url).render_as_string(hide_password=True)
    return hashlib.sha256(f"{where}|{database_schema or ''}".encode()).hexdigest()[:12]


class Counts:
    """Where the windows count: Redis shared by the workers (when configured and answering),
    else this worker's memory."""

    def __init__(self, redis_url: str | None, deployment: str) -> None:
        self._memory = MovingWindowRateLimiter(MemoryStorage())
        self._shared: MovingWindowRateLimiter | None = None
        self._pool: redis.ConnectionPool | None = None
        self._retry_at = 0.0
        self._failing = False
        if redis_url:
            self._pool = redis.ConnectionPool.from_url(
                redis_url,
                socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
                socket_timeout=REDIS_TIMEOUT_SECONDS,
            )
            # One immediate retry: a pooled connection that died with a restarted Redis
            # costs a reconnect, not a fallback.
            client: dict[str, Any] = {"connection_pool": self._pool, "retry": Retry(NoBackoff(), 1)}
            storage = RedisStorage(
                redis_url,
                implementation="redispy",
                wrap_exceptions=True,
                key_prefix=f"coven:limits:{deployment}",
                **client,
            )
            self._shared = MovingWindowRateLimiter(storage)

    @property
    def shared(self) -> bool:
        """Whether the counts are in Redis right now (else in this worker's memory)."""
        return self._shared is not None and not self._failing

    async def run(self, step: Callable[[MovingWindowRateLimiter], Awaitable[T]]) -> T:
        if self._shared is not None and time.monotonic() >= self._retry_at:
            try:
                result = await step(self._shared)
            except (StorageError, OSError) as exc:
                if not self._failing:
                    log.warning(
                        "rate limits: Redis failed (%s); each worker counts on its own until "
                        "it is back",
                        exc,
                    )
                self._failing = True
                self._retry_at = time.monotonic() + REDIS_RETRY_SECONDS
            else:
                if self._failing:
                    log.warning("rate limits: Redis is back; the workers count together again")
                    self._failing = False
                return result
        return await step(self._memory)

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.disconnect()


async def _each(counts: Counts, calls: list[Awaitable[T]]) -> list[T]:
    """Side by side on Redis (one round trip for them all); one after the other in memory,
    where a gather would cost more than the look-ups themselves."""
    if counts.shared:
        return list(await asyncio.gather(*calls))
    return [await call for call in calls]


class Window:
    """At most ``burst`` events per ``seconds`` for each key (a moving window); ``name`` keeps
    its counts apart from the other windows'."""

    def __init__(self, counts: Counts, name: str, burst: int, seconds: float, what: str) -> None:
        self.counts = counts
        self.burst = burst
        self.seconds = seconds
        self.what = what
        # Redis expires keys in whole seconds.
        self._item = RateLimitItemPerSecond(max(burst, 1), max(1, math.ceil(seconds)), name)

    async def _wait(self, key: str) -> float | None:
        stats = await self.counts.run(lambda limiter: limiter.get_window_stats(self._item, key))
        if stats.remaining > 0:
            return None
        return max(stats.reset_time - time.time(), 0.0)

    async def full(self, *keys: str) -> float | None:
        """Seconds until every one of ``keys`` has room again; None when they all have room
        now (records nothing)."""
        if self.burst <= 0:
            return None
        waits = [
            w for w in await _each(self.counts, [self._wait(k) for k in keys]) if w is not None
        ]
        return max(waits) if waits else None

    async def note(self, *keys: str) -> bool:
        """Count one event for every key; False if one of them had no room left (a race with
        another worker: that key's event is not counted)."""
        if self.burst <= 0:
            return True

        return all(await _each(self.counts, [self._hit(key) for key in keys]))

    async def _hit(self, key: str) -> bool:
        return await self.counts.run(lambda limiter: limiter.hit(self._item, key))

    def refusal(self, wait: float) -> CovenError:
        return CovenError(
            "rate_limited",
            f"too many {self.what}: at most {self.burst} per {self.seconds:g} s; "
            f"retry in {math.ceil(wait)} s",
            retry_after=wait,
        )

    async def take(self, *keys: str) -> None:
        """Count one event for every key, or raise ``rate_limited`` when one is full."""
        if self.burst <= 0:
            return
        wait = await self.full(*keys)
        if wait is None and await self.note(*keys):
            return
        # Full, or filled by another worker between the check and the count.
        raise self.refusal(wait if wait is not None else self.seconds)


class Refusals:
    """Refused actions: a window per seat and a wider one per client address.

    Every action is checked, and most clients are never refused: the shared counts are asked
    only for a key this worker has refused within the window, so an ordinary move costs no
    Redis round trip. A flood spread over N workers still meets one allowance (plus at most one
    refusal per worker before that worker starts asking)."""

    def __init__(self, seat: Window, client: Window) -> None:
        self.seat = seat
        self.client = client
        self._refused_at: dict[tuple[str, str], float] = {}

    def _refused_lately(self, *keys: tuple[str, str]) -> bool:
        now = time.monotonic()
        window = max(self.seat.seconds, self.client.seconds)
        return any(now - self._refused_at.get(key, -math.inf) < window for key in keys)

    async def check(self, client: str, seat: str) -> None:
        if not self._refused_lately(("client", client), ("seat", seat)):
            return
        windows = (self.seat, self.client)
        waits = await _each(self.seat.counts, [self.seat.full(seat), self.client.full(client)])
        for window, wait in zip(windows, waits, strict=True):
            if wait is not None:
                raise window.refusal(wait)

    async def note(self, client: str, seat: str) -> None:
        now = time.monotonic()
        if len(self._refused_at) > REFUSED_KEYS_KEPT:
            window = max(self.seat.seconds, self.client.seconds)
            self._refused_at = {k: t for k, t in self._refused_at.items() if now - t < window}
        self._refused_at[("client", client)] = self._refused_at[("seat", seat)] = now
        await _each(self.seat.counts, [self.seat.note(seat), self.client.note(client)])


class Counter:
    """Open things (sockets) per key, at most ``limit`` at once, in this worker."""

    def __init__(self, limit: int, what: str) -> None:
        self.limit = limit
        self.what = what
        self._open: dict[str, int] = {}

    def acquire(self, key: str) -> None:
        count = self._open.get(key, 0)
        if self.limit > 0 and count >= self.limit:
            raise CovenError(
                "too_many_sockets", f"at most {self.limit} open {self.what} per client address"
            )
        self._open[key] = count + 1

    def release(self, key: str) -> None:
        count = self._open.get(key, 0) - 1
        if count > 0:
            self._open[key] = count
        else:
            self._open.pop(key, None)
