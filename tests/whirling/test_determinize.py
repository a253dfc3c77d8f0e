"""``determinize``: a full state dealt from one seat's view, for the search bots.

It must be indistinguishable, from that seat, from the real state: the same view, the same legal
actions; every card of the game exactly once; and it must play on like any state.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.whirling.cards import RECIPES
from engine.whirling.determinize import determinize
from engine.whirling.heuristic import evaluate
from engine.whirling.state import State
from tests.whirling.randomplay import GAME, mode, plies

OPEN = {"production": "initiative"} if "production" in GAME.options.model_fields else {}


def _options(seed: int) -> dict[str, str]:
    options = mode(seed)
    if OPEN and seed % 3 == 2:
        options.update(OPEN)
    return options


def _cards(state: State) -> Counter[str]:
    cards: Counter[str] = Counter(state.deck + state.discard)
    for witch in state.witches:
        cards.update(witch.hand)
        cards.update(card for card, _ in witch.tableau)
        if witch.played is not None:
            cards[witch.played.card] += 1
    return cards


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_deal_looks_the_same_from_the_seat(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(6):
        for ply in plies(players, 70_000 + seed, _options(seed)):
            state = ply.after
            for seat in range(players):
                shown = GAME.view(state, seat)
                dealt = determinize(shown, seat, rng)
                assert GAME.view(dealt, seat) == shown, (seed, state.phase, seat)
                assert GAME.legal_actions(dealt, seat) == GAME.legal_actions(state, seat)
                assert GAME.to_move(dealt) == GAME.to_move(state)
                assert GAME.stage(dealt) == GAME.stage(state)
                assert _cards(dealt) == Counter(r.id for r in RECIPES)
                checked += 1
    assert checked > 1000  # per table size; thousands over the four


def test_the_deal_hides_what_the_seat_cannot_know() -> None:
    """Across many deals of one position, the other witches' hands vary (they are dealt at
    random, not copied), while the seat's own hand never does."""
    for ply in plies(4, 7, {"personalities": "initiates"}):
        state = ply.after
        if state.phase == "study" and state.round == 2:
            break
    shown = GAME.view(state, 0)
    rng = random.Random(1)
    deals = [determinize(shown, 0, rng) for _ in range(20)]
    assert {tuple(d.witches[0].hand) for d in deals} == {tuple(state.witches[0].hand)}
    assert len({tuple(d.witches[1].hand) for d in deals}) > 1
    assert len({tuple(d.deck) for d in deals}) > 1
    assert len({d.rng for d in deals}) == 20 and state.rng not in {d.rng for d in deals}


def test_a_dealt_state_plays_on_to_the_end() -> None:
    rng = random.Random(3)
    for seed in range(30):
        players = 2 + seed % 4
        positions = [p.after for p in plies(players, 80_000 + seed, _options(seed))]
        state = positions[rng.randrange(len(positions))]
        seat = rng.randrange(players)
        dealt = determinize(GAME.view(state, seat), seat, rng)
        for _ in range(5_000):
            owing = sorted(GAME.to_move(dealt))
            if not owing:
                break
            who = rng.choice(owing)
            dealt = GAME.apply(dealt, who, rng.choice(GAME.legal_actions(dealt, who))).state
        assert GAME.result(dealt) is not None
        assert GAME.load(GAME.dump(dealt)) == dealt


def test_evaluate_is_a_chance_of_winning() -> None:
    for ply in plies(3, 11, {"personalities": "choose"}):
        values = [evaluate(ply.after, seat) for seat in range(3)]
        if GAME.result(ply.after) is None:
            assert all(0 < v < 1 for v in values)
        else:
            winners = GAME.result(ply.after).winners
            assert values == [1 / len(winners) if s in winners else 0.0 for s in range(3)]
