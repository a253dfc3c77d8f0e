"""Every personality power as the sheet states it (section 8, its rulebook clarifications and our
readings in section 12), each in a small named position driven through ``game.apply`` only."""

from __future__ import annotations

import pytest

from engine.protocol import IllegalAction
from tests.whirling.positions import (
    GAME,
    act,
    brew,
    finish_brew,
    me,
    named,
    of_type,
    play_all,
    position,
    production,
    sparse,
    step,
    witch,
)

DECK = ["R41", "R42", "R43", "R44", "R45", "R46", "R47", "R48", "R49", "R50", "R51", "R52"]


def refused(state, seat, action, code):
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    assert info.value.code == code, info.value
    assert GAME.dump(state) == before


def uses_of(state, seat, recipe):
    return [a for a in GAME.legal_actions(state, seat) if a.get("recipe") == recipe]


# --- P01 Initiate ------------------------------------------------------------------------------


def initiate_table():
    return position(
        witches=[witch("P01", hand=["R01", "R02", "R03", "R04"]), witch("P01", hand=["R05"])],
        deck=["R10", "R11", "R12", "R13", "R14", "R15"],
    )


def test_initiate_swaps_her_whole_hand_for_four_new_cards_before_choosing():
    """P01: once per game, before choosing, discard the personality and the whole hand, draw 4;
    the old hand goes to the discard pile (reading 11.9)."""
    state = initiate_table()
    assert {"type": "swap_hand"} in GAME.legal_actions(state, 0)
    s = step(state, 0, {"type": "swap_hand"})
    state = s.state
    assert me(state, 0)["hand"] == ["R10", "R11", "R12", "R13"]
    assert me(state, 0)["personality"] is None
    view = GAME.view(state, None)
    assert view["discard_count"] == 4
    assert view["deck_count"] == 2
    (swap,) = of_type(s.events, "hand_swapped")
    assert swap["seat"] == 0 and swap["drawn"] == 4


def test_the_initiates_new_cards_are_playable_this_round():
    """Reading 11.9: the fresh 4 cards are available for this round's choice."""
    state = act(initiate_table(), 0, {"type": "swap_hand"})
    assert GAME.to_move(state) >= {0}
    state = play_all(state, {0: "R12", 1: "R05"})
    assert me(state, 0)["tableau"] == [{"card": "R12", "rotated": False}]


def test_the_initiate_swaps_only_once_per_game():
    """P01 is discarded when used: no second swap, this round or later."""
    state = act(initiate_table(), 0, {"type": "swap_hand"})
    assert {"type": "swap_hand"} not in GAME.legal_actions(state, 0)
    refused(state, 0, {"type": "swap_hand"}, "no_power")


def test_the_initiate_cannot_swap_after_choosing():
    """P01: the swap happens before choosing the recipe."""
    state = act(initiate_table(), 0, {"type": "play", "card": "R01", "rotated": False})
    refused(state, 0, {"type": "swap_hand"}, "not_your_turn")


# --- P02 Witch of All Trades -------------------------------------------------------------------


def all_trades(outputs, cauldron=""):
    trader = witch("P02", workbench="R2", production={"outputs": outputs, "cauldron": cauldron})
    return position(phase="brew", witches=[trader, witch(), witch()])


def test_witch_of_all_trades_claims_one_cube_when_her_cauldron_holds_all_five_types():
    """P02: after producing, before passing, a cauldron holding H, M, R, S and T lets her move 1
    cube of any type into her own circle. Claiming ends her production."""
    state = all_trades(outputs="H1 M1 R1 S2", cauldron="T1")  # the toad came from a potion
    assert {"type": "claim", "ingredient": "spider"} in GAME.legal_actions(state, 0)
    state = act(state, 0, {"type": "claim", "ingredient": "spider"})
    assert me(state, 0)["done"] is True
    assert 0 not in GAME.to_move(state)
    assert production(state, 0)["cauldron"] == named("H1 M1 R1 S1 T1")
    events = []
    state = finish_brew(state, events=events)
    assert me(state, 0)["circle"] == named("S1")
    (sent,) = [e for e in of_type(events, "cauldron_passed") if e["from"] == 0]
    assert sent["cubes"] == sparse("H1 M1 R1 S1 T1")


def test_witch_of_all_trades_cannot_claim_without_all_five_types():
    """P02: four types are not enough."""
    state = all_trades(outputs="H1 M1 R1 S1")
    assert not [a for a in GAME.legal_actions(state, 0) if a["type"] == "claim"]
    refused(state, 0, {"type": "claim", "ingredient": "heart"}, "cannot_claim")


