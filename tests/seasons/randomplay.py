"""Random matches for property tests: a seeded scheduler picks which owing seat answers next."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.registry import get
from tests.support.randomplay import Ply, random_plies

GAME = get("seasons")


def plies(players: int, seed: int, options: dict[str, Any] | None = None) -> Iterator[Ply]:
    """Every step of one random match, to its end."""
    return random_plies(GAME, players, seed, options)


def level(seed: int) -> dict[str, str]:
    return {"level": ("apprentice", "master", "magician")[seed % 3]}
