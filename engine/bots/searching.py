"""What the search bots (``greedy``, ``strong``) need from a game, and how they fall back.

A game opts in by providing ``determinize(view, seat, rng) -> state`` (a full state consistent
with what ``seat`` sees) and ``evaluate(state, seat) -> float`` (higher is better for ``seat``),
next to its rules. A game without them is still played at every level: the bot picks at random
(``supports`` tells the caller beforehand).

A game may also guide ``strong``'s search (``hints``): functions of the same names in its
``heuristic`` module, each optional —

* ``search_actions(state, seat, legal) -> list``: the actions the search weighs at a node (a
  subset of ``legal``, never empty); e.g. no ``unkeep`` while roles are chosen, so the search
  does not walk in circles;
* ``tree_leaf(state) -> bool``: the tree stops growing at this state (below the root) and the
  playout takes over, e.g. inside a secret choice whose order does not matter;
* ``playout_action(state, seat, legal, rng) -> action``: a fast policy that plays on from a new
  leaf (instead of stopping there), drawing only from ``rng``;
* ``playout_over(start, state) -> bool``: where that playout stops and ``evaluate`` scores it
  (``start`` is the dealt state of the iteration), e.g. at the end of the set;
* ``paired_root(state) -> bool``: for this decision (``state``: a first deal) grow no tree but
  score every legal action on each deal, played out with the same random stream, e.g. where the
  luck of a deal outweighs the difference between the actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, fields
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


@dataclass(frozen=True, slots=True)
class Hints:
    """What a game tells ``strong`` about searching it (every field optional)."""

    search_actions: Callable[[Any, int, list[Action]], list[Action]] | None = None
    tree_leaf: Callable[[Any], bool] | None = None
    playout_action: Callable[[Any, int, list[Action], random.Random], Action] | None = None
    playout_over: Callable[[Any, Any], bool] | None = None
    paired_root: Callable[[Any], bool] | None = None


def hints(game: Game) -> Hints:
    """The search hints of ``game``'s heuristic module (none for a game without them)."""
    module = getattr(game, "heuristic", None)
    return Hints(**{f.name: getattr(module, f.name, None) for f in fields(Hints)})