def test_only_the_witch_of_all_trades_claims():
    state = position(phase="brew", witches=[witch(production={"outputs": "H1 M1 R1 S1 T1"})] * 2)
    refused(state, 0, {"type": "claim", "ingredient": "heart"}, "cannot_claim")


# --- P03 Potion Brewer -------------------------------------------------------------------------


def test_potion_brewer_pours_one_workbench_cube_per_potion_icon_on_her_new_card():
    """P03: for each potion icon on the card just revealed she may move one cube of any type from
    her workbench into her cauldron. Whirling Stratagem has two potion icons."""
    brewer = witch("P03", hand=["R56", "R01"], workbench="H1 M2 R4")
    state = play_all(
        position(witches=[brewer, witch(hand=["R02"])], deck=DECK), {0: "R56", 1: "R02"}
    )
    assert sorted(production(state, 0)["triggers"]) == ["potion", "pour", "pour"]
    state = act(state, 0, {"type": "pour", "ingredient": "heart"})
    state = act(state, 0, {"type": "pour", "ingredient": "mushroom"})
    state = act(state, 0, {"type": "decline", "arcana": "potion"})
    sheet = production(state, 0)
    assert sheet["workbench"] == named("M2 R3")
    assert sheet["cauldron"] == named("H1 R1")
    assert sheet["triggers"] == []


def test_potion_brewer_pours_only_cubes_she_has():
    brewer = witch("P03", workbench="M1", triggers=["pour"])
    state = position(phase="brew", witches=[brewer, witch()])
    refused(state, 0, {"type": "pour", "ingredient": "heart"}, "cannot_afford")


def test_potion_brewer_gets_no_pour_from_a_card_without_potion_icons():
    brewer = witch("P03", hand=["R04"])  # rav1 book1
    state = play_all(
        position(witches=[brewer, witch(hand=["R02"])], deck=DECK), {0: "R04", 1: "R02"}
    )
    assert "pour" not in production(state, 0)["triggers"]


def test_only_the_potion_brewer_pours():
    """Another witch revealing the same card gets the potion trigger but no pour."""
    state = play_all(
        position(witches=[witch(hand=["R56"]), witch(hand=["R02"])], deck=DECK),
        {0: "R56", 1: "R02"},
    )
    assert production(state, 0)["triggers"] == ["potion"]


# --- P04 Whirlwind -----------------------------------------------------------------------------


def test_whirlwind_may_rotate_a_one_way_card_as_she_plays_it():
    """P04: she may rotate any recipe when playing it, even a one-way card. Flask of
    Shapeshifting 1(R/S) → 1R + 1(R/T) rotated reads 1R + 1(R/T) → 1(R/S)."""
    whirlwind = witch("P04", hand=["R17", "R01"], workbench="R1 T1")
    state = position(witches=[whirlwind, witch(hand=["R02"])], deck=DECK)
    assert {"type": "play", "card": "R17", "rotated": True} in GAME.legal_actions(state, 0)
    state = play_all(state, {0: ("R17", True), 1: "R02"})
    assert me(state, 0)["tableau"] == [{"card": "R17", "rotated": True}]
    state = act(state, 0, brew("R17", make="S1", workbench="R1 T1"))
    assert production(state, 0)["outputs"] == named("S1")


def test_other_witches_may_not_rotate_a_one_way_card():
    state = position(witches=[witch(hand=["R17"]), witch(hand=["R02"])], deck=DECK)
    assert {"type": "play", "card": "R17", "rotated": True} not in GAME.legal_actions(state, 0)
    refused(state, 0, {"type": "play", "card": "R17", "rotated": True}, "cannot_rotate")


def test_a_rotated_void_storm_is_a_pure_sink():
    """Sheet 11.13: Void Storm (nothing → R+S+T) rotated by the Whirlwind eats R+S+T."""
    whirlwind = witch("P04", hand=["R58"], workbench="R1 S1 T1")
    state = position(witches=[whirlwind, witch(hand=["R02"])], deck=DECK)
    state = play_all(state, {0: ("R58", True), 1: "R02"})
    state = act(state, 0, {"type": "decline", "arcana": "raven"})  # two raven icons: 0 → 2
    state = act(state, 0, brew("R58", make="", workbench="R1 S1 T1"))
    assert production(state, 0)["workbench"] == named(None)
    assert production(state, 0)["outputs"] == named(None)


