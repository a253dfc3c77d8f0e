"""The server's clock: what turn clocks, due times and notifications count in.

``SystemClock`` is wall time. ``OffsetFileClock`` is wall time plus a number of seconds read
from a file (``COVEN_TEST_CLOCK_FILE``): a test writes ``90000`` there and every worker of the
server, however many and however often restarted, lives 25 hours later at once. It is for
tests; an operator never sets it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Literal, Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Epoch seconds."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()


class OffsetFileClock:
    """Wall time plus the offset (seconds, a float) held in ``path``; an absent, empty or
    unreadable file is an offset of 0. The file is read again only when it changed."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._offset = 0.0

    def offset(self) -> float:
        try:
            info = os.stat(self.path)
        except OSError:
            self._stamp, self._offset = None, 0.0
            return 0.0
        stamp = (info.st_mtime_ns, info.st_size)
        if stamp != self._stamp:
            try:
                with open(self.path, encoding="utf-8") as file:
                    text = file.read().strip()
                self._offset = float(text) if text else 0.0
            except (OSError, ValueError):
                self._offset = 0.0
            self._stamp = stamp
        return self._offset

    def now(self) -> float:
        return time.time() + self.offset()


def make_clock(path: str | None) -> Clock:
    return OffsetFileClock(path) if path else SystemClock()


def due_at(owing_since: Sequence[float | None] | None, turn_seconds: float | None) -> float | None:
    """When the first turn clock runs out: the earliest seat that owes a decision, plus the
    room's time per move (None: no clock, or nobody owes one)."""
    if not turn_seconds or not owing_since:
        return None
    starts = [s for s in owing_since if s is not None]
    return min(starts) + turn_seconds if starts else None


# From this many seconds per move a table is played by correspondence (the 12 h pace and
# longer): its clocks read "due in 19 h" and its players get reminders.
CORRESPONDENCE_SECONDS = 12 * 3600


def pace_of(turn_seconds: float | None) -> Literal["none", "live", "correspondence"]:
    if not turn_seconds:
        return "none"
    return "correspondence" if turn_seconds >= CORRESPONDENCE_SECONDS else "live"
