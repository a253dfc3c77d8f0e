"""The printed cards found in 2026-12 (sheet sections 7 and 8, questions 2–4, "erratum of
2026-12"): each corrected card, in a position built with ``load``, accepts what it prints and
refuses the readings it replaced. The Flasks' earlier reading survives only as the room option
``flasks_as_converted`` (the sheet's ``alternative``)."""

from __future__ import annotations

import pytest

from engine.protocol import IllegalAction
from tests.whirling.positions import (
    GAME,
    act,
    brew,
    me,
    named,
    play_all,
    position,
    production,
    witch,
)

DECK = [f"R{n:02d}" for n in range(41, 53)]


def refused(state, seat, action, code):
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    assert info.value.code == code, info.value
    assert GAME.dump(state) == before


def card_table(card, workbench="M1 R4 S4 T4", options=None, personality="P01"):
    """Seat 0 has the card below her board and a fresh production sheet."""
    me_ = witch(personality, tableau=[(card, False)], workbench=workbench, production={})
    return position(phase="brew", witches=[me_, witch()], options=options)


def uses(state, seat, recipe):
    return [a for a in GAME.legal_actions(state, seat) if a.get("recipe") == recipe]


def makes(state, recipe):
    """Every (inputs, outputs) pair the legal uses of ``recipe`` offer, as cube strings' dicts."""
    out = set()
    for action in uses(state, 0, recipe):
        take = action["take"].get("workbench", {})
        out.add((tuple(sorted(take.items())), tuple(sorted(action["make"].items()))))
    return out


# --- the three Flasks: one fixed cube of the shared type plus one from the output pair -----------

FLASKS = [
    # card, fixed cube, input pair, output pair, old (converted) reading's fixed cube
    ("R16", "spider", ("spider", "toad"), ("mushroom", "spider"), "toad"),
    ("R17", "mushroom", ("mushroom", "spider"), ("mushroom", "toad"), None),
    ("R18", "toad", ("mushroom", "toad"), ("spider", "toad"), None),
]


@pytest.mark.parametrize(("card", "fixed", "pair_in", "pair_out", "_old"), FLASKS)
def test_a_flask_makes_its_fixed_cube_plus_one_from_its_pair(card, fixed, pair_in, pair_out, _old):
    """R16 1(S/T) → 1S + 1(R/S); R17 1(R/S) → 1R + 1(R/T); R18 1(R/T) → 1T + 1(S/T)."""
    state = card_table(card)
    expected = set()
    for kind in pair_in:
        for extra in pair_out:
            made = {fixed: 1}
            made[extra] = made.get(extra, 0) + 1
            expected.add((((kind, 1),), tuple(sorted(made.items()))))
    assert makes(state, card) == expected
    for kind in pair_in:
        for extra in pair_out:
            made = {fixed: 1}
            made[extra] = made.get(extra, 0) + 1
            after = act(state, 0, {"type": "brew", "recipe": card,
                                   "take": {"workbench": {kind: 1}}, "make": made})
            assert sum(production(after, 0)["outputs"].values()) == 2


@pytest.mark.parametrize(("card", "fixed", "pair_in", "pair_out", "old"), FLASKS)
def test_a_flask_refuses_the_readings_it_replaced(card, fixed, pair_in, pair_out, old):
    state = card_table(card)
    take = {"workbench": {pair_in[0]: 1}}
    # only the pair's cube, without the fixed one (the converted JP data.json)
    for extra in pair_out:
        if old is None:
            refused(state, 0, {"type": "brew", "recipe": card, "take": take,
                               "make": {extra: 1}}, "wrong_outputs")
    # R16's converted reading made a toad where the card prints a spider
    if old is not None:
        refused(state, 0, {"type": "brew", "recipe": card, "take": take,
                           "make": {old: 1, pair_out[0]: 1}}, "wrong_outputs")
    # the input slot takes only its own pair
    outside = next(k for k in ("mushroom", "spider", "toad") if k not in pair_in)
    refused(state, 0, {"type": "brew", "recipe": card, "take": {"workbench": {outside: 1}},
                       "make": {fixed: 2}}, "wrong_inputs")
    # a flask is one-way: no one but the Whirlwind may play it turned
    study = position(witches=[witch(hand=[card]), witch(hand=["R02"])], deck=DECK)
    refused(study, 0, {"type": "play", "card": card, "rotated": True}, "cannot_rotate")


def test_the_flasks_earlier_reading_is_a_room_option_off_by_default():
    """``flasks_as_converted``: R16 (S/T) → T + (R/S), R17 (R/S) → (R/T), R18 (R/T) → (S/T)."""
    assert GAME.setup(2, 1).options["flasks_as_converted"] is False
    old = {"flasks_as_converted": True}
    r16 = card_table("R16", options=old)
    act(r16, 0, brew("R16", make="T1 R1", workbench="S1"))
    refused(r16, 0, brew("R16", make="S1 R1", workbench="S1"), "wrong_outputs")
    r17 = card_table("R17", options=old)
    act(r17, 0, brew("R17", make="T1", workbench="R1"))
    refused(r17, 0, brew("R17", make="R1 T1", workbench="R1"), "wrong_outputs")
    r18 = card_table("R18", options=old)
    act(r18, 0, brew("R18", make="S1", workbench="T1"))
    refused(r18, 0, brew("R18", make="T1 S1", workbench="T1"), "wrong_outputs")


