"""Round flow (sheet section 4, readings 7 and 11.1): who passes what to whom, who must act, and
when the hidden steps resolve."""

from __future__ import annotations

from itertools import permutations

import pytest

from tests.whirling.positions import (
    GAME,
    act,
    finish_brew,
    me,
    named,
    of_type,
    play_all,
    position,
    production,
    step,
    witch,
)

DECK = ["R41", "R42", "R43", "R44", "R45", "R46", "R47", "R48", "R49", "R50"]
HANDS = [["R01", "R02", "R03", "R04"], ["R05", "R06", "R07", "R08"], ["R09", "R10", "R11", "R12"]]


def three_witches(deck=DECK, discard=None):
    return position(witches=[witch(hand=h) for h in HANDS], deck=deck, discard=discard)


def one_round(state, plays, events=None):
    return finish_brew(play_all(state, plays, events), events=events)


# --- passing -----------------------------------------------------------------------------------


def test_hands_pass_left_and_everyone_refills_to_four():
    """Section 4.2 step 4: each witch passes her leftover hand to the player on her left (seat
    s → s+1), then draws back up to her hand limit."""
    state = one_round(three_witches(), {0: "R01", 1: "R05", 2: "R09"})
    for seat in range(3):
        giver = (seat - 1) % 3
        hand = me(state, seat)["hand"]
        assert hand[:3] == HANDS[giver][1:]
        assert len(hand) == 4
    drawn = {me(state, s)["hand"][3] for s in range(3)}
    assert drawn == set(DECK[:3])
    assert GAME.view(state, None)["deck_count"] == len(DECK) - 3


def test_cauldrons_pass_right():
    """Section 4.2 step 2: every cauldron goes to the player on the sender's right (s → s-1)."""
    state = position(
        phase="brew",
        witches=[
            witch(workbench="", production={"cauldron": "H1"}),
            witch(workbench="", production={"cauldron": "M1"}),
            witch(workbench="", production={"cauldron": "R1"}),
        ],
        deck=DECK,
    )
    events = []
    state = finish_brew(state, events=events)
    routes = {e["from"]: (e["to"], e["cubes"]) for e in of_type(events, "cauldron_passed")}
    assert routes == {0: (2, {"heart": 1}), 1: (0, {"mandrake": 1}), 2: (1, {"mushroom": 1})}
    assert me(state, 2)["workbench"] == named("H1")
    assert me(state, 0)["workbench"] == named("M1")
    assert me(state, 1)["workbench"] == named("R1")


def test_two_players_are_each_others_nemesis():
    """Section 4: with two players each sends her cauldron to, and her hand to, the other."""
    state = position(
        witches=[
            witch(hand=["R01", "R02"], workbench=""),
            witch(hand=["R03", "R04"], workbench="", arcana=(1, 0, 0)),
        ],
        deck=DECK,
    )
    state = play_all(state, {0: "R01", 1: "R03"})
    state = act(state, 1, {"type": "potion", "ingredient": "spider"})  # potion 1 → 2
    events = []
    state = finish_brew(state, events=events)
    routes = {e["from"]: e["to"] for e in of_type(events, "cauldron_passed")}
    assert routes == {0: 1, 1: 0}
    assert me(state, 0)["workbench"] == named("S1")
    assert me(state, 0)["hand"][0] == "R04"
    assert me(state, 1)["hand"][0] == "R02"


# --- every witch plays -------------------------------------------------------------------------


def test_every_witch_holding_a_card_owes_a_play():
    """Section 4.1: every witch must play a card each round, even one she cannot use."""
    state = three_witches()
    assert GAME.to_move(state) == frozenset({0, 1, 2})
    for seat in range(3):
        kinds = {a["type"] for a in GAME.legal_actions(state, seat)}
        assert "skip" not in kinds
        assert "play" in kinds


def test_a_card_she_cannot_use_is_still_played():
    """Curse of Shadow needs all five types; she has no heart, but plays it anyway."""
    state = position(witches=[witch(hand=["R59"], workbench="M1 R1"), witch(hand=["R01"])])
    state = play_all(state, {0: "R59", 1: "R01"})
    assert me(state, 0)["tableau"] == [{"card": "R59", "rotated": False}]
    assert not [a for a in GAME.legal_actions(state, 0) if a.get("recipe") == "R59"]


