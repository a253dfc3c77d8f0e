"""A golden playthrough (``tests/<game>/playthroughs/*.jsonl``) replayed through its engine:
the final state the engine reaches from the recorded actions, and the events as recorded."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.protocol import Game
from engine.registry import get


@dataclass(frozen=True)
class GoldenMatch:
    game: Game
    players: int
    state: Any  # after the last recorded action, as the engine replays it
    # Every event as the file holds it, step by step (private ones with their "@to").
    recorded: list[list[dict[str, Any]]]

    @property
    def events(self) -> list[dict[str, Any]]:
        return [event for step in self.recorded for event in step]


def replay(path: Path) -> GoldenMatch:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    head, steps = lines[0], lines[1:]
    game = get(head["game"])
    state = game.setup(head["players"], head["seed"], head["options"])
    for step in steps:
        state = game.apply(state, step["seat"], step["action"]).state
    assert game.result(state) is not None, f"{path.name} does not reach the end of the match"
    return GoldenMatch(game, head["players"], state, [step["events"] for step in steps])


def per_seat(players: int, events: list[dict[str, Any]], kind: str, key: str = "seat") -> list[int]:
    """How many events of ``kind`` each seat (named by ``key``) has."""
    counts = [0] * players
    for event in events:
        if event.get("type") == kind:
            counts[event[key]] += 1
    return counts
