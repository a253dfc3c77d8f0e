"""Policies: what decides for one seat, from what that seat sees.

A policy is any callable ``policy(observation, info) -> int``: ``observation`` is the
environment's observation of the seat (``{"observation": …, "action_mask": …}``), ``info`` its
info (``{"game", "seat", "view", "legal", "legal_index", "to_move"}``), and the answer one of
``info["legal_index"]`` (an index where the mask is 1). It never receives the match's state.

* :func:`builtin` makes one of Coven's bots (``random``, ``greedy``, ``strong``) a policy, to
  train or evaluate against in the environment;
* :class:`PolicySeat` goes the other way: it seats a policy in ``coven arena`` (``--seats
  module:callable``), by building the same observation and info from the seat's ``Seen``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import registry
from engine.bots import make_bot
from engine.bots.base import Seen
from engine.envs.catalog import action_space
from engine.envs.encode import encode, mask
from engine.protocol import Action, Game, IllegalAction

Observation = dict[str, np.ndarray]
Policy = Callable[[Observation, dict[str, Any]], int]


def builtin(
    level: str, seed: int = 0, budget_ms: int | None = None, iterations: int | None = None
) -> Policy:
    """The built-in bot ``level`` as a policy (its own random stream from ``seed``)."""
    bot = make_bot(level, seed, budget_ms=budget_ms, iterations=iterations)

    def policy(observation: Observation, info: dict[str, Any]) -> int:
        seen = Seen(info["seat"], info["view"], info["legal"], frozenset(info["to_move"]))
        action = bot.choose(registry.get(info["game"]), seen)
        index: int = info["legal_index"][info["legal"].index(action)]
        return index

    return policy


def observe(
    game: Game, players: int, options: dict[str, Any] | None, seen: Seen
) -> tuple[Observation, dict[str, Any]]:
    """The observation and info the environment would give ``seen.seat`` (for ``PolicySeat``)."""
    space = action_space(game.id, players, options)
    legal = space.legal(seen.view, seen.seat, seen.legal)
    observation = {
        "observation": encode(seen.view, seen.seat, players),
        "action_mask": mask(len(space), sorted(legal)),
    }
    info = {
        "game": game.id,
        "seat": seen.seat,
        "view": seen.view,
        "legal": list(legal.values()),
        "legal_index": list(legal),
        "to_move": sorted(seen.to_move),
    }
    return observation, info


def load(spec: str) -> Policy:
    """``module:callable`` → the callable (``IllegalAction("unknown_bot")`` when it is not)."""
    module_name, _, name = spec.partition(":")
    try:
        found = getattr(importlib.import_module(module_name), name)
    except Exception as exc:  # the user's module: any error in it is a clear refusal
        raise IllegalAction("unknown_bot", f"cannot load the policy {spec!r}: {exc}") from None
    if not callable(found):
        raise IllegalAction("unknown_bot", f"{spec!r} is not callable")
    policy: Policy = found
    return policy


class PolicySeat:
    """A policy seated like a bot: ``choose(game, seen)`` answers with one of ``seen.legal``."""

    def __init__(self, spec: str, players: int, options: dict[str, Any] | None) -> None:
        self.level = spec
        self.policy = load(spec)
        self.players = players
        self.options = options

    def choose(self, game: Game, seen: Seen) -> Action:
        observation, info = observe(game, self.players, self.options, seen)
        index = self.policy(observation, info)
        if index not in info["legal_index"]:
            raise ValueError(f"policy {self.level} chose {index!r}, not a legal action's index")
        action: Action = info["legal"][info["legal_index"].index(index)]
        return action
