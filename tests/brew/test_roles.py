"""One test per role, full action and favor (sheet section 5; readings in engine/brew/readings)."""

from __future__ import annotations

import pytest

from engine.brew import readings
from engine.protocol import IllegalAction
from tests.brew.positions import GAME, Table, alone

START = {"red": 1, "white": 1, "green": 1}


def _favor(role: str, **witch: object) -> Table:
    """Seat 0 leads ``role``; seat 1 holds it too and is asked now."""
    return alone(role, holders=(1,), witches={1: dict(witch)} if witch else None)


@pytest.mark.parametrize(("role", "colour"), [("wolf_keeper", "red"), ("snake_hunter", "white"),
                                               ("herb_collector", "green")])
def test_the_gatherers_take_three_drops_or_one(role: str, colour: str) -> None:
    t = alone(role)
    t.do(0, {"type": "act"})
    assert t.witch(0).drops == START | {colour: 4}
    t = _favor(role)
    t.do(1, {"type": "favor"})
    assert t.witch(1).drops == START | {colour: 2}


def test_alchemist_returns_a_drop_for_five_gold_or_two() -> None:
    t = alone("alchemist")
    assert [a for a in t.legal(0) if a["type"] == "act"] == [
        {"type": "act", "drop": d} for d in ("red", "white", "green")]
    t.do(0, {"type": "act", "drop": "white"})
    assert t.witch(0).drops == START | {"white": 0} and t.witch(0).gold == 7
    t = _favor("alchemist")
    t.do(1, {"type": "favor", "drop": "red"})
    assert t.witch(1).drops == START | {"red": 0} and t.witch(1).gold == 4


def test_alchemist_without_drops_can_only_decline() -> None:
    t = alone("alchemist", witches={0: {"drops": {"red": 0, "white": 0, "green": 0}}})
    assert t.legal(0) == [{"type": "decline"}]


def test_fortune_teller_pays_one_gold_for_two_vials_or_one() -> None:
    t = alone("fortune_teller")
    t.do(0, {"type": "act"})
    assert (t.witch(0).gold, t.witch(0).vials) == (1, 2)
    t = _favor("fortune_teller")
    t.do(1, {"type": "favor"})
    assert (t.witch(1).gold, t.witch(1).vials) == (1, 1)
    t = _favor("fortune_teller", gold=0)
    assert {a["type"] for a in t.legal(1)} == {"claim", "decline_favor"}  # cannot pay: skipped


def test_assistant_pays_one_gold_for_any_three_drops_or_one() -> None:
    t = alone("assistant")
    assert len([a for a in t.legal(0) if a["type"] == "act"]) == 10  # 3 drops in any mix
    t.do(0, {"type": "act", "drops": {"green": 3}})
    assert t.witch(0).drops == START | {"green": 4} and t.witch(0).gold == 1
    t = _favor("assistant")
    assert len([a for a in t.legal(1) if a["type"] == "favor"]) == 3  # 1 drop, any colour
    t.do(1, {"type": "favor", "drops": {"white": 1}})
    assert t.witch(1).drops == START | {"white": 2} and t.witch(1).gold == 1


@pytest.mark.parametrize(("role", "stack"), [("wizard", "copper"), ("witch", "silver"),
                                             ("druid", "iron")])
def test_brewers_take_the_top_cauldron_of_their_metal(role: str, stack: str) -> None:
    t = alone(role)
    top = f"{stack}-1"
    cost = GAME.catalog()["stacks"][["copper", "silver", "iron"].index(stack)]["cards"][0]["cost"]
    t.do(0, {"type": "act", "card": top, "extra": None})
    assert t.witch(0).potions == [top]
    assert t.state.stacks[stack][0] == f"{stack}-2"
    assert t.witch(0).drops == {d: n - cost.get(d, 0) for d, n in START.items()}


def test_a_brewer_may_pay_one_extra_drop_for_a_vial() -> None:
    t = alone("wizard")  # copper-1 costs 1 white
    extras = {a["extra"] for a in t.legal(0) if a["type"] == "act"}
    assert extras == {None, "red", "green"}  # a second white is not there
    t.do(0, {"type": "act", "card": "copper-1", "extra": "green"})
    assert t.witch(0).drops == {"red": 1, "white": 0, "green": 0}
    assert t.witch(0).vials == readings.EXTRA_DROP_VIALS


def test_a_brewers_favor_costs_the_drops_plus_gold_and_comes_first() -> None:
    t = _favor("witch")
    t.do(1, {"type": "favor", "card": "silver-1"})
    assert t.witch(1).potions == ["silver-1"]
    assert t.witch(1).gold == 2 - readings.FAVOR_SURCHARGE_GOLD
    assert t.witch(1).drops == START | {"green": 0}
    # the favor took the top card before the claimant's full action: she brews the next one
    assert {a["card"] for a in t.legal(0) if a["type"] == "act"} == {"silver-2"}
    assert t.witch(0).drops["green"] == 1
    t.do(0, {"type": "act", "card": "silver-2", "extra": None})
    assert t.witch(0).potions == ["silver-2"]


def test_a_brewers_favor_without_gold_is_not_offered() -> None:
    t = _favor("druid", gold=0)
    assert not any(a["type"] == "favor" for a in t.legal(1))