# --- the draw deck runs out (reading 7) ---------------------------------------------------------


def test_an_empty_deck_takes_the_discard_pile_reshuffled():
    discard = ["R51", "R52", "R53"]
    events = []
    state = one_round(
        three_witches(deck=[], discard=discard), {0: "R01", 1: "R05", 2: "R09"}, events
    )
    assert of_type(events, "deck_reshuffled")
    drawn = sorted(me(state, s)["hand"][3] for s in range(3))
    assert drawn == discard
    view = GAME.view(state, None)
    assert (view["deck_count"], view["discard_count"]) == (0, 0)


def test_with_no_deck_and_no_discard_nobody_draws():
    events = []
    state = one_round(three_witches(deck=[]), {0: "R01", 1: "R05", 2: "R09"}, events)
    assert all(len(me(state, s)["hand"]) == 3 for s in range(3))
    assert of_type(events, "deck_empty")
    assert GAME.view(state, None)["round"] == 2


def test_a_witch_with_an_empty_hand_plays_nothing():
    """Reading 7: an empty hand plays no card that round (the must-play rule cannot apply);
    the others still play, and the reveal waits only for them."""
    state = position(witches=[witch(hand=["R01"]), witch(hand=["R02", "R03"])], deck=[])
    state = one_round(state, {0: "R01", 1: "R02"})
    assert me(state, 1)["hand"] == []
    assert me(state, 0)["hand"] == ["R03"]
    assert 1 not in GAME.to_move(state)  # nothing to decide: she is not asked at all
    events = []
    state = play_all(state, {0: "R03"}, events)
    (reveal,) = of_type(events, "recipes_revealed")
    assert [p["seat"] for p in reveal["plays"]] == [0]
    assert me(state, 1)["tableau"] == [{"card": "R02", "rotated": False}]


def test_an_empty_handed_witch_who_is_asked_may_only_skip():
    state = position(witches=[witch(hand=[]), witch(hand=["R02"])], deck=[])
    assert GAME.legal_actions(state, 0) == [{"type": "skip"}]
    state = act(state, 0, {"type": "skip"})
    state = act(state, 1, {"type": "play", "card": "R02", "rotated": False})
    assert GAME.view(state, None)["phase"] == "brew"
    assert me(state, 0)["tableau"] == []


def test_when_nobody_holds_a_card_the_rounds_still_turn():
    state = position(witches=[witch(hand=["R26"]), witch(hand=["R27"])], deck=[])
    state = one_round(state, {0: "R26", 1: "R27"})
    view = GAME.view(state, None)
    assert (view["phase"], view["round"]) == ("brew", 2)
    assert GAME.to_move(state) == frozenset({0, 1})


# --- hidden, simultaneous steps ----------------------------------------------------------------


def test_the_reveal_waits_for_the_last_witch():
    state = three_witches()
    state = act(state, 2, {"type": "play", "card": "R09", "rotated": False})
    state = act(state, 0, {"type": "play", "card": "R01", "rotated": False})
    view = GAME.view(state, 1)
    assert view["phase"] == "study"
    assert [p["committed"] for p in view["players"]] == [True, False, True]
    assert all(p["tableau"] == [] for p in view["players"])
    assert view["players"][0]["played"] == "hidden"
    s = step(state, 1, {"type": "play", "card": "R05", "rotated": False})
    assert of_type(s.events, "recipes_revealed")
    assert GAME.view(s.state, None)["phase"] == "brew"


CHOICES = {
    0: [{"type": "play", "card": "R01", "rotated": False}],
    1: [{"type": "play", "card": "R10", "rotated": True}],
    2: [{"type": "play_random"}, {"type": "confirm_random", "rotated": False, "arcana": "book"}],
}


