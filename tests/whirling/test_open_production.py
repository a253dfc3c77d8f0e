"""Room option ``production: "initiative"``: the rulebook's open production, in initiative order.

At a real table production is simultaneous and open; when the order of decisions matters, the
witch whose latest recipe has the lowest initiative decides first (rulebook section 6, example E3:
Piper and Rebecka). With this option the engine plays it that way: one witch brews at a time,
lowest initiative first, each seeing what the earlier ones did. The default stays blind and
simultaneous.
"""

from __future__ import annotations

import pytest

from engine.protocol import PRIVATE, PUBLIC, TO, IllegalAction, events_for, public_events
from tests.viewcheck import assert_no_leaks
from tests.whirling.positions import (
    GAME,
    act,
    brew,
    named,
    of_type,
    play_all,
    position,
    production,
    step,
    witch,
)
from tests.whirling.randomplay import plies

OPEN = {"production": "initiative"}
DECK = ["R41", "R42", "R43", "R44", "R45", "R46", "R47", "R48", "R49", "R50"]
BREWING_STEPS = (
    "brewed", "potion_brewed", "raven_removed", "book_named", "cube_poured", "arcana_declined",
    "cube_claimed",
)


def refused(state, seat, action, code):
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    assert info.value.code == code, info.value
    assert GAME.dump(state) == before


def piper_and_rebecka(options):
    """E3 with Rebecka in seat 0 and Piper in seat 1, so the order is not the seat order. Piper is
    the Whirlwind and plays card 17 (Flask of Shapeshifting) rotated: 1R + 1(R/T) → 1(R/S).
    Rebecka plays card 18 (Flask of Dreams): 1(R/T) → 1T + 1(S/T)."""
    rebecka = witch(hand=["R18", "R02"], workbench="M1 R4 S4 T4")
    piper = witch("P04", hand=["R17", "R01"], workbench="R5 S5 T5")
    state = position(witches=[rebecka, piper], deck=DECK, options=options)
    return play_all(state, {0: ("R18", False), 1: ("R17", True)})


def test_e3_piper_brews_first_in_the_open_and_rebecka_sees_it_before_choosing():
    """E3: Piper's latest recipe has initiative 17 (rotated: no matter), Rebecka's 18. Piper wants
    to see Rebecka's inputs first, Rebecka wants to see Piper's outputs first; initiative settles
    it: Piper decides first, then Rebecka decides seeing what Piper made."""
    state = piper_and_rebecka(OPEN)
    view = GAME.view(state, None)
    assert view["phase"] == "brew"
    assert view["decision_order"] == [1, 0]
    assert view["brewer"] == 1
    # Only Piper owes a decision; Rebecka has no move and may not brew yet.
    assert GAME.to_move(state) == frozenset({1})
    assert GAME.legal_actions(state, 0) == []
    refused(state, 0, brew("R18", make="T1 S1", workbench="T1"), "not_your_turn")
    refused(state, 0, {"type": "done"}, "not_your_turn")
    first_stage = GAME.stage(state)

    # Piper chooses: a mushroom and a toad in, a spider out. Everyone sees it as it happens.
    s = step(state, 1, brew("R17", make="S1", workbench="R1 T1"))
    (openly,) = of_type(s.events, "brewed_openly")
    assert openly == {"type": "brewed_openly", "seat": 1, "recipe": "R17",
                      "take": {"workbench": {"mushroom": 1, "toad": 1}}, "make": {"spider": 1}}
    assert TO not in openly and public_events([openly]) == [openly]
    assert of_type(s.events, "brewed") == []
    state = s.state
    for viewer in (0, None):
        seen = GAME.view(state, viewer)["players"][1]["production"]
        assert seen["used"] == ["R17"]
        assert seen["outputs"] == named("S1")
        assert seen["workbench"] == named("R4 S5 T4")
    assert GAME.stage(state) == first_stage  # still her turn

    stale = {"type": "done"}
    state = act(state, 1, stale)
    # Now Rebecka brews, knowing Piper's cauldron holds one spider for her.
    assert GAME.to_move(state) == frozenset({0})
    assert GAME.view(state, None)["brewer"] == 0
    assert GAME.stage(state) != first_stage
    assert GAME.view(state, 0)["players"][1]["production"]["cauldron"] == named("S1")
    assert GAME.view(state, 0)["players"][1]["done"] is True
    refused(state, 1, stale, "not_your_turn")  # Piper's re-sent "done" is stale
    state = act(state, 0, brew("R18", make="T1 S1", workbench="R1"))
    events = []
    s = step(state, 0, {"type": "done"})
    events += s.events
    state = s.state
    passes = {e["from"]: e for e in of_type(events, "cauldron_passed")}
    assert passes[1]["to"] == 0 and passes[1]["cubes"] == {"spider": 1}
    assert passes[0]["to"] == 1 and passes[0]["cubes"] == {"toad": 1, "spider": 1}
    assert GAME.view(state, None)["round"] == 2