def test_a_rotated_lost_arcana_still_does_nothing_and_keeps_its_icons():
    """Sheet 11.13 and reading 15: rotation changes neither the recipe's emptiness nor its
    arcana."""
    whirlwind = witch("P04", hand=["R57"])
    state = position(witches=[whirlwind, witch(hand=["R02"])], deck=DECK)
    state = play_all(state, {0: ("R57", True), 1: "R02"})
    assert sorted(production(state, 0)["triggers"]) == ["book", "potion", "raven"]
    state = finish_brew(state, seats=[0])
    assert me(state, 0)["done"] is True


# --- P05 Frog Whisperer ------------------------------------------------------------------------


@pytest.mark.parametrize("make", ["H1", "M1", "R1", "S1", "T1"])
def test_frog_whisperer_turns_three_toads_into_one_cube_of_any_type(make):
    """P05, printed recipe (erratum of 2026-12): 3T → 1(any), one-way."""
    state = position(phase="brew", witches=[witch("P05", workbench="T9", production={}), witch()])
    state = act(state, 0, brew("P05", make=make, workbench="T3"))
    sheet = production(state, 0)
    assert sheet["outputs"] == named(make)
    assert sheet["workbench"] == named("T6")


def test_frog_whisperer_makes_exactly_one():
    state = position(phase="brew", witches=[witch("P05", workbench="T9", production={}), witch()])
    refused(state, 0, brew("P05", make="H2", workbench="T3"), "wrong_outputs")
    refused(state, 0, brew("P05", make="H1 S1", workbench="T3"), "wrong_outputs")


# --- P06 Daredevil -----------------------------------------------------------------------------


def daredevil_table(hand, arcana=(0, 0, 0)):
    devil = witch("P06", hand=hand, arcana=arcana)
    return position(witches=[devil, witch(hand=["R02"])], deck=DECK)


def test_daredevil_plays_a_random_card_from_her_hand_then_sees_it():
    """P06 / reading 8: the engine picks the card; only she is told which."""
    state = daredevil_table(["R10", "R20", "R30", "R40"])
    s = step(state, 0, {"type": "play_random"})
    (secret,) = of_type(s.events, "random_card")
    assert secret["@to"] == [0] and secret["card"] in ["R10", "R20", "R30", "R40"]
    played = me(s.state, 0)["played"]
    assert played["card"] == secret["card"] and played["random"] is True
    assert GAME.view(s.state, 1)["players"][0]["played"] == "hidden"
    # She still owes a confirmation; she cannot now choose a card herself.
    assert 0 in GAME.to_move(s.state)
    refused(s.state, 0, {"type": "play", "card": "R10", "rotated": False}, "already_played")


def test_daredevil_fixes_the_orientation_of_a_two_way_random_card_and_names_an_extra_arcana():
    """P06: two-way → she confirms its rotation before the reveal; the extra arcana is in
    addition to her normal triggers, even the same type twice. Vanishing Spell: pot1 rav1."""
    state = act(daredevil_table(["R10"], arcana=(1, 0, 0)), 0, {"type": "play_random"})
    options = GAME.legal_actions(state, 0)
    assert {"type": "confirm_random", "rotated": True, "arcana": "potion"} in options
    state = act(state, 0, {"type": "confirm_random", "rotated": True, "arcana": "potion"})
    events = []
    state = play_all(state, {1: "R02"}, events)
    (reveal,) = of_type(events, "recipes_revealed")
    devil = next(p for p in reveal["plays"] if p["seat"] == 0)
    assert devil["rotated"] is True and devil["extra_arcana"] == "potion"
    assert devil["triggers"] == ["potion", "potion"]  # potion 1 → 2, plus the extra potion
    assert me(state, 0)["tableau"] == [{"card": "R10", "rotated": True}]


def test_daredevil_cannot_rotate_a_one_way_random_card():
    state = act(daredevil_table(["R17"]), 0, {"type": "play_random"})
    assert all(a["rotated"] is False for a in GAME.legal_actions(state, 0))
    refused(state, 0, {"type": "confirm_random", "rotated": True, "arcana": None}, "cannot_rotate")


def test_daredevil_may_decline_the_extra_arcana():
    state = act(daredevil_table(["R26"]), 0, {"type": "play_random"})  # R26: no icons
    state = act(state, 0, {"type": "confirm_random", "rotated": False, "arcana": None})
    state = play_all(state, {1: "R02"})
    assert production(state, 0)["triggers"] == []


