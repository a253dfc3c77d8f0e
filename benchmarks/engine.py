"""Engine throughput: random playouts per registered game and player count.

Prints one JSON line per (game, players): engine actions per second over whole matches, and the
time split between ``legal_actions`` and ``apply``. One process, one core.

    .venv/bin/python benchmarks/engine.py [--seconds 3] [--game whirling-witchcraft]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script, this folder would shadow the engine package
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine import registry
from engine.protocol import Game


def measure(
    game: Game, players: int, seconds: float, options: dict[str, object] | None = None
) -> dict[str, object]:
    legal_time = apply_time = 0.0
    actions = matches = 0
    seed = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        seed += 1
        pick = random.Random(seed)
        state = game.setup(players, seed, options)
        while game.result(state) is None:
            owing = sorted(game.to_move(state))
            seat = owing[pick.randrange(len(owing))]
            t0 = time.perf_counter()
            legal = game.legal_actions(state, seat)
            t1 = time.perf_counter()
            state = game.apply(state, seat, legal[pick.randrange(len(legal))]).state
            t2 = time.perf_counter()
            legal_time += t1 - t0
            apply_time += t2 - t1
            actions += 1
        matches += 1
    total = legal_time + apply_time
    return {
        "game": game.id,
        "players": players,
        **({"options": options} if options else {}),
        "matches": matches,
        "actions": actions,
        "actions_per_second": round(actions / total),
        "legal_actions_us": round(legal_time / actions * 1e6, 1),
        "apply_us": round(apply_time / actions * 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", default=None)
    args = parser.parse_args()
    for game in registry.games():
        if args.game and game.id != args.game:
            continue
        # a game may name several setups worth measuring (Seasons: both levels)
        for options in getattr(game, "benchmark_options", [None]):
            for players in range(game.min_players, game.max_players + 1):
                print(json.dumps(measure(game, players, args.seconds, options)), flush=True)


if __name__ == "__main__":
    main()
