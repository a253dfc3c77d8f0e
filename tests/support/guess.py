"""A tiny test-only game for the server: simultaneous hidden picks, then one seat's call.

Each round every seat picks 0–3 at the same time (hidden until all have picked; the highest
unique pick scores). Then the round's caller alone calls "high" or "low" for the next card of
a shuffled deck (hidden order) and scores if right. Every seat also holds a secret ``mark``
from setup. So it exercises: simultaneous steps, a sequential step, per-seat secrets, hidden
deck order, addressed events, RNG in state.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from engine.protocol import PRIVATE, PUBLIC, Action, IllegalAction, Result, Step, private
from engine.rng import Rng

HIDDEN = "hidden"


class GuessOptions(BaseModel):
    rounds: int = Field(default=2, ge=1, le=20)


class GuessGame:
    id: ClassVar[str] = "test-guess"
    title: ClassVar[str] = "Guess (test game)"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[type[BaseModel]] = GuessOptions
    event_types: ClassVar[Mapping[str, str]] = {
        "picked": PUBLIC, "you_picked": PRIVATE, "revealed": PUBLIC, "called": PUBLIC,
    }

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        opts = GuessOptions.model_validate(options or {})
        rng = Rng(seed)
        deck = list(range(8)) * 4
        rng.shuffle(deck)
        marks = [rng.below(1000) for _ in range(players)]
        return {
            "players": players,
            "rounds": opts.rounds,
            "round": 0,
            "phase": "pick",
            "picks": [None] * players,
            "last_picks": None,
            "scores": [0] * players,
            "marks": marks,
            "deck": deck,
            "rng": rng.dump(),
        }

    def to_move(self, state: Any) -> frozenset[int]:
        if state["round"] >= state["rounds"]:
            return frozenset()
        if state["phase"] == "pick":
            return frozenset(i for i, p in enumerate(state["picks"]) if p is None)
        return frozenset({state["round"] % state["players"]})

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        if seat not in self.to_move(state):
            return []
        if state["phase"] == "pick":
            return [{"type": "pick", "value": v} for v in range(4)]
        return [{"type": "call", "guess": "high"}, {"type": "call", "guess": "low"}]

    def apply(self, state: Any, seat: int, action: Action) -> Step:
        if seat not in self.to_move(state):
            raise IllegalAction("not_your_turn", f"seat {seat} owes no decision")
        kind = action.get("type")
        new = copy.deepcopy(state)
        if state["phase"] == "pick" and kind == "pick":
            value = action.get("value")
            if not isinstance(value, int) or not 0 <= value <= 3:
                raise IllegalAction("bad_value", "pick 0, 1, 2 or 3")
            new["picks"][seat] = value
            events: list[dict[str, Any]] = [
                {"type": "picked", "seat": seat},
                private({"type": "you_picked", "value": value}, seat),
            ]
            if all(p is not None for p in new["picks"]):
                picks = new["picks"]
                unique = [p for p in picks if picks.count(p) == 1]
                if unique:
                    new["scores"][picks.index(max(unique))] += 1
                new["last_picks"] = list(picks)
                new["phase"] = "call"
                events.append({"type": "revealed", "picks": list(picks)})
            return Step(new, events)
        if state["phase"] == "call" and kind == "call":
            guess = action.get("guess")
            if guess not in ("high", "low"):
                raise IllegalAction("bad_value", "call high or low")
            card = new["deck"].pop(0)
            right = (card >= 4) == (guess == "high")
            if right:
                new["scores"][seat] += 1
            new["round"] += 1
            new["phase"] = "pick"
            new["picks"] = [None] * new["players"]
            return Step(new, [{"type": "called", "seat": seat, "card": card, "right": right}])
        raise IllegalAction("unknown_action", f"{kind!r} is not an action now")

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return {
            "round": state["round"],
            "rounds": state["rounds"],
            "phase": state["phase"],
            "picks": [
                p if (seat == i or p is None) else HIDDEN for i, p in enumerate(state["picks"])
            ],
            "last_picks": state["last_picks"],
            "scores": list(state["scores"]),
            "marks": [m if seat == i else HIDDEN for i, m in enumerate(state["marks"])],
            "deck": len(state["deck"]),
        }

    def result(self, state: Any) -> Result | None:
        if state["round"] < state["rounds"]:
            return None
        best = max(state["scores"])
        winners = [i for i, s in enumerate(state["scores"]) if s == best]
        return Result(winners, list(state["scores"]), "rounds_played")

    def stage(self, state: Any) -> str:
        return f"{state['round']}:{state['phase']}"

    def dump(self, state: Any) -> dict[str, Any]:
        return copy.deepcopy(dict(state))

    def load(self, data: dict[str, Any]) -> Any:
        return copy.deepcopy(data)


def register() -> None:
    """Add the guess game to the registry, after the built-in games when they import."""
    from engine import registry

    with contextlib.suppress(ImportError):
        registry.games()
    registry.register(GuessGame())
