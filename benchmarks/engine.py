"""Engine throughput: random playouts per registered game and player count.

Prints one JSON line per (game, players): engine actions per second over whole matches (the time
in ``legal_actions`` and ``apply``, wall clock), the time split between the two, and
``cpu_actions_per_second``: the whole loop by the process's CPU time, which the waits of a busy
machine do not inflate. One process, one core.

    .venv/bin/python benchmarks/engine.py [--seconds 3] [--game whirling-witchcraft] [--players 4]

``--compare DIR`` measures this checkout's engine against the one in ``DIR`` (another checkout,
e.g. ``git worktree add /tmp/base HEAD~3``): two worker processes, one per engine, run the same
matches by turns in short slices (``--slices``), so that the load of a shared machine falls on
both alike; each line then gives both figures and their ratios (``speedup``: this one / DIR's;
``cpu_speedup``: the same by CPU time).

``--matches N`` plays N seeded matches of each setup flat out, untimed, and prints the number of
actions: for a count of CPU instructions that no load on the machine changes, e.g.
``valgrind --tool=cachegrind --cache-sim=no .venv/bin/python benchmarks/engine.py --game seasons
--players 4 --matches 6`` minus the same with ``--matches 0`` (the imports), per action.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.protocol import Game

HERE = Path(__file__).resolve().parent.parent


def play(
    game: Game, players: int, seconds: float, options: dict[str, Any] | None, first_seed: int = 1
) -> dict[str, Any]:
    """Random matches from ``first_seed`` on for ``seconds``: the raw counts and times."""
    legal_time = apply_time = 0.0
    actions = matches = 0
    seed = first_seed - 1
    cpu_start = time.process_time()
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
            action = legal[pick.randrange(len(legal))]  # the benchmark's pick: not timed
            t2 = time.perf_counter()
            state = game.apply(state, seat, action).state
            t3 = time.perf_counter()
            legal_time += t1 - t0
            apply_time += t3 - t2
            actions += 1
        matches += 1
    cpu = time.process_time() - cpu_start
    return {
        "matches": matches, "actions": actions, "legal": legal_time, "apply": apply_time, "cpu": cpu
    }


def count(game: Game, players: int, matches: int, options: dict[str, Any] | None) -> int:
    """The actions of ``matches`` seeded random matches (the loop of ``play``, untimed)."""
    actions = 0
    for seed in range(1, matches + 1):
        pick = random.Random(seed)
        state = game.setup(players, seed, options)
        while game.result(state) is None:
            owing = sorted(game.to_move(state))
            seat = owing[pick.randrange(len(owing))]
            legal = game.legal_actions(state, seat)
            state = game.apply(state, seat, legal[pick.randrange(len(legal))]).state
            actions += 1
    return actions


def figures(raw: dict[str, Any]) -> dict[str, Any]:
    actions = raw["actions"]
    return {
        "matches": raw["matches"],
        "actions": actions,
        "actions_per_second": round(actions / (raw["legal"] + raw["apply"])),
        # the whole loop (the benchmark's picks too) by this process's CPU time: what a busy
        # machine's waits for a core do not change
        "cpu_actions_per_second": round(actions / raw["cpu"]),
        "legal_actions_us": round(raw["legal"] / actions * 1e6, 1),
        "apply_us": round(raw["apply"] / actions * 1e6, 1),
    }


def measure(
    game: Game, players: int, seconds: float, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "game": game.id,
        "players": players,
        **({"options": options} if options else {}),
        **figures(play(game, players, seconds, options)),
    }


def setups(
    game_id: str | None, players: int | None
) -> list[tuple[Game, dict[str, Any] | None, int]]:
    from engine import registry

    out = []
    for game in registry.games():
        if game_id and game.id != game_id:
            continue
        # a game may name several setups worth measuring (Seasons: both levels)
        for options in getattr(game, "benchmark_options", [None]):
            for n in range(game.min_players, game.max_players + 1):
                if players is None or n == players:
                    out.append((game, options, n))
    return out


def worker() -> None:
    """Answer one JSON request a line: ``{"game", "players", "options", "seconds", "seed"}``."""
    from engine import registry

    for line in sys.stdin:
        ask = json.loads(line)
        raw = play(
            registry.get(ask["game"]), ask["players"], ask["seconds"], ask["options"], ask["seed"]
        )
        print(json.dumps(raw), flush=True)


class Worker:
    """A worker process running the engine of the checkout ``root``."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker", "--root", str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def play(self, ask: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(ask) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def compare(args: argparse.Namespace) -> None:
    ours, theirs = Worker(HERE), Worker(Path(args.compare).resolve())
    try:
        for game, options, players in setups(args.game, args.players):
            totals = {
                w: {"matches": 0, "actions": 0, "legal": 0.0, "apply": 0.0, "cpu": 0.0}
                for w in ("new", "old")
            }
            for k in range(args.slices):
                ask = {
                    "game": game.id,
                    "players": players,
                    "options": options,
                    "seconds": args.seconds / args.slices,
                    "seed": 1 + 100_000 * k,
                }
                # alternate which engine goes first, so neither always follows the other
                order = [("new", ours), ("old", theirs)]
                for name, w in order if k % 2 == 0 else order[::-1]:
                    raw = w.play(ask)
                    for field in totals[name]:
                        totals[name][field] += raw[field]
            new, old = figures(totals["new"]), figures(totals["old"])
            print(
                json.dumps(
                    {
                        "game": game.id,
                        "players": players,
                        **({"options": options} if options else {}),
                        "new": new,
                        "old": old,
                        "speedup": round(new["actions_per_second"] / old["actions_per_second"], 2),
                        "cpu_speedup": round(
                            new["cpu_actions_per_second"] / old["cpu_actions_per_second"], 2
                        ),
                    }
                ),
                flush=True,
            )
    finally:
        ours.close()
        theirs.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument(
        "--compare",
        metavar="DIR",
        default=None,
        help="another checkout whose engine to measure against this one",
    )
    parser.add_argument("--slices", type=int, default=10, help="turns per engine with --compare")
    parser.add_argument("--matches", type=int, default=None, help="N matches, untimed")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--root", default=str(HERE), help=argparse.SUPPRESS)
    args = parser.parse_args()
    # run as a script, this folder would shadow the engine package: import it from --root
    sys.path[0] = str(Path(args.root).resolve())
    if args.worker:
        worker()
    elif args.compare:
        compare(args)
    elif args.matches is not None:
        for game, options, players in setups(args.game, args.players):
            actions = count(game, players, args.matches, options)
            print(json.dumps({"game": game.id, "players": players, "actions": actions}))
    else:
        for game, options, players in setups(args.game, args.players):
            print(json.dumps(measure(game, players, args.seconds, options)), flush=True)


if __name__ == "__main__":
    main()
