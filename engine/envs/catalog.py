"""Which module enumerates each game's actions (``engine/envs/<game>_actions.py``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from engine.envs import brew_actions, seasons_actions, whirling_actions
from engine.envs.actions import ActionSpace, Normalize, same_action
from engine.protocol import Action, IllegalAction

Enumerate = Callable[[int, dict[str, Any] | None], list[Action]]

CATALOGS: dict[str, tuple[Enumerate, Normalize]] = {
    "whirling-witchcraft": (whirling_actions.actions, same_action),
    "witchs-brew": (brew_actions.actions, same_action),
    "seasons": (seasons_actions.actions, seasons_actions.normalize),
}


def action_space(game_id: str, players: int, options: dict[str, Any] | None) -> ActionSpace:
    """The fixed action space of one game at one player count and room options."""
    if game_id not in CATALOGS:
        raise IllegalAction("unknown_game", f"no environment for a game called {game_id!r}")
    return _cached(game_id, players, _frozen(options))


def _frozen(options: dict[str, Any] | None) -> str:
    from engine.envs.actions import key

    return key(options or {})


@lru_cache(maxsize=32)
def _cached(game_id: str, players: int, options: str) -> ActionSpace:
    import json

    enumerate_, normalize = CATALOGS[game_id]
    return ActionSpace(enumerate_(players, json.loads(options) or None), normalize)
