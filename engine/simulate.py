"""Whole matches played bot against bot through the engine (``coven simulate``).

One match: every bot owes its seat's decisions; when several seats owe one at once (a
simultaneous step) a scheduler stream picks which answers next, so arrival orders vary too.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.bots import LEVELS, make_bot, seen
from engine.protocol import Action, Game, IllegalAction, parse_options

MAX_ACTIONS = 50_000  # a match still running after this many actions counts as unfinished


@dataclass
class Playout:
    seed: int
    state: Any
    actions: list[tuple[int, Action]] = field(default_factory=list)
    finished: bool = False


def play_match(
    game: Game,
    players: int,
    seed: int,
    bot: str = "random",
    options: dict[str, Any] | None = None,
    max_actions: int = MAX_ACTIONS,
) -> Playout:
    state = game.setup(players, seed, options)
    bots = [make_bot(bot, seed * 7919 + seat) for seat in range(players)]
    scheduler = random.Random(seed)
    playout = Playout(seed, state)
    while len(playout.actions) < max_actions:
        owing = sorted(game.to_move(state))
        if not owing:
            break
        seat = owing[scheduler.randrange(len(owing))]
        action = bots[seat].choose(game, seen(game, state, seat))
        state = game.apply(state, seat, action).state
        playout.actions.append((seat, action))
    playout.state = state
    playout.finished = game.result(state) is not None
    return playout


def _check_run(
    game: Game, players: int, games: int, bot: str, options: dict[str, Any] | None
) -> None:
    """Bad arguments are the caller's mistake, not a match's error: refuse the whole run."""
    if not game.min_players <= players <= game.max_players:
        raise IllegalAction(
            "bad_player_count",
            f"{game.title} is for {game.min_players} to {game.max_players} players",
        )
    if games < 1:
        raise IllegalAction("bad_games", "play at least one game")
    if bot not in LEVELS:
        raise IllegalAction("unknown_bot", f"no bot level {bot!r}; known: {', '.join(LEVELS)}")
    parse_options(game, options)


def simulate(
    game_id: str,
    players: int,
    games: int,
    seed: int,
    bot: str = "random",
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    game = registry.get(game_id)
    _check_run(game, players, games, bot, options)
    finished = errors = actions = rounds = 0
    wins = [0] * players
    started = time.perf_counter()
    for i in range(games):
        match_seed = seed + i
        try:
            playout = play_match(game, players, match_seed, bot, options)
        except Exception as exc:  # one broken match must not end the run
            errors += 1
            print(
                f"error in {game_id} players={players} seed={match_seed}: "
                f"{type(exc).__name__}: {exc}",
                file=sys.stderr,
            )
            continue
        actions += len(playout.actions)
        rounds += int(game.view(playout.state, None).get("round", 0))
        result = game.result(playout.state)
        if result is not None:
            finished += 1
            for seat in result.winners:
                wins[seat] += 1
    elapsed = time.perf_counter() - started
    played = max(1, games - errors)
    return {
        "game": game_id,
        "players": players,
        "games": games,
        "finished": finished,
        "errors": errors,
        "mean_actions": round(actions / played, 2),
        "mean_rounds": round(rounds / played, 2),
        "wins_by_seat": wins,
        "actions_per_second": round(actions / elapsed, 1) if elapsed else 0.0,
    }