def test_e3_by_default_both_brew_at_once_and_blind():
    state = piper_and_rebecka({})
    assert GAME.to_move(state) == frozenset({0, 1})
    assert GAME.view(state, None)["brewer"] is None
    assert GAME.stage(state) == "1:brew"
    s = step(state, 0, brew("R18", make="T1 S1", workbench="R1"))
    assert of_type(s.events, "brewed_openly") == []
    (secret,) = of_type(s.events, "brewed")
    assert secret[TO] == [0]
    assert GAME.view(s.state, 1)["players"][0]["production"] == "hidden"
    assert GAME.view(s.state, None)["players"][0]["production"] == "hidden"


def test_the_option_is_offered_and_off_by_default():
    schema = GAME.options.model_json_schema()
    assert schema["properties"]["production"]["enum"] == ["simultaneous", "initiative"]
    assert schema["properties"]["production"]["default"] == "simultaneous"
    assert GAME.setup(3, 1).options["production"] == "simultaneous"
    with pytest.raises(IllegalAction) as info:
        GAME.setup(3, 1, {"production": "clockwise"})
    assert info.value.code == "bad_options"


def test_every_open_step_of_production_is_public_with_her_seat():
    """Arcana steps too: potion, raven, book, and declining, as public ``*_openly`` events."""
    kiki = witch(hand=["R01", "R02"], arcana=(1, 1, 1))  # Spore Lore: every token 1 → 2
    other = witch(hand=["R60", "R03"])
    state = play_all(position(witches=[kiki, other], deck=DECK, options=OPEN), {0: "R01", 1: "R03"})
    assert GAME.view(state, None)["decision_order"] == [0, 1]
    events = []
    for action in (
        {"type": "potion", "ingredient": "heart"},
        {"type": "raven", "remove": {"toad": 2}},
        {"type": "decline", "arcana": "book"},
    ):
        s = step(state, 0, action)
        events += s.events
        state = s.state
    kinds = [e["type"] for e in events]
    assert kinds == ["potion_brewed_openly", "raven_removed_openly", "arcana_declined_openly"]
    for event in events:
        assert event["seat"] == 0
        assert GAME.event_types[event["type"]] == PUBLIC
        assert events_for([event], None) == [event] == events_for([event], 1)
    assert production(state, 0)["cauldron"] == GAME.view(state, 1)["players"][0]["production"][
        "cauldron"
    ] == named("H1")


def test_events_and_views_of_random_open_matches():
    """Random matches in open mode: one brewer at a time, the stage changes at every handover,
    brewing steps are only public ``*_openly`` events of the seat who acted, and the mechanical
    view-leak check holds (every production sheet is public, hands and choices stay hidden)."""
    for players in (2, 3, 5):
        for seed in range(4):
            options = {"personalities": "choose" if seed % 2 else "initiates", **OPEN}
            handovers = 0
            for ply in plies(players, 70_000 + seed, options):
                before, after = ply.before, ply.after
                owing = GAME.to_move(before)
                if before.phase == "brew":
                    assert len(owing) == 1
                    assert owing == {GAME.view(before, None)["brewer"]}
                for event in ply.events:
                    kind = event["type"]
                    assert kind not in BREWING_STEPS, event
                    if kind.endswith("_openly"):
                        assert event["seat"] == ply.seat and TO not in event
                    expected = PRIVATE if TO in event else PUBLIC
                    assert GAME.event_types[kind] == expected
                if after.phase == "brew" == before.phase and after.round == before.round:
                    moved_on = GAME.to_move(after) != owing
                    assert (GAME.stage(after) != GAME.stage(before)) == moved_on
                    handovers += moved_on
                views = {seat: GAME.view(after, seat) for seat in range(players)}
                views[None] = GAME.view(after, None)
                assert_no_leaks(views)
                if after.phase == "brew":
                    for seat in range(players):
                        mine = views[seat]["players"][seat]["production"]
                        assert views[None]["players"][seat]["production"] == mine
                        assert mine != "hidden"
            assert handovers > 0
