"""The worker's copy of a profile's per-game figures (app/results/figures_cache.py): kept while
her newest match is the same, for a while; forgotten when one of her matches is recorded."""

from __future__ import annotations

from app.results.figures_cache import FiguresCache
from app.results.records import GameSummary


def summary(matches: int) -> list[GameSummary]:
    return [GameSummary("seasons", matches, 0, 2.0, [])]


def test_kept_while_her_newest_match_is_the_same_and_not_too_old() -> None:
    now = [100.0]
    cache = FiguresCache(ttl=30, clock=lambda: now[0])
    cache.put(7, 1234.5, summary(3))
    assert cache.get(7, 1234.5) == summary(3)
    assert cache.get(7, 1300.0) is None  # a newer match: sum again
    now[0] += 31
    assert cache.get(7, 1234.5) is None  # too old: what the key cannot see shows now


def test_forgotten_when_her_match_is_recorded_and_the_oldest_goes_first() -> None:
    cache = FiguresCache(size=2)
    cache.put(1, None, summary(1))
    cache.put(2, None, summary(2))
    assert cache.get(1, None) == summary(1)  # 1 is now the most recent
    cache.put(3, None, summary(3))
    assert cache.get(2, None) is None and cache.get(1, None) == summary(1)
    cache.forget([1, None])
    assert cache.get(1, None) is None and cache.get(3, None) == summary(3)
