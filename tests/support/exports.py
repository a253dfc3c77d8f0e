"""A match export made without a server: random bots play a whole match through the engine,
its seed drawn the way a room draws it (app/fairness/seeds.py), replayed by app/replay.py and
exported by app/fairness/export.py (tests/server/test_export_verify.py,
benchmarks/export_verify.py)."""

from __future__ import annotations

from typing import Any

from app.fairness import seeds
from app.fairness.export import export_document
from app.replay import replay
from engine import registry
from engine.simulate import play_match


def engine_export(
    game_id: str, players: int, options: dict[str, Any] | None = None, code: str = "offline"
) -> dict[str, Any]:
    game = registry.get(game_id)
    secret = seeds.draw_secret()
    parts = [seeds.Contribution(s, seeds.draw_contribution(), "player") for s in range(players)]
    seed = seeds.match_seed(secret.server_seed, [(c.seat, c.value) for c in parts])
    played = play_match(game, players, seed, "random", options)
    assert played.finished, f"{game_id}: the random match did not end"
    log = {
        "replay": {
            "game": game_id,
            "rules_version": registry.rules_version(game),
            "seed": seed,
            "players": players,
            "options": options or {},
            "seats": [
                {"seat": s, "name": f"Witch {s + 1}", "bot": "random", "former": False}
                for s in range(players)
            ],
            "actions": [
                {"version": v, "seat": seat, "action": action, "bot": True}
                for v, (seat, action) in enumerate(played.actions, start=1)
            ],
        },
        "fairness": seeds.public(secret.commitment, parts, seeds.revealed(secret, seed)),
    }
    return export_document(code, log, replay(log))
