"""Bad input is refused with a stable IllegalAction code and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from engine.protocol import IllegalAction
from tests.brew.positions import GAME, Table, alone, position


def refused(state: Any, seat: int, action: Any) -> str:
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    assert GAME.dump(state) == before, "a refused action changed the state"
    assert info.value.message
    return info.value.code


def test_leading_a_role_not_in_hand() -> None:
    t = Table(position([["witch"], ["druid"], ["wizard"]]))
    assert refused(t.state, 0, {"type": "lead", "role": "druid"}) == "not_in_hand"
    assert refused(t.state, 0, {"type": "lead", "role": "queen"}) == "unknown_role"
    assert refused(t.state, 0, {"type": "lead"}) == "bad_action"
    assert refused(t.state, 0, {"type": "lead", "role": "witch", "x": 1}) == "bad_action"


def test_a_favor_by_the_leader() -> None:
    t = Table(position([["warlock"], ["warlock"], []]))
    assert refused(t.state, 0, {"type": "favor"}) == "leader_must_claim"


def test_a_pass_by_a_holder() -> None:
    t = alone("warlock", holders=(1,))
    assert refused(t.state, 1, {"type": "pass"}) == "must_play"


def test_buying_a_card_that_is_not_on_top() -> None:
    t = alone("wizard")
    assert refused(t.state, 0, {"type": "act", "card": "copper-2", "extra": None}) == "not_on_top"
    assert refused(t.state, 0, {"type": "act", "card": "silver-1", "extra": None}) == "not_on_top"
    assert refused(t.state, 0, {"type": "act", "card": "copper-9", "extra": None}) == \
        "unknown_card"
    t = alone("warlock", spell="optio")
    assert refused(t.state, 0, {"type": "act", "card": "iron-2"}) == "not_on_top"
    t = alone("cutpurse", witches={0: {"gold": 9}})
    t.do(0, {"type": "act"})
    assert refused(t.state, 0, {"type": "buy", "card": "gold_shelf-2"}) == "not_on_top"


def test_an_empty_stack() -> None:
    t = alone("druid", stacks={"iron": []})
    assert t.legal(0) == [{"type": "decline"}]
    assert refused(t.state, 0, {"type": "act", "card": "iron-7", "extra": None}) == "stack_empty"


def test_paying_with_drops_one_does_not_have() -> None:
    poor = {"red": 0, "white": 0, "green": 2}
    t = alone("warlock", spell="magus", witches={0: {"drops": poor}})
    assert refused(t.state, 0, {"type": "act", "card": "copper-1", "pay": {"red": 1}}) == \
        "cannot_afford"
    t = alone("wizard", witches={0: {"drops": poor}})
    assert refused(t.state, 0, {"type": "act", "card": "copper-1", "extra": None}) == \
        "cannot_afford"
    t = alone("alchemist", witches={0: {"drops": poor}})
    assert refused(t.state, 0, {"type": "act", "drop": "red"}) == "cannot_afford"
    assert refused(t.state, 0, {"type": "act", "drop": "purple"}) == "unknown_drop"
    t = alone("begging_monk", witches={0: {"drops": poor},
                                       1: {"drops": {"red": 1, "white": 0, "green": 1}}})
    t.do(0, {"type": "act"})
    assert t.to_move == {1}
    assert refused(t.state, 1, {"type": "give", "drop": "white"}) == "cannot_afford"
    t.do(1, {"type": "give", "drop": "red"})
    t.do(2, {"type": "give", "drop": "green"})
    assert t.state.phase == "shelf"  # 5 drops: the top ingredient shelf costs 3
    assert refused(t.state, 0, {"type": "buy", "card": "ingredient_shelf-1",
                                "pay": {"white": 3}}) == "cannot_afford"
    assert refused(t.state, 0, {"type": "buy", "card": "ingredient_shelf-1",
                                "pay": {"green": 2}}) == "wrong_payment"
    assert refused(t.state, 0, {"type": "buy", "card": "ingredient_shelf-1",
                                "pay": {"green": 3, "red": 0}}) == "bad_action"


def test_the_wrong_mix_of_drops() -> None:
    t = alone("assistant")
    assert refused(t.state, 0, {"type": "act", "drops": {"red": 4}}) == "wrong_payment"
    assert refused(t.state, 0, {"type": "act", "drops": {"red": True, "white": 2}}) == \
        "bad_action"
    assert refused(t.state, 0, {"type": "act", "drops": [1, 2]}) == "bad_action"
    assert refused(t.state, 0, {"type": "act", "drops": {"red": 3}, "more": 1}) == "bad_action"


def test_choosing_roles() -> None:
    state = GAME.setup(3, 1)
    assert refused(state, 0, {"type": "keep", "role": "queen"}) == "unknown_role"
    assert refused(state, 0, {"type": "unkeep", "role": "witch"}) == "not_kept"
    assert refused(state, 0, {"type": "confirm"}) == "hand_incomplete"
    state = GAME.apply(state, 0, {"type": "keep", "role": "witch"}).state
    assert refused(state, 0, {"type": "keep", "role": "witch"}) == "already_kept"
    for role in ("druid", "wizard", "warlock", "cutpurse"):
        state = GAME.apply(state, 0, {"type": "keep", "role": role}).state
    assert refused(state, 0, {"type": "keep", "role": "alchemist"}) == "hand_full"
    state = GAME.apply(state, 0, {"type": "confirm"}).state
    assert refused(state, 0, {"type": "unkeep", "role": "witch"}) == "not_your_turn"
    assert refused(state, 0, {"type": "lead", "role": "witch"}) == "wrong_phase"


def test_a_blocked_role_in_the_variant() -> None:
    state = GAME.setup(3, 1, {"variant_blocked_roles": True})
    blocked = state.blocked
    assert len(blocked) == 2
    assert refused(state, 1, {"type": "keep", "role": blocked[0]}) == "blocked_role"


def test_the_usual_mistakes() -> None:
    t = alone("warlock", holders=(1,))
    assert refused(t.state, 2, {"type": "claim"}) == "not_your_turn"
    assert refused(t.state, 0, {"type": "claim"}) == "not_your_turn"
    assert refused(t.state, 7, {"type": "claim"}) == "bad_seat"
    assert refused(t.state, 1, {"type": "fly"}) == "unknown_action"
    assert refused(t.state, 1, {"type": "act"}) == "wrong_phase"
    assert refused(t.state, 1, {"type": "claim", "role": "warlock"}) == "bad_action"
    assert refused(t.state, 1, ["claim"]) == "bad_action"
    assert refused(t.state, 1, {"type": 3}) == "bad_action"


def test_nothing_after_the_end() -> None:
    state = position([["wolf_keeper"], [], []],
                     witches={1: {"potions": ["iron-5", "iron-7", "copper-5", "copper-7"]}})
    state = GAME.apply(state, 0, {"type": "lead", "role": "wolf_keeper"}).state
    state = GAME.apply(state, 0, {"type": "act"}).state
    assert GAME.result(state) is not None and GAME.to_move(state) == frozenset()
    assert refused(state, 0, {"type": "keep", "role": "witch"}) == "game_over"


def test_json_lists_and_objects_where_a_name_belongs_are_refused_not_crashed() -> None:
    """A card, a drop colour or an extra drop sent as a JSON list or object was looked up in a
    dict and raised TypeError (unhashable) instead of IllegalAction."""
    t = alone("wizard")
    for card in ([1], {"a": 1}, ["copper-1"]):
        assert refused(t.state, 0, {"type": "act", "card": card, "extra": None}) == \
            "unknown_card"
    for extra in ([1], {"red": 1}):
        assert refused(t.state, 0, {"type": "act", "card": "copper-1", "extra": extra}) == \
            "unknown_drop"
    t = alone("warlock", spell="magus")
    assert refused(t.state, 0, {"type": "act", "card": ["copper-1"], "pay": {"red": 1}}) == \
        "unknown_card"
    t = alone("begging_monk")
    t.do(0, {"type": "act"})
    assert t.state.phase == "tribute"
    (giver,) = t.to_move
    for drop in (["red"], {"red": 1}):
        assert refused(t.state, giver, {"type": "give", "drop": drop}) == "unknown_drop"
    t = alone("cutpurse", witches={0: {"gold": 9}})
    t.do(0, {"type": "act"})
    assert refused(t.state, 0, {"type": "buy", "card": ["gold_shelf-1"]}) == "unknown_card"
