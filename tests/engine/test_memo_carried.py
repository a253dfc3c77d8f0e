"""The answers ``apply`` hands on to the state it returns (``engine.memo``: the legal actions of
the seats a step did not touch, the options of a question left waiting) are the answers the new
state gives on its own: at every step of random matches, for every seat, who owes a decision and
its legal actions equal those of the same position loaded afresh from its dump (no memo)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import registry
from engine.protocol import Game

SETUPS = [
    (registry.get("seasons"), {"level": "master"}),
    (registry.get("seasons"), {"level": "apprentice"}),
    (registry.get("whirling-witchcraft"), None),
    (registry.get("whirling-witchcraft"), {"production": "initiative"}),
]


@pytest.mark.parametrize(("game", "options"), SETUPS, ids=lambda x: getattr(x, "id", str(x)))
@pytest.mark.parametrize("players", [2, 4])
def test_answers_handed_on_are_the_positions_own(
    game: Game, options: dict[str, Any] | None, players: int
) -> None:
    for seed in range(1, 3):
        pick = random.Random(seed)
        state = game.setup(players, seed, options)
        while game.result(state) is None:
            owing = sorted(game.to_move(state))
            fresh = game.load(game.dump(state))
            assert owing == sorted(game.to_move(fresh))
            for seat in range(players):
                assert game.legal_actions(state, seat) == game.legal_actions(fresh, seat)
            seat = owing[pick.randrange(len(owing))]
            legal = game.legal_actions(state, seat)
            state = game.apply(state, seat, legal[pick.randrange(len(legal))]).state