# --- P05 Frog Whisperer: 3 toads → 1 cube of any type, and a book icon on her card -------------


def test_frog_whisperer_accepts_three_toads_for_one_cube_of_any_type():
    state = card_table("R01", workbench="T9", personality="P05")
    offered = [a for a in uses(state, 0, "P05")]
    assert sorted(next(iter(a["make"])) for a in offered) == sorted(
        ["heart", "mandrake", "mushroom", "spider", "toad"]
    )
    assert all(a["take"] == {"workbench": {"toad": 3}} for a in offered)
    after = act(state, 0, brew("P05", make="H1", workbench="T3"))
    assert production(after, 0)["outputs"] == named("H1")


def test_frog_whisperer_refuses_two_outputs_other_inputs_and_turning():
    state = card_table("R01", workbench="M1 R2 S1 T9", personality="P05")
    refused(state, 0, brew("P05", make="H1", workbench="T2"), "wrong_inputs")
    refused(state, 0, brew("P05", make="M2", workbench="T3"), "wrong_outputs")  # the old 2 × any
    refused(state, 0, brew("P05", make="M1 S1", workbench="T3"), "wrong_outputs")
    refused(state, 0, brew("P05", make="T3", workbench="M1"), "wrong_inputs")  # one-way
    poor = card_table("R01", workbench="T2", personality="P05")
    assert uses(poor, 0, "P05") == []
    refused(poor, 0, brew("P05", make="H1", workbench="T3"), "cannot_afford")


def test_frog_whisperer_starts_with_her_book_token_on_1():
    """Setup step 5 [RULEBOOK]: flip the personality, move the tracks for its icons. Her card
    carries one book icon (sheet question 2), so her book token starts at 1 — and her first
    recipe with a book icon reaches 2 and triggers the Book."""
    dealt = position(
        phase="personality",
        witches=[
            witch(None, offer=["P05", "P06"], workbench=None),
            witch(None, offer=["P02", "P03"], workbench=None),
        ],
        deck=[f"R{n:02d}" for n in range(1, 21)],
    )
    state = act(dealt, 0, {"type": "keep_personality", "personality": "P05"})
    state = act(state, 1, {"type": "keep_personality", "personality": "P03"})
    frog, other = me(state, 0), me(state, 1)
    assert frog["arcana"] == {"potion": 0, "raven": 0, "book": 1}
    assert frog["workbench"] == named("M1 R2 S1 T9")
    assert other["arcana"] == {"potion": 0, "raven": 0, "book": 0}
    assert frog["hand"] == ["R01", "R02", "R03", "R04"]
    state = play_all(state, {0: "R01", 1: other_card(state)})  # Spore Lore: one icon of each
    assert sorted(production(state, 0)["triggers"]) == ["book"]


def other_card(state):
    return me(state, 1)["hand"][0]


def test_only_the_frog_whisperer_card_carries_an_arcana_icon():
    catalog = GAME.catalog()
    icons = {pid: p["arcana_on_flip"] for pid, p in catalog["personalities"].items()}
    assert icons.pop("P05") == {"book": 1}
    assert all(v == {} for v in icons.values())


def test_a_setup_with_the_frog_whisperer_in_advanced_mode_moves_her_book_token():
    """The same through ``setup``: find a seed that deals her, keep her, look at the token."""
    for seed in range(200):
        state = GAME.setup(3, seed, {"personalities": "choose"})
        offers = {s: GAME.view(state, s)["players"][s]["offer"] for s in range(3)}
        holder = next((s for s, o in offers.items() if "P05" in o), None)
        if holder is None:
            continue
        for seat in range(3):
            keep = "P05" if seat == holder else offers[seat][0]
            state = act(state, seat, {"type": "keep_personality", "personality": keep})
        for seat in range(3):
            book = me(state, seat)["arcana"]["book"]
            assert book == (1 if seat == holder else 0)
        return
    raise AssertionError("no seed dealt the Frog Whisperer")


# --- P07 Uncontrolled Powers: 1 heart → 1 mandrake + 1 mushroom ---------------------------------


def test_uncontrolled_powers_recipe_turns_a_heart_into_a_mandrake_and_a_mushroom():
    state = card_table("R01", workbench="H1 R3 S3 T3", personality="P07")
    assert uses(state, 0, "P07") == [brew("P07", make="M1 R1", workbench="H1")]
    after = act(state, 0, brew("P07", make="M1 R1", workbench="H1"))
    assert production(after, 0)["outputs"] == named("M1 R1")
    assert production(after, 0)["workbench"] == named("R3 S3 T3")


