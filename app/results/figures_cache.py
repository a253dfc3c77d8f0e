"""This worker's copy of the per-game figures of profiles recently looked at.

Summing a profile's figures reads every one of her match rows (10,000 rows for a player of
10,000 matches: far too slow for each view of her page), while they change only when one of
her matches is recorded. So the sums are kept here, keyed by the profile's newest match: a
match recorded since (its newest ``finished_at`` moves) makes the next view sum again, and
this worker forgets a profile's sums at once when it records one of her matches. What the key
cannot see — an older guest seat claimed later, an older match a sweep recorded late in
another worker — shows within ``TTL_SECONDS``.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.results.records import GameSummary

SIZE = 2048
TTL_SECONDS = 30.0


@dataclass(frozen=True, slots=True)
class _Entry:
    newest: float | None
    at: float
    summaries: list[GameSummary]


class FiguresCache:
    def __init__(
        self, size: int = SIZE, ttl: float = TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.size = size
        self.ttl = ttl
        self.clock = clock
        self._entries: OrderedDict[int, _Entry] = OrderedDict()

    def get(self, profile_id: int, newest: float | None) -> list[GameSummary] | None:
        """The sums kept for ``profile_id`` if her newest match is still ``newest``."""
        entry = self._entries.get(profile_id)
        if entry is None or entry.newest != newest or self.clock() - entry.at > self.ttl:
            return None
        self._entries.move_to_end(profile_id)
        return entry.summaries

    def put(self, profile_id: int, newest: float | None, summaries: list[GameSummary]) -> None:
        self._entries[profile_id] = _Entry(newest, self.clock(), summaries)
        self._entries.move_to_end(profile_id)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def forget(self, profile_ids: Iterable[int | None]) -> None:
        for profile_id in profile_ids:
            if profile_id is not None:
                self._entries.pop(profile_id, None)
