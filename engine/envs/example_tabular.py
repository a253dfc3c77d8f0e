"""A small learning agent that beats ``random``: Monte Carlo action values over the fixed action
space, trained against random seats in the PettingZoo environment. CPU only, seconds.

Training: play ``train`` matches, seat 0 the learner (ε-greedy over its legal actions), the
others ``random``; every action the learner took in a match is credited with the match's final
reward (+1 first … −1 last), and ``Q[a]`` is the mean credit of action index ``a``. Playing:
the legal action of highest ``Q`` (an action never tried counts 0). No state features at all —
the point is the loop, not the model: swap in your own policy where ``greedy_policy`` is.

    python -m engine.envs.example_tabular whirling-witchcraft --players 3 --train 300 --eval 300

evaluates the trained policy with ``coven arena``'s own code (seat 0 is
``engine.envs.example_tabular:trained``, the others ``--against``, random by default) and prints
its win rate with the 95 % interval, beside ``random`` in the same seat on the same deals.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
from collections.abc import Callable
from typing import Any

from engine.arena import arena
from engine.envs import make
from engine.envs.policies import Observation, Policy, builtin

SPEC_MODULE = "engine.envs.example_tabular"


class Values:
    """Mean final reward of each action index the learner took."""

    def __init__(self) -> None:
        self.total: dict[int, float] = {}
        self.count: dict[int, int] = {}

    def credit(self, taken: list[int], reward: float) -> None:
        for a in taken:
            self.total[a] = self.total.get(a, 0.0) + reward
            self.count[a] = self.count.get(a, 0) + 1

    def q(self, a: int) -> float:
        return self.total.get(a, 0.0) / self.count[a] if a in self.count else 0.0

    def greedy_policy(self) -> Policy:
        def policy(observation: Observation, info: dict[str, Any]) -> int:
            legal: list[int] = info["legal_index"]
            return max(legal, key=lambda a: (self.q(a), -a))

        return policy


def play(
    game_id: str,
    players: int,
    seed: int,
    policies: list[Policy],
    record: Callable[[int, dict[str, Any]], None] | None = None,
) -> list[float]:
    """One match, seat ``s`` played by ``policies[s]``; the final reward of every seat."""
    env = make(game_id, players, seed=seed)
    env.reset(seed=seed)
    final = [0.0] * players
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        seat = env.seat_of(agent)
        if terminated or truncated:
            final[seat] = reward
            env.step(None)
            continue
        action = policies[seat](observation, info)
        if record is not None and seat == 0:
            record(action, info)
        env.step(action)
    return final


def _recorder(taken: list[int]) -> Callable[[int, dict[str, Any]], None]:
    return lambda action, _: taken.append(action)


def train(game_id: str, players: int, matches: int, seed: int, epsilon: float = 0.2) -> Values:
    values = Values()
    explore = random.Random(seed)
    greedy = values.greedy_policy()

    def learner(observation: Observation, info: dict[str, Any]) -> int:
        if explore.random() < epsilon:
            legal: list[int] = info["legal_index"]
            return legal[explore.randrange(len(legal))]
        return greedy(observation, info)

    for m in range(matches):
        taken: list[int] = []
        others = [builtin("random", seed * 1000 + m * 10 + s) for s in range(1, players)]
        rewards = play(game_id, players, seed + m, [learner, *others], _recorder(taken))
        values.credit(taken, rewards[0])
    return values


TRAINED: list[Policy] = []  # the policy main() trained, for the arena's seat below


def trained(observation: Observation, info: dict[str, Any]) -> int:
    """The trained policy as a ``coven arena`` seat (``engine.envs.example_tabular:trained``)."""
    if not TRAINED:
        raise ValueError("nothing trained in this process: run main() first")
    return TRAINED[-1](observation, info)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="whirling-witchcraft")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--train", type=int, default=300)
    parser.add_argument("--eval", type=int, default=200)
    parser.add_argument("--against", default="random", help="the other seats' bot level")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    values = train(args.game, args.players, args.train, args.seed)
    # Evaluated by coven arena's own code, in this process (jobs=1), on seeds never trained on.
    # Run as ``python -m``, this file is ``__main__``: the arena imports the module by its name.
    importlib.import_module(SPEC_MODULE).TRAINED.append(values.greedy_policy())
    start = args.seed + args.train + 10_000
    others = [args.against] * (args.players - 1)
    learned = arena(args.game, [f"{SPEC_MODULE}:trained", *others], args.eval, start)
    baseline = arena(args.game, ["random", *others], args.eval, start)
    seat, same_seat = learned["win_rates"][0], baseline["win_rates"][0]
    report = {
        "game": args.game,
        "players": args.players,
        "against": args.against,
        "trained_matches": args.train,
        "eval_matches": learned["finished"],
        "win_rate": seat["rate"],
        "interval95": [seat["low"], seat["high"]],
        "random_in_same_seat": same_seat["rate"],
        "fair_share": round(1 / args.players, 4),
        "actions_valued": len(values.count),
    }
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