def test_uncontrolled_powers_recipe_refuses_its_old_placeholder_and_turning():
    state = card_table("R01", workbench="H1 M1 R3 S3 T3", personality="P07")
    refused(state, 0, brew("P07", make="H1 S1", workbench="R1 S1 T1"), "wrong_inputs")
    refused(state, 0, brew("P07", make="M1", workbench="H1"), "wrong_outputs")
    refused(state, 0, brew("P07", make="H1", workbench="M1 R1"), "wrong_inputs")  # one-way
    no_heart = card_table("R01", workbench="R3 S3 T3", personality="P07")
    assert uses(no_heart, 0, "P07") == []


# --- P08 Hidden Power: one of each of the five → 3 × any, once ----------------------------------


@pytest.mark.parametrize("make", ["H3", "H1 M1 T1", "S2 T1"])
def test_hidden_power_takes_one_cube_of_each_type_for_three_of_any_types(make):
    state = card_table("R01", workbench="H1 M1 R2 S2 T2", personality="P08")
    after = act(state, 0, brew("P08", make=make, workbench="H1 M1 R1 S1 T1"))
    assert production(after, 0)["outputs"] == named(make)
    assert production(after, 0)["workbench"] == named("R1 S1 T1")
    assert me(after, 0)["personality"] is None  # single use: back to the box


def test_hidden_power_refuses_to_make_from_nothing_or_without_all_five():
    state = card_table("R01", workbench="H1 M1 R2 S2 T2", personality="P08")
    refused(state, 0, brew("P08", make="H3"), "wrong_inputs")  # the old placeholder: free
    refused(state, 0, brew("P08", make="H3", workbench="M1 R1 S1 T1"), "wrong_inputs")
    refused(state, 0, brew("P08", make="H2", workbench="H1 M1 R1 S1 T1"), "wrong_outputs")
    refused(state, 0, brew("P08", make="H4", workbench="H1 M1 R1 S1 T1"), "wrong_outputs")
    heartless = card_table("R01", workbench="M1 R2 S2 T2", personality="P08")
    assert uses(heartless, 0, "P08") == []
    refused(heartless, 0, brew("P08", make="H3", workbench="H1 M1 R1 S1 T1"), "cannot_afford")


# --- P11 Trickster: 2 mushrooms ⇄ 2 toads -------------------------------------------------------


def test_trickster_recipe_is_two_mushrooms_for_two_toads_then_back():
    state = card_table("R01", workbench="R5 S3 T5", personality="P11")
    assert uses(state, 0, "P11") == [brew("P11", make="T2", workbench="R2")]
    refused(state, 0, brew("P11", make="S3", workbench="R2"), "wrong_outputs")  # old placeholder
    refused(state, 0, brew("P11", make="R2", workbench="T2"), "wrong_inputs")  # not turned yet
    turned = position(
        phase="brew",
        witches=[
            witch("P11", tableau=[("R01", False)], workbench="R5 S3 T5", production={},
                  rotated_own=True),
            witch(),
        ],
    )
    assert uses(turned, 0, "P11") == [brew("P11", make="R2", workbench="T2")]
    refused(turned, 0, brew("P11", make="T2", workbench="R2"), "wrong_inputs")


def test_the_catalog_follows_the_data():
    catalog = GAME.catalog()
    assert catalog["recipes"]["R16"]["front"] == {
        "in": {}, "in_choice": [["spider", "toad"]],
        "out": {"spider": 1}, "out_choice": [["mushroom", "spider"]],
    }
    assert catalog["recipes"]["R17"]["front"]["out"] == {"mushroom": 1}
    assert catalog["recipes"]["R18"]["front"]["out"] == {"toad": 1}
    assert catalog["recipes"]["R16"]["status"] == "CONFIRMED"
    variants = catalog["variants"]
    assert sorted(variants) == ["flasks_as_converted", "spider_summoning_one_way"]
    assert variants["flasks_as_converted"]["R16"]["front"]["out"] == {"toad": 1}
    assert variants["flasks_as_converted"]["R17"]["front"]["out"] == {}
    assert variants["spider_summoning_one_way"]["R24"]["reversible"] is False
    people = catalog["personalities"]
    assert people["P05"]["recipe"]["front"]["out_choice"] == [
        ["heart", "mandrake", "mushroom", "spider", "toad"]
    ]
    assert people["P07"]["recipe"]["front"]["in"] == {"heart": 1}
    assert people["P07"]["recipe"]["front"]["out"] == {"mandrake": 1, "mushroom": 1}
    assert people["P08"]["recipe"]["front"]["in"] == {
        "heart": 1, "mandrake": 1, "mushroom": 1, "spider": 1, "toad": 1,
    }
    assert people["P11"]["recipe"]["front"]["out"] == {"toad": 2}
    assert people["P11"]["recipe"]["reversible"] is True
    for pid in ("P05", "P07", "P08", "P11"):
        assert people[pid]["recipe"]["status"] == "CONFIRMED"
