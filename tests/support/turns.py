"""A tiny test-only game for the server: long sequential turns made of many small actions.

Seats take turns in order. On her turn the active seat adds 1–3 to her total, up to five times
(each add is one action), may once per turn ask her left neighbour a question (the neighbour
then owes an answer, out of turn, before the turn goes on), and ends the turn with ``end``
(after at least one add). After ``rounds`` turns each the highest total wins.

``stage`` is the turn number only, so every sub-action of a turn (and the neighbour's answer)
happens in one stage: what the stale-version rule must get right without help from the stage.
With the option ``fine_stages`` every action starts a new stage instead (a game that numbers
its steps): what the turn clock must get right without help from the stage.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from engine.protocol import PUBLIC, Action, IllegalAction, Result, Step

MAX_ADDS = 5


class TurnsOptions(BaseModel):
    rounds: int = Field(default=2, ge=1, le=50)
    fine_stages: bool = False


class TurnsGame:
    id: ClassVar[str] = "test-turns"
    title: ClassVar[str] = "Turns (test game)"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[type[BaseModel]] = TurnsOptions
    event_types: ClassVar[Mapping[str, str]] = {
        "added": PUBLIC,
        "asked": PUBLIC,
        "answered": PUBLIC,
        "ended": PUBLIC,
    }

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        opts = TurnsOptions.model_validate(options or {})
        return {
            "players": players,
            "rounds": opts.rounds,
            "fine_stages": opts.fine_stages,
            "turn": 0,
            "adds": 0,
            "asked": False,
            "asking": None,  # the seat that owes an answer, if any
            "actions": 0,
            "totals": [0] * players,
        }

    @staticmethod
    def _over(state: Any) -> bool:
        return bool(state["turn"] >= state["rounds"] * state["players"])

    @staticmethod
    def active(state: Any) -> int:
        return int(state["turn"] % state["players"])

    def to_move(self, state: Any) -> frozenset[int]:
        if self._over(state):
            return frozenset()
        if state["asking"] is not None:
            return frozenset({state["asking"]})
        return frozenset({self.active(state)})

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        if seat not in self.to_move(state):
            return []
        if state["asking"] is not None:
            return [{"type": "answer", "yes": True}, {"type": "answer", "yes": False}]
        legal: list[Action] = []
        if state["adds"] < MAX_ADDS:
            legal += [{"type": "add", "value": v} for v in (1, 2, 3)]
        if not state["asked"]:
            legal.append({"type": "ask"})
        if state["adds"] >= 1:
            legal.append({"type": "end"})
        return legal

    def apply(self, state: Any, seat: int, action: Action) -> Step:
        if seat not in self.to_move(state):
            raise IllegalAction("not_your_turn", f"seat {seat} owes no decision")
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("illegal_action", f"{action!r} is not legal now")
        new = copy.deepcopy(state)
        new["actions"] += 1
        kind = action["type"]
        if kind == "add":
            new["totals"][seat] += action["value"]
            new["adds"] += 1
            return Step(new, [{"type": "added", "seat": seat, "value": action["value"]}])
        if kind == "ask":
            new["asked"] = True
            new["asking"] = (seat + 1) % state["players"]
            return Step(new, [{"type": "asked", "seat": seat, "whom": new["asking"]}])
        if kind == "answer":
            new["asking"] = None
            return Step(new, [{"type": "answered", "seat": seat, "yes": action["yes"]}])
        new["turn"] += 1
        new["adds"] = 0
        new["asked"] = False
        return Step(new, [{"type": "ended", "seat": seat}])

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return {
            "turn": state["turn"],
            "active": self.active(state),
            "adds": state["adds"],
            "asked": state["asked"],
            "asking": state["asking"],
            "totals": list(state["totals"]),
        }

    def result(self, state: Any) -> Result | None:
        if not self._over(state):
            return None
        best = max(state["totals"])
        winners = [i for i, t in enumerate(state["totals"]) if t == best]
        return Result(winners, list(state["totals"]), "rounds_played")

    def stage(self, state: Any) -> str:
        if state["fine_stages"]:
            return f"{state['turn']}:{state['actions']}"
        return str(state["turn"])

    def dump(self, state: Any) -> dict[str, Any]:
        return copy.deepcopy(dict(state))

    def load(self, data: dict[str, Any]) -> Any:
        return copy.deepcopy(data)


def register() -> None:
    """Add the turns game to the registry, after the built-in games when they import."""
    from engine import registry

    with contextlib.suppress(ImportError):
        registry.games()
    registry.register(TurnsGame())
