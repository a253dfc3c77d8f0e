"""A fixed discrete action space for one game at one player count (and card options).

Every action a game can ever offer is enumerated once, as data derived from the game's catalog
(``engine/envs/<game>_actions.py``), and numbered in that order: index ``i`` always means the
same action. The key of an action is its canonical JSON (sorted keys, no spaces) after the game's
``normalize``, which replaces the few fields that are not catalog data by catalog data (Seasons'
``slot``: the id a card got when it entered play, replaced by its position in the seat's row of
cards in play). The mask of a decision marks the indices of ``legal_actions``; the index an agent
sends is turned back into the one legal action with that key.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from engine.protocol import Action

Normalize = Callable[[dict[str, Any], int, Action], Action]


def key(action: Action) -> str:
    """The canonical text of an action: equal actions, equal keys."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def same_action(_: dict[str, Any], __: int, action: Action) -> Action:
    """The ``normalize`` of a game whose every action field is catalog data."""
    return action


class ActionSpace:
    """Index ⇄ action for one game: ``actions[i]`` is the (normalized) action at index ``i``."""

    def __init__(self, actions: Iterable[Action], normalize: Normalize = same_action) -> None:
        self.actions: list[Action] = []
        self._index: dict[str, int] = {}
        for action in actions:
            k = key(action)
            if k not in self._index:
                self._index[k] = len(self.actions)
                self.actions.append(action)
        self.normalize = normalize

    def __len__(self) -> int:
        return len(self.actions)

    def index(self, view: dict[str, Any], seat: int, action: Action) -> int:
        """The index of one of ``seat``'s legal actions (``KeyError``: outside the catalog)."""
        return self._index[key(self.normalize(view, seat, action))]

    def legal(self, view: dict[str, Any], seat: int, legal: list[Action]) -> dict[int, Action]:
        """Index → legal action, for one decision."""
        out: dict[int, Action] = {}
        for action in legal:
            try:
                out[self.index(view, seat, action)] = action
            except KeyError:
                raise ValueError(
                    f"legal action {key(action)} is not in the action catalog: "
                    "engine/envs must enumerate it"
                ) from None
        return out
