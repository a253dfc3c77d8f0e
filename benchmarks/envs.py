"""The PettingZoo environments' speed (``engine.envs``): random masked play, every game.

Each game at ``--players`` (clamped to its seat range): ``--matches`` whole matches through the
AEC loop (``env.last()`` then ``env.step``), the agent picking uniformly among the legal indices;
beside it the same matches through the bare engine (``game.apply`` of the same random choice, no
observation), so the ratio is the environment's own cost: views of every seat, the encoding, the
mask. Prints one JSON line.

    python -m benchmarks.envs --players 3 --matches 5
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from engine import registry
from engine.envs import make


def through_env(game_id: str, players: int, matches: int) -> tuple[int, float]:
    env = make(game_id, players, seed=0)
    steps = 0
    started = time.perf_counter()
    for m in range(matches):
        env.reset(seed=m)
        rng = random.Random(m)
        for _ in env.agent_iter():
            _, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(info["legal_index"]))
            steps += 1
    return steps, time.perf_counter() - started


def bare_engine(game_id: str, players: int, matches: int) -> tuple[int, float]:
    game = registry.get(game_id)
    steps = 0
    started = time.perf_counter()
    for m in range(matches):
        state = game.setup(players, m)
        rng = random.Random(m)
        while owing := sorted(game.to_move(state)):
            seat = rng.choice(owing)
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
            steps += 1
    return steps, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--matches", type=int, default=5)
    args = parser.parse_args()
    out: dict[str, Any] = {"players": args.players, "matches": args.matches, "games": {}}
    for game in registry.games():
        players = min(max(args.players, game.min_players), game.max_players)
        make(game.id, players).reset(seed=0)  # the action space is built once, outside the timing
        env_steps, env_seconds = through_env(game.id, players, args.matches)
        bare_steps, bare_seconds = bare_engine(game.id, players, args.matches)
        out["games"][game.id] = {
            "players": players,
            "env_steps_per_second": round(env_steps / env_seconds, 1),
            "engine_actions_per_second": round(bare_steps / bare_seconds, 1),
            "mean_steps_per_match": round(env_steps / args.matches, 1),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
