"""Random matches for property tests: a seeded scheduler picks which owing seat answers next."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.registry import get
from tests.support.randomplay import Ply, random_plies

GAME = get("whirling-witchcraft")


def plies(players: int, seed: int, options: dict[str, Any] | None = None) -> Iterator[Ply]:
    """Every step of one random match, to its end."""
    return random_plies(GAME, players, seed, options)


def mode(seed: int) -> dict[str, str]:
    """Half the matches with Initiates, half with personalities chosen from two; a third of them
    (crossing both) with open production in initiative order."""
    return {
        "personalities": "choose" if seed % 2 else "initiates",
        "production": "initiative" if seed % 3 == 2 else "simultaneous",
    }
