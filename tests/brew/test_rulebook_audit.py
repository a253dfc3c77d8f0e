"""An audit of the engine against the Spanish rulebook, passage by passage, then the sheet.

The rulebook (the team's ``witchs-brew.es.txt``, not in the repository) wins over the sheet
(``docs/rules/witchs-brew.md``), which wins over the code. Each test quotes, paraphrased in
English, the passage it checks; the sheet's [GUESS] readings are checked through
``engine/brew/readings.py``. Positions are built with ``load`` (``tests/brew/positions.py``);
seats are clockwise, seat *s*'s left neighbour is *s + 1*.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine.brew import readings
from engine.brew.cards import CARD_BY_ID, ROLE_IDS, SPELL_IDS, STACK_SIZE
from engine.protocol import Event, public_events
from tests.brew.positions import GAME, Table, alone, position

START = {"red": 1, "white": 1, "green": 1}
README = Path(__file__).parents[2] / "engine" / "brew" / "README.md"


def _keep(state: Any, seat: int, roles: list[str]) -> tuple[Any, list[Event]]:
    events: list[Event] = []
    for role in roles:
        step = GAME.apply(state, seat, {"type": "keep", "role": role})
        state, events = step.state, events + step.events
    step = GAME.apply(state, seat, {"type": "confirm"})
    return step.state, events + step.events


def _public_picture(state: Any, seats: list[int | None]) -> Any:
    """Everything the given seats (and the server, publicly) can see of a state."""
    return ({s: GAME.view(state, s) for s in seats}, sorted(GAME.to_move(state)),
            GAME.stage(state))


# --- "Preparar": setup ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_player_starts_with_one_drop_of_each_colour_and_two_gold(players: int) -> None:
    """Rulebook, setup: each player takes her 12 role cards, 3 ingredients (1 red, 1 green and
    1 white drop) and 2 gold nuggets; they lie openly in her play area."""
    state = GAME.setup(players, 11)
    for seat, witch in enumerate(state.witches):
        assert witch.drops == START and witch.gold == 2 and witch.vials == 0
        assert witch.potions == []
        offered = {a["role"] for a in GAME.legal_actions(state, seat) if a["type"] == "keep"}
        assert offered == set(ROLE_IDS)  # all 12 of her colour
    spectator = GAME.view(state, None)
    assert all(p["drops"] == START and p["gold"] == 2 for p in spectator["players"])


def test_the_potion_stacks_lie_face_up_sorted_lowest_value_on_top() -> None:
    """Rulebook, setup: the 21 cauldrons in three groups of 7 (copper, silver, iron) and the 10
    shelves in two groups of 5 (gold, ingredient), each sorted by value, lowest on top, face
    up."""
    for seed in range(6):
        state = GAME.setup(4, seed)
        for stack, cards in state.stacks.items():
            assert len(cards) == STACK_SIZE[stack]
            vps = [_vp(c) for c in cards]
            assert vps == sorted(vps), stack
        view = GAME.view(state, None)
        assert [s["id"] for s in view["stacks"]] == list(STACK_SIZE)
        for spec in view["stacks"]:  # face up: the top card is seen
            assert spec["top"]["id"] == state.stacks[spec["id"]][0]


def _vp(card: str) -> int:
    return CARD_BY_ID[card].vp


def test_the_spell_books_are_shuffled_and_face_up() -> None:
    """Rulebook, setup: shuffle the 8 spell books and lay them face up."""
    tops = set()
    for seed in range(20):
        state = GAME.setup(3, seed)
        assert sorted(state.spells) == sorted(SPELL_IDS)
        assert GAME.view(state, None)["spell"]["top"] == state.spells[0]
        tops.add(state.spells[0])
    assert len(tops) > 3


def test_the_start_player_begins_the_first_set() -> None:
    """Rulebook: the players choose a start player; the start player begins the set by playing
    one of her five cards. (Sheet 3.6 [GUESS]: drawn from the seeded generator.)"""
    starts = set()
    for seed in range(12):
        state = GAME.setup(4, seed)
        for seat in range(4):
            state, _ = _keep(state, seat, list(ROLE_IDS[:5]))
        assert state.phase == "lead" and GAME.to_move(state) == {state.start_player}
        starts.add(state.start_player)
    assert len(starts) > 1 if readings.RANDOM_START_PLAYER else starts == {0}


# --- "Seleccionar tarjetas de función": 5 of 12, at once and in secret --------------------------


def test_the_five_roles_are_chosen_at_once_and_nobody_else_learns_which() -> None:
    """Rulebook: every player at once selects 5 of her 12 role cards, keeps them in her hand in
    secret and puts the other 7 face down. Two matches in which seat 1 keeps different roles
    look exactly the same to everyone else: views, to_move, stage and public events."""
    base = GAME.setup(4, 5)
    picks = {0: ["witch", "druid", "wizard", "warlock", "cutpurse"],
             2: ["alchemist", "assistant", "witch", "druid", "begging_monk"],
             3: ["wolf_keeper", "snake_hunter", "herb_collector", "alchemist", "witch"]}
    mine = {"a": ["witch", "druid", "wizard", "warlock", "fortune_teller"],
            "b": ["begging_monk", "cutpurse", "herb_collector", "snake_hunter", "alchemist"]}
    others: list[int | None] = [None, 0, 2, 3]
    seen = {}
    for world, roles in mine.items():
        state, pictures, events = base, [], []
        for seat in (0, 1, 2, 3):
            chosen = roles if seat == 1 else picks[seat]
            for role in chosen:
                step = GAME.apply(state, seat, {"type": "keep", "role": role})
                state = step.state
                events += public_events(step.events)
                pictures.append(_public_picture(state, others))
            step = GAME.apply(state, seat, {"type": "confirm"})
            state = step.state
            events += public_events(step.events)
            pictures.append(_public_picture(state, others))
        assert state.phase == "lead"
        seen[world] = (pictures, events)
    assert seen["a"] == seen["b"]


def test_a_hand_is_exactly_five_and_may_be_the_same_five_again_next_set() -> None:
    """Rulebook: each player selects 5 of her 12; the next set she again selects 5 of her full 12
    and may keep the same 5 as before or different ones."""
    state = GAME.setup(3, 2)
    state, _ = _keep(state, 0, ["witch", "druid", "wizard", "warlock", "cutpurse"])
    assert GAME.legal_actions(state, 0) == []  # confirmed
    for seat in (1, 2):
        state, _ = _keep(state, seat, ["witch", "druid", "wizard", "warlock", "cutpurse"])
    while state.phase != "choose":  # everyone declines everything to the end of the set
        (seat,) = GAME.to_move(state)
        legal = GAME.legal_actions(state, seat)
        pick = next(a for a in legal if a["type"] in ("lead", "pass", "decline_favor", "decline"))
        state = GAME.apply(state, seat, pick).state
    assert state.set == 2
    offered = {a["role"] for a in GAME.legal_actions(state, 0) if a["type"] == "keep"}
    assert offered == set(ROLE_IDS)  # all 12 again, the same 5 included
    state, _ = _keep(state, 0, ["witch", "druid", "wizard", "warlock", "cutpurse"])
    assert sorted(state.witches[0].hand) == sorted(["witch", "druid", "wizard", "warlock",
                                                    "cutpurse"])


# --- "Comienza el concurso de pociones": a round -------------------------------------------------


def test_the_others_answer_clockwise_from_the_leader() -> None:
    """Rulebook: the leader plays a card face up and announces it; then the other players, in
    clockwise order, answer."""
    t = Table(position([["witch", "druid"], ["wizard"], ["witch"], ["druid"]], leader=2))
    t.do(2, {"type": "lead", "role": "witch"})
    asked = []
    while t.state.phase == "respond":
        (seat,) = t.to_move
        asked.append(seat)
        legal = t.legal(seat)
        t.do(seat, next(a for a in legal if a["type"] in ("pass", "decline_favor")))
    assert asked == [3, 0, 1]


def test_a_non_holder_says_pass_and_a_holder_must_play_the_card() -> None:
    """Rulebook: a player who does not hold the card only says "pass"; a player who holds it
    must play it face up and then either say "I am the …!" or "So be it!"."""
    t = Table(position([["witch", "druid"], ["witch", "wizard"], ["druid", "wizard"]]))
    t.do(0, {"type": "lead", "role": "witch"})
    assert {a["type"] for a in t.legal(1)} == {"claim", "favor", "decline_favor"}
    t.do(1, {"type": "decline_favor"})
    assert "witch" in t.witch(1).played and "witch" not in t.witch(1).hand  # played all the same
    assert t.legal(2) == [{"type": "pass"}]


def test_a_new_claim_turns_the_previous_claimants_card_down_for_nothing() -> None:
    """Rulebook: "I am the …!" takes the claim from the previous holder, who turns her card face
    down and is done for the round; a later player may take it away again."""
    t = Table(position([["wolf_keeper", "druid"], ["wolf_keeper"], ["wolf_keeper", "witch"]]))
    t.do(0, {"type": "lead", "role": "wolf_keeper"})
    t.do(1, {"type": "claim"})
    t.do(2, {"type": "claim"})
    t.do(2, {"type": "act"})
    assert [w.drops["red"] for w in t.state.witches] == [1, 1, 4]
    assert t.state.leader == 2


def test_so_be_it_takes_the_favor_at_once_and_many_may_take_it() -> None:
    """Rulebook: "So be it!" accepts the claim and performs the favor on the bottom of the card
    (or, if she cannot or will not, she says so and does nothing); several players may take the
    favor, and it cannot be lost to another player."""
    t = Table(position([["warlock", "druid"], ["warlock"], ["warlock"], ["warlock"]]))
    t.do(0, {"type": "lead", "role": "warlock"})
    t.do(1, {"type": "favor"})
    assert t.witch(1).gold == 3  # at once, before the next player answers
    t.do(2, {"type": "decline_favor"})
    t.do(3, {"type": "favor"})
    t.do(0, {"type": "decline"})
    assert [w.gold for w in t.state.witches] == [2, 3, 2, 3]


def test_the_leader_can_never_say_so_be_it_even_alone() -> None:
    """Rulebook: the player who begins a round may not begin with "So be it!"; playing alone,
    she always wins the full action and may not choose the favor."""
    t = alone("warlock", holders=())
    assert t.state.phase == "act"
    assert {a["type"] for a in t.legal(0)} <= {"act", "decline"}


def test_the_last_face_up_card_performs_the_full_action_and_leads_next_even_declining() -> None:
    """Rulebook: after everyone has had her turn, the player whose card is still face up
    performs the full action (she may not pick the favor; she may abstain) and begins the next
    round, even if she chose not to act."""
    t = Table(position([["alchemist", "druid"], ["alchemist", "witch"], ["witch"]]))
    t.do(0, {"type": "lead", "role": "alchemist"})
    t.do(1, {"type": "claim"})
    t.do(2, {"type": "pass"})
    assert t.to_move == {1}
    assert {a["type"] for a in t.legal(1)} == {"act", "decline"}
    t.do(1, {"type": "decline"})
    assert t.state.leader == 1 and t.to_move == {1} and t.state.phase == "lead"


def test_who_is_asked_never_tells_who_holds_the_role() -> None:
    """Rulebook: before her turn in a round a player may not hint whether she holds a role
    (to_move is public, so every other seat with cards must be asked, holder or not). Two
    positions that differ only in whether seat 3 holds the led role look the same to everyone
    else until seat 3 answers."""
    pictures = []
    for seat3 in (["witch", "wizard"], ["druid", "wizard"]):
        t = Table(position([["witch", "alchemist"], ["wizard", "druid"], ["alchemist", "druid"],
                            seat3, ["fortune_teller"]]))
        seq: list[Any] = []
        others: list[int | None] = [None, 0, 1, 2, 4]
        events = public_events(t.do(0, {"type": "lead", "role": "witch"}))
        seq.append(_public_picture(t.state, others))
        for seat in (1, 2):
            assert t.to_move == {seat}
            events += public_events(t.do(seat, {"type": "pass"}))
            seq.append(_public_picture(t.state, others))
        assert t.to_move == {3}  # asked whether she holds it or not
        pictures.append((seq, events))
    assert pictures[0] == pictures[1]


# --- "Más reglas importantes": the lead, empty hands, playing alone ------------------------------


def test_the_lead_passes_left_past_every_empty_hand_round_the_table() -> None:
    """Rulebook: if the player who should begin the new round has no cards left, the lead
    passes to her left neighbour, and so on round the table to a player with cards."""
    t = Table(position([["witch"], [], ["druid"], [], ["wolf_keeper", "wizard"]], leader=4))
    t.do(4, {"type": "lead", "role": "wolf_keeper"})
    t.do(0, {"type": "pass"})
    t.do(2, {"type": "pass"})
    t.do(4, {"type": "act"})
    t.do(4, {"type": "lead", "role": "wizard"})
    t.do(0, {"type": "pass"})
    t.do(2, {"type": "pass"})
    events = t.do(4, {"type": "decline"})
    assert {"type": "lead_passed", "from": 4, "to": 0} in events
    t.do(0, {"type": "lead", "role": "witch"})
    assert t.state.current is not None
    assert t.state.current.answers == [(1, "auto_pass")] and t.to_move == {2}
    t.do(2, {"type": "pass"})
    events = t.do(0, {"type": "decline"})
    assert {"type": "lead_passed", "from": 0, "to": 2} in events  # over seat 1 (empty)


def test_a_lone_player_plays_several_rounds_and_always_gets_the_full_action() -> None:
    """Rulebook: a player may play alone for several turns if she is the only one with cards
    left; playing alone she always wins the full action and cannot choose the favor."""
    t = Table(position([[], [], ["snake_hunter", "herb_collector", "wolf_keeper"]], leader=2))
    for role in ("snake_hunter", "herb_collector", "wolf_keeper"):
        t.do(2, {"type": "lead", "role": role})
        assert t.state.phase == "act" and t.to_move == {2}
        t.do(2, {"type": "act"})
    assert t.witch(2).drops == {"red": 4, "white": 4, "green": 4}
    assert t.state.phase == "choose" and t.state.leader == 2


def test_a_role_played_earlier_in_the_set_cannot_be_played_again() -> None:
    """Rulebook: a player who plays a role card already played this set (she "forgot" to play
    it when it was called) turns it down at once and plays another. Every holder is made to play
    the called role, so no hand still holds a role once it has been led."""
    t = Table(position([["witch", "druid"], ["witch", "wizard"], ["witch", "alchemist"]]))
    t.do(0, {"type": "lead", "role": "witch"})
    t.do(1, {"type": "decline_favor"})
    t.do(2, {"type": "claim"})
    assert all("witch" not in w.hand for w in t.state.witches)
    t.do(2, {"type": "decline"})
    assert {"type": "lead", "role": "witch"} not in t.legal(2)


def test_hand_sizes_and_played_cards_are_public_hands_are_not() -> None:
    """Rulebook: players hold their cards fanned so that the others know how many are left; a
    played card is laid face up. Sheet 4.5: the roles in hand stay hidden until played."""
    t = Table(position([["witch", "druid"], ["witch", "wizard", "alchemist"], ["druid"]]))
    t.do(0, {"type": "lead", "role": "witch"})
    t.do(1, {"type": "favor", "card": "silver-1"})
    for viewer in (None, 0, 2):
        seat1 = GAME.view(t.state, viewer)["players"][1]
        assert seat1["hand"] == "hidden" and seat1["set_aside"] == "hidden"
        assert seat1["hand_count"] == 2 and seat1["played"] == ["witch"]
    assert GAME.view(t.state, 1)["players"][1]["hand"] == ["wizard", "alchemist"]


# --- "El siguiente conjunto": the end of a set ---------------------------------------------------


def test_the_set_ends_when_every_hand_is_played_and_the_last_claimant_leads_the_next() -> None:
    """Rulebook: a set ends when every player has played the 5 cards in her hand; the player who
    won the full action of the last role card of the set begins the new set. Sheet 7 [SOURCE:
    S11]: the top spell book then goes to the bottom."""
    t = Table(position([["witch"], ["witch", "druid"], []], leader=0, spell="optio"))
    t.do(0, {"type": "lead", "role": "witch"})
    t.do(1, {"type": "claim"})
    t.do(1, {"type": "decline"})
    t.do(1, {"type": "lead", "role": "druid"})
    assert t.state.phase == "act"  # seats 0 and 2 have empty hands now: they pass by themselves
    events = t.do(1, {"type": "decline"})
    types = [e["type"] for e in events]
    assert types.index("set_ended") < types.index("spell_book_turned") < types.index(
        "set_started")
    assert t.state.set == 2 and t.state.phase == "choose" and t.state.leader == 1
    assert t.state.spells[-1] == "optio" and t.state.spell_history == ["optio"]
    for seat in range(3):
        t.state, _ = _keep(t.state, seat, list(ROLE_IDS[:5]))
    assert t.to_move == {1}


# --- the 12 roles: full action and favor (sheet 5) -----------------------------------------------

# role, full-action parameters, what seat 0 has afterwards
FULL: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("wolf_keeper", {}, {"drops": START | {"red": 4}}),
    ("snake_hunter", {}, {"drops": START | {"white": 4}}),
    ("herb_collector", {}, {"drops": START | {"green": 4}}),
    ("alchemist", {"drop": "red"}, {"drops": START | {"red": 0}, "gold": 7}),
    ("fortune_teller", {}, {"gold": 1, "vials": 2}),
    ("assistant", {"drops": {"white": 2, "red": 1}},
     {"gold": 1, "drops": {"red": 2, "white": 3, "green": 1}}),
    ("wizard", {"card": "copper-1", "extra": None},
     {"drops": START | {"white": 0}, "potions": ["copper-1"]}),
    ("witch", {"card": "silver-1", "extra": "red"},
     {"drops": {"red": 0, "white": 1, "green": 0}, "potions": ["silver-1"], "vials": 1}),
    ("druid", {"card": "iron-1", "extra": None},
     {"drops": START | {"red": 0}, "potions": ["iron-1"]}),
    ("warlock", {"drops": {"green": 3}}, {"drops": START | {"green": 4}}),  # Copia on top
]


@pytest.mark.parametrize(("role", "params", "after"), FULL, ids=[r for r, _, _ in FULL])
def test_each_roles_full_action(role: str, params: dict[str, Any], after: dict[str, Any]) -> None:
    """Sheet 5: the full action on the top half of each card ([SOURCE: S3] for the green and
    gold roles, [SOURCE: S9] for the Wizard, the Warlock casting the top spell [RULEBOOK])."""
    t = alone(role)
    assert {"type": "act", **params} in t.legal(0)
    t.do(0, {"type": "act", **params})
    witch = t.witch(0).dump()
    base = {"drops": START, "gold": 2, "vials": 0, "potions": []}
    for key, value in (base | after).items():
        assert witch[key] == value, key


# role, favor parameters, what seat 1 has afterwards
FAVOR: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("wolf_keeper", {}, {"drops": START | {"red": 2}}),
    ("snake_hunter", {}, {"drops": START | {"white": 2}}),
    ("herb_collector", {}, {"drops": START | {"green": 2}}),
    ("alchemist", {"drop": "green"}, {"drops": START | {"green": 0}, "gold": 4}),
    ("fortune_teller", {}, {"gold": 1, "vials": 1}),
    ("assistant", {"drops": {"green": 1}}, {"gold": 1, "drops": START | {"green": 2}}),
    ("wizard", {"card": "copper-1"},
     {"drops": START | {"white": 0}, "gold": 2 - readings.FAVOR_SURCHARGE_GOLD,
      "potions": ["copper-1"]}),
    ("warlock", {}, {"gold": 3}),  # the rulebook's example: 1 gold from the supply
    ("cutpurse", {}, {}),  # reading (a): spared the theft
    ("begging_monk", {}, {}),
]


@pytest.mark.parametrize(("role", "params", "after"), FAVOR, ids=[r for r, _, _ in FAVOR])
def test_each_roles_favor(role: str, params: dict[str, Any], after: dict[str, Any]) -> None:
    """Sheet 5: the favor on the bottom half ("So be it!"), performed at once."""
    t = alone(role, holders=(1,))
    assert {"type": "favor", **params} in t.legal(1)
    t.do(1, {"type": "favor", **params})
    witch = t.witch(1).dump()
    base = {"drops": START, "gold": 2, "vials": 0, "potions": []}
    for key, value in (base | after).items():
        assert witch[key] == value, key


def test_the_thieves_take_from_every_other_player_but_the_favor_takers() -> None:
    """Sheet 5 and 15a: the Cutpurse takes gold, the Begging Monk ingredients, from the other
    players, to acquire the gold and the ingredient shelf [CONFIRMED]; amounts and favor
    [GUESS] (readings.CUTPURSE_TAKES_GOLD, BEGGING_MONK_TAKES_DROPS, option thief_favor)."""
    t = Table(position([["cutpurse", "druid"], ["cutpurse"], ["druid"], ["wizard"]]))
    t.do(0, {"type": "lead", "role": "cutpurse"})
    t.do(1, {"type": "favor"})
    t.do(2, {"type": "pass"})
    t.do(3, {"type": "pass"})
    t.do(0, {"type": "act"})
    take = readings.CUTPURSE_TAKES_GOLD
    assert [w.gold for w in t.state.witches] == [2 + 2 * take, 2, 2 - take, 2 - take]
    t = Table(position([["begging_monk", "druid"], ["druid"], ["begging_monk"]],
                       witches={1: {"drops": {"red": 0, "white": 2, "green": 0}}}))
    t.do(0, {"type": "lead", "role": "begging_monk"})
    t.do(1, {"type": "pass"})
    t.do(2, {"type": "favor"})
    t.do(0, {"type": "act"})
    assert t.witch(1).drops["white"] == 2 - readings.BEGGING_MONK_TAKES_DROPS
    assert t.witch(2).drops == START  # spared
    assert t.state.phase == "shelf" and t.legal(0)[-1] == {"type": "no_buy"}


# --- the 8 spells (sheet 7) ----------------------------------------------------------------------

SPELLS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("copia", {"drops": {"red": 1, "white": 1, "green": 1}},
     {"drops": {"red": 2, "white": 2, "green": 2}}),
    ("magus", {"card": "copper-1", "pay": {"green": 1}},  # copper-1 is printed 1 white
     {"drops": START | {"green": 0}, "potions": ["copper-1"]}),
    ("strix", {"card": "silver-1", "pay": {"red": 1}},
     {"drops": START | {"red": 0}, "potions": ["silver-1"]}),
    ("sanatio", {"card": "iron-1", "pay": {"white": 1}},
     {"drops": START | {"white": 0}, "potions": ["iron-1"]}),
    ("optio", {"card": "silver-1"}, {"drops": START | {"green": 0}, "potions": ["silver-1"]}),
    ("herba", {}, {"drops": START | {"green": 0}, "vials": 2}),
    ("lupus", {}, {"drops": START | {"red": 0}, "vials": 2}),
    ("serpens", {}, {"drops": START | {"white": 0}, "vials": 2}),
]


@pytest.mark.parametrize(("spell", "params", "after"), SPELLS, ids=[s for s, _, _ in SPELLS])
def test_each_spell(spell: str, params: dict[str, Any], after: dict[str, Any]) -> None:
    """Rulebook: the Warlock's full action uses the spell on the top spell book; sheet 7 [SOURCE:
    S4]: what each of the 8 does (Magus/Strix/Sanatio any colours, Optio exact printed drops,
    none of them with an extra-drop vial)."""
    t = alone("warlock", spell=spell)
    acts = [a for a in t.legal(0) if a["type"] == "act"]
    assert {"type": "act", **params} in acts
    assert not any("extra" in a for a in acts)
    if spell == "optio":
        assert {a["card"] for a in acts} == {"copper-1", "silver-1", "iron-1"}
    t.do(0, {"type": "act", **params})
    witch = t.witch(0).dump()
    base = {"drops": START, "gold": 2, "vials": 0, "potions": []}
    for key, value in (base | after).items():
        assert witch[key] == value, key


# --- "Fin del juego": ravens, scoring, the tie-break ---------------------------------------------


def _last_round(potions: dict[int, list[str]], vials: dict[int, int] | None = None,
                leftover: dict[int, tuple[dict[str, int], int]] | None = None) -> Table:
    witches: dict[int, dict[str, Any]] = {s: {"potions": p} for s, p in potions.items()}
    for s, v in (vials or {}).items():
        witches.setdefault(s, {})["vials"] = v
    for s, (drops, gold) in (leftover or {}).items():
        witches.setdefault(s, {}).update({"drops": drops, "gold": gold})
    t = Table(position([["wolf_keeper"], [], [], []], witches=witches))
    t.do(0, {"type": "lead", "role": "wolf_keeper"})
    return t


def test_the_ravens_of_all_play_areas_together_end_the_game_at_the_end_of_the_set() -> None:
    """Rulebook: the game ends at the end of a set when the players have gathered at least four
    potion cards with ravens in their play areas (two ravens in each of the five stacks): two
    players with two ravens each end it, though neither has four."""
    t = _last_round({1: ["iron-5", "iron-7"], 2: ["gold_shelf-3", "gold_shelf-5"]})
    t.do(0, {"type": "decline"})
    assert t.state.phase == "over"
    t = _last_round({1: ["iron-5", "iron-7"], 2: ["gold_shelf-3"]})  # 3: play on
    t.do(0, {"type": "decline"})
    assert t.state.phase == "choose" and t.state.set == 2


def test_the_score_is_the_bulbs_plus_one_per_vial_and_ties_go_to_most_drops_and_gold() -> None:
    """Rulebook: each player adds the victory points in the glass bulbs of her potion cards to
    her number of vials; tied for most, the one among them with most ingredients and gold
    nuggets left wins; still tied, they share the victory."""
    t = _last_round({1: ["iron-5", "iron-7"], 2: ["silver-5", "silver-7"]}, vials={1: 2, 2: 2},
                    leftover={1: ({"red": 0, "white": 0, "green": 1}, 1),
                              2: ({"red": 2, "white": 0, "green": 0}, 0)})
    t.do(0, {"type": "decline"})
    result = GAME.result(t.state)
    assert result is not None
    assert result.scores == [0, 12, 12, 0]
    assert result.winners == [1, 2]  # 2 left each (drops and gold together): a shared victory
    t = _last_round({1: ["iron-5", "iron-7"], 2: ["silver-5", "silver-7"]}, vials={1: 2, 2: 2},
                    leftover={1: ({"red": 0, "white": 0, "green": 0}, 3),
                              2: ({"red": 2, "white": 0, "green": 0}, 0)})
    t.do(0, {"type": "decline"})
    result = GAME.result(t.state)
    assert result is not None and result.winners == [1]


# --- "Variante (para 3 o 4 jugadores)" -----------------------------------------------------------


@pytest.mark.parametrize(("players", "turned"), [(3, 2), (4, 1)])
def test_the_variant_turns_up_two_or_one_unused_roles_each_set(players: int, turned: int) -> None:
    """Rulebook, variant: shuffle the 12 roles of an unused colour face down; at the start of
    each set turn up the top 2 (3 players) or 1 (4 players): nobody may choose them for her 5
    this set; the next set 2 (or 1) more; when all 12 are used, shuffle the 12 and go on. Sheet
    11 [GUESS]: each set's block replaces the last (readings.BLOCKS_CUMULATIVE)."""
    state = GAME.setup(players, 4, {"variant_blocked_roles": True})
    first = list(state.blocked)
    assert len(first) == turned
    for seat in range(players):
        assert GAME.legal_actions(state, seat)[0]["type"] == "keep"
        offered = {a["role"] for a in GAME.legal_actions(state, seat)}
        assert offered == set(ROLE_IDS) - set(first)


