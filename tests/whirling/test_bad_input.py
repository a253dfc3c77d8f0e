"""Bad input: every refused action raises ``IllegalAction`` with a stable code and leaves the
state exactly as it was (``game.dump`` before == after)."""

from __future__ import annotations

import pytest

from engine.protocol import IllegalAction
from tests.whirling.positions import GAME, act, brew, finish_brew, position, witch

DECK = ["R41", "R42", "R43", "R44", "R45", "R46", "R47", "R48"]


def refused(state, seat, action, code):
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    assert info.value.code == code, info.value
    assert info.value.message  # every refusal says why, in words
    assert GAME.dump(state) == before
    return info.value


def play(card, rotated=False):
    return {"type": "play", "card": card, "rotated": rotated}


# --- named positions -------------------------------------------------------------------------


def study():
    """Round 1, study phase: seat 0 holds Spore Lore, Vanishing Spell (two-way) and Flask of
    Shapeshifting (one-way); seat 1 holds Web-spinning Lore."""
    return position(
        witches=[witch(hand=["R01", "R10", "R17"]), witch(hand=["R02", "R03"])], deck=DECK
    )


def brewing():
    """Brew phase: seat 0 has Spider Summoning (2R → M + 2S) and Elixir of the Moon (M+T → M +
    R/S) below her board, 1M 2R 1T on her workbench; seat 1 still owes potion and raven."""
    return position(
        phase="brew",
        witches=[
            witch(tableau=[("R24", False), ("R40", False)], workbench="M1 R2 T1", production={}),
            witch(workbench="T2", triggers=["potion", "raven"]),
        ],
        deck=DECK,
    )


def over():
    state = position(
        phase="brew",
        witches=[witch(circle="R5", production={}), witch(production={})],
        deck=DECK,
    )
    state = finish_brew(state)
    assert GAME.result(state) is not None
    return state


SUMMONING = brew("R24", make="M1 S2", workbench="R2")


# --- the shape of an action ------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [None, [], "play", 7, {}, {"card": "R01"}, {"type": None}, {"type": 3}, {"type": ["play"]}],
    ids=repr,
)
def test_an_action_is_an_object_with_a_string_type(action):
    refused(study(), 0, action, "bad_action")


def test_an_unknown_action_type():
    refused(study(), 0, {"type": "dance"}, "unknown_action")
    refused(brewing(), 0, {"type": "steal", "ingredient": "heart"}, "unknown_action")


@pytest.mark.parametrize(
    "action",
    [
        {"type": "play", "card": "R01"},  # rotated missing
        {"type": "play", "card": "R01", "rotated": False, "extra": 1},
        {"type": "skip", "card": "R01"},
    ],
    ids=repr,
)
def test_an_action_has_exactly_its_fields(action):
    refused(study(), 0, action, "bad_action")


@pytest.mark.parametrize("seat", [-1, 2, 9, "0", None, 1.0])
def test_a_seat_that_does_not_exist(seat):
    refused(study(), seat, play("R02"), "bad_seat")


def test_a_boolean_is_not_a_seat():
    refused(study(), True, play("R02"), "bad_seat")


# --- study phase -----------------------------------------------------------------------------


def test_a_card_not_in_hand():
    refused(study(), 0, play("R02"), "not_in_hand")  # seat 1's card
    refused(study(), 0, play("R99"), "not_in_hand")


@pytest.mark.parametrize("card", [None, ["R01"], {"id": "R01"}, 1], ids=repr)
def test_a_card_that_is_not_a_card_id(card):
    refused(study(), 0, play(card), "not_in_hand")


def test_rotating_a_one_way_card():
    """Section 4.1: only two-way cards may be rotated (the Whirlwind aside)."""
    refused(study(), 0, play("R17", rotated=True), "cannot_rotate")
    act(study(), 0, play("R10", rotated=True))  # two-way: fine


@pytest.mark.parametrize("rotated", [None, 1, "yes", "true"])
def test_rotated_must_be_a_boolean(rotated):
    refused(study(), 0, play("R10", rotated=rotated), "bad_action")


def test_acting_when_not_owing_a_decision():
    """A witch who has chosen waits for the others; she cannot choose again."""
    state = act(study(), 0, play("R01"))
    refused(state, 0, play("R10"), "not_your_turn")


def test_skipping_while_holding_a_card():
    """Section 4.1: every witch must play a card each round, even one she cannot use."""
    refused(study(), 0, {"type": "skip"}, "must_play")


