"""The rulebook's worked example and the flow rules around it, step by step (sheet 4, 12)."""

from __future__ import annotations

import pytest

from engine.protocol import IllegalAction
from tests.brew.positions import GAME, Table, alone, position

ANNA, BARB, CARL, DANIEL, EMMA = range(5)


def _example() -> Table:
    return Table(position(
        [
            ["warlock", "wizard", "witch", "druid", "herb_collector"],        # Anna
            ["warlock", "wolf_keeper", "witch", "druid", "fortune_teller"],   # Barb
            ["warlock", "snake_hunter", "witch", "druid", "assistant"],       # Carl
            ["warlock", "alchemist", "witch", "druid", "cutpurse"],           # Daniel
            ["wizard", "alchemist", "witch", "druid", "begging_monk"],        # Emma: no Warlock
        ],
        leader=ANNA, spell="copia",
    ))


def test_the_worked_example_step_by_step() -> None:
    t = _example()
    start = [w.copy() for w in t.state.witches]
    # 1. Anna plays the Warlock and claims it; as leader she has no "So be it!".
    assert t.to_move == {ANNA}
    assert {a["type"] for a in t.legal(ANNA)} == {"lead"}
    events = t.do(ANNA, {"type": "lead", "role": "warlock"})
    assert events[0] == {"type": "role_led", "seat": ANNA, "role": "warlock", "round": 1}
    assert t.state.current is not None and t.state.current.claimant == ANNA
    # 2. Barb holds it, must play it (no pass offered) and says "So be it!": 1 gold at once.
    assert t.to_move == {BARB}
    assert {a["type"] for a in t.legal(BARB)} == {"claim", "favor", "decline_favor"}
    t.do(BARB, {"type": "favor"})
    assert t.witch(BARB).gold == start[BARB].gold + 1
    assert "warlock" not in t.witch(BARB).hand
    # 3. Carl claims: Anna's card goes face down, she gets nothing.
    assert t.to_move == {CARL}
    events = t.do(CARL, {"type": "claim"})
    assert events[0] == {"type": "claimed", "seat": CARL, "role": "warlock", "previous": ANNA}
    # 4. Daniel claims: Carl gets nothing.
    assert t.to_move == {DANIEL}
    events = t.do(DANIEL, {"type": "claim"})
    assert events[0]["previous"] == CARL
    # 5. Emma does not hold the Warlock: she is asked all the same, and passes.
    assert t.to_move == {EMMA}
    assert t.legal(EMMA) == [{"type": "pass"}]
    t.do(EMMA, {"type": "pass"})
    # 6. Daniel performs the full action: the spell on the top spell book (Copia: 3 drops).
    assert t.state.phase == "act" and t.to_move == {DANIEL}
    assert all(a["type"] in ("act", "decline") for a in t.legal(DANIEL))
    events = t.do(DANIEL, {"type": "act", "drops": {"red": 2, "green": 1}})
    assert events[0]["spell"] == "copia" and events[0]["gained"] == {"red": 2, "green": 1}
    # Expected state: Barb +1 gold; Anna and Carl unchanged; Daniel's spell gains; 4 Warlocks
    # face down; Daniel leads next.
    assert t.witch(ANNA).drops == start[ANNA].drops and t.witch(ANNA).gold == start[ANNA].gold
    assert t.witch(CARL).drops == start[CARL].drops and t.witch(CARL).gold == start[CARL].gold
    assert t.witch(DANIEL).drops == {"red": 3, "white": 1, "green": 2}
    assert [s for s in range(5) if "warlock" in t.witch(s).played] == [ANNA, BARB, CARL, DANIEL]
    assert all("warlock" not in t.witch(s).hand for s in range(5))
    # 7. Daniel leads the next round with the Alchemist.
    assert t.state.phase == "lead" and t.to_move == {DANIEL}
    t.do(DANIEL, {"type": "lead", "role": "alchemist"})
    assert t.to_move == {EMMA}  # clockwise from Daniel: Emma holds the Alchemist


def test_the_leader_may_not_say_so_be_it() -> None:
    t = _example()
    assert not any(a["type"] in ("favor", "decline_favor", "pass") for a in t.legal(ANNA))
    for action in ({"type": "favor"}, {"type": "decline_favor"}, {"type": "pass"}):
        before = GAME.dump(t.state)
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(t.state, ANNA, action)
        assert refused.value.code == "leader_must_claim"
        assert GAME.dump(t.state) == before


def test_a_holder_may_not_pass() -> None:
    t = _example()
    t.do(ANNA, {"type": "lead", "role": "warlock"})
    assert {"type": "pass"} not in t.legal(BARB)
    before = GAME.dump(t.state)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(t.state, BARB, {"type": "pass"})
    assert refused.value.code == "must_play"
    assert GAME.dump(t.state) == before


def test_a_non_holder_may_only_pass() -> None:
    t = _example()
    t.do(ANNA, {"type": "lead", "role": "herb_collector"})
    for seat, action in ((BARB, {"type": "favor"}), (CARL, {"type": "claim"})):
        assert t.legal(seat) == [{"type": "pass"}]
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(t.state, seat, action)
        assert refused.value.code == "not_holding"
        t.do(seat, {"type": "pass"})