# --- the sheet's readings ------------------------------------------------------------------------


def _constants() -> list[str]:
    text = Path(readings.__file__).read_text()
    return re.findall(r"^([A-Z][A-Z_]+)\s*(?::|=)", text, re.MULTILINE)


def test_every_reading_is_named_in_the_readme() -> None:
    """Brief: every [GUESS] of the sheet is a named constant in readings.py (or a room option)
    and listed under "Readings we chose" in the README."""
    text = README.read_text()
    section = text.split("## Readings we chose", 1)[1].split("\n## ", 1)[0]
    missing = [name for name in _constants()
               if not re.search(rf"[`.]{name}\b", section)]
    assert not missing, f"readings not listed in the README: {missing}"
    assert "thief_favor" in section and "variant_blocked_roles" in section


def test_cumulative_blocks_would_still_leave_five_roles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sheet 11: were the blocks cumulative, a 3-player game would run out of roles; the reading
    is a constant the code honours, and with it the reshuffle comes early enough."""
    monkeypatch.setattr(readings, "BLOCKS_CUMULATIVE", True)
    state = GAME.setup(3, 4, {"variant_blocked_roles": True})
    seen = []
    for _ in range(8):
        seen.append(list(state.blocked))
        assert len(ROLE_IDS) - len(state.blocked) >= 5
        keep = [r for r in ROLE_IDS if r not in state.blocked][:5]
        for seat in range(3):
            state, _ = _keep(state, seat, keep)
        while state.phase != "choose":
            (seat,) = GAME.to_move(state)
            legal = GAME.legal_actions(state, seat)
            state = GAME.apply(state, seat, next(
                a for a in legal if a["type"] in ("lead", "pass", "decline_favor", "decline")
            )).state
    assert seen[1][:2] == seen[0]  # the second set still blocks the first set's two


def test_the_extra_drop_readings_are_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sheet 15.3/15.4 [GUESS]: the brewers' full action may pay one extra drop of any colour
    for a vial (readings.EXTRA_DROP_VIALS, EXTRA_DROP_COLOURS); their favor may not
    (FAVOR_EXTRA_DROP_VIAL)."""
    t = alone("druid", holders=(1,))
    assert [a for a in t.legal(1) if a["type"] == "favor"] == [{"type": "favor",
                                                                "card": "iron-1"}]
    monkeypatch.setattr(readings, "FAVOR_EXTRA_DROP_VIAL", True)
    extras = {a.get("extra") for a in t.legal(1) if a["type"] == "favor"}
    assert extras == {None, "white", "green"}
    monkeypatch.setattr(readings, "EXTRA_DROP_VIALS", 0)
    t = alone("druid")
    assert [a for a in t.legal(0) if a["type"] == "act"] == [
        {"type": "act", "card": "iron-1", "extra": None}]
    monkeypatch.setattr(readings, "EXTRA_DROP_VIALS", 1)
    monkeypatch.setattr(readings, "EXTRA_DROP_COLOURS", ("white",))
    t = alone("druid")
    assert {a["extra"] for a in t.legal(0) if a["type"] == "act"} == {None, "white"}


