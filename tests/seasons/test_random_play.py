"""Properties over many random matches: invariants at every step, legal actions exactly what
apply accepts, no mutation, exact round trips, replay, simultaneous steps independent of the
arrival order, views without leaks, determinized states consistent with the view."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest

from engine.protocol import IllegalAction
from engine.seasons.cards import APPRENTICE_CARDS, COPIES, MASTER_CARDS
from engine.seasons.rules import offered
from engine.seasons.table import reserve_limit
from tests.seasons.randomplay import GAME, level, plies
from tests.support.randomplay import assert_accepted_exactly_when_legal
from tests.viewcheck import assert_no_leaks

MATCHES = 60
DEEP = 4


def _all_cards(state: Any) -> Counter[int]:
    cards: list[int] = state.deck + state.discard
    for p in state.seats:
        cards += p.hand + p.libraries[0] + p.libraries[1] + p.draft + [e.card for e in p.in_play]
    for t in state.stack:
        cards += t.get("secret", {}).get("cards", [])
    return Counter(cards)


def _check(state: Any) -> None:
    numbers = MASTER_CARDS if state.options["level"] == "master" else APPRENTICE_CARDS
    assert _all_cards(state) == Counter({n: COPIES for n in numbers}), "cards are conserved"
    for seat, p in enumerate(state.seats):
        assert p.crystals >= 0 and min(p.energy) >= 0 and 0 <= p.gauge <= 15
        assert 0 <= p.bonus_used <= 3
        assert all(min(e.tokens) >= 0 for e in p.in_play)
        if state.options["level"] != "master":
            assert len(p.in_play) <= p.gauge, "apprentice cards never exceed the gauge"
        if not state.stack and state.phase == "turn":
            assert sum(p.energy) <= reserve_limit(state, seat), "overflow is discarded at once"
    assert 1 <= state.month <= 12 and 1 <= state.year <= 4


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_keep_the_invariants_and_end_after_year_iii(players: int) -> None:
    for seed in range(MATCHES):
        last = None
        for ply in plies(players, seed, level(seed)):
            _check(ply.after)
            last = ply
        assert last is not None
        result = GAME.result(last.after)
        assert result is not None and result.winners and last.after.year > 3
        assert sorted(result.placings)[0] == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_are_exactly_what_apply_accepts(players: int) -> None:
    for seed in range(DEEP):
        for ply in plies(players, 500 + seed, level(seed)):
            before = GAME.dump(ply.before)
            for action in GAME.legal_actions(ply.before, ply.seat):
                GAME.apply(ply.before, ply.seat, action)
            for miss in ({**ply.action, "extra": 1}, {**ply.action, "type": "x"},
                         {**ply.action, "card": 99}, {**ply.action, "slot": -1}):
                if miss not in GAME.legal_actions(ply.before, ply.seat):
                    with pytest.raises(IllegalAction):
                        GAME.apply(ply.before, ply.seat, miss)
            for other in range(players):
                if other not in GAME.to_move(ply.before):
                    assert GAME.legal_actions(ply.before, other) == []
                    with pytest.raises(IllegalAction) as refused:
                        GAME.apply(ply.before, other, ply.action)
                    assert refused.value.code == "not_your_turn"
            assert GAME.dump(ply.before) == before, "apply must never change its input"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_trips_and_replay_reproduce_the_match(players: int) -> None:
    for seed in range(DEEP):
        history = []
        final = None
        for ply in plies(players, 700 + seed, level(seed)):
            dumped = GAME.dump(ply.after)
            assert GAME.dump(GAME.load(json.loads(json.dumps(dumped)))) == dumped
            history.append((ply.seat, ply.action))
            final = dumped
        state = GAME.setup(players, 700 + seed, level(seed))
        for seat, action in history:
            state = GAME.apply(state, seat, action).state
        assert GAME.dump(state) == final


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_do_not_leak_and_determinize_is_consistent_with_the_view(players: int) -> None:
    rng = random.Random(players)
    for seed in range(DEEP):
        for i, ply in enumerate(plies(players, 900 + seed, level(seed))):
            views = {s: GAME.view(ply.after, s) for s in [None, *range(players)]}
            assert_no_leaks(views)
            if i % 3 == 0:
                for s in range(players):
                    state = GAME.determinize(views[s], s, rng)
                    assert GAME.view(state, s) == views[s]
                    # to_move is public: it cannot depend on what the deal changed
                    assert GAME.to_move(state) == GAME.to_move(ply.after)
                    assert GAME.stage(state) == GAME.stage(ply.after)
                    # and what a seat may do depends only on what it sees
                    assert GAME.legal_actions(state, s) == GAME.legal_actions(ply.after, s)


def _sequences(state: Any, rng: random.Random) -> dict[int, list[dict[str, Any]]]:
    """Each owing seat's whole answer to this simultaneous step, chosen on its own."""
    out: dict[int, list[dict[str, Any]]] = {}
    stage = GAME.stage(state)
    for seat in sorted(GAME.to_move(state)):
        own = state
        actions: list[dict[str, Any]] = []
        while seat in GAME.to_move(own) and GAME.stage(own) == stage and len(
            GAME.to_move(own)
        ) > 1:
            legal = GAME.legal_actions(own, seat)
            action = legal[rng.randrange(len(legal))]
            actions.append(action)
            own = GAME.apply(own, seat, action).state
        out[seat] = actions
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_draft_and_the_libraries_resolve_the_same_in_any_arrival_order(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(6):
        for ply in plies(players, 1100 + seed, {"level": ("master", "apprentice")[seed % 2]}):
            state = ply.after
            if state.phase not in ("draft", "build") or len(GAME.to_move(state)) != players:
                continue
            if rng.random() > 0.5:
                continue
            sequences = _sequences(state, rng)
            outcomes = set()
            for order in itertools.permutations(sorted(sequences)):
                s = state
                for seat in order:
                    for action in sequences[seat]:
                        s = GAME.apply(s, seat, action).state
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
    ["summon", "activate", "transmute", "bonus", "end_turn", "resolve_die", "take_die",
     "draft_pick", "to_library", "reset_libraries", "confirm_libraries", "gain_energy",
     "discard_energy", "keep_card", "discard_card", "return_energy", "take_energy", "sacrifice",
     "return_card", "move_marker", "choose_player", "choose_card", "give_card", "exchange",
     "gauge", "card_choice", "air", "water", "fire", "earth", "card", "slot", "energy", "count",
     "amulet", "reduce", "die", "library", "by", "seat", "type", ""]
)
_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 31) | st.floats(-3, 31) | _words,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_words, inner, max_size=3),
    max_leaves=8,
)
_actions = st.one_of(
    _json,
    st.fixed_dictionaries({"type": _words}, optional={k: _json for k in
                          ["card", "slot", "energy", "count", "amulet", "reduce", "die",
                           "library", "by", "seat", "bonus"]}),
)
_positions = [
    ply.before
    for seed in (1, 2, 3)
    for i, ply in enumerate(plies(3, 4_000 + seed, level(seed)))
    if i % 5 == 0
]


@settings(max_examples=800, deadline=None)
@given(position=st.sampled_from(_positions), seat=st.integers(0, 2), action=_actions)
def test_any_json_is_accepted_exactly_when_legal(position: Any, seat: int, action: Any) -> None:
    # equal with equal types: True is not 1, 3.0 is not 3
    assert_accepted_exactly_when_legal(GAME, position, seat, action, offered)


@pytest.mark.parametrize("options", [{"level": "master"}, {"level": "magician"}])
def test_events_follow_their_declared_visibility_at_every_level(options: dict[str, Any]) -> None:
    """tests/engine/test_events.py plays the default level; the other levels emit more kinds."""
    from engine.protocol import PUBLIC, TO

    for seed in range(8):
        for ply in plies(4, 1300 + seed, options):
            for event in ply.events:
                declared = GAME.event_types.get(event["type"])
                assert declared is not None, f"undeclared event {event['type']!r}"
                assert (declared == PUBLIC) == (TO not in event), event
