"""The reference game of boardgame.io's harness (``/work/shared/bench/bgio/game.js``), as a
Coven game: registered at benchmark start only, never in ``engine/registry.py``.

3–5 players hold 4 cards each from a shuffled deck of 1..104. Every round every player picks
one card at the same time (face down); when all have picked the cards are revealed, the
highest scores one point per card on the table, everyone draws one replacement; 10 rounds.
Hands, pending picks and the deck are hidden by ``view``; who has picked is public.
The same game, rule for rule, as ``game.js``: the side-by-side benchmark compares servers,
so neither side may do more game work than the other.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.protocol import PRIVATE, PUBLIC, Action, IllegalAction, Result, Step, private
from engine.rng import Rng

GAME_ID = "bench-hidden-picks"
ROUNDS = 10
HAND_SIZE = 4
DECK_SIZE = 104  # 5 players × (4 + 10 refills) = 70 ≤ 104


class HiddenPicksOptions(BaseModel):
    pass


class HiddenPicks:
    id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = "Hidden picks (benchmark game)"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    options: ClassVar[type[BaseModel]] = HiddenPicksOptions
    event_types: ClassVar[Mapping[str, str]] = {
        "picked": PUBLIC,
        "you_picked": PRIVATE,
        "revealed": PUBLIC,
    }

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        deck = list(range(1, DECK_SIZE + 1))
        Rng(seed).shuffle(deck)
        hands = [deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(players)]
        return {
            "round": 1,
            "deck": deck[players * HAND_SIZE :],
            "hands": hands,
            "picks": [None] * players,
            "scores": [0] * players,
            "last_reveal": None,
            "total_picks": 0,
        }

    def to_move(self, state: Any) -> frozenset[int]:
        if state["round"] > ROUNDS:
            return frozenset()
        return frozenset(i for i, p in enumerate(state["picks"]) if p is None)

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        if seat not in self.to_move(state):
            return []
        return [{"type": "pick", "card": card} for card in state["hands"][seat]]

    def apply(self, state: Any, seat: int, action: Action) -> Step:
        if seat not in self.to_move(state):
            raise IllegalAction("not_your_turn", f"seat {seat} has already picked this round")
        if action.get("type") != "pick":
            raise IllegalAction("unknown_action", f"{action.get('type')!r} is not an action")
        card = action.get("card")
        hand = state["hands"][seat]
        if type(card) is not int or card not in hand:
            raise IllegalAction("not_in_hand", "pick a card from your hand")
        # Copy only what changes (boardgame.io's Immer does the same: structural sharing).
        hands = list(state["hands"])
        hands[seat] = [c for c in hand if c != card]
        picks = list(state["picks"])
        picks[seat] = card
        new = {**state, "hands": hands, "picks": picks, "total_picks": state["total_picks"] + 1}
        events: list[dict[str, Any]] = [
            {"type": "picked", "seat": seat, "round": state["round"]},
            private({"type": "you_picked", "card": card, "round": state["round"]}, seat),
        ]
        if all(p is not None for p in picks):
            winner = max(range(len(picks)), key=lambda i: (picks[i], -i))
            scores = list(state["scores"])
            scores[winner] += len(picks)
            deck = list(state["deck"])
            new_hands = [[*h, deck.pop(0)] for h in hands]
            new.update(
                hands=new_hands,
                deck=deck,
                picks=[None] * len(picks),
                scores=scores,
                round=state["round"] + 1,
                last_reveal={"round": state["round"], "cards": list(picks), "winner": winner},
            )
            events.append(
                {
                    "type": "revealed",
                    "round": state["round"],
                    "cards": list(picks),
                    "winner": winner,
                }
            )
        return Step(new, events)

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        mine = seat is not None and 0 <= seat < len(state["hands"])
        return {
            "round": state["round"],
            "committed": [p is not None for p in state["picks"]],
            "scores": list(state["scores"]),
            "last_reveal": state["last_reveal"],
            "total_picks": state["total_picks"],
            "deck_size": len(state["deck"]),
            "hand": list(state["hands"][seat]) if mine and seat is not None else None,
            "pick": state["picks"][seat] if mine and seat is not None else None,
        }

    def result(self, state: Any) -> Result | None:
        if state["round"] <= ROUNDS:
            return None
        best = max(state["scores"])
        winners = [i for i, s in enumerate(state["scores"]) if s == best]
        return Result(winners, list(state["scores"]), "rounds_played")

    def stage(self, state: Any) -> str:
        # All picks of a round are one decision step: concurrent picks with the version seen
        # are never stale (ignoreStaleStateID in game.js).
        return f"round:{state['round']}"

    def dump(self, state: Any) -> dict[str, Any]:
        return {
            **state,
            "hands": [list(h) for h in state["hands"]],
            "deck": list(state["deck"]),
            "picks": list(state["picks"]),
            "scores": list(state["scores"]),
        }

    def load(self, data: dict[str, Any]) -> Any:
        return self.dump(data)


def register() -> None:
    """Add the game to this process's registry, after the built-in games."""
    from engine import registry

    with contextlib.suppress(ImportError):
        registry.games()
    registry.register(HiddenPicks())