def test_a_limited_vial_supply_is_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sheet 2 / 15.7 [GUESS]: vials are unlimited (readings.VIAL_LIMIT None); a number would be
    the shared supply of the box (45 [RULEBOOK]), not a limit per player."""
    assert readings.VIAL_LIMIT is None
    monkeypatch.setattr(readings, "VIAL_LIMIT", 3)
    t = alone("fortune_teller", witches={1: {"vials": 2}})
    t.do(0, {"type": "act"})
    assert t.witch(0).vials == 1  # only one left in the supply


def test_vials_are_hidden_from_the_others_but_their_gains_are_public() -> None:
    """Sheet 4.5 [CONFIRMED: vials may be kept hidden; GUESS: hidden in the views, gains in the
    public log] (readings.HIDE_VIALS): two positions differing only in seat 1's vials look the
    same to the others; no public event carries a running count."""
    views = []
    for vials in (0, 5):
        t = alone("fortune_teller", witches={1: {"vials": vials}})
        views.append({s: GAME.view(t.state, s) for s in (None, 0, 2)})
        events = t.do(0, {"type": "act"})
        for event in public_events(events):
            assert "vials" not in event
            assert event.get("gained", {}).get("vials") in (None, 2)
    assert views[0] == views[1]


def test_a_lone_claimant_with_a_declining_book_still_turns_the_spell() -> None:
    """Sheet 7 [GUESS, readings.SPELL_TURNS_EVERY_SET]: the top spell book goes to the bottom at
    the end of every set, whether or not anyone cast it."""
    t = alone("warlock", spell="magus")
    t.do(0, {"type": "decline"})
    t.do(0, {"type": "lead", "role": "wolf_keeper"})
    t.do(0, {"type": "act"})
    assert t.state.spells[0] != "magus" and t.state.spell_history == ["magus"]
