"""The bots' strength in Witch's Brew (or another game, ``--game``), seats rotated: the figures
of the "Bots" section of ``engine/brew/README.md``.

For every player count and pairing (``strong`` against ``greedy``, ``strong`` and ``greedy``
against ``random``) the level under test (the hero) sits in each seat in turn, the other seats
all play the other level: with 3 players, ``--seats strong,greedy,greedy``, then
``greedy,strong,greedy``, then ``greedy,greedy,strong``, each for ``--games`` matches with seeds
``seed .. seed + games - 1``, so every deal is played once with the hero in each seat. A match is
played exactly as ``coven arena`` plays it (``engine/arena.py``: the same deal, bot seeds and
order of simultaneous moves for the same seed), so each rotation's wins are what

    coven arena witchs-brew --seats greedy,strong,greedy --games G --seed S --iterations N

prints for that seat; this script pools the rotations. One JSON line per (players, pairing):

* ``win_rate`` / ``low`` / ``high``: the hero's share of the wins (a shared win counts as a
  fraction) with Wilson's 95 % interval, against ``fair`` = 1 / players;
* ``ahead`` / ``ahead_low`` / ``ahead_high``: the share of (match, other seat) pairs in which the
  hero finished ahead of that seat (a shared place counts half): the head-to-head reading for a
  game of 3 or more, fair share 50 %. Its interval treats the pairs as independent, which they
  are not quite (the seats of one match share a deal), so it is a little too narrow;
* ``score`` / ``others_score``: the hero's mean final score and the other seats' mean;
* ``cpu_ms``: the hero's mean CPU time per decision that had a choice (a ``strong`` hero: the
  search; CPU time, so a loaded machine does not change it much).

    nice -n 19 .venv/bin/python benchmarks/arena_brew.py --players 3 --games 20 --iterations 100
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script, this folder would shadow the engine package
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine import registry
from engine.arena import MAX_ACTIONS, wilson
from engine.bots import make_bot, seen

PAIRINGS = (("strong", "greedy"), ("strong", "random"), ("greedy", "random"))


Options = dict[str, Any] | None


def match(
    game_id: str,
    levels: list[str],
    hero: int,
    seed: int,
    iterations: int | None,
    options: Options = None,
) -> dict[str, Any]:
    """One match as ``engine.arena.play`` plays it; the hero's placings, scores and CPU time."""
    game = registry.get(game_id)
    players = len(levels)
    state = game.setup(players, seed, options)
    bots = [
        make_bot(level, seed * 7919 + s, iterations=iterations) for s, level in enumerate(levels)
    ]
    scheduler = random.Random(seed)
    cpu = 0.0
    decisions = 0
    for _ in range(MAX_ACTIONS):
        owing = sorted(game.to_move(state))
        if not owing:
            break
        seat = owing[scheduler.randrange(len(owing))]
        shown = seen(game, state, seat)
        started = time.process_time()
        action = bots[seat].choose(game, shown)
        if seat == hero and len(shown.legal) > 1:
            cpu += time.process_time() - started
            decisions += 1
        state = game.apply(state, seat, action).state
    result = game.result(state)
    if result is None:
        return {"finished": False}
    placings = result.placings
    others = [s for s in range(players) if s != hero]
    return {
        "finished": True,
        "share": 1 / len(result.winners) if hero in result.winners else 0.0,
        "ahead": [
            1.0 if placings[hero] < placings[s] else 0.5 if placings[hero] == placings[s] else 0.0
            for s in others
        ],
        "score": result.scores[hero],
        "others_score": sum(result.scores[s] for s in others) / len(others),
        "cpu": cpu,
        "decisions": decisions,
    }


def _match(args: tuple[str, list[str], int, int, int | None, Options]) -> dict[str, Any]:
    return match(*args)


def pairing(
    game_id: str,
    players: int,
    hero: str,
    other: str,
    games: int,
    seed: int,
    iterations: int | None,
    jobs: int,
    options: Options = None,
) -> dict[str, Any]:
    """The hero in every seat in turn, ``games`` matches each, pooled."""
    work = []
    for seat in range(players):
        levels = [hero if s == seat else other for s in range(players)]
        work += [(game_id, levels, seat, seed + i, iterations, options) for i in range(games)]
    if jobs == 1:
        outcomes = [_match(w) for w in work]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            outcomes = list(pool.map(_match, work))
    done = [o for o in outcomes if o["finished"]]
    n = len(done)
    wins = sum(o["share"] for o in done)
    pairs = [a for o in done for a in o["ahead"]]
    low, high = wilson(wins, n)
    ahead_low, ahead_high = wilson(sum(pairs), len(pairs))
    decisions = sum(o["decisions"] for o in done)
    return {
        "game": game_id,
        "players": players,
        "hero": hero,
        "others": other,
        "iterations": iterations if "strong" in (hero, other) else None,
        "options": options,
        "matches": len(outcomes),
        "finished": n,
        "win_rate": round(wins / n, 4) if n else 0.0,
        "low": round(low, 4),
        "high": round(high, 4),
        "fair": round(1 / players, 4),
        "ahead": round(sum(pairs) / len(pairs), 4) if pairs else 0.0,
        "ahead_low": round(ahead_low, 4),
        "ahead_high": round(ahead_high, 4),
        "score": round(sum(o["score"] for o in done) / n, 1) if n else 0.0,
        "others_score": round(sum(o["others_score"] for o in done) / n, 1) if n else 0.0,
        "cpu_ms": round(1000 * sum(o["cpu"] for o in done) / decisions, 1) if decisions else 0.0,
        "commands": [
            f"coven arena {game_id} --seats "
            + ",".join(hero if s == seat else other for s in range(players))
            + f" --games {games} --seed {seed}"
            + (f" --iterations {iterations}" if iterations and "strong" in (hero, other) else "")
            + (f" --options '{json.dumps(options)}'" if options else "")
            for seat in range(players)
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--game", default="witchs-brew")
    parser.add_argument("--players", type=int, nargs="*", default=None, help="default: all")
    parser.add_argument("--games", type=int, default=20, help="matches per seat of the hero")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=100, help="strong's search budget")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--options", default=None, help="setup options as JSON, as `coven arena --options`"
    )
    parser.add_argument(
        "--pairing",
        action="append",
        default=None,
        help="hero,other (repeatable); default: strong,greedy strong,random greedy,random",
    )
    args = parser.parse_args()
    try:
        options = json.loads(args.options) if args.options else None
    except json.JSONDecodeError:
        options = []
    if options is not None and not isinstance(options, dict):
        parser.error("--options must be a JSON object")
    game = registry.get(args.game)
    counts = args.players or list(range(game.min_players, game.max_players + 1))
    pairings = [tuple(p.split(",")) for p in args.pairing] if args.pairing else PAIRINGS
    for players in counts:
        for hero, other in pairings:
            line = pairing(
                args.game,
                players,
                hero,
                other,
                args.games,
                args.seed,
                args.iterations,
                args.jobs,
                options,
            )
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
