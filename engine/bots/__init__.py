"""Players that need no human: each picks one of ``legal_actions`` through the same engine calls
a test makes. ``make_bot(level, seed)`` builds one by level name."""

from __future__ import annotations

from collections.abc import Callable

from engine.bots.base import Bot, Seen, seen
from engine.bots.random import RandomBot

LEVELS: dict[str, Callable[[int], Bot]] = {"random": RandomBot}


def make_bot(level: str, seed: int) -> Bot:
    try:
        return LEVELS[level](seed)
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}") from None


__all__ = ["LEVELS", "Bot", "RandomBot", "Seen", "make_bot", "seen"]
