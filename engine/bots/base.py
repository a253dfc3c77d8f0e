from __future__ import annotations

from typing import Any, Protocol

from engine.protocol import Action, Game


class Bot(Protocol):
    level: str

    def choose(self, game: Game, state: Any, seat: int) -> Action:
        """One of ``game.legal_actions(state, seat)``."""
        ...
