"""The rules sheet's worked examples (section 10), played through ``game.apply`` only.

Each test lays out the example's position by hand, sends the actions the example describes, and
checks the outcome the sheet expects. Nothing inside a state is touched after ``game.load``.
"""

from __future__ import annotations

from engine.whirling.rules import decision_order
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

DECK = ["R41", "R42", "R43", "R44", "R45", "R46", "R47", "R48", "R49", "R50"]


def revealed(events, seat):
    (reveal,) = of_type(events, "recipes_revealed")
    return next(p for p in reveal["plays"] if p["seat"] == seat)


# --- E1: Arcana (Kiki) -----------------------------------------------------------------------


def kiki_table(arcana=(1, 1, 0), hand=("R01", "R02", "R03", "R04")):
    """Kiki (seat 0) and her neighbour, whose hand holds a Midnight Tome she will not play."""
    return position(
        witches=[
            witch(hand=list(hand), arcana=arcana),
            witch(hand=["R60", "R05", "R06", "R07"]),
        ],
        deck=DECK,
    )


def test_e1_one_icon_of_each_kind_triggers_the_tracks_that_reach_an_even_space():
    """E1 steps 1-3: potion 1, raven 1, book 0; Spore Lore (one icon of each) → 2, 2, 1; potion
    and raven reached 2 and trigger, book at 1 does not."""
    events = []
    state = play_all(kiki_table(), {0: "R01", 1: "R05"}, events)
    kiki = revealed(events, 0)
    assert kiki["arcana_before"] == [1, 1, 0]
    assert kiki["arcana_after"] == [2, 2, 1]
    assert kiki["triggers"] == ["potion", "raven"]
    assert me(state, 0)["arcana"] == {"potion": 2, "raven": 2, "book": 1}
    assert sorted(production(state, 0)["triggers"]) == ["potion", "raven"]


def test_e1_two_book_icons_next_round_pass_the_even_space_and_trigger_book():
    """E1 step 4: next round Kiki reveals Midnight Tome (two book icons): book 1 → 3, passing 2,
    so Book triggers (once) and nothing else does."""
    state = play_all(kiki_table(), {0: "R01", 1: "R05"})
    state = finish_brew(state)
    # Hands went left: Kiki now holds her neighbour's leftovers, Midnight Tome among them.
    assert GAME.view(state, 0)["round"] == 2
    assert "R60" in me(state, 0)["hand"]
    events = []
    state = play_all(state, {0: "R60", 1: me(state, 1)["hand"][0]}, events)
    kiki = revealed(events, 0)
    assert kiki["arcana_before"] == [2, 2, 1]
    assert kiki["arcana_after"] == [2, 2, 3]
    assert kiki["triggers"] == ["book"]
    assert production(state, 0)["triggers"] == ["book"]


def test_e1_unused_triggers_are_lost_at_the_end_of_the_round():
    """Section 5: an effect not used this round is lost; next round's card starts afresh."""
    state = play_all(kiki_table(), {0: "R01", 1: "R05"})
    state = finish_brew(state)  # Kiki declines potion and raven
    events = []
    # R06 (pot1 rav1) is in the hand Kiki received: potion 2 → 3, raven 2 → 3: nothing triggers.
    state = play_all(state, {0: "R06", 1: me(state, 1)["hand"][0]}, events)
    assert revealed(events, 0)["triggers"] == []
    assert production(state, 0)["triggers"] == []


def test_a_token_at_six_stays_at_six_and_triggers_nothing_more():
    """Section 5 / reading 6: past space 6 the card has no spaces; the token stays at 6."""
    events = []
    state = play_all(kiki_table(arcana=(6, 5, 4)), {0: "R01", 1: "R05"}, events)
    kiki = revealed(events, 0)
    assert kiki["arcana_after"] == [6, 6, 5]
    assert kiki["triggers"] == ["raven"]  # raven reached 6; potion was already there
    assert me(state, 0)["arcana"] == {"potion": 6, "raven": 6, "book": 5}


def test_the_lost_arcana_triggers_all_three_effects_at_once():
    """Section 5: one card with several kinds of icons can trigger several effects at once;
    The Lost Arcana (two of each) crosses exactly one even space per track."""
    events = []
    state = play_all(
        kiki_table(arcana=(0, 1, 5), hand=["R57", "R02"]), {0: "R57", 1: "R05"}, events
    )
    kiki = revealed(events, 0)
    assert kiki["arcana_after"] == [2, 3, 6]
    assert kiki["triggers"] == ["book", "potion", "raven"]
    assert sorted(production(state, 0)["triggers"]) == ["book", "potion", "raven"]


# --- E2: Production and chaining (Matilda) ----------------------------------------------------


def matilda_table():
    """Matilda (seat 0) at the start of her production: Elixir of the Moon, Spider Summoning and
    Croaking Lore (1T → 1M) below her board."""
    matilda = witch(
        tableau=[("R40", False), ("R24", False), ("R03", False)],
        workbench="M2 R1 S2 T2",
        production={},
    )
    return position(phase="brew", witches=[matilda, witch(), witch()])


