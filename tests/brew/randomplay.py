"""Random matches for property tests: a seeded scheduler picks which owing seat answers next."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.registry import get
from tests.support.randomplay import Ply, random_plies

GAME = get("witchs-brew")


def plies(players: int, seed: int, options: dict[str, Any] | None = None) -> Iterator[Ply]:
    """Every step of one random match, to its end."""
    return random_plies(GAME, players, seed, options)


def mode(players: int, seed: int) -> dict[str, Any]:
    """Every other match with the variant (3–4 players), every third with the 'buy' favor."""
    return {
        "variant_blocked_roles": players < 5 and seed % 2 == 1,
        "thief_favor": "buy" if seed % 3 == 2 else "exempt",
    }