def test_a_phase_wrong_action():
    refused(study(), 0, SUMMONING, "wrong_phase")
    refused(study(), 0, {"type": "done"}, "wrong_phase")
    refused(brewing(), 0, play("R01"), "wrong_phase")
    refused(study(), 0, {"type": "keep_personality", "personality": "P02"}, "wrong_phase")


# --- brew phase ------------------------------------------------------------------------------


def test_using_a_recipe_twice_in_a_round():
    """Section 11.3: each recipe in the row fires at most once per round."""
    state = act(brewing(), 0, brew("R24", make="M1 S2", workbench="R2"))
    refused(state, 0, brew("R24", make="M1 S2", workbench="R2"), "already_used")


def test_a_recipe_not_below_her_board():
    refused(brewing(), 0, brew("R26", make="S3", workbench="M2"), "not_in_row")
    refused(brewing(), 0, brew("P12", make="S5", workbench="M3"), "not_in_row")


def test_inputs_she_does_not_have():
    """Inputs come from her workbench or from output slots of recipes used this round."""
    one_mushroom = position(
        phase="brew",
        witches=[witch(tableau=[("R24", False)], workbench="R1", production={}), witch()],
    )
    refused(one_mushroom, 0, brew("R24", make="M1 S2", workbench="R2"), "cannot_afford")
    # Nothing sits on the output slots yet, so nothing can be chained.
    refused(brewing(), 0, brew("R24", make="M1 S2", workbench="R1", outputs="R1"), "cannot_afford")


def test_a_potion_cube_waits_in_the_cauldron_and_is_no_input():
    """Section 11.8: a potion cube cannot be used as a recipe input."""
    state = position(
        phase="brew",
        witches=[witch(tableau=[("R03", False)], workbench="", triggers=["potion"]), witch()],
    )
    state = act(state, 0, {"type": "potion", "ingredient": "toad"})
    refused(state, 0, brew("R03", make="M1", outputs="T1"), "cannot_afford")
    refused(state, 0, brew("R03", make="M1", workbench="T1"), "cannot_afford")


def test_wrong_inputs_for_the_recipe():
    """Section 11.4: inputs are filled completely with matching cubes, or not at all."""
    state = brewing()
    refused(state, 0, brew("R24", make="M1 S2", workbench="R1"), "wrong_inputs")  # partial
    refused(state, 0, brew("R24", make="M1 S2", workbench="R1 T1"), "wrong_inputs")
    refused(state, 0, brew("R24", make="M1 S2", workbench="R3"), "wrong_inputs")
    refused(state, 0, brew("R24", make="M1 S2"), "wrong_inputs")


def test_impossible_outputs():
    state = brewing()
    refused(state, 0, brew("R24", make="M1 S1", workbench="R2"), "wrong_outputs")
    refused(state, 0, brew("R24", make="M1 S3", workbench="R2"), "wrong_outputs")
    refused(state, 0, brew("R40", make="M1 T1", workbench="M1 T1"), "wrong_outputs")  # not R/S
    refused(state, 0, brew("R24", make="", workbench="R2"), "wrong_outputs")


def test_the_supply_without_a_book():
    """Section 4.2: only a Book lets input cubes come from the supply."""
    refused(brewing(), 0, brew("R24", make="M1 S2", supply="R2"), "no_book")
    refused(brewing(), 0, brew("R24", make="M1 S2", workbench="R1", supply="R1"), "no_book")


def test_a_book_opens_the_supply_only_for_the_named_type():
    state = position(
        phase="brew",
        witches=[
            witch(tableau=[("R40", False)], workbench="", production={"books": ["toad"]}),
            witch(),
        ],
    )
    refused(state, 0, brew("R40", make="M1 R1", supply="M1 T1"), "no_book")
    refused(state, 0, brew("R40", make="M1 R1", supply="T1"), "wrong_inputs")


def test_brewing_before_resolving_arcana():
    """Section 4.1 step 3: arcana are resolved before production."""
    state = position(
        phase="brew",
        witches=[witch(tableau=[("R24", False)], workbench="R2", triggers=["raven"]), witch()],
    )
    refused(state, 0, brew("R24", make="M1 S2", workbench="R2"), "arcana_first")
    refused(state, 0, {"type": "done"}, "arcana_first")
    state = act(state, 0, {"type": "decline", "arcana": "raven"})
    act(state, 0, brew("R24", make="M1 S2", workbench="R2"))


