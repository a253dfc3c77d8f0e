"""Properties over many random matches (DESIGN.md "Tests"): invariants at every step, legal
actions exactly what apply accepts, no mutation, round trips, replay, order independence."""

from __future__ import annotations

import copy
import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.brew.cards import CARD_BY_ID, RAVEN_THRESHOLD, ROLE_IDS, ROLES_KEPT, SPELL_IDS
from engine.brew.scoring import ravens_owned, score
from engine.protocol import IllegalAction
from tests.brew.randomplay import GAME, mode, plies
from tests.support.randomplay import assert_accepted_exactly_when_legal

MATCHES_PER_COUNT = 120
DEEP_MATCHES_PER_COUNT = 8


def _check(state: Any) -> None:
    for witch in state.witches:
        assert not set(witch.hand) & set(witch.played)
        assert len(set(witch.hand)) == len(witch.hand) and set(witch.hand) <= set(ROLE_IDS)
        assert not set(witch.hand) & set(state.blocked) or state.phase == "over"
        if state.phase == "choose":
            assert len(witch.hand) <= ROLES_KEPT and not witch.played
        elif state.phase != "over":
            assert len(witch.hand) + len(witch.played) == ROLES_KEPT
        assert min(witch.drops.values()) >= 0 and witch.gold >= 0 and witch.vials >= 0
    owned = [c for w in state.witches for c in w.potions]
    stacked = [c for cards in state.stacks.values() for c in cards]
    assert sorted(owned + stacked) == sorted(CARD_BY_ID), "every potion card exists once"
    for cards in state.stacks.values():
        vps = [CARD_BY_ID[c].vp for c in cards]
        assert vps == sorted(vps), "stacks stay sorted, lowest value on top"
    assert sorted(state.spells) == sorted(SPELL_IDS)
    assert len(set(state.led)) == len(state.led), "a role is led at most once a set"
    owing = GAME.to_move(state)
    if state.phase == "over":
        assert not owing
    elif state.phase != "choose":
        assert len(owing) == 1
    cur = state.current
    if cur is not None:
        assert cur.role in state.witches[cur.claimant].played


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_random_match_ends_by_ravens(players: int) -> None:
    for seed in range(MATCHES_PER_COUNT):
        last = None
        set_of_fourth_raven = None
        for ply in plies(players, seed, mode(players, seed)):
            _check(ply.after)
            if set_of_fourth_raven is None and ravens_owned(ply.after) >= RAVEN_THRESHOLD:
                set_of_fourth_raven = ply.after.set
            last = ply
        assert last is not None
        state = last.after
        result = GAME.result(state)
        assert result is not None and result.winners
        assert ravens_owned(state) >= RAVEN_THRESHOLD
        assert state.set == set_of_fourth_raven, "the match ends with the set of the 4th raven"
        assert result.scores == [score(w) for w in state.witches]
        assert all(h == [] for h in (w.hand for w in state.witches))


def _near_misses(action: dict[str, Any]) -> list[Any]:
    misses: list[Any] = [
        {**action, "type": action["type"] + "x"},
        {k: v for k, v in action.items() if k != "type"},
        {**action, "role": "queen"},
        {**action, "card": "copper-99"},
        {**action, "drop": "purple"},
        {**action, "extra": "blue"},
        {**action, "drops": {"red": 9}},
        {**action, "pay": {"gold": 1}},
        [action],
        "claim",
    ]
    for key in ("drops", "pay"):
        if key in action:
            grown = copy.deepcopy(action)
            grown[key]["red"] = grown[key].get("red", 0) + 1
            misses.append(grown)
    return misses


@pytest.mark.parametrize("players", [3, 4, 5])
def test_legal_actions_are_exactly_what_apply_accepts(players: int) -> None:
    for seed in range(DEEP_MATCHES_PER_COUNT):
        for ply in plies(players, 10_000 + seed, mode(players, seed)):
            before = GAME.dump(ply.before)
            legal = GAME.legal_actions(ply.before, ply.seat)
            for action in legal:
                GAME.apply(ply.before, ply.seat, action)  # never raises
            for miss in _near_misses(ply.action):
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
            assert GAME.dump(ply.before) == before, "apply changed its input"
            data = json.loads(json.dumps(GAME.dump(ply.after)))
            assert GAME.dump(GAME.load(data)) == GAME.dump(ply.after)
            assert GAME.load(data) == ply.after


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_replay_rebuilds_the_match_bit_for_bit(players: int) -> None:
    for seed in range(DEEP_MATCHES_PER_COUNT):
        options = mode(players, seed)
        recorded = list(plies(players, 20_000 + seed, options))
        state = GAME.setup(players, 20_000 + seed, options)
        for ply in recorded:
            step = GAME.apply(state, ply.seat, ply.action)
            assert step.events == ply.events
            state = step.state
        assert GAME.dump(state) == GAME.dump(recorded[-1].after)


