"""Random matches for property tests: a seeded scheduler picks which owing seat answers next."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.registry import get

GAME = get("whirling-witchcraft")


@dataclass
class Ply:
    before: Any
    seat: int
    action: dict[str, Any]
    after: Any
    events: list[dict[str, Any]]


def plies(players: int, seed: int, options: dict[str, Any] | None = None) -> Iterator[Ply]:
    """Every step of one random match, to its end."""
    pick = random.Random(seed)
    state = GAME.setup(players, seed, options)
    while GAME.result(state) is None:
        owing = sorted(GAME.to_move(state))
        assert owing, "a running match always owes someone a decision"
        seat = owing[pick.randrange(len(owing))]
        legal = GAME.legal_actions(state, seat)
        assert legal, f"seat {seat} owes a decision but has no legal action"
        action = legal[pick.randrange(len(legal))]
        step = GAME.apply(state, seat, action)
        yield Ply(state, seat, action, step.state, step.events)
        state = step.state


def mode(seed: int) -> dict[str, str]:
    """Half the matches with Initiates, half with personalities chosen from two; a third of them
    (crossing both) with open production in initiative order."""
    return {
        "personalities": "choose" if seed % 2 else "initiates",
        "production": "initiative" if seed % 3 == 2 else "simultaneous",
    }
