"""Golden playthroughs (after OpenSpiel): seeded matches recorded step by step and checked in.

Any change of behaviour — a rule, a view, a legal action list, an event — shows up as a diff of
``playthroughs/*.jsonl``. After an intended change, regenerate and review the diff:

    COVEN_UPDATE_PLAYTHROUGHS=1 .venv/bin/pytest tests/whirling/test_playthroughs.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.whirling.randomplay import GAME, plies

FOLDER = Path(__file__).parent / "playthroughs"
MATCHES = [
    (2, 3, {"personalities": "initiates"}),
    (3, 5, {"personalities": "choose"}),
    (4, 8, {"personalities": "choose"}),
    (3, 7, {"personalities": "choose", "production": "initiative"}),
]


def _name(players: int, seed: int, options: dict[str, Any]) -> str:
    open_ = "-initiative" if options.get("production") == "initiative" else ""
    return f"whirling-{players}p-seed{seed}-{options['personalities']}{open_}.jsonl"


def record(players: int, seed: int, options: dict[str, Any]) -> list[str]:
    lines = [json.dumps({"game": GAME.id, "players": players, "seed": seed, "options": options})]
    for i, ply in enumerate(plies(players, seed, options)):
        lines.append(
            json.dumps(
                {
                    "step": i,
                    "stage": GAME.stage(ply.before),
                    "to_move": sorted(GAME.to_move(ply.before)),
                    "seat": ply.seat,
                    "legal": GAME.legal_actions(ply.before, ply.seat),
                    "action": ply.action,
                    "events": ply.events,
                    "view": GAME.view(ply.after, ply.seat),
                    "spectator": GAME.view(ply.after, None),
                },
                sort_keys=True,
            )
        )
    return lines


@pytest.mark.parametrize(("players", "seed", "options"), MATCHES)
def test_playthrough_matches_the_recording(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    path = FOLDER / _name(players, seed, options)
    lines = record(players, seed, options)
    if os.environ.get("COVEN_UPDATE_PLAYTHROUGHS"):
        path.write_text("\n".join(lines) + "\n")
    recorded = path.read_text().splitlines()
    for expected, actual in zip(recorded, lines, strict=False):
        assert json.loads(actual) == json.loads(expected), f"{path.name}: first change here"
    assert len(lines) == len(recorded), f"{path.name}: the match now has a different length"