def test_every_seat_is_asked_in_turn_holder_or_not() -> None:
    """to_move is public: if only holders were asked, the prompt would tell who holds a role."""
    t = _example()
    t.do(ANNA, {"type": "lead", "role": "herb_collector"})  # nobody else holds it
    asked = []
    while t.state.phase == "respond":
        (seat,) = t.to_move
        asked.append(seat)
        t.do(seat, {"type": "pass"})
    assert asked == [BARB, CARL, DANIEL, EMMA]
    assert t.state.phase == "act" and t.to_move == {ANNA}


def test_the_lead_passes_left_over_an_empty_hand() -> None:
    t = Table(position([["wolf_keeper"], [], ["witch", "druid"]], leader=0))
    t.do(0, {"type": "lead", "role": "wolf_keeper"})
    assert t.state.current is not None
    assert t.state.current.answers == [(1, "auto_pass")]  # an empty hand passes by itself
    assert t.to_move == {2}
    t.do(2, {"type": "pass"})
    events = t.do(0, {"type": "act"})
    assert t.witch(0).hand == []
    assert {"type": "lead_passed", "from": 0, "to": 2} in events  # seat 1 is empty too
    assert t.state.leader == 2 and t.to_move == {2}


def test_a_claimant_who_declines_still_leads() -> None:
    t = Table(position([["alchemist", "witch"], ["wizard"], ["druid"]], leader=0))
    t.do(0, {"type": "lead", "role": "alchemist"})
    t.do(1, {"type": "pass"})
    t.do(2, {"type": "pass"})
    before = [w.copy() for w in t.state.witches]
    t.do(0, {"type": "decline"})
    assert t.state.witches == before
    assert t.state.leader == 0 and t.to_move == {0}


def test_playing_alone_always_gets_the_full_action() -> None:
    t = Table(position([[], ["wolf_keeper", "herb_collector"], []], leader=1))
    for role, colour in (("wolf_keeper", "red"), ("herb_collector", "green")):
        assert t.to_move == {1}
        t.do(1, {"type": "lead", "role": role})
        assert t.state.phase == "act" and t.to_move == {1}  # nobody to answer
        assert not any(a["type"] == "favor" for a in t.legal(1))
        t.do(1, {"type": "act"})
        assert t.witch(1).drops[colour] == 4
    # every hand is empty: the set ends, the spell book turns, a new set begins
    assert t.state.phase == "choose" and t.state.set == 2
    assert t.state.spell_history == ["copia"] and t.state.spells[-1] == "copia"
    assert t.state.leader == 1  # the last claimant leads the new set


def test_a_lone_leader_with_others_holding_nothing_gets_it_too() -> None:
    t = alone("wolf_keeper")
    assert t.state.phase == "act" and t.to_move == {0}


def _raven_position(seat1_drops: dict[str, int], seat1_gold: int) -> Table:
    return Table(position(
        [["wizard", "wolf_keeper"], [], []],
        witches={
            0: {"drops": {"red": 1, "white": 2, "green": 0}, "gold": 0,
                "potions": ["silver-6"], "vials": 5},
            1: {"potions": ["iron-5", "iron-7", "silver-5"], "drops": seat1_drops,
                "gold": seat1_gold},
        },
        stacks={"copper": ["copper-5", "copper-6", "copper-7"]},
    ))


def test_the_game_ends_at_the_end_of_the_set_with_four_ravens() -> None:
    t = _raven_position({"red": 0, "white": 0, "green": 0}, 0)
    t.do(0, {"type": "lead", "role": "wizard"})
    t.do(0, {"type": "act", "card": "copper-5", "extra": None})  # the 4th raven
    assert GAME.view(t.state, None)["ravens"] == 4
    assert t.state.phase == "lead" and GAME.result(t.state) is None  # the set is finished first
    t.do(0, {"type": "lead", "role": "wolf_keeper"})
    events = t.do(0, {"type": "act"})
    result = GAME.result(t.state)
    assert result is not None and t.state.phase == "over"
    assert [e["type"] for e in events][-3:] == ["set_ended", "spell_book_turned", "game_over"]
    # seat 0: silver-6 (5) + copper-5 (4) + 5 vials = 14; seat 1: 4 + 6 + 4 = 14: a tie, broken
    # by drops and gold left: seat 0 has 3 red, seat 1 nothing
    assert result.scores == [14, 14, 0]
    assert result.winners == [0] and result.placings == [1, 2, 3]
    assert result.details["tie_break"] is True


def test_the_tie_break_counts_drops_and_gold_together_then_shares() -> None:
    t = _raven_position({"red": 1, "white": 0, "green": 1}, 1)  # 3 left, as many as seat 0
    t.do(0, {"type": "lead", "role": "wizard"})
    t.do(0, {"type": "act", "card": "copper-5", "extra": None})
    t.do(0, {"type": "lead", "role": "wolf_keeper"})
    t.do(0, {"type": "act"})
    result = GAME.result(t.state)
    assert result is not None
    assert result.winners == [0, 1] and result.placings == [1, 1, 3]


def test_fewer_than_four_ravens_start_a_new_set() -> None:
    t = Table(position([["wolf_keeper"], [], []], witches={1: {"potions": ["iron-5", "iron-7"]}}))
    t.do(0, {"type": "lead", "role": "wolf_keeper"})
    t.do(0, {"type": "act"})
    assert t.state.phase == "choose" and GAME.result(t.state) is None
