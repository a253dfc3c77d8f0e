"""Bad input is refused with a stable code and leaves the state unchanged; an action sent
twice never applies twice in a sequential turn."""

from __future__ import annotations

from typing import Any

import pytest

from engine.protocol import IllegalAction
from tests.seasons.positions import GAME, energy, play, position, seat


def refused(state: Any, who: int, action: Any) -> str:
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, who, action)
    assert GAME.dump(state) == before, "a refused action changed the state"
    assert caught.value.message
    return caught.value.code


def test_a_card_not_in_hand() -> None:
    s = position(seats=[seat(energy_=energy(earth=2), gauge=2, hand=[3]), seat()])
    assert refused(s, 0, {"type": "summon", "card": 29}) == "not_in_hand"
    assert refused(s, 0, {"type": "summon", "card": "3"}) == "not_in_hand"


def test_summoning_with_a_full_gauge() -> None:
    s = position(seats=[seat(energy_=energy(earth=2), gauge=1, hand=[3], in_play=[22]), seat()])
    assert refused(s, 0, {"type": "summon", "card": 3}) == "gauge_full"


def test_paying_energy_one_does_not_have() -> None:
    s = position(seats=[seat(energy_=energy(earth=1, fire=5), gauge=2, hand=[3]), seat()])
    assert refused(s, 0, {"type": "summon", "card": 3}) == "cannot_afford"
    s = position(seats=[seat(energy_=energy(earth=2), gauge=2, hand=[3]), seat()])
    assert refused(s, 0, {"type": "summon", "card": 3, "amulet": {"earth": 2}}) == "not_offered"
    s = position(seats=[seat(energy_=energy(earth=1)), seat()], may_transmute=True)
    assert refused(s, 0, {"type": "transmute", "energy": "earth", "count": 2}) == "cannot_afford"
    s = position(seats=[seat(energy_=energy(fire=2), in_play=[5]), seat()])
    assert refused(s, 0, {"type": "activate", "slot": 1, "energy": "fire"}) == "no_activation"


def test_activating_a_card_twice_where_it_may_be_used_once() -> None:
    s = position(seats=[seat(energy_=energy(air=2), in_play=[16]), seat(crystals=9)])
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "energy": "air"})
    assert refused(s, 0, {"type": "activate", "slot": 1, "energy": "air"}) == "already_used"
    assert refused(s, 0, {"type": "activate", "slot": 9}) == "not_in_play"
    assert refused(s, 0, {"type": "activate", "slot": 1, "energy": "air"}) == "already_used"


def test_a_die_already_taken() -> None:
    s = position(phase="dice", turn=None)
    s.chooser = 0
    for d in s.dice:
        d["taken_by"] = None
    s, _ = play(s, 0, {"type": "take_die", "die": 1})
    assert refused(s, 1, {"type": "take_die", "die": 1}) == "die_taken"
    assert refused(s, 1, {"type": "take_die", "die": 7}) == "no_such_die"
    assert refused(s, 0, {"type": "take_die", "die": 0}) == "not_your_turn"


def test_malformed_and_out_of_turn_actions() -> None:
    s = position()
    assert refused(s, 0, "summon") == "bad_action"
    assert refused(s, 0, {"card": 3}) == "bad_action"
    assert refused(s, 0, {"type": "fly"}) == "unknown_action"
    assert refused(s, 1, {"type": "end_turn"}) == "not_your_turn"
    assert refused(s, 5, {"type": "end_turn"}) == "bad_seat"
    assert refused(s, 0, {"type": "end_turn", "x": 1}) == "not_offered"
    assert refused(s, 0, {"type": "draft_pick", "card": 3}) == "wrong_phase"
    assert refused(s, 0, {"type": "gain_energy", "energy": "air"}) == "no_question"
    assert refused(s, 0, {"type": "bonus", "bonus": "sleep"}) == "bad_action"


def test_the_stage_changes_after_every_sub_action_of_a_turn() -> None:
    s = position(seats=[seat(energy_=energy(earth=4), gauge=3, hand=[3, 3]), seat()])
    stages = {GAME.stage(s)}
    for action in ({"type": "summon", "card": 3}, {"type": "summon", "card": 3},
                   {"type": "end_turn"}):
        s, _ = play(s, GAME.to_move(s).__iter__().__next__(), action)
        assert GAME.stage(s) not in stages
        stages.add(GAME.stage(s))