def test_only_the_daredevil_plays_at_random():
    state = daredevil_table(["R10"])
    refused(state, 1, {"type": "play_random"}, "no_power")


# --- P07 Uncontrolled Powers -------------------------------------------------------------------


def uncontrolled(workbench="R2 S2 T2"):
    wild = witch("P07", hand=["R01", "R02"], workbench=workbench, gain_due=True)
    return position(witches=[wild, witch(hand=["R03"]), witch(hand=["R04"])], deck=DECK)


def test_uncontrolled_powers_must_gain_before_choosing():
    """P07: mandatory every round, before choosing: her only options are the gain."""
    state = uncontrolled()
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"gain"}
    refused(state, 0, {"type": "play", "card": "R01", "rotated": False}, "gain_first")


def test_uncontrolled_powers_gains_three_cubes_of_the_chosen_type():
    state = act(uncontrolled(), 0, {"type": "gain", "ingredient": "spider"})
    assert me(state, 0)["workbench"] == named("R2 S5 T2")
    assert me(state, 0)["gain_due"] is False
    state = play_all(state, {0: "R01", 1: "R03", 2: "R04"})
    assert me(state, 0)["tableau"] == [{"card": "R01", "rotated": False}]


def test_uncontrolled_powers_excess_scores_for_the_player_on_her_left():
    """Rulebook clarification: a fifth mandrake goes to the circle of the player on her LEFT."""
    s = step(uncontrolled("M2 R2"), 0, {"type": "gain", "ingredient": "mandrake"})
    (gain,) = of_type(s.events, "forced_gain")
    assert gain["placed"] == sparse("M2") and gain["overflow"] == sparse("M1")
    assert gain["overflow_to"] == 1
    assert me(s.state, 0)["workbench"] == named("M4 R2")
    assert me(s.state, 1)["circle"] == named("M1")
    assert me(s.state, 2)["circle"] == named(None)


def test_uncontrolled_powers_owes_the_gain_again_every_round():
    state = act(uncontrolled(), 0, {"type": "gain", "ingredient": "toad"})
    state = finish_brew(play_all(state, {0: "R01", 1: "R03", 2: "R04"}))
    assert me(state, 0)["gain_due"] is True
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"gain"}


def test_only_uncontrolled_powers_gains():
    refused(uncontrolled(), 1, {"type": "gain", "ingredient": "toad"}, "no_power")


# --- P08 Hidden Power --------------------------------------------------------------------------


def test_hidden_power_makes_any_three_cubes_once_then_is_discarded():
    """P08 (printed: H + M + R + S + T → any + any + any, single use): outputs of any types, the
    same or different; afterwards the personality goes back to the box and its recipe is gone."""
    hidden = witch("P08", hand=["R01"], workbench="H1 M1 R4 S4 T4", production={})
    state = position(phase="brew", witches=[hidden, witch()], deck=DECK)
    assert uses_of(state, 0, "P08")
    s = step(state, 0, brew("P08", make="H2 M1", workbench="H1 M1 R1 S1 T1"))
    state = s.state
    assert production(state, 0)["outputs"] == named("H2 M1")
    assert me(state, 0)["personality"] is None
    assert of_type(s.events, "personality_discarded")
    assert uses_of(state, 0, "P08") == []
    refused(state, 0, brew("P08", make="H3", workbench="R1 S1 T1"), "not_in_row")
    state = finish_brew(state)
    assert me(state, 0)["personality"] is None
    assert me(state, 0)["own_recipe"] is None


# --- P09 Fae-Blessed ---------------------------------------------------------------------------


def test_fae_blessed_makes_a_mandrake_and_a_toad_from_nothing_every_round():
    """P09: a recipe that costs nothing, usable every round (once per round)."""
    fae = witch("P09", hand=["R01", "R02"], workbench="", production={})
    state = position(phase="brew", witches=[fae, witch(hand=["R03", "R04"])], deck=DECK)
    state = act(state, 0, brew("P09", make="M1 T1"))
    assert production(state, 0)["outputs"] == named("M1 T1")
    refused(state, 0, brew("P09", make="M1 T1"), "already_used")
    state = finish_brew(state)
    state = finish_brew(
        play_all(state, {0: me(state, 0)["hand"][0], 1: me(state, 1)["hand"][0]}), seats=[1]
    )
    state = act(state, 0, brew("P09", make="M1 T1"))
    assert production(state, 0)["outputs"] == named("M1 T1")


# --- P10 Clairvoyant ---------------------------------------------------------------------------


