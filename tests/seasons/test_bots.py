"""Bots at a Seasons table: every level finishes a match from its seat's view alone, and the
heuristic prefers what the final score prefers."""

from __future__ import annotations

import pytest

from engine.simulate import play_match
from tests.seasons.positions import GAME, energy, position, seat


@pytest.mark.parametrize("level", ["random", "greedy"])
def test_bots_finish_a_match(level: str) -> None:
    for players in (2, 4):
        playout = play_match(GAME, players, 3, level, {"level": "apprentice"})
        assert playout.finished


def test_the_heuristic_follows_the_score() -> None:
    rich = position(seats=[seat(crystals=30), seat(crystals=10)])
    poor = position(seats=[seat(crystals=10), seat(crystals=30)])
    assert GAME.evaluate(rich, 0) > 0 > GAME.evaluate(poor, 0)
    assert GAME.evaluate(rich, 0) == -GAME.evaluate(rich, 1)
    with_energy = position(seats=[seat(energy_=energy(earth=2)), seat()])
    assert GAME.evaluate(with_energy, 0) > GAME.evaluate(position(), 0)
    summoned = position(seats=[seat(in_play=[22], gauge=1), seat()])
    in_hand = position(seats=[seat(hand=[22], gauge=1), seat()])
    assert GAME.evaluate(summoned, 0) > GAME.evaluate(in_hand, 0)
