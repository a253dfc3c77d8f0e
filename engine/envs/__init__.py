"""Coven's games as PettingZoo environments, for research and training (``pip install .[env]``).

``make(game_id, players=…, seed=…, options=…)`` returns an AEC environment (``env.py``); the
built-in bots are policies in ``policies.py``; ``docs/ARENA.md`` is the guide. Only this package
imports PettingZoo, Gymnasium and NumPy: the server and the rest of the engine never need them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.envs.env import CovenEnv


def make(
    game_id: str,
    players: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    render_mode: str | None = None,
) -> CovenEnv:
    """An AEC environment of ``game_id`` for ``players`` seats (see ``engine/envs/env.py``)."""
    from engine.envs.env import CovenEnv

    return CovenEnv(game_id, players, seed=seed, options=options, render_mode=render_mode)


__all__ = ["make"]