def test_warlock_casts_the_top_spell_or_takes_one_gold() -> None:
    t = alone("warlock", spell="lupus")
    t.do(0, {"type": "act"})
    assert t.witch(0).drops["red"] == 0 and t.witch(0).vials == 2
    t = _favor("warlock")
    t.do(1, {"type": "favor"})
    assert t.witch(1).gold == 3


def test_cutpurse_takes_a_gold_from_each_other_player_then_may_buy_the_gold_shelf() -> None:
    t = alone("cutpurse", witches={0: {"gold": 1}, 2: {"gold": 0}})
    t.do(0, {"type": "act"})
    assert [w.gold for w in t.state.witches] == [2, 1, 0]  # seat 2 had nothing to give
    assert t.state.phase == "lead"  # 2 gold and the shelf costs 3: no purchase step
    t = alone("cutpurse", witches={0: {"gold": 2}})
    t.do(0, {"type": "act"})
    assert t.witch(0).gold == 4 and t.state.phase == "shelf"
    assert t.legal(0) == [{"type": "buy", "card": "gold_shelf-1"}, {"type": "no_buy"}]
    t.do(0, {"type": "buy", "card": "gold_shelf-1"})
    assert t.witch(0).potions == ["gold_shelf-1"] and t.witch(0).gold == 1
    assert t.state.phase == "lead"


def test_cutpurse_favor_spares_the_theft() -> None:
    t = _favor("cutpurse")
    t.do(1, {"type": "favor"})
    assert t.state.current is not None and t.state.current.exempt == [1]
    t.do(0, {"type": "act"})
    assert [w.gold for w in t.state.witches] == [3, 2, 1]


def test_cutpurse_favor_buys_the_shelf_with_the_buy_reading() -> None:
    t = alone("cutpurse", holders=(1,), options={"thief_favor": "buy"}, witches={1: {"gold": 3}})
    assert {"type": "favor", "card": "gold_shelf-1"} in t.legal(1)
    t.do(1, {"type": "favor", "card": "gold_shelf-1"})
    assert t.witch(1).potions == ["gold_shelf-1"] and t.witch(1).gold == 0
    t.do(0, {"type": "act"})
    assert t.witch(1).gold == 0  # not spared: but she had nothing left to give


def test_begging_monk_takes_a_drop_of_each_givers_choice_then_may_buy_the_shelf() -> None:
    t = alone("begging_monk", witches={2: {"drops": {"red": 0, "white": 2, "green": 0}}})
    t.do(0, {"type": "act"})
    assert t.state.phase == "tribute" and t.to_move == {1}  # seat 1 has three colours
    assert {a["drop"] for a in t.legal(1)} == {"red", "white", "green"}
    events = t.do(1, {"type": "give", "drop": "green"})
    # seat 2 has only white: no choice to make, she gives it at once
    assert {"type": "drop_given", "seat": 2, "to": 0, "drop": "white"} in events
    assert t.witch(0).drops == {"red": 1, "white": 2, "green": 2}
    assert t.state.phase == "shelf"
    buys = [a for a in t.legal(0) if a["type"] == "buy"]
    assert {"type": "buy", "card": "ingredient_shelf-1", "pay": {"white": 2, "green": 1}} in buys
    t.do(0, {"type": "buy", "card": "ingredient_shelf-1", "pay": {"white": 2, "green": 1}})
    assert t.witch(0).potions == ["ingredient_shelf-1"]
    assert t.witch(0).drops == {"red": 1, "white": 0, "green": 1}


def test_begging_monk_favor_spares_the_begging() -> None:
    t = _favor("begging_monk")
    t.do(1, {"type": "favor"})
    t.do(0, {"type": "act"})
    assert t.state.phase == "tribute" and t.to_move == {2}  # seat 1 is spared, seat 2 is not
    t.do(2, {"type": "give", "drop": "red"})
    assert t.witch(1).drops == START
    assert t.witch(2).drops == START | {"red": 0}


def test_declining_the_full_action_changes_nothing_but_the_round() -> None:
    t = alone("assistant")
    before = [w.copy() for w in t.state.witches]
    t.do(0, {"type": "decline"})
    assert t.state.witches == before and t.state.phase == "lead"


def test_declining_a_favor_plays_the_card_for_nothing() -> None:
    t = _favor("warlock")
    t.do(1, {"type": "decline_favor"})
    assert t.witch(1).gold == 2 and t.witch(1).played == ["warlock"] and t.witch(1).hand == []


def test_a_favor_the_player_cannot_pay_is_refused_with_cannot_afford() -> None:
    t = _favor("wizard", gold=0)
    before = GAME.dump(t.state)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(t.state, 1, {"type": "favor", "card": "copper-1"})
    assert refused.value.code == "cannot_afford" and GAME.dump(t.state) == before


def test_the_cutpurse_names_whom_she_took_from() -> None:
    t = alone("cutpurse", witches={2: {"gold": 0}})
    events = t.do(0, {"type": "act"})
    action = next(e for e in events if e["type"] == "full_action")
    assert action["taken_from"] == [1] and action["gained"] == {"gold": 1}
