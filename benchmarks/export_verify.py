"""How large a match export is and how long ``coven verify`` takes, per game and seat count.

Random bots play whole matches through the engine (no server); each is given a seed proof the
way the server draws one (app/fairness/seeds.py), replayed by app/replay.py, exported by
app/fairness/export.py and verified by app/fairness/verify.py. Prints one line per game and
seat count: actions, export size (JSON, bytes), time to export and time to verify (median of
the matches).

    python -m benchmarks.export_verify [--matches 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from app.fairness import seeds
from app.fairness.export import export_document
from app.fairness.verify import parse, verify
from app.replay import replay
from engine import registry
from engine.simulate import play_match

CASES = [("whirling-witchcraft", 5), ("witchs-brew", 5), ("seasons", 4)]


def one(game_id: str, players: int, n: int) -> tuple[int, int, float, float]:
    game = registry.get(game_id)
    secret = seeds.draw_secret()
    parts = [seeds.Contribution(s, seeds.draw_contribution(), "server") for s in range(players)]
    seed = seeds.match_seed(secret.server_seed, [(c.seat, c.value) for c in parts])
    played = play_match(game, players, seed, "random")
    log = {
        "replay": {
            "game": game_id,
            "rules_version": registry.rules_version(game),
            "seed": seed,
            "players": players,
            "options": {},
            "seats": [
                {"seat": s, "name": f"Bot {s + 1}", "bot": "random", "former": False}
                for s in range(players)
            ],
            "actions": [
                {"version": v, "seat": seat, "action": action, "bot": True}
                for v, (seat, action) in enumerate(played.actions, start=1)
            ],
        },
        "fairness": seeds.public(secret.commitment, parts, seeds.revealed(secret, seed)),
    }
    started = time.perf_counter()
    document = export_document(f"bench{n}", log, replay(log))
    text = json.dumps(document, separators=(",", ":"))
    exported = time.perf_counter() - started
    started = time.perf_counter()
    outcome = verify(parse(json.loads(text)))
    verified = time.perf_counter() - started
    assert outcome.verified, outcome.text()
    return len(played.actions), len(text.encode()), exported, verified


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=3)
    args = parser.parse_args()
    for game_id, players in CASES:
        runs = [one(game_id, players, n) for n in range(args.matches)]
        print(
            f"{game_id} × {players}: actions {statistics.median(r[0] for r in runs):.0f}, "
            f"export {statistics.median(r[1] for r in runs) / 1024:.0f} KiB, "
            f"export built in {statistics.median(r[2] for r in runs):.2f} s, "
            f"verified in {statistics.median(r[3] for r in runs):.2f} s "
            f"(median of {args.matches})"
        )


if __name__ == "__main__":
    main()
