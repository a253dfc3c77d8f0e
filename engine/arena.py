"""Bots of chosen levels against each other through the engine (``coven arena``).

Seat *i* is played by the *i*-th level of ``seats`` in every match: seats do not rotate, so
``win_rates`` is one entry per seat in seat order, as DESIGN.md says, and a level's rate is that
of its seat (pass ``greedy,strong`` as well as ``strong,greedy`` to see a seat's advantage).
A shared win counts as a fraction: each of k winners scores 1/k. The interval is Wilson's 95 %
score interval over the finished matches.

Match *i* uses seed ``seed + i`` for the deal and ``(seed + i) * 7919 + seat`` for each bot, so a
run with an iteration budget is reproducible on any machine, with any ``jobs``.

A seat is a bot level (``random``, ``greedy``, ``strong``) or ``module:callable``, any importable
policy ``policy(observation, info) -> int`` of ``engine.envs.policies`` (it is handed what that
seat sees, encoded as the PettingZoo environment encodes it, never the state; it needs the
``[env]`` extra). A policy keeps its own state and random stream across the matches of a run
(one per worker process with ``jobs``).
"""

from __future__ import annotations

import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine import registry
from engine.bots import LEVELS, Bot, make_bot, seen
from engine.bots.strong import BUDGET_MS
from engine.protocol import Game, IllegalAction, parse_options

MAX_ACTIONS = 50_000
Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (fractional successes allowed)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, (centre - margin) / scale), min(1.0, (centre + margin) / scale)


def is_policy(level: str) -> bool:
    """A seat named ``module:callable`` rather than by a bot level."""
    return ":" in level


def player(
    game: Game,
    level: str,
    seed: int,
    players: int,
    budget_ms: int | None = None,
    iterations: int | None = None,
    options: dict[str, Any] | None = None,
) -> Bot:
    """The bot or seated policy (``engine.envs.policies.PolicySeat``) of one seat."""
    if is_policy(level):
        try:
            from engine.envs.policies import PolicySeat
        except ImportError as exc:
            raise IllegalAction(
                "env_missing", f"a module:callable seat needs the [env] extra ({exc})"
            ) from None
        return PolicySeat(level, players, options)
    return make_bot(level, seed, budget_ms=budget_ms, iterations=iterations)


def play(
    game: Game,
    levels: list[str],
    seed: int,
    budget_ms: int | None = None,
    iterations: int | None = None,
    options: dict[str, Any] | None = None,
) -> list[float] | None:
    """One match; each seat's share of the win, or ``None`` if it did not finish."""
    players = len(levels)
    state = game.setup(players, seed, options)
    bots = [
        player(game, level, seed * 7919 + s, players, budget_ms, iterations, options)
        for s, level in enumerate(levels)
    ]
    scheduler = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        owing = sorted(game.to_move(state))
        if not owing:
            break
        seat = owing[scheduler.randrange(len(owing))]
        action = bots[seat].choose(game, seen(game, state, seat))
        state = game.apply(state, seat, action).state
    result = game.result(state)
    if result is None:
        return None
    return [1 / len(result.winners) if s in result.winners else 0.0 for s in range(players)]


def _job(
    game_id: str,
    levels: list[str],
    seed: int,
    budget_ms: int | None,
    iterations: int | None,
    options: dict[str, Any] | None,
) -> tuple[int, list[float] | None, str | None]:
    try:
        shares = play(registry.get(game_id), levels, seed, budget_ms, iterations, options)
    except Exception as exc:  # one broken match must not end the run
        return seed, None, f"{type(exc).__name__}: {exc}"
    return seed, shares, None


def check(
    game: Game,
    levels: list[str],
    games: int,
    budget_ms: int | None,
    iterations: int | None,
    jobs: int,
    options: dict[str, Any] | None,
) -> None:
    """Bad arguments are the caller's mistake: refuse the whole run with a clear code."""
    unknown = [level for level in levels if level not in LEVELS and not is_policy(level)]
    if unknown:
        raise IllegalAction(
            "unknown_bot",
            f"no bot level {unknown[0]!r}; known: {', '.join(LEVELS)}, or module:callable",
        )
    if not game.min_players <= len(levels) <= game.max_players:
        raise IllegalAction(
            "bad_player_count",
            f"{game.title} is for {game.min_players} to {game.max_players} players; "
            f"--seats names {len(levels)}",
        )
    if games < 1:
        raise IllegalAction("bad_games", "play at least one game")
    if budget_ms is not None and iterations is not None:
        raise IllegalAction("bad_budget", "give --budget-ms or --iterations, not both")
    if (budget_ms is not None and budget_ms < 1) or (iterations is not None and iterations < 1):
        raise IllegalAction("bad_budget", "a budget must be at least 1")
    if jobs < 1:
        raise IllegalAction("bad_jobs", "--jobs must be at least 1")
    parse_options(game, options)
    for level in levels:
        if is_policy(level):  # refuse a policy that cannot be loaded before any match
            player(game, level, 0, len(levels), options=options)


def arena(
    game_id: str,
    levels: list[str],
    games: int,
    seed: int,
    budget_ms: int | None = None,
    iterations: int | None = None,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    game = registry.get(game_id)
    check(game, levels, games, budget_ms, iterations, jobs, options)
    args = [(game_id, levels, seed + i, budget_ms, iterations, options) for i in range(games)]
    if jobs == 1:
        outcomes = [_job(*a) for a in args]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            outcomes = list(pool.map(_job, *zip(*args, strict=True)))
    wins = [0.0] * len(levels)
    finished = errors = 0
    for match_seed, shares, error in outcomes:
        if error is not None:
            errors += 1
            print(f"error in {game_id} seed={match_seed}: {error}", file=sys.stderr)
        elif shares is not None:
            finished += 1
            for s, share in enumerate(shares):
                wins[s] += share
    rates = []
    for level, won in zip(levels, wins, strict=True):
        low, high = wilson(won, finished)
        rates.append(
            {
                "level": level,
                "rate": round(won / finished, 4) if finished else 0.0,
                "low": round(low, 4),
                "high": round(high, 4),
            }
        )
    return {
        "game": game_id,
        "seats": levels,
        "games": games,
        "finished": finished,
        "errors": errors,
        "budget": (
            {"budget_ms": budget_ms, "iterations": iterations}
            if budget_ms is not None or iterations is not None
            else {"budget_ms": BUDGET_MS, "iterations": None}
        )
        if "strong" in levels
        else None,
        "win_rates": rates,
    }
