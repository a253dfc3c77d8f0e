"""The choice of roles, stages, the variant, and the public answers (sheet 4.1, 11)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.brew.cards import ROLE_IDS
from engine.protocol import IllegalAction
from tests.brew.positions import GAME, Table, position

FIVE = ["witch", "druid", "wizard", "warlock", "cutpurse"]


def _choose(state: Any, seat: int, roles: list[str]) -> Any:
    for role in roles:
        state = GAME.apply(state, seat, {"type": "keep", "role": role}).state
    return GAME.apply(state, seat, {"type": "confirm"}).state


def test_every_player_chooses_at_once_and_in_secret() -> None:
    state = GAME.setup(4, 3)
    assert state.phase == "choose" and GAME.to_move(state) == {0, 1, 2, 3}
    legal = GAME.legal_actions(state, 2)
    assert legal == [{"type": "keep", "role": r} for r in ROLE_IDS]  # small: 12, not 792
    state = GAME.apply(state, 2, {"type": "keep", "role": "witch"}).state
    state = GAME.apply(state, 2, {"type": "keep", "role": "druid"}).state
    state = GAME.apply(state, 2, {"type": "unkeep", "role": "witch"}).state
    assert state.witches[2].hand == ["druid"]
    mine = GAME.view(state, 2)["players"][2]
    assert mine["hand"] == ["druid"] and mine["hand_count"] == 1
    for viewer in (None, 0, 1, 3):
        theirs = GAME.view(state, viewer)["players"][2]
        assert theirs["hand"] == "hidden" and theirs["hand_count"] == "hidden"
        assert theirs["set_aside"] == "hidden" and theirs["confirmed"] is False
    state = _choose(state, 2, ["witch", "wizard", "warlock", "cutpurse"])
    theirs = GAME.view(state, 0)["players"][2]
    assert theirs["confirmed"] is True and theirs["hand_count"] == 5 and theirs["hand"] == "hidden"
    assert GAME.to_move(state) == {0, 1, 3}
    assert len(GAME.legal_actions(state, 0)) <= 12 + 5 + 1


def test_the_choice_is_open_until_confirmed_and_the_stage_does_not_move() -> None:
    state = GAME.setup(3, 5)
    stage = GAME.stage(state)
    for seat in (0, 1):
        state = _choose(state, seat, FIVE)
        assert GAME.stage(state) == stage
    state = GAME.apply(state, 2, {"type": "keep", "role": "alchemist"}).state
    assert GAME.stage(state) == stage
    state = _choose(state, 2, ["witch", "druid", "wizard", "warlock"])
    assert state.phase == "lead" and GAME.stage(state) != stage
    assert GAME.to_move(state) == {state.start_player}


def test_the_stage_changes_after_every_sequential_sub_action() -> None:
    t = Table(position([["warlock", "witch"], ["warlock"], ["witch"]]))
    stages = [GAME.stage(t.state)]
    for seat, action in ((0, {"type": "lead", "role": "warlock"}), (1, {"type": "claim"}),
                         (2, {"type": "pass"}), (1, {"type": "act", "drops": {"red": 3}})):
        t.do(seat, action)
        stages.append(GAME.stage(t.state))
    assert len(set(stages)) == len(stages)


def test_the_order_of_the_choices_does_not_matter() -> None:
    base = GAME.setup(3, 9)
    picks = {0: FIVE, 1: ["alchemist", "witch", "assistant", "begging_monk", "wolf_keeper"],
             2: list(reversed(FIVE))}
    results = set()
    for order in ((0, 1, 2), (2, 1, 0), (1, 0, 2)):
        state = base
        for seat in order:
            state = _choose(state, seat, picks[seat])
        results.add(str(GAME.dump(state)))
    assert len(results) == 1


@pytest.mark.parametrize(("players", "blocked"), [(3, 2), (4, 1)])
def test_the_variant_blocks_roles_and_reshuffles_after_twelve(players: int, blocked: int) -> None:
    state = GAME.setup(players, 2, {"variant_blocked_roles": True})
    seen: list[str] = []
    for _ in range(12 // blocked):
        assert len(state.blocked) == blocked
        offered = {a["role"] for a in GAME.legal_actions(state, 0)}
        assert offered == set(ROLE_IDS) - set(state.blocked)
        seen += state.blocked
        view = GAME.view(state, None)["variant"]
        assert view["revealed"] == seen and view["deck_count"] == 12 - len(seen)
        state = _end_set(state)
    assert sorted(seen) == sorted(ROLE_IDS)  # every role turned up once per cycle
    assert len(state.blocked) == blocked and state.variant_revealed == state.blocked
    assert len(state.variant_deck) == 12 - blocked  # all 12 shuffled again


def _end_set(state: Any) -> Any:
    """Every player keeps 5 and every round is led and declined, to the end of the set."""
    for seat in range(state.players):
        allowed = [r for r in ROLE_IDS if r not in state.blocked]
        state = _choose(state, seat, allowed[:5])
    start = state.set
    while state.set == start:
        (seat,) = GAME.to_move(state)
        legal = GAME.legal_actions(state, seat)
        pick = next((a for a in legal if a["type"] in ("lead", "pass", "decline_favor",
                                                        "decline")), legal[0])
        state = GAME.apply(state, seat, pick).state
    return state


def test_the_variant_is_not_for_five_players() -> None:
    with pytest.raises(IllegalAction) as refused:
        GAME.setup(5, 1, {"variant_blocked_roles": True})
    assert refused.value.code == "bad_options"
    with pytest.raises(IllegalAction):
        GAME.setup(6, 1)
    with pytest.raises(IllegalAction):
        GAME.setup(3, 1, {"thief_favor": "both"})


def test_answers_are_public_and_each_role_is_played_once_a_set() -> None:
    t = Table(position([["warlock", "witch"], ["warlock", "druid"], ["witch", "druid"]]))
    t.do(0, {"type": "lead", "role": "warlock"})
    t.do(1, {"type": "favor"})
    t.do(2, {"type": "pass"})
    view = GAME.view(t.state, None)
    assert view["current"]["answers"] == [{"seat": 1, "answer": "favor"},
                                          {"seat": 2, "answer": "pass"}]
    t.do(0, {"type": "decline"})
    assert GAME.view(t.state, 2)["roles_led"] == ["warlock"]
    assert GAME.view(t.state, 2)["players"][1]["played"] == ["warlock"]