def test_an_effect_she_did_not_trigger():
    refused(brewing(), 0, {"type": "potion", "ingredient": "toad"}, "no_trigger")
    refused(brewing(), 1, {"type": "book", "ingredient": "toad"}, "no_trigger")
    refused(brewing(), 1, {"type": "decline", "arcana": "book"}, "no_trigger")
    refused(brewing(), 1, {"type": "decline", "arcana": ["potion"]}, "no_trigger")


def test_the_raven_removes_one_or_two_cubes_she_has():
    refused(brewing(), 1, {"type": "raven", "remove": {"toad": 3}}, "bad_action")
    refused(brewing(), 1, {"type": "raven", "remove": {}}, "bad_action")
    refused(brewing(), 1, {"type": "raven", "remove": {"heart": 1}}, "cannot_afford")


def test_acting_after_done():
    state = act(brewing(), 0, {"type": "done"})
    refused(state, 0, SUMMONING, "not_your_turn")
    refused(state, 0, {"type": "done"}, "not_your_turn")


# --- counts and ingredient names -------------------------------------------------------------


@pytest.mark.parametrize("count", [0, -1, -2, True, False, "2", 2.0, None, [2]], ids=repr)
def test_a_count_must_be_a_positive_whole_number(count):
    state = brewing()
    refused(state, 0, {**SUMMONING, "take": {"workbench": {"mushroom": count}}}, "bad_action")
    refused(state, 0, {**SUMMONING, "make": {"mandrake": 1, "spider": count}}, "bad_action")
    refused(state, 1, {"type": "raven", "remove": {"toad": count}}, "bad_action")


@pytest.mark.parametrize(
    "take",
    [[], "workbench", {"pocket": {"mushroom": 2}}, {"workbench": {"mushroom": 2}, "outputs": {}}],
    ids=repr,
)
def test_take_names_its_sources(take):
    refused(brewing(), 0, {**SUMMONING, "take": take}, "bad_action")


@pytest.mark.parametrize("name", ["newt", "Mushroom", "R", "", None, 3, ["toad"]], ids=repr)
def test_an_unknown_ingredient(name):
    state = brewing()
    if isinstance(name, str):  # a JSON object key is always a string
        refused(state, 0, {**SUMMONING, "take": {"workbench": {name: 2}}}, "unknown_ingredient")
        refused(state, 0, {**SUMMONING, "make": {name: 1}}, "unknown_ingredient")
    refused(state, 1, {"type": "potion", "ingredient": name}, "unknown_ingredient")


def test_an_unknown_ingredient_for_the_forced_gain():
    state = position(witches=[witch("P07", hand=["R01"], gain_due=True), witch(hand=["R02"])])
    refused(state, 0, {"type": "gain", "ingredient": "newt"}, "unknown_ingredient")


# --- the end of the game ---------------------------------------------------------------------


def test_acting_after_the_game_is_over():
    state = over()
    refused(state, 0, play("R01"), "game_over")
    refused(state, 1, {"type": "done"}, "game_over")
    refused(state, 0, {"type": "dance"}, "game_over")
    assert GAME.legal_actions(state, 0) == []


# --- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 6, "3", None])
def test_setup_refuses_a_bad_player_count(players):
    with pytest.raises(IllegalAction) as info:
        GAME.setup(players, 1)
    assert info.value.code == "bad_player_count"


@pytest.mark.parametrize(
    "options",
    [
        {"personalities": "all"},
        {"colour": "red"},
        {"flasks_as_converted": "x"},
        {"production": "clockwise"},
        {"flask_of_insight_symmetric": True},  # retired with the erratum of 2026-12
    ],
)
def test_setup_refuses_bad_options(options):
    with pytest.raises(IllegalAction) as info:
        GAME.setup(3, 1, options)
    assert info.value.code == "bad_options"


def test_a_room_from_before_the_erratum_still_sets_up():
    """Rooms opened before 2026-12 stored ``flask_of_insight_symmetric: false`` (the lobby sends
    every option); a rematch must still start, without the retired key."""
    old = {"personalities": "initiates", "flask_of_insight_symmetric": False,
           "spider_summoning_one_way": False}
    state = GAME.setup(3, 1, old)
    assert "flask_of_insight_symmetric" not in state.options
    assert state.options["flasks_as_converted"] is False
    assert state.options["production"] == "simultaneous"
