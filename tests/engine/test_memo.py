"""What ``engine.memo`` keeps on a state (Seasons, Whirling Witchcraft) changes no answer: the
legal actions asked twice are equal and the caller's own list, an action equal to a listed one
but of another JSON type is still refused, an equal copy of a listed action plays exactly like
the listed one, and ``apply`` never changes the state it was given (the copy-on-read seats)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import registry
from engine.protocol import Game, IllegalAction

GAMES = [registry.get("seasons"), registry.get("whirling-witchcraft")]
SETUPS = [(GAMES[0], {"level": "master"}), (GAMES[0], {"level": "apprentice"}), (GAMES[1], None)]


def dumped(game: Game, state: Any) -> str:
    return json.dumps(game.dump(state))


def retyped(action: dict[str, Any]) -> dict[str, Any] | None:
    """The action with its first 0/1 field as a bool, or its first bool field as 0/1."""
    for k, v in action.items():
        if type(v) is int and v in (0, 1):
            return {**action, k: bool(v)}
        if type(v) is bool:
            return {**action, k: int(v)}
    return None


@pytest.mark.parametrize(("game", "options"), SETUPS, ids=lambda x: getattr(x, "id", str(x)))
def test_memo_changes_no_answer(game: Game, options: dict[str, Any] | None) -> None:
    tried_types = 0
    for seed in range(3):
        pick = random.Random(seed)
        state = game.setup(4, seed, options)
        while game.result(state) is None:
            seat = pick.choice(sorted(game.to_move(state)))
            first = game.legal_actions(state, seat)
            first.append({"type": "not_an_action"})  # the caller's list: the memo keeps its own
            second = game.legal_actions(state, seat)
            assert second == first[:-1] and second is not first
            action = second[pick.randrange(len(second))]
            # the same fields with a bool for an int or back (True == 1 in Python): not listed
            other = retyped(action)
            if other is not None:
                tried_types += 1
                with pytest.raises(IllegalAction):
                    game.apply(state, seat, other)
            before = dumped(game, state)
            listed = game.apply(state, seat, action)
            copied = game.apply(state, seat, json.loads(json.dumps(action)))
            assert dumped(game, state) == before  # apply never changes its input
            assert dumped(game, listed.state) == dumped(game, copied.state)
            assert listed.events == copied.events
            state = listed.state
    assert tried_types > 0