def _seat_sequences(state: Any, rng: random.Random) -> dict[int, list[dict[str, Any]]]:
    """For every seat that owes its choice: a random run of keeps and unkeeps, then confirm."""
    out = {}
    for seat in sorted(GAME.to_move(state)):
        s = state
        actions = []
        while True:
            legal = GAME.legal_actions(s, seat)
            if {"type": "confirm"} in legal and rng.random() < 0.5:
                action: dict[str, Any] = {"type": "confirm"}
            else:
                action = rng.choice([a for a in legal if a["type"] != "confirm"])
            actions.append(action)
            s = GAME.apply(s, seat, action).state
            if action["type"] == "confirm":
                break
        out[seat] = actions
    return out


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_arrival_order_of_the_secret_choices_does_not_matter(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(DEEP_MATCHES_PER_COUNT):
        for ply in plies(players, 30_000 + seed, mode(players, seed)):
            state = ply.after
            if state.phase != "choose" or len(GAME.to_move(state)) != players:
                continue
            if any(w.hand for w in state.witches) and rng.random() > 0.3:
                continue
            sequences = _seat_sequences(state, rng)
            outcomes = set()
            orders = list(itertools.permutations(sorted(sequences)))
            for order in rng.sample(orders, min(6, len(orders))):
                s = state
                # interleave: one action of each seat in turn, seats in this order
                queues = {seat: list(sequences[seat]) for seat in order}
                while any(queues.values()):
                    for seat in order:
                        if queues[seat]:
                            s = GAME.apply(s, seat, queues[seat].pop(0)).state
                outcomes.add(json.dumps(GAME.dump(s), sort_keys=True))
            assert len(outcomes) == 1, "the arrival order changed the resolution"
            checked += 1
    assert checked > 0


# --- arbitrary input: whatever a client sends, apply accepts it iff it is legal ---------------

_words = st.sampled_from(
    ["keep", "unkeep", "confirm", "lead", "pass", "claim", "favor", "decline_favor", "act",
     "decline", "give", "buy", "no_buy", "role", "card", "drop", "drops", "pay", "extra", "type",
     "red", "white", "green", "gold", "witch", "warlock", "alchemist", "copper-1", "silver-1",
     "gold_shelf-1", "ingredient_shelf-1", ""]
)
_json = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 6) | _words,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_words, inner, max_size=3),
    max_leaves=8,
)
_actions = st.one_of(
    _json,
    st.fixed_dictionaries({"type": _words}, optional={k: _json for k in
                          ["role", "card", "drop", "drops", "pay", "extra"]}),
)
_positions = [
    ply.before
    for seed in (1, 2)
    for i, ply in enumerate(plies(3, 40_000 + seed, mode(3, seed)))
    if i % 9 == 0
]


@settings(max_examples=500, deadline=None)
@given(position=st.sampled_from(_positions), seat=st.integers(0, 2), action=_actions)
def test_any_json_is_accepted_exactly_when_legal(position: Any, seat: int, action: Any) -> None:
    assert_accepted_exactly_when_legal(GAME, position, seat, action)


@pytest.mark.parametrize("players", [3, 5])
def test_the_stage_holds_while_choosing_and_moves_after_every_sequential_action(
        players: int) -> None:
    for seed in range(DEEP_MATCHES_PER_COUNT):
        for ply in plies(players, 70_000 + seed, mode(players, seed)):
            same = GAME.stage(ply.before) == GAME.stage(ply.after)
            if ply.before.phase == "choose" and ply.after.phase == "choose":
                assert same, "the stage moved during the simultaneous choice"
            else:
                assert not same, f"{ply.action} left the stage {GAME.stage(ply.before)}"
