"""What Seasons gives its search bots (``engine/seasons/heuristic.py``, ``worth.py``,
``playout.py``): a heuristic with a sense of time (held energy and cards are worth less as year
III ends, unless the energy can be cashed now) and of the season dice (the die a seat takes is
weighed by its face); ``strong``'s hints: it never takes the libraries apart while building
them, and plays each leaf on to the end of the round with legal actions only."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.bots import make_bot, seen
from engine.bots.searching import hints
from engine.seasons import heuristic, playout, worth
from engine.seasons.state import State
from tests.seasons.positions import energy, position, seat

GAME = registry.get("seasons")


def test_strong_is_told_not_to_take_the_libraries_apart() -> None:
    assert hints(GAME).search_actions is playout.search_actions
    state = GAME.setup(2, 3, None)
    assert state.phase == "build"
    state = GAME.apply(state, 0, GAME.legal_actions(state, 0)[0]).state
    legal = GAME.legal_actions(state, 0)
    assert any(a["type"] == "reset_libraries" for a in legal)
    weighed = playout.search_actions(state, 0, legal)
    assert weighed == [a for a in legal if a["type"] != "reset_libraries"]


def test_held_energy_and_cards_lose_their_worth_as_year_three_ends() -> None:
    def rich(year: int, month: int, may_transmute: bool = False) -> State:
        return position(
            seats=[seat(energy_=energy(earth=3), hand=[22]), seat()],
            year=year, month=month, may_transmute=may_transmute,
        )

    early, last = rich(1, 1), rich(3, 12)
    assert worth.late(early) == 1.0 and 0.0 < worth.late(last) < 0.2
    assert heuristic.evaluate(early, 0) > heuristic.evaluate(last, 0) + 10
    # the seat can still cash its energy in this turn: worth its full rate, as crystals are
    cash = heuristic.evaluate(rich(3, 12, may_transmute=True), 0) - heuristic.evaluate(last, 0)
    assert cash == pytest.approx(2 * 3 * (1 - worth.late(last)))  # autumn: earth is 2


def test_the_die_a_seat_takes_is_weighed_by_its_face() -> None:
    state = position(players=2, phase="dice", turn=None)
    state.chooser = 0
    for d in state.dice:
        d["taken_by"] = None
    values = [worth.die_value(state, i, 1.0) for i in range(len(state.dice))]
    best = max(range(len(values)), key=values.__getitem__)
    worst = min(range(len(values)), key=values.__getitem__)
    assert values[best] > values[worst]
    taken = {
        i: heuristic.evaluate(GAME.apply(state, 0, {"type": "take_die", "die": i}).state, 0)
        for i in (best, worst)
    }
    assert taken[best] - taken[worst] == values[best] - values[worst]


def test_strong_builds_its_libraries_without_a_reset_and_finishes_the_match() -> None:
    state = GAME.setup(2, 5, None)
    bots = [make_bot("strong", 1, iterations=6), make_bot("random", 2)]
    strong_moves: list[str] = []
    while GAME.result(state) is None:
        actor = min(GAME.to_move(state))
        action = bots[actor].choose(GAME, seen(GAME, state, actor))
        if actor == 0:
            strong_moves.append(action["type"])
        state = GAME.apply(state, actor, action).state
    assert "reset_libraries" not in strong_moves
    assert strong_moves.count("to_library") == 6
    assert heuristic.evaluate(state, 0) == -heuristic.evaluate(state, 1)


def _random_states(players: int, seed: int, every: int) -> list[State]:
    """States of a random match, one in about ``every`` of those with a choice."""
    rng = random.Random(seed)
    state = GAME.setup(players, seed, None)
    out: list[State] = []
    while GAME.result(state) is None:
        actor = min(GAME.to_move(state))
        legal = GAME.legal_actions(state, actor)
        if len(legal) > 1 and rng.randrange(every) == 0:
            out.append(state)
        state = GAME.apply(state, actor, legal[rng.randrange(len(legal))]).state
    return out


def test_strong_plays_each_leaf_on_to_the_end_of_the_round() -> None:
    guide = hints(GAME)
    assert guide.playout_action is playout.playout_action
    assert guide.playout_over is playout.playout_over
    rng = random.Random(7)
    for players in (2, 4):
        for start in _random_states(players, seed=players, every=12):
            state = start
            for _ in range(300):
                if playout.playout_over(start, state):
                    break
                actor = min(GAME.to_move(state))
                legal = GAME.legal_actions(state, actor)
                action = playout.playout_action(state, actor, legal, rng)
                assert action in legal
                state = GAME.apply(state, actor, action).state
            assert playout.playout_over(start, state), "the playout did not end its round"
            assert state.result is not None or state.round == start.round + 1
