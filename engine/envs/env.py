"""A Coven game as a PettingZoo AEC environment (``engine.envs.make``).

Agents are ``seat_0`` … ``seat_{n-1}``. When several seats owe a decision at once (Whirling
Witchcraft's hidden recipe plays and productions, Witch's Brew's role choices, Seasons' draft and
libraries) they answer one after another in AEC turns, in an order drawn from the environment's
own seeded stream (as ``coven arena`` does). A seat that chooses later sees only what the server
would show it: that the earlier ones have chosen, never what (the view hides pending choices).

* **observation** ``{"observation": float32[SIZE], "action_mask": int8[N]}`` — the seat's view
  encoded (``encode.py``) and its legal actions among the ``N`` of the game's fixed action space
  (``actions.py``; all zeros when it owes nothing);
* **info** ``{"game", "seat", "view", "legal", "legal_index", "to_move"}`` — the raw view, the legal
  actions as the game writes them with their indices, who owes a decision;
* **reward** — 0 during the match; at the end, from the placings: place ``q`` of ``n`` is worth
  ``1 - 2 (q - 1) / (n - 1)`` (+1 first … −1 last) and seats that share a place share the mean
  of the places they cover, so the rewards of a match add up to 0;
* **truncation** — after ``max_actions`` actions without a result (never seen in practice);
* ``render()`` — the match as text (the spectator's view: no seat's secrets).
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from engine import registry
from engine.bots.base import Seen
from engine.envs.catalog import action_space
from engine.envs.encode import SIZE, encode, mask
from engine.protocol import Action, Result, check_player_count, parse_options

MAX_ACTIONS = 50_000


def placing_rewards(result: Result) -> list[float]:
    """+1 first … −1 last; tied seats share the mean reward of the places they cover."""
    n = len(result.placings)
    worth = [1.0 - 2.0 * q / (n - 1) for q in range(n)]
    rewards = []
    for place in result.placings:
        tied = result.placings.count(place)
        covered = worth[place - 1 : place - 1 + tied]
        rewards.append(sum(covered) / tied)
    return rewards


class CovenEnv(AECEnv):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "coven_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        players: int,
        seed: int = 0,
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
        max_actions: int = MAX_ACTIONS,
    ) -> None:
        super().__init__()
        self.game = registry.get(game_id)
        self.players = check_player_count(self.game, players)
        parse_options(self.game, options)
        self.game_options = options
        self.space = action_space(game_id, players, options)
        self.render_mode = render_mode
        self.max_actions = max_actions
        self.possible_agents = [f"seat_{s}" for s in range(players)]
        self._seeds = random.Random(seed)
        self._first_seed: int | None = seed
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (len(self.space),), np.int8),
            }
        )
        self._action_space = spaces.Discrete(len(self.space))
        self.match_state: Any = None
        self._cached_state: Any = None
        self._cache: dict[str, tuple[Seen, dict[int, Action]]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    # --- what a seat sees -----------------------------------------------------------------------

    def seat_of(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def seen(self, agent: str) -> Seen:
        """What ``agent``'s seat is shown now (what the built-in bots decide from)."""
        return self._shown(agent)[0]

    def _shown(self, agent: str) -> tuple[Seen, dict[int, Action]]:
        """The seat's ``Seen`` and its legal actions by index, computed once per state."""
        state = self.match_state
        if self._cached_state is not state:
            self._cached_state, self._cache = state, {}
        if agent not in self._cache:
            seat = self.seat_of(agent)
            seen = Seen(
                seat,
                self.game.view(state, seat),
                self.game.legal_actions(state, seat),
                self.game.to_move(state),
            )
            self._cache[agent] = (seen, self.space.legal(seen.view, seat, seen.legal))
        return self._cache[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seen, legal = self._shown(agent)
        return {
            "observation": encode(seen.view, seen.seat, self.players),
            "action_mask": mask(len(self.space), sorted(legal)),
        }

    def _info(self, agent: str) -> dict[str, Any]:
        seen, legal = self._shown(agent)
        return {
            "game": self.game.id,
            "seat": seen.seat,
            "view": seen.view,
            "legal": list(legal.values()),
            "legal_index": list(legal),
            "to_move": sorted(seen.to_move),
        }

    # --- the match ------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match. ``seed``: the deal and the turn order of simultaneous choices; without
        it, the next seed of the stream started by ``make(seed=…)``. The room's options are
        fixed by ``make``; ``options`` here is PettingZoo's and ignored."""
        if seed is None:
            seed = (
                self._first_seed if self._first_seed is not None else self._seeds.randrange(2**31)
            )
        self._first_seed = None
        self._scheduler = random.Random(seed)
        self.match_state = self.game.setup(self.players, seed, self.game_options)
        self.actions_played = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: self._info(agent) for agent in self.agents}
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        owing = sorted(self.game.to_move(self.match_state))
        return self.possible_agents[owing[self._scheduler.randrange(len(owing))]]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seen, legal = self._shown(agent)
        if action is None or int(action) not in legal:
            raise ValueError(
                f"{agent} cannot play action {action!r} now: choose an index where "
                "observation['action_mask'] is 1"
            )
        self.match_state = self.game.apply(self.match_state, seen.seat, legal[int(action)]).state
        self.actions_played += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        result = self.game.result(self.match_state)
        if result is not None:
            for other, reward in zip(self.possible_agents, placing_rewards(result), strict=True):
                self.rewards[other] = reward
                self.terminations[other] = True
        elif self.actions_played >= self.max_actions:
            self.truncations = dict.fromkeys(self.agents, True)
        self.infos = {other: self._info(other) for other in self.agents}
        if result is None and self.actions_played < self.max_actions:
            self.agent_selection = self._next_agent()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # --- text -----------------------------------------------------------------------------------

    def render(self) -> str | None:
        """The match as text, from the spectator's view (no seat's secrets)."""
        if self.render_mode is None:
            return None
        text = render_text(self.game, self.match_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def render_text(game: Any, state: Any) -> str:
    view = game.view(state, None)
    owing = ", ".join(f"seat_{s}" for s in sorted(game.to_move(state))) or "nobody"
    lines = [f"{game.title} — stage {game.stage(state)} — to move: {owing}"]
    seats = view.get("players") if isinstance(view.get("players"), list) else view.get("seats")
    for s, public in enumerate(seats if isinstance(seats, list) else []):
        shown = {k: v for k, v in public.items() if v != "hidden" and k != "seat"}
        lines.append(f"  seat_{s}: {json.dumps(shown, separators=(',', ':'))}")
    result = game.result(state)
    if result is not None:
        lines.append(f"  over: placings {result.placings}, scores {result.scores}")
    return "\n".join(lines)
