"""Golden playthroughs (after OpenSpiel): seeded matches recorded step by step and checked in.

Any change of behaviour — a rule, a view, a legal action list, an event, a stage — shows up as a
diff of ``playthroughs/*.jsonl``. To keep the files small, each step records its views as the
changes from the previous view of the same seat (the first line holds every starting view);
the test rebuilds the full views and compares them. After an intended change, regenerate and
review the diff:

    COVEN_UPDATE_PLAYTHROUGHS=1 .venv/bin/pytest tests/brew/test_playthroughs.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.brew.randomplay import GAME, plies
from tests.viewcheck import at, differences

FOLDER = Path(__file__).parent / "playthroughs"
MATCHES = [
    (3, 8, {"variant_blocked_roles": False, "thief_favor": "exempt"}),
    (4, 36, {"variant_blocked_roles": True, "thief_favor": "exempt"}),
    (5, 38, {"variant_blocked_roles": False, "thief_favor": "buy"}),
]


def _changes(old: Any, new: Any) -> list[list[Any]]:
    return [[list(path), at(new, path)] for path in differences(old, new)]


def _patched(old: Any, changes: list[list[Any]]) -> Any:
    new = json.loads(json.dumps(old))
    for path, value in changes:
        if not path:
            new = value
            continue
        target = new
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return new


def _name(players: int, seed: int, options: dict[str, Any]) -> str:
    variant = "variant" if options["variant_blocked_roles"] else "plain"
    return f"brew-{players}p-seed{seed}-{variant}-{options['thief_favor']}.jsonl"


def record(players: int, seed: int, options: dict[str, Any]) -> list[str]:
    start = GAME.setup(players, seed, options)
    seats: list[int | None] = [None, *range(players)]
    last = {str(s): GAME.view(start, s) for s in seats}
    lines = [json.dumps({"game": GAME.id, "players": players, "seed": seed, "options": options,
                         "views": last}, sort_keys=True, separators=(",", ":"))]
    for i, ply in enumerate(plies(players, seed, options)):
        step: dict[str, Any] = {
            "step": i,
            "stage": GAME.stage(ply.before),
            "to_move": sorted(GAME.to_move(ply.before)),
            "seat": ply.seat,
            "legal": GAME.legal_actions(ply.before, ply.seat),
            "action": ply.action,
            "events": ply.events,
            "views": {},
        }
        for s in seats:  # every seat's view and the spectator's, as changes
            now = GAME.view(ply.after, s)
            changes = _changes(last[str(s)], now)
            if changes:
                step["views"][str(s)] = changes
            last[str(s)] = now
        lines.append(json.dumps(step, sort_keys=True, separators=(",", ":")))
    return lines


def _replayed_views(lines: list[str]) -> list[dict[str, Any]]:
    current = json.loads(lines[0])["views"]
    out = []
    for line in lines[1:]:
        step = json.loads(line)
        for seat, changes in step.pop("views").items():
            current[seat] = _patched(current[seat], changes)
        out.append({**step, "views": json.loads(json.dumps(current))})
    return out


@pytest.mark.parametrize(("players", "seed", "options"), MATCHES)
def test_playthrough_matches_the_recording(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    path = FOLDER / _name(players, seed, options)
    lines = record(players, seed, options)
    if os.environ.get("COVEN_UPDATE_PLAYTHROUGHS"):
        path.write_text("\n".join(lines) + "\n")
    recorded = path.read_text().splitlines()
    assert json.loads(lines[0]) == json.loads(recorded[0]), f"{path.name}: the setup changed"
    for expected, actual in zip(_replayed_views(recorded), _replayed_views(lines), strict=False):
        assert actual == expected, f"{path.name}: first change at step {expected['step']}"
    assert len(lines) == len(recorded), f"{path.name}: the match now has a different length"


def test_the_recorded_views_are_the_real_views() -> None:
    """The change-based recording rebuilds exactly what view() returns at every step."""
    players, seed, options = MATCHES[0]
    rebuilt = _replayed_views(record(players, seed, options))
    for ply, step in zip(plies(players, seed, options), rebuilt, strict=True):
        for s in [None, *range(players)]:
            assert step["views"][str(s)] == json.loads(json.dumps(GAME.view(ply.after, s)))
