"""What the search bots (``greedy``, ``strong``) need from a game, and how they fall back.

A game opts in by providing ``determinize(view, seat, rng) -> state`` (a full state consistent
with what ``seat`` sees) and ``evaluate(state, seat) -> float`` (higher is better for ``seat``),
next to its rules. A game without them is still played at every level: the bot picks at random
(``supports`` tells the caller beforehand).
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

import orjson

from engine.protocol import Action, Game


@runtime_checkable
class Searchable(Protocol):
    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> Any: ...

    def evaluate(self, state: Any, seat: int) -> float: ...


def supports(game: Game) -> bool:
    """Whether ``game`` gives search bots what they need."""
    return callable(getattr(game, "determinize", None)) and callable(
        getattr(game, "evaluate", None)
    )


def key(action: Action) -> bytes:
    """A stable identity for an action (actions are plain JSON objects)."""
    return orjson.dumps(action, option=orjson.OPT_SORT_KEYS)
