"""Golden playthroughs (after OpenSpiel): seeded matches recorded step by step and checked in.

Any change of behaviour — a rule, a view, a legal action list, an event — shows up as a diff of
``playthroughs/*.jsonl``. After an intended change, regenerate and review the diff:

    COVEN_UPDATE_PLAYTHROUGHS=1 .venv/bin/pytest tests/seasons/test_playthroughs.py

The recordings use cards 1–30 only (apprentice and magician levels), whose effects are this
module's; master-level matches are covered by the random-play properties.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.seasons.randomplay import GAME, plies

FOLDER = Path(__file__).parent / "playthroughs"
MATCHES = [
    (2, 3, {"level": "apprentice"}),
    (3, 5, {"level": "magician"}),
    (4, 8, {"level": "apprentice"}),
]


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
                    # the acting seat's view holds the whole public table (the spectator's
                    # view differs only by the placeholders the leak test checks)
                    "view": GAME.view(ply.after, ply.seat),
                },
                sort_keys=True,
            )
        )
    return lines


@pytest.mark.parametrize(("players", "seed", "options"), MATCHES)
def test_playthrough_matches_the_recording(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    path = FOLDER / f"seasons-{players}p-seed{seed}-{options['level']}.jsonl"
    lines = record(players, seed, options)
    if os.environ.get("COVEN_UPDATE_PLAYTHROUGHS"):
        path.write_text("\n".join(lines) + "\n")
    recorded = path.read_text().splitlines()
    for expected, actual in zip(recorded, lines, strict=False):
        assert json.loads(actual) == json.loads(expected), f"{path.name}: first change here"
    assert len(lines) == len(recorded), f"{path.name}: the match now has a different length"
