"""Players that need no human: each picks one of ``legal_actions`` through the same engine calls
a test makes. ``make_bot(level, seed)`` builds one by level name.

Levels (``LEVELS``):

* ``random`` — uniform among the legal actions; every game.
* ``greedy`` — one ply ahead by the game's heuristic (``engine/bots/greedy.py``).
* ``strong`` — information-set Monte Carlo tree search (``engine/bots/strong.py``), 0.5 s a
  decision unless told otherwise.

``greedy`` and ``strong`` need the game's ``determinize`` and ``evaluate``; for a game without
them they play at random (``searching.supports(game)`` says which). A bot is built from its
level and seed alone, so a worker process can rebuild it: ``decide`` is the one call a process
pool needs.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.bots.base import Bot, Seen, seen
from engine.bots.greedy import GreedyBot
from engine.bots.random import RandomBot
from engine.bots.searching import supports
from engine.bots.strong import StrongBot
from engine.protocol import Action

LEVELS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "strong": StrongBot,
}


def make_bot(
    level: str, seed: int, budget_ms: int | None = None, iterations: int | None = None
) -> Bot:
    """A bot of ``level``; ``budget_ms`` / ``iterations`` bound the ``strong`` bot's search."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}") from None
    if level == "strong":
        return factory(seed, budget_ms=budget_ms, iterations=iterations)
    return factory(seed)


def decide(game_id: str, level: str, seed: int, seen: Seen, budget_ms: int | None = None) -> Action:
    """One decision, from plain arguments: what a process pool worker runs."""
    from engine import registry

    return make_bot(level, seed, budget_ms=budget_ms).choose(registry.get(game_id), seen)


__all__ = [
    "LEVELS",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "Seen",
    "StrongBot",
    "decide",
    "make_bot",
    "seen",
    "supports",
]
