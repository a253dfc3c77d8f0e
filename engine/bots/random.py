"""A bot that picks uniformly among the legal actions.

Its randomness is its own (``random.Random``), never the match's RNG, so a bot's choice cannot
change what the deck or the dice do next.
"""

from __future__ import annotations

import random

from engine.bots.base import Seen
from engine.protocol import Action, Game


class RandomBot:
    level = "random"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, game: Game, seen: Seen) -> Action:
        if not seen.legal:
            raise ValueError(f"seat {seen.seat} has no legal action")
        return seen.legal[self._random.randrange(len(seen.legal))]
