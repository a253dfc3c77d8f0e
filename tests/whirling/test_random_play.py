"""Properties over thousands of random matches (DESIGN.md, "Tests"; issue: "Must show").

Cheap invariants are checked at every step of many matches; the expensive ones (every legal
action accepted, near-miss actions refused, no mutation, round trips, replay) on fewer.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from typing import Any

import pytest

from engine.protocol import IllegalAction
from engine.whirling.cards import CAPACITY
from engine.whirling.personalities import hand_limit
from tests.support.randomplay import assert_accepted_exactly_when_legal
from tests.whirling.randomplay import GAME, mode, plies

MATCHES_PER_COUNT = 1000
DEEP_MATCHES_PER_COUNT = 30


def _check_counts(state: Any) -> None:
    for seat, witch in enumerate(state.witches):
        benches = [witch.workbench] + ([witch.brew.workbench] if witch.brew else [])
        for bench in benches:
            for kind, count in enumerate(bench):
                assert 0 <= count <= CAPACITY[kind], f"seat {seat} workbench {bench}"
        assert all(n >= 0 for n in witch.circle), witch.circle
        assert all(0 <= n <= 6 for n in witch.arcana), witch.arcana
        if witch.brew:
            assert all(n >= 0 for n in witch.brew.outputs + witch.brew.cauldron)
        assert len(witch.hand) <= hand_limit(witch) + (1 if witch.personality is None else 0)
    cards = [c for w in state.witches for c in w.hand] + [
        c for w in state.witches for c, _ in w.tableau
    ]
    cards += [w.played.card for w in state.witches if w.played]
    everything = cards + state.deck + state.discard
    assert len(everything) == len(set(everything)) == 60, "every recipe card exists exactly once"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_random_match_ends_with_a_winner(players: int) -> None:
    for seed in range(MATCHES_PER_COUNT):
        last = None
        for ply in plies(players, seed, mode(seed)):
            _check_counts(ply.after)
            last = ply
        assert last is not None
        result = GAME.result(last.after)
        assert result is not None and result.winners
        for seat in result.winners:
            assert sum(last.after.witches[seat].circle) >= 5
        assert result.scores == [sum(w.circle) for w in last.after.witches]


def _near_misses(action: dict[str, Any], rng: random.Random) -> list[Any]:
    """Actions close to a legal one: most are illegal, some may be legal again."""
    misses: list[Any] = [
        {**action, "type": action["type"] + "x"},
        {k: v for k, v in action.items() if k != "type"},
        {**action, "card": "R99"},
        {**action, "ingredient": "newt"},
        {**action, "recipe": "R00"},
        {**action, "rotated": "yes"},
        {**action, "arcana": "moon"},
        [action],
        "play",
    ]
    for key in ("take", "make", "remove"):
        if key in action:
            mutated = copy.deepcopy(action)
            target = mutated[key]
            inner = target if key != "take" or not target else target[rng.choice(sorted(target))]
            if inner:
                name = rng.choice(sorted(inner))
                inner[name] = rng.choice([0, -1, inner[name] + 1, True, "1"])
                misses.append(mutated)
            grown = copy.deepcopy(action)
            (grown[key] if key != "take" else grown[key].setdefault("workbench", {}))[
                "heart"
            ] = 3
            misses.append(grown)
    return misses


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_legal_actions_are_exactly_what_apply_accepts(players: int) -> None:
    rng = random.Random(players)
    for seed in range(DEEP_MATCHES_PER_COUNT):
        for ply in plies(players, 10_000 + seed, mode(seed)):
            before = GAME.dump(ply.before)
            legal = GAME.legal_actions(ply.before, ply.seat)
            for action in legal:
                GAME.apply(ply.before, ply.seat, action)  # never raises
            for miss in _near_misses(ply.action, rng):
                if miss in legal:
                    continue
                with pytest.raises(IllegalAction):
                    GAME.apply(ply.before, ply.seat, miss)
            for other in range(players):
                if other not in GAME.to_move(ply.before):
                    assert GAME.legal_actions(ply.before, other) == []
                    with pytest.raises(IllegalAction) as refused:
                        GAME.apply(ply.before, other, ply.action)
                    assert refused.value.code == "not_your_turn"
            assert GAME.dump(ply.before) == before, "apply must never change its input"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_dump_load_round_trips_and_replay_reproduces_the_match(players: int) -> None:
    for seed in range(DEEP_MATCHES_PER_COUNT):
        options = mode(seed)
        history = []
        final = None
        for ply in plies(players, 20_000 + seed, options):
            dumped = GAME.dump(ply.after)
            through_json = json.loads(json.dumps(dumped))
            assert GAME.dump(GAME.load(through_json)) == dumped
            history.append((ply.seat, ply.action))
            final = dumped
        state = GAME.setup(players, 20_000 + seed, options)
        for seat, action in history:
            state = GAME.apply(state, seat, action).state
        assert GAME.dump(state) == final


def _seat_sequences(state: Any, rng: random.Random) -> dict[int, list[dict[str, Any]]]:
    """Each owing seat's whole answer for this step, chosen on its own (no hand swaps: those draw
    from the shared deck, first come first served, see README)."""
    sequences: dict[int, list[dict[str, Any]]] = {}
    for seat in sorted(GAME.to_move(state)):
        own = state
        actions: list[dict[str, Any]] = []
        while seat in GAME.to_move(own) and len(GAME.to_move(own)) > 1:
            legal = [a for a in GAME.legal_actions(own, seat) if a["type"] != "swap_hand"]
            action = legal[rng.randrange(len(legal))]
            actions.append(action)
            own = GAME.apply(own, seat, action).state
        sequences[seat] = actions
    return sequences


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_simultaneous_steps_resolve_the_same_in_any_arrival_order(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(DEEP_MATCHES_PER_COUNT):
        for ply in plies(players, 30_000 + seed, mode(seed)):
            state = ply.after
            owing = GAME.to_move(state)
            if len(owing) != players or GAME.result(state) is not None or rng.random() > 0.3:
                continue
            sequences = _seat_sequences(state, rng)
            # the last seat's final action must be its last one; keep every seat whole
            outcomes = set()
            orders = list(itertools.permutations(sorted(sequences)))
            for order in rng.sample(orders, min(6, len(orders))):
                s = state
                for seat in order:
                    for action in sequences[seat]:
                        s = GAME.apply(s, seat, action).state
                # finish the step: every seat that still owes answers with its first legal action
                while GAME.to_move(s) and GAME.stage(s) == GAME.stage(state):
                    seat = min(GAME.to_move(s))
                    s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[-1]).state
                outcomes.add(json.dumps(GAME.dump(s), sort_keys=True))
            assert len(outcomes) == 1, "the arrival order changed the resolution"
            checked += 1
    assert checked > 0


# --- arbitrary input: whatever a client sends, apply accepts it iff it is legal ---------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_words = st.sampled_from(
    ["play", "brew", "done", "raven", "potion", "book", "pour", "decline", "gain", "skip",
     "swap_hand", "play_random", "confirm_random", "keep_personality", "scholar", "claim",
     "heart", "mandrake", "mushroom", "spider", "toad", "R01", "R24", "R40", "P05", "workbench",
     "outputs", "supply", "card", "rotated", "recipe", "take", "make", "ingredient", "remove",
     "arcana", "type", "personality", ""]
)
_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | _words,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_words, inner, max_size=4),
    max_leaves=10,
)
_actions = st.one_of(
    _json,
    st.fixed_dictionaries({"type": _words}, optional={k: _json for k in
                          ["card", "rotated", "recipe", "take", "make", "ingredient", "remove",
                           "arcana", "personality"]}),
)
_positions = [
    ply.before
    for seed in (1, 2)
    for i, ply in enumerate(plies(3, 40_000 + seed, mode(seed)))
    if i % 7 == 0
]


@settings(max_examples=600, deadline=None)
@given(position=st.sampled_from(_positions), seat=st.integers(0, 2), action=_actions)
def test_any_json_is_accepted_exactly_when_legal(position: Any, seat: int, action: Any) -> None:
    assert_accepted_exactly_when_legal(GAME, position, seat, action)
