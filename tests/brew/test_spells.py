"""One test per spell book: the Warlock's full action with that spell on top (sheet section 7)."""

from __future__ import annotations

import pytest

from engine.protocol import IllegalAction
from tests.brew.positions import GAME, alone

START = {"red": 1, "white": 1, "green": 1}


def _acts(t: object) -> list[dict]:
    return [a for a in t.legal(0) if a["type"] == "act"]  # type: ignore[attr-defined]


def test_copia_takes_any_three_drops() -> None:
    t = alone("warlock", spell="copia")
    assert len(_acts(t)) == 10
    t.do(0, {"type": "act", "drops": {"red": 1, "white": 2}})
    assert t.witch(0).drops == {"red": 2, "white": 3, "green": 1}


@pytest.mark.parametrize(("spell", "stack"), [("magus", "copper"), ("strix", "silver"),
                                              ("sanatio", "iron")])
def test_the_metal_spells_take_the_top_cauldron_for_drops_of_any_colour(
        spell: str, stack: str) -> None:
    # the 3rd card costs 2 drops of two printed colours; pay them with 2 drops of any colours
    t = alone("warlock", spell=spell, witches={0: {"drops": {"red": 0, "white": 0, "green": 3}}},
              stacks={stack: [f"{stack}-3", f"{stack}-4"]})
    assert _acts(t) == [{"type": "act", "card": f"{stack}-3", "pay": {"green": 2}}]
    t.do(0, {"type": "act", "card": f"{stack}-3", "pay": {"green": 2}})
    assert t.witch(0).potions == [f"{stack}-3"] and t.witch(0).vials == 0  # no extra-drop vial
    assert t.witch(0).drops["green"] == 1


def test_optio_takes_the_top_of_any_cauldron_for_its_printed_drops() -> None:
    t = alone("warlock", spell="optio")
    assert [a["card"] for a in _acts(t)] == ["copper-1", "silver-1", "iron-1"]
    t.do(0, {"type": "act", "card": "iron-1"})
    assert t.witch(0).potions == ["iron-1"] and t.witch(0).drops == START | {"red": 0}


@pytest.mark.parametrize(("spell", "colour"), [("herba", "green"), ("lupus", "red"),
                                               ("serpens", "white")])
def test_the_vial_spells_turn_one_drop_into_two_vials(spell: str, colour: str) -> None:
    t = alone("warlock", spell=spell)
    t.do(0, {"type": "act"})
    assert t.witch(0).drops == START | {colour: 0} and t.witch(0).vials == 2
    t = alone("warlock", spell=spell, witches={0: {"drops": START | {colour: 0}}})
    assert _acts(t) == []


def test_a_metal_spell_refuses_the_wrong_number_of_drops() -> None:
    t = alone("warlock", spell="magus", witches={0: {"drops": {"red": 3, "white": 0, "green": 0}}})
    before = GAME.dump(t.state)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(t.state, 0, {"type": "act", "card": "copper-1", "pay": {"red": 2}})
    assert refused.value.code == "wrong_payment" and GAME.dump(t.state) == before


def test_the_spell_book_turns_at_the_end_of_every_set_cast_or_not() -> None:
    t = alone("wolf_keeper", spell="herba")
    t.do(0, {"type": "act"})
    t.do(0, {"type": "lead", "role": "herb_collector"})
    t.do(0, {"type": "act"})
    assert t.state.set == 2 and t.state.spells[0] != "herba" and t.state.spells[-1] == "herba"
    assert GAME.view(t.state, 1)["spell"]["history"] == ["herba"]
