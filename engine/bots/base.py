"""What a bot is given, and what it must answer.

A bot decides from what a person in its seat would have: the seat's view, its legal actions and
who owes a decision (``Seen``), plus a random stream of its own. It never receives the state, so
it cannot read another seat's hand, pending choice, deck order or the match's RNG. A search bot
that wants full states asks the game for one consistent with ``Seen.view``
(``game.determinize(view, seat, rng)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from engine.protocol import Action, Game


@dataclass(frozen=True, slots=True)
class Seen:
    """Everything a seat may know when it must decide: the same as the browser gets."""

    seat: int
    view: dict[str, Any]
    legal: list[Action]
    to_move: frozenset[int]


def seen(game: Game, state: Any, seat: int) -> Seen:
    """What ``seat`` is shown of ``state`` (the server and ``simulate`` hand bots only this)."""
    return Seen(seat, game.view(state, seat), game.legal_actions(state, seat), game.to_move(state))


class Bot(Protocol):
    level: str

    def choose(self, game: Game, seen: Seen) -> Action:
        """One of ``seen.legal``."""
        ...