def test_clairvoyant_holds_five_and_her_left_neighbour_draws_none():
    """P10 / sheet 11.10: she passes 4 and refills to 5 (draws 2); her left neighbour receives 4
    and draws nothing; everyone else refills to 4 as usual."""
    seer = witch("P10", hand=["R01", "R02", "R03", "R04", "R05"])
    state = position(
        witches=[
            seer,
            witch(hand=["R06", "R07", "R08", "R09"]),
            witch(hand=["R10", "R11", "R12", "R13"]),
        ],
        deck=DECK,
    )
    state = finish_brew(play_all(state, {0: "R01", 1: "R06", 2: "R10"}))
    assert me(state, 0)["hand"] == ["R11", "R12", "R13", *DECK[:2]]
    assert me(state, 1)["hand"] == ["R02", "R03", "R04", "R05"]
    assert me(state, 2)["hand"] == ["R07", "R08", "R09", DECK[2]]
    assert GAME.view(state, None)["deck_count"] == len(DECK) - 3


# --- P11 Trickster -----------------------------------------------------------------------------


def test_trickster_recipe_starts_with_mushrooms_in_and_turns_at_every_hand_pass():
    """P11 (printed 2R ⇄ 2T): mushrooms on the input end at setup; turned at every hand pass,
    so the next round it reads 2T → 2R, and the round after 2R → 2T again."""
    trick = witch("P11", hand=["R01", "R02", "R03"], workbench="R5 T5", production={})
    other = witch(hand=["R04", "R05", "R06"], production={})
    state = position(phase="brew", witches=[trick, other], deck=DECK)
    assert me(state, 0)["own_recipe"] == {"recipe": "P11", "rotated": False}
    assert uses_of(state, 0, "P11") == [brew("P11", make="T2", workbench="R2")]
    state = finish_brew(state)

    assert me(state, 0)["own_recipe"] == {"recipe": "P11", "rotated": True}
    state = play_all(state, {0: me(state, 0)["hand"][0], 1: me(state, 1)["hand"][0]})
    assert uses_of(state, 0, "P11") == [brew("P11", make="R2", workbench="T2")]
    state = act(state, 0, brew("P11", make="R2", workbench="T2"))
    assert production(state, 0)["outputs"] == named("R2")
    state = finish_brew(state)

    assert me(state, 0)["own_recipe"] == {"recipe": "P11", "rotated": False}


# --- P12 Spider Summoner -----------------------------------------------------------------------


def test_spider_summoner_turns_three_mandrakes_into_five_spiders():
    summoner = witch("P12", workbench="M3", production={})
    state = position(phase="brew", witches=[summoner, witch()])
    state = act(state, 0, brew("P12", make="S5", workbench="M3"))
    assert production(state, 0)["outputs"] == named("S5")
    assert production(state, 0)["workbench"] == named(None)


# --- P13 Spellbook Scholar ---------------------------------------------------------------------


def scholar_table(workbench="M2"):
    """Crawling Sorcery (1M → 1M + 2S) and Mushroom Offering (3R → M + S + T) below her board."""
    scholar = witch(
        "P13", tableau=[("R29", False), ("R20", False)], workbench=workbench, production={}
    )
    return position(phase="brew", witches=[scholar, witch()])


def test_spellbook_scholar_spends_two_mandrakes_for_an_extra_book():
    """P13: once per round, 2 mandrakes from the workbench and/or recipe outputs buy a Book; then
    inputs of the named type may come from the supply."""
    state = act(scholar_table(), 0, brew("R29", make="M1 S2", workbench="M1"))
    state = act(
        state,
        0,
        {
            "type": "scholar",
            "ingredient": "mushroom",
            "take": {"workbench": {"mandrake": 1}, "outputs": {"mandrake": 1}},
        },
    )
    sheet = production(state, 0)
    assert sheet["books"] == ["mushroom"]
    assert sheet["scholar_used"] is True
    assert sheet["workbench"] == named(None)
    assert sheet["outputs"] == named("S2")
    state = act(state, 0, brew("R20", make="M1 S1 T1", supply="R3"))
    assert production(state, 0)["outputs"] == named("M1 S3 T1")


def test_spellbook_scholar_uses_her_power_once_per_round():
    state = scholar_table("M4")
    take = {"workbench": {"mandrake": 2}}
    state = act(state, 0, {"type": "scholar", "ingredient": "mushroom", "take": take})
    refused(state, 0, {"type": "scholar", "ingredient": "toad", "take": take}, "once_per_round")


