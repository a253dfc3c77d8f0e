"""Random matches of any game for property tests: a seeded scheduler picks which owing seat
answers next (so simultaneous steps see every arrival order) and which legal action it sends."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from engine.protocol import Game, IllegalAction


@dataclass
class Ply:
    before: Any
    seat: int
    action: dict[str, Any]
    after: Any
    events: list[dict[str, Any]]


def random_plies(
    game: Game, players: int, seed: int, options: dict[str, Any] | None = None
) -> Iterator[Ply]:
    """Every step of one random match of ``game``, to its end."""
    pick = random.Random(seed)
    state = game.setup(players, seed, options)
    while game.result(state) is None:
        owing = sorted(game.to_move(state))
        assert owing, "a running match always owes someone a decision"
        seat = owing[pick.randrange(len(owing))]
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} owes a decision but has no legal action"
        action = legal[pick.randrange(len(legal))]
        step = game.apply(state, seat, action)
        yield Ply(state, seat, action, step.state, step.events)
        state = step.state


def assert_accepted_exactly_when_legal(
    game: Game,
    position: Any,
    seat: int,
    action: Any,
    offered: Callable[[Any, list[dict[str, Any]]], bool] | None = None,
) -> None:
    """``apply`` takes ``action`` if it is one of the legal actions (``offered`` decides what
    "one of" means: plain equality unless a game compares types too), refuses it with a code and
    a message otherwise, and never changes ``position``."""
    before = game.dump(position)
    legal = game.legal_actions(position, seat)
    if offered(action, legal) if offered is not None else action in legal:
        game.apply(position, seat, action)
    else:
        with pytest.raises(IllegalAction) as refused:
            game.apply(position, seat, action)
        assert refused.value.code and refused.value.message
    assert game.dump(position) == before
