"""Rate limits, per client address and per seat token (all in this worker's memory).

A limit that answers "rate_limited" costs one dict look-up: a client flooding the server is
refused before anything touches a table, a lock or the database.
"""

from __future__ import annotations

import time
from collections import deque

from app.errors import CovenError

# Keys idle this long are forgotten (a sweep on every ``SWEEP_EVERY``-th check).
IDLE_SECONDS = 600.0
SWEEP_EVERY = 1024


class Window:
    """At most ``burst`` events per ``seconds`` for each key (a sliding window)."""

    def __init__(self, burst: int, seconds: float, what: str) -> None:
        self.burst = burst
        self.seconds = seconds
        self.what = what
        self._events: dict[str, deque[float]] = {}
        self._checks = 0

    def _recent(self, key: str, now: float) -> deque[float]:
        events = self._events.get(key)
        if events is None:
            events = self._events[key] = deque()
        while events and now - events[0] >= self.seconds:
            events.popleft()
        return events

    def full(self, *keys: str) -> bool:
        """Whether any of ``keys`` has used up its window (records nothing)."""
        if self.burst <= 0:
            return False
        now = time.monotonic()
        return any(len(self._recent(k, now)) >= self.burst for k in keys)

    def note(self, *keys: str) -> None:
        now = time.monotonic()
        for key in keys:
            self._recent(key, now).append(now)
        self._sweep(now)

    def take(self, *keys: str) -> None:
        """Count one event for every key, or raise ``rate_limited`` when one is full."""
        if self.burst <= 0:
            return
        if self.full(*keys):
            raise CovenError(
                "rate_limited",
                f"too many {self.what}: at most {self.burst} per {self.seconds:g} s",
                retry_after=self.seconds,
            )
        self.note(*keys)

    def _sweep(self, now: float) -> None:
        self._checks += 1
        if self._checks % SWEEP_EVERY:
            return
        for key in [k for k, e in self._events.items() if not e or now - e[-1] > IDLE_SECONDS]:
            del self._events[key]


class Refusals:
    """Refused actions: a window per seat and a wider one per client address."""

    def __init__(self, seat: Window, client: Window) -> None:
        self.seat = seat
        self.client = client

    def check(self, client: str, seat: str) -> None:
        for window, key in ((self.seat, seat), (self.client, client)):
            if window.full(key):
                raise CovenError(
                    "rate_limited",
                    f"too many refused actions: at most {window.burst} per {window.seconds:g} s",
                    retry_after=window.seconds,
                )

    def note(self, client: str, seat: str) -> None:
        self.seat.note(seat)
        self.client.note(client)


class Bucket:
    """A token bucket per key: ``burst`` at once, refilled at ``per_minute``."""

    def __init__(self, burst: int, per_minute: float, what: str) -> None:
        self.burst = burst
        self.rate = per_minute / 60.0
        self.what = what
        self._state: dict[str, tuple[float, float]] = {}
        self._checks = 0

    def take(self, key: str) -> None:
        if self.burst <= 0:
            return
        now = time.monotonic()
        tokens, at = self._state.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.rate)
        if tokens < 1.0:
            wait = (1.0 - tokens) / self.rate if self.rate > 0 else IDLE_SECONDS
            raise CovenError(
                "rate_limited",
                f"too many {self.what} from this address; retry in {wait:.0f} s",
                retry_after=wait,
            )
        self._state[key] = (tokens - 1.0, now)
        self._checks += 1
        if self._checks % SWEEP_EVERY == 0:
            for k in [k for k, (_, t) in self._state.items() if now - t > IDLE_SECONDS]:
                del self._state[k]


class Counter:
    """Open things (sockets) per key, at most ``limit`` at once."""

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