@pytest.mark.parametrize("order", list(permutations(range(3))), ids=str)
def test_the_reveal_does_not_depend_on_the_order_choices_arrive(order):
    """Section 11.1: choices are simultaneous; the Daredevil's random card too (reading 8)."""

    def run(seats):
        state = position(
            witches=[witch(hand=HANDS[0]), witch(hand=HANDS[2]), witch("P06", hand=HANDS[1])],
            deck=DECK,
        )
        for seat in seats:
            for action in CHOICES[seat]:
                state = act(state, seat, action)
        return GAME.dump(state)

    assert run(order) == run((0, 1, 2))


def test_the_brew_phase_ends_only_when_every_witch_is_done():
    state = position(
        phase="brew",
        witches=[witch(production={"cauldron": "T1"}) for _ in range(3)],
        deck=DECK,
    )
    state = act(state, 0, {"type": "done"})
    state = act(state, 2, {"type": "done"})
    view = GAME.view(state, None)
    assert view["phase"] == "brew" and GAME.to_move(state) == frozenset({1})
    assert all(p["workbench"] == named("M1 R4 S4 T4") for p in view["players"])
    s = step(state, 1, {"type": "done"})
    assert len(of_type(s.events, "cauldron_passed")) == 3
    assert me(s.state, 0)["workbench"] == named("M1 R4 S4 T5")


def test_a_finished_witch_keeps_her_production_hidden_from_the_others():
    """Section 6: nobody sees another's production before the cauldrons pass."""
    state = position(
        phase="brew",
        witches=[witch(tableau=[("R26", False)], workbench="M2", production={}), witch(), witch()],
    )
    state = act(
        state,
        0,
        {
            "type": "brew",
            "recipe": "R26",
            "take": {"workbench": {"mandrake": 2}},
            "make": {"spider": 3},
        },
    )
    state = act(state, 0, {"type": "done"})
    assert production(state, 0)["cauldron"] == named("S3")
    for viewer in (1, 2, None):
        seen = GAME.view(state, viewer)["players"][0]
        assert seen["production"] == "hidden"
        assert seen["workbench"] == named("M2")  # the public board moves only at the pass
        assert seen["done"] is True


def test_a_claim_stays_hidden_until_the_cauldrons_pass():
    trader = witch("P02", production={"outputs": "H1 M1 R1 S1 T1"})
    state = position(phase="brew", witches=[trader, witch(), witch()], deck=DECK)
    state = act(state, 0, {"type": "claim", "ingredient": "toad"})
    assert GAME.view(state, 1)["players"][0]["circle"] == named(None)
    state = finish_brew(state)
    assert GAME.view(state, 1)["players"][0]["circle"] == named("T1")


def test_hidden_production_is_the_same_whatever_order_witches_finish():
    def run(order):
        state = position(
            phase="brew",
            witches=[witch(production={"cauldron": c}) for c in ("M4", "S2", "T9")],
            deck=DECK,
        )
        for seat in order:
            state = act(state, seat, {"type": "done"})
        return GAME.dump(state)

    assert run([0, 1, 2]) == run([2, 0, 1]) == run([1, 2, 0])


def test_a_new_round_starts_with_everyone_to_move():
    events = []
    state = one_round(three_witches(), {0: "R01", 1: "R05", 2: "R09"}, events)
    started = of_type(events, "round_started")
    assert started and started[-1]["round"] == 2
    assert GAME.to_move(state) == frozenset({0, 1, 2})


def test_basic_setup_every_witch_is_an_initiate_with_four_cards():
    """Section 3: basic mode (the default) gives everyone an Initiate, its starting cubes
    (0/1/4/4/4), 4 secret cards and tokens at 0."""
    state = GAME.setup(4, 7)
    view = GAME.view(state, 0)
    assert (view["phase"], view["round"]) == ("study", 1)
    assert view["deck_count"] == 60 - 16
    for seat in range(4):
        mine = me(state, seat)
        assert mine["personality"] == "P01"
        assert mine["workbench"] == named("M1 R4 S4 T4")
        assert mine["circle"] == named(None)
        assert mine["arcana"] == {"potion": 0, "raven": 0, "book": 0}
        assert len(mine["hand"]) == 4
    assert GAME.to_move(state) == frozenset(range(4))