def test_spellbook_scholar_book_is_in_addition_to_a_normal_book():
    scholar = witch("P13", workbench="M2", triggers=["book"])
    state = position(phase="brew", witches=[scholar, witch()])
    state = act(state, 0, {"type": "book", "ingredient": "toad"})
    state = act(
        state,
        0,
        {"type": "scholar", "ingredient": "spider", "take": {"workbench": {"mandrake": 2}}},
    )
    assert production(state, 0)["books"] == ["toad", "spider"]


def test_spellbook_scholar_pays_exactly_two_mandrakes_she_has():
    state = scholar_table("M1")
    refused(
        state,
        0,
        {"type": "scholar", "ingredient": "toad", "take": {"workbench": {"mandrake": 2}}},
        "cannot_afford",
    )
    refused(
        state,
        0,
        {"type": "scholar", "ingredient": "toad", "take": {"workbench": {"mandrake": 1}}},
        "wrong_inputs",
    )


def test_only_the_spellbook_scholar_buys_a_book():
    state = position(phase="brew", witches=[witch(workbench="M4", production={}), witch()])
    refused(
        state,
        0,
        {"type": "scholar", "ingredient": "toad", "take": {"workbench": {"mandrake": 2}}},
        "no_power",
    )


# --- advanced mode: keep 1 of 2 ----------------------------------------------------------------


def advanced(players=3, seed=1):
    return GAME.setup(players, seed, {"personalities": "choose"})


def test_advanced_mode_deals_two_distinct_non_initiates_to_each_witch():
    """Section 3 step 2: each witch is dealt 2 random non-Initiate personalities."""
    for seed in range(10):
        state = advanced(players=5, seed=seed)
        offers = [me(state, s)["offer"] for s in range(5)]
        dealt = [p for offer in offers for p in offer]
        assert all(len(offer) == 2 for offer in offers)
        assert len(set(dealt)) == 10
        assert "P01" not in dealt
        assert GAME.to_move(state) == frozenset(range(5))
        assert GAME.view(state, 0)["players"][1]["offer"] == "hidden"


def test_advanced_mode_keeps_are_simultaneous_and_starting_cubes_wait_for_everyone():
    """Reading 14: the keep-1-of-2 choice is hidden until all have chosen; starting cubes and the
    cards are dealt only then."""
    state = advanced()
    first = me(state, 0)["offer"][0]
    state = act(state, 0, {"type": "keep_personality", "personality": first})
    assert me(state, 0)["personality"] == first
    assert GAME.view(state, 1)["players"][0]["personality"] == "hidden"
    assert me(state, 0)["workbench"] == named(None)
    assert me(state, 0)["hand"] == []
    assert GAME.to_move(state) == frozenset({1, 2})
    refused(state, 0, {"type": "keep_personality", "personality": first}, "not_your_turn")
    for seat in (1, 2):
        state = act(
            state, seat, {"type": "keep_personality", "personality": me(state, seat)["offer"][1]}
        )
    view = GAME.view(state, 1)
    assert view["phase"] == "study" and view["round"] == 1
    assert view["players"][0]["personality"] == first
    assert all(sum(p["workbench"].values()) > 0 for p in view["players"])


def test_advanced_mode_refuses_a_personality_not_dealt():
    state = advanced()
    offered = set(me(state, 0)["offer"])
    other = next(p for p in ("P02", "P03", "P04") if p not in offered)
    refused(state, 0, {"type": "keep_personality", "personality": other}, "not_offered")
    refused(state, 0, {"type": "keep_personality", "personality": "P01"}, "not_offered")


def test_advanced_mode_clairvoyant_starts_with_five_cards():
    """Section 3 step 3: the Clairvoyant holds 5; every starting workbench is the card's."""
    for seed in range(200):
        state = advanced(seed=seed)
        seats = [s for s in range(3) if "P10" in me(state, s)["offer"]]
        if seats:
            break
    else:
        pytest.skip("no seed dealt the Clairvoyant")
    (seer,) = seats
    for seat in range(3):
        offer = me(state, seat)["offer"]
        keep = "P10" if seat == seer else offer[0]
        state = act(state, seat, {"type": "keep_personality", "personality": keep})
    assert len(me(state, seer)["hand"]) == 5
    assert me(state, seer)["workbench"] == named("H1 M2 R4 S4 T4")
    assert all(len(me(state, s)["hand"]) == 4 for s in range(3) if s != seer)