def test_e2_production_with_chaining():
    """E2: R40 (M+T → M + R/S) choosing a mushroom, then R24 (2R → M + 2S) fed by one mushroom
    from the workbench and the chained one; the third recipe is left unused although affordable.
    The cauldron gets 2M + 2S; the workbench loses 1M 1T 1R."""
    state = matilda_table()
    state = act(state, 0, brew("R40", make="M1 R1", workbench="M1 T1"))
    assert production(state, 0)["outputs"] == named("M1 R1")
    state = act(state, 0, brew("R24", make="M1 S2", workbench="R1", outputs="R1"))
    sheet = production(state, 0)
    assert sheet["outputs"] == named("M2 S2")  # the chained mushroom has left its slot
    assert sheet["workbench"] == named("M1 S2 T1")  # lost 1M, 1T, 1R
    assert sheet["used"] == ["R40", "R24"]
    # Croaking Lore (1T → 1M) is still affordable; she leaves it unused.
    assert any(a.get("recipe") == "R03" for a in GAME.legal_actions(state, 0))

    state = act(state, 0, {"type": "done"})
    assert production(state, 0)["cauldron"] == named("M2 S2")
    assert production(state, 0)["outputs"] == named(None)

    events = []
    state = finish_brew(state, events=events)
    (sent,) = [e for e in of_type(events, "cauldron_passed") if e["from"] == 0]
    assert sent["to"] == 2  # her nemesis, on her right
    assert sent["cubes"] == sparse("M2 S2")
    assert me(state, 0)["workbench"] == named("M1 S2 T1")


def test_e2_a_recipe_is_filled_completely_or_not_at_all():
    """Section 11.4: no partial fill — one mushroom cannot pay for Spider Summoning's two."""
    state = matilda_table()
    uses = [a for a in GAME.legal_actions(state, 0) if a.get("recipe") == "R24"]
    assert uses == []  # one mushroom on the workbench, none on the outputs yet


# --- E3: Initiative (Piper and Rebecka) -------------------------------------------------------


def initiative_table(piper_rotates: bool, piper_seat: int = 0):
    """Piper is the Whirlwind, so she may play the one-way card 17 rotated; Rebecka holds 18."""
    piper = witch(personality="P04", hand=["R17", "R01"])
    rebecka = witch(hand=["R18", "R02"])
    seats = [piper, rebecka] if piper_seat == 0 else [rebecka, piper]
    state = position(witches=seats, deck=DECK)
    return play_all(state, {piper_seat: ("R17", piper_rotates), 1 - piper_seat: ("R18", False)})


def test_e3_lowest_initiative_of_the_latest_recipe_decides_first():
    """E3: Piper's latest recipe has initiative 17 (played rotated), Rebecka's 18 → Piper first."""
    state = initiative_table(piper_rotates=True)
    assert me(state, 0)["tableau"] == [{"card": "R17", "rotated": True}]
    assert decision_order(state) == [0, 1]
    assert GAME.view(state, None)["decision_order"] == [0, 1]


def test_e3_order_does_not_follow_seats():
    """E3 with Rebecka in seat 0: Piper (seat 1) still decides first."""
    state = initiative_table(piper_rotates=True, piper_seat=1)
    assert decision_order(state) == [1, 0]


def test_e3_rotation_does_not_change_initiative():
    """Section 6: rotating a card does not change its initiative."""
    rotated = initiative_table(piper_rotates=True, piper_seat=1)
    upright = initiative_table(piper_rotates=False, piper_seat=1)
    assert decision_order(rotated) == decision_order(upright) == [1, 0]


# --- E4: Cauldron pass and overflow (Trixie and Yennefer) -------------------------------------


def test_e4_what_does_not_fit_scores_for_the_sender():
    """E4: after production Trixie has 1H 2M; Yennefer (on Trixie's left, Trixie is her nemesis)
    passes 2S + 4M. Trixie places 2S and 2M (mandrakes full at 4); the last 2M go into
    Yennefer's circle."""
    trixie = witch(workbench="H1 M2 S3", production={})
    yennefer = witch(workbench="R3", production={"cauldron": "M4 S2"})
    state = position(phase="brew", witches=[trixie, yennefer, witch()])
    events = []
    state = finish_brew(state, events=events)
    (passed,) = [e for e in of_type(events, "cauldron_passed") if e["from"] == 1]
    assert passed["to"] == 0
    assert passed["placed"] == sparse("M2 S2")
    assert passed["overflow"] == sparse("M2")
    assert me(state, 0)["workbench"] == named("H1 M4 S5")
    assert me(state, 1)["circle"] == named("M2")
    assert me(state, 0)["circle"] == named(None)


def test_e4_overflow_is_counted_against_the_room_left_after_the_receivers_own_production():
    """Section 4.2 step 2: Trixie starts with 4 mandrakes but spends 2 on Spider Earthquake
    (2M → 3S) before the pass, so 2 of Yennefer's 4 mandrakes fit."""
    trixie = witch(tableau=[("R26", False)], workbench="H1 M4 S3", production={})
    yennefer = witch(workbench="R3", production={"cauldron": "M4 S2"})
    state = position(phase="brew", witches=[trixie, yennefer, witch()])
    state = act(state, 0, brew("R26", make="S3", workbench="M2"))
    events = []
    state = finish_brew(state, events=events)
    passed = {e["from"]: e for e in of_type(events, "cauldron_passed")}
    assert passed[1]["overflow"] == sparse("M2")
    assert passed[0]["to"] == 2 and passed[0]["cubes"] == sparse("S3")
    assert me(state, 0)["workbench"] == named("H1 M4 S5")
    assert me(state, 1)["circle"] == named("M2")


def test_e4_overflow_is_per_type():
    """Section 11.7: free spider slots do not take mandrakes, and one full type does not block
    another."""
    trixie = witch(workbench="H3 M4 S0", production={})
    yennefer = witch(production={"cauldron": "H1 M1 S9"})
    state = position(phase="brew", witches=[trixie, yennefer, witch()])
    state = finish_brew(state)
    assert me(state, 0)["workbench"] == named("H3 M4 S9")
    assert me(state, 1)["circle"] == named("H1 M1")


# --- E5: Simultaneous winners (Sabrina and Willow) and the tie-breaks -------------------------


def end_of_round(witches):
    """Every witch done brewing with an empty cauldron: the next `done` triggers the win check."""
    state = position(phase="brew", witches=witches, deck=DECK)
    events = []
    state = finish_brew(state, events=events)
    return state, events


def test_e5_most_cubes_in_the_circle_breaks_the_tie():
    """E5: after the pass Sabrina has 5 hearts in her circle, Willow 4 mandrakes and 2 spiders
    (the second spider is the overflow of the cauldron she just passed Sabrina). Both qualify;
    Willow has more cubes, so she wins at tie-break step 1."""
    sabrina = witch(circle="H5", workbench="S9", production={})
    willow = witch(circle="M4 S1", production={"cauldron": "S1"})
    state, events = end_of_round([sabrina, willow])
    result = GAME.result(state)
    assert result is not None
    assert result.winners == [1]
    assert result.reason == "most_cubes_in_circle"
    assert result.scores == [5, 6]
    assert result.details["qualified"] == [0, 1]
    assert GAME.to_move(state) == frozenset()
    assert GAME.view(state, None)["phase"] == "over"
    (over,) = of_type(events, "game_over")
    assert over["winners"] == [1]


def test_e5_step_2_most_ingredient_types_in_the_circle():
    """Tie-break step 2: same count, more different types wins."""
    state, _ = end_of_round(
        [witch(circle="H3 M2", production={}), witch(circle="M2 R1 S1 T1", production={})]
    )
    result = GAME.result(state)
    assert (result.winners, result.reason) == ([1], "most_types_in_circle")


def test_e5_step_3_fewest_cubes_on_the_workbench():
    """Tie-break step 3: same count and types, fewer cubes on the workbench wins."""
    state, _ = end_of_round(
        [
            witch(circle="M3 S2", workbench="R4 S4", production={}),
            witch(circle="R3 T2", workbench="R4 S5", production={}),
            witch(circle="H1", production={}),
        ]
    )
    result = GAME.result(state)
    assert (result.winners, result.reason) == ([0], "fewest_cubes_on_workbench")
    assert result.details["qualified"] == [0, 1]


def test_e5_step_4_a_full_tie_is_a_shared_win():
    """Tie-break step 4: still tied, the witches share the win."""
    state, _ = end_of_round(
        [
            witch(circle="M3 S2", workbench="R4 S4", production={}),
            witch(circle="R1", production={}),
            witch(circle="H3 T2", workbench="T8", production={}),
        ]
    )
    result = GAME.result(state)
    assert (result.winners, result.reason) == ([0, 2], "shared_win")


def test_five_cubes_win_with_reason_circle():
    """Section 9: one witch reaching 5 through an overflow wins outright."""
    # Willow (seat 1) sends a toad to Sabrina (seat 0), whose toad track is full.
    state, _ = end_of_round(
        [witch(workbench="T9", production={}), witch(circle="R4", production={"cauldron": "T1"})]
    )
    result = GAME.result(state)
    assert result is not None
    assert (result.winners, result.reason, result.scores) == ([1], "circle", [0, 5])


def test_four_cubes_do_not_end_the_game():
    """Section 9: below 5 play goes on; there is no round limit."""
    state, events = end_of_round(
        [
            witch(circle="R4", hand=["R01"], production={}),
            witch(circle="H2 M2", hand=["R02"], production={}),
        ]
    )
    assert GAME.result(state) is None
    assert of_type(events, "game_over") == []
    view = GAME.view(state, None)
    assert (view["phase"], view["round"]) == ("study", 2)


def test_the_win_check_happens_after_the_pass_not_when_a_cube_is_made():
    """Section 9: the check is made once all cauldrons are unloaded."""
    state = position(
        phase="brew",
        witches=[
            witch(workbench="T9", production={}),
            witch(circle="R4", production={"cauldron": "T1"}),
        ],
    )
    state = act(state, 1, {"type": "done"})
    assert GAME.result(state) is None
    s = step(state, 0, {"type": "done"})
    assert GAME.result(s.state).winners == [1]
