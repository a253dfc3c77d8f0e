"""The master-level cards 31–50, one test or more per card and one per ruling of the sheet
(``docs/rules/seasons.md`` section 9): a position laid out by hand and loaded with ``load``,
the action that triggers the card (always one of the seat's legal actions), the effect.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from engine.protocol import Action, Event, IllegalAction
from engine.seasons import scoring
from engine.seasons.state import State
from tests.seasons import positions
from tests.viewcheck import assert_no_leaks

GAME = registry.get("seasons")

Energy = dict[str, int]
energy = positions.energy


def seat(crystals: int = 0, energy_: Energy | None = None, gauge: int = 6,
         hand: list[int] | None = None, in_play: list[Any] | None = None) -> dict[str, Any]:
    """``in_play``: card numbers, or dicts ``{"card", "tokens", "used", "fresh"}``."""
    return positions.seat(crystals, energy_, gauge, hand, in_play)


def position(seats: list[dict[str, Any]], *, edition: int = 2, month: int = 2,
             deck: list[int] | None = None, **kw: Any) -> State:
    """A master-level position in the main step of seat 0's turn (or ``turn``'s), in winter of
    year I (``positions.position``). Cards in play get ids 1, 2, … seat by seat."""
    return positions.position(len(seats), seats, month=month,
                              deck=[1, 2, 3, 4, 5, 6] if deck is None else deck,
                              options={"level": "master", "edition": edition}, **kw)


def play(state: State, seat_: int, action: Action) -> tuple[State, list[Event]]:
    """Apply ``action``, which must be one of the seat's legal actions."""
    legal = GAME.legal_actions(state, seat_)
    assert action in legal, f"{action} not in {legal}"
    step = GAME.apply(state, seat_, action)
    return step.state, step.events


def slot(state: State, seat_: int, card: int) -> int:
    return next(e.id for e in state.seats[seat_].in_play if e.card == card)


def cards_in_play(state: State, seat_: int) -> list[int]:
    return [e.card for e in state.seats[seat_].in_play]


def top(state: State) -> dict[str, Any]:
    return state.stack[-1]


def answer_energy(state: State, seat_: int, *names: str) -> State:
    for name in names:
        state, _ = play(state, seat_, {"type": "gain_energy", "energy": name})
    return state


def activations(state: State, seat_: int, card: int) -> list[Action]:
    sid = slot(state, seat_, card)
    return [a for a in GAME.legal_actions(state, seat_)
            if a["type"] == "activate" and a["slot"] == sid]


def end_round(state: State) -> tuple[State, list[Event]]:
    """The last seat of the round ends its turn: end-of-round effects run."""
    assert state.turn is not None and state.turns_taken == state.players - 1
    return play(state, state.turn.seat, {"type": "end_turn"})


# --- 31 Elemental Amulet -----------------------------------------------------------------------


def test_31_each_type_paid_gives_its_effect() -> None:
    s = position([seat(energy_=energy(water=1, earth=1, air=1), hand=[31]), seat()], deck=[12, 3])
    s, _ = play(s, 0, {"type": "summon", "card": 31, "energies": ["water", "earth"]})
    p = s.seats[0]
    assert p.energy == [1, 0, 0, 0]  # one water and one earth paid, the air kept
    assert p.crystals == 5  # earth
    assert p.gauge == 6 and p.hand == []  # no air, no fire: no gauge, no card
    assert top(s)["kind"] == "gain_energy" and top(s)["count"] == 2  # water
    s = answer_energy(s, 0, "fire", "fire")
    assert s.seats[0].energy == [1, 0, 2, 0] and not s.stack


def test_31_all_four_types() -> None:
    s = position([seat(energy_=energy(water=1, earth=1, air=1, fire=1), hand=[31]), seat()],
                 deck=[12, 3])
    s, _ = play(s, 0, {"type": "summon", "card": 31,
                       "energies": ["air", "water", "fire", "earth"]})
    p = s.seats[0]
    assert p.hand == [12] and s.deck == [3]  # fire: the top card, kept
    assert p.crystals == 5 and p.gauge == 7 and p.energy == [0, 0, 0, 0]
    assert top(s)["count"] == 2


def test_31_at_most_one_token_of_each_type() -> None:
    s = position([seat(energy_=energy(water=3, earth=3), hand=[31]), seat()])
    forms = [a for a in GAME.legal_actions(s, 0) if a["type"] == "summon"]
    assert sorted(tuple(a["energies"]) for a in forms) == [
        ("earth",), ("water",), ("water", "earth")]
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, {"type": "summon", "card": 31, "energies": ["water", "water"]})


def test_31_put_into_play_free_gives_all_four() -> None:
    s = position([seat(hand=[31], in_play=[24]), seat()], deck=[12, 3])
    s, _ = play(s, 0, {"type": "activate", "slot": slot(s, 0, 24)})
    s, events = play(s, 0, {"type": "choose_card", "card": 31})
    assert any(e["type"] == "card_put_into_play" and e["card"] == 31 for e in events)
    p = s.seats[0]
    assert p.hand == [12] and p.crystals == 5 and p.gauge == 7
    assert top(s)["kind"] == "gain_energy" and top(s)["count"] == 2


def test_31_hand_of_fortune_one_type_gained_without_paying_it() -> None:
    s = position([seat(energy_=energy(air=1), hand=[31], in_play=[20]), seat()], deck=[12])
    action = {"type": "summon", "card": 31, "energies": ["air", "fire"], "reduce": ["fire"]}
    s, _ = play(s, 0, action)
    p = s.seats[0]
    assert p.energy == [0, 0, 0, 0]  # only the air token was paid
    assert p.gauge == 7 and p.hand == [12]  # air and fire both count


# --- 32 Tree of Light --------------------------------------------------------------------------


def test_32_pay_3_crystals_for_1_energy() -> None:
    s = position([seat(crystals=4, in_play=[32]), seat()])
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "use": "crystals"})
    assert s.seats[0].crystals == 1
    s = answer_energy(s, 0, "earth")
    assert s.seats[0].energy == [0, 0, 0, 1]


def test_32_discard_1_energy_to_transmute_this_turn() -> None:
    s = position([seat(energy_=energy(earth=2), in_play=[32]), seat()])
    assert not any(a["type"] == "transmute" for a in GAME.legal_actions(s, 0))
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "use": "energy", "energy": "earth"})
    assert s.seats[0].energy == [0, 0, 0, 1]
    assert s.turn is not None and s.turn.may_transmute
    s, _ = play(s, 0, {"type": "transmute", "energy": "earth", "count": 1})
    assert s.seats[0].crystals == 3  # winter: earth is worth 3


def test_32_one_effect_per_activation_and_once_per_turn() -> None:
    s = position([seat(crystals=9, energy_=energy(air=1), in_play=[32]), seat()])
    forms = activations(s, 0, 32)
    assert all(set(a) - {"type", "slot"} in ({"use"}, {"use", "energy"}) for a in forms)
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "use": "crystals"})
    s = answer_energy(s, 0, "fire")
    assert activations(s, 0, 32) == []
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, {"type": "activate", "slot": 1, "use": "crystals"})
    assert err.value.code == "already_used"


def test_32_cannot_pay_3_crystals_with_2() -> None:
    s = position([seat(crystals=2, in_play=[32]), seat()])
    assert activations(s, 0, 32) == []


# --- 33 Arcano Leech ---------------------------------------------------------------------------


def test_33_opponent_pays_1_crystal_before_summoning_from_hand() -> None:
    s = position([seat(crystals=1, energy_=energy(earth=2), hand=[3]), seat(in_play=[33])])
    s, events = play(s, 0, {"type": "summon", "card": 3})
    assert s.seats[1].crystals == 1
    assert s.seats[0].crystals == 9  # paid 1 first, then Amulet of Earth's +9
    kinds = [e["type"] for e in events]
    assert kinds.index("crystals_given") < kinds.index("card_summoned")


def test_33_owner_summons_freely() -> None:
    s = position([seat(energy_=energy(earth=2), hand=[3], in_play=[33]), seat()])
    s, _ = play(s, 0, {"type": "summon", "card": 3})
    assert s.seats[0].crystals == 9


def test_33_opponent_with_0_crystals_cannot_summon_from_hand() -> None:
    s = position([seat(crystals=0, energy_=energy(earth=2), hand=[3]), seat(in_play=[33])])
    assert not any(a["type"] == "summon" for a in GAME.legal_actions(s, 0))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, {"type": "summon", "card": 3})
    assert err.value.code == "cannot_afford"


def test_33_cards_put_into_play_free_are_exempt() -> None:
    s = position([seat(crystals=0, hand=[3], in_play=[24]), seat(in_play=[33])])
    s, _ = play(s, 0, {"type": "activate", "slot": slot(s, 0, 24)})
    s, _ = play(s, 0, {"type": "choose_card", "card": 3})
    assert cards_in_play(s, 0) == [3]
    assert s.seats[1].crystals == 0 and s.seats[0].crystals == 9


def test_33_two_leeches_two_crystals() -> None:
    s = position([seat(crystals=2, energy_=energy(earth=2), hand=[3]),
                  seat(in_play=[33]), seat(in_play=[33])])
    s, _ = play(s, 0, {"type": "summon", "card": 3})
    assert [p.crystals for p in s.seats] == [9, 1, 1]


# --- 34 Crystal Orb ----------------------------------------------------------------------------


def test_34_look_and_put_back() -> None:
    s = position([seat(in_play=[34]), seat()], deck=[29, 3, 5])
    s, events = play(s, 0, {"type": "activate", "slot": 1, "use": "look"})
    assert top(s)["kind"] == "crystal_orb_look" and top(s)["secret"] == {"cards": [29]}
    assert any(e["type"] == "cards_seen" and e["@to"] == [0] for e in events)
    # seen by the owner only
    views = {v: GAME.view(s, v) for v in (0, 1, None)}
    assert views[1]["pending"][-1]["secret"] == "hidden"
    assert views[0]["pending"][-1]["secret"] == {"cards": [29]}
    assert_no_leaks(views)
    # no tokens: putting it back is the only answer
    assert GAME.legal_actions(s, 0) == [{"type": "pass"}]
    s, _ = play(s, 0, {"type": "pass"})
    assert s.deck == [29, 3, 5] and cards_in_play(s, 0) == [34]


def test_34_discard_any_4_energies_to_put_it_into_play_free() -> None:
    s = position([seat(energy_=energy(fire=3), in_play=[34, {"card": 4,
                                                             "tokens": energy(air=2)}, 6]),
                  seat(in_play=[33])], deck=[3, 5])
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "use": "look"})
    s, _ = play(s, 0, {"type": "choose_card", "card": 3})
    for answer in ({"type": "discard_energy", "energy": "fire"},
                   {"type": "discard_energy", "energy": "air", "amulet": True},
                   {"type": "discard_energy", "energy": "fire"}):
        assert top(s)["kind"] == "crystal_orb_pay"
        s, _ = play(s, 0, answer)
    s, events = play(s, 0, {"type": "discard_energy", "energy": "fire"})
    p = s.seats[0]
    assert cards_in_play(s, 0) == [34, 4, 6, 3] and s.deck == [5]
    assert p.energy == [0, 0, 0, 0] and p.in_play[1].tokens == [1, 0, 0, 0]
    # its own on-entry effect resolves; free-summon rules: no Staff of Spring, no Leech toll
    assert p.crystals == 9 and s.seats[1].crystals == 0
    assert any(e["type"] == "card_put_into_play" for e in events)
    assert not any(e["type"] == "card_summoned" for e in events)


def test_34_needs_a_free_gauge_slot() -> None:
    s = position([seat(gauge=1, energy_=energy(fire=4), in_play=[34]), seat()], deck=[3])
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "use": "look"})
    assert GAME.legal_actions(s, 0) == [{"type": "pass"}]


def test_34_pay_3_crystals_to_discard_the_top_card() -> None:
    s = position([seat(crystals=3, in_play=[34]), seat()], deck=[29, 3])
    s, events = play(s, 0, {"type": "activate", "slot": 1, "use": "discard_top"})
    assert s.seats[0].crystals == 0 and s.deck == [3] and s.discard == [29]
    assert not s.stack
    assert not any(e.get("card") == 29 for e in events)  # discarded unseen


def test_34_discard_top_needs_3_crystals() -> None:
    s = position([seat(crystals=2, in_play=[34]), seat()], deck=[29])
    assert activations(s, 0, 34) == [{"type": "activate", "slot": 1, "use": "look"}]


# --- 35 Glutton Cauldron -----------------------------------------------------------------------


def cauldron(tokens: Energy) -> dict[str, Any]:
    return {"card": 35, "tokens": tokens}


def test_35_moves_1_token_from_the_reserve_onto_the_card() -> None:
    s = position([seat(energy_=energy(water=7), in_play=[cauldron(energy())]), seat()])
    assert activations(s, 0, 35) == [{"type": "activate", "slot": 1, "energy": "water"}]
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "energy": "water"})
    p = s.seats[0]
    assert p.energy == [0, 6, 0, 0] and p.in_play[0].tokens == [0, 1, 0, 0]


def test_35_tokens_on_it_are_not_part_of_the_reserve() -> None:
    # 7 in the reserve and 5 on the cauldron: no overflow; #13 counts only the reserve
    s = position([seat(energy_=energy(air=1), in_play=[cauldron(energy(fire=5)), 13]),
                  seat()], turn=1, turns_taken=1)
    s, _ = end_round(s)
    assert s.seats[0].crystals == 0  # Wondrous Chest: 1 token in the reserve, not 6
    s = position([seat(energy_=energy(air=6), in_play=[cauldron(energy(fire=5))]), seat()])
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "energy": "air"})
    assert not s.stack and s.seats[0].energy == [5, 0, 0, 0]


def test_35_at_7_tokens_sacrificed_tokens_to_reserve_15_crystals_then_discard_to_limit() -> None:
    s = position([seat(energy_=energy(earth=6), in_play=[cauldron(energy(fire=3, water=3)), 8]),
                  seat()])
    s, events = play(s, 0, {"type": "activate", "slot": 1, "energy": "earth"})
    p = s.seats[0]
    assert cards_in_play(s, 0) == [8] and 35 in s.discard
    assert p.crystals == 15  # Purse of Io does not apply
    assert p.energy == [0, 3, 3, 6]  # 5 earth left + the 7 from the cauldron: over 7
    assert top(s)["kind"] == "discard_energy" and top(s)["seat"] == 0
    for _ in range(5):
        s, _ = play(s, 0, {"type": "discard_energy", "energy": "earth"})
    assert not s.stack and sum(s.seats[0].energy) == 7
    assert [e["type"] for e in events].count("card_sacrificed") == 1


def test_35_tokens_lost_when_it_leaves_play_otherwise() -> None:
    s = position([seat(energy_=energy(air=1), in_play=[37, cauldron(energy(fire=6)), 3]),
                  seat()])
    s, _ = play(s, 0, {"type": "activate", "slot": 1})
    for card in (35, 3, 37):
        s, _ = play(s, 0, {"type": "sacrifice", "slot": slot(s, 0, card)})
    assert s.seats[0].energy == [1, 0, 0, 0]  # the 6 fire are gone
    assert s.seats[0].crystals == 15  # only the Skull's 15


# --- 36 Vampiric Crown -------------------------------------------------------------------------


def test_36_draw_a_card_keep_it_gain_its_prestige_in_energy() -> None:
    s = position([seat(energy_=energy(air=1, water=1), hand=[36]), seat()], deck=[3, 4])
    s, _ = play(s, 0, {"type": "summon", "card": 36})
    assert {"type": "choose", "way": "draw"} in GAME.legal_actions(s, 0)
    s, events = play(s, 0, {"type": "choose", "way": "draw"})
    revealed = [e for e in events if e["type"] == "card_revealed"]
    assert revealed and revealed[0]["card"] == 3 and "@to" not in revealed[0]  # shown to all
    assert s.seats[0].hand == [3]  # must keep it
    assert top(s)["kind"] == "gain_energy" and top(s)["count"] == 6  # Amulet of Earth: 6 PP


def test_36_discard_a_card_from_hand() -> None:
    s = position([seat(energy_=energy(air=1, water=1), hand=[22, 36, 42]), seat()])
    s, _ = play(s, 0, {"type": "summon", "card": 36})
    s, events = play(s, 0, {"type": "discard_card", "card": 22})
    assert s.seats[0].hand == [42] and s.discard == [22]
    assert any(e["type"] == "card_revealed" and e["card"] == 22 for e in events)
    assert top(s)["count"] == 30


@pytest.mark.parametrize("card", [29, 42])  # 0 and -10 prestige
def test_36_prestige_0_or_less_gives_nothing(card: int) -> None:
    s = position([seat(energy_=energy(air=1, water=1), hand=[36, card]), seat()])
    s, _ = play(s, 0, {"type": "summon", "card": 36})
    s, _ = play(s, 0, {"type": "discard_card", "card": card})
    assert not s.stack and s.seats[0].energy == [0, 0, 0, 0]


# --- 37 Dragon Skull ---------------------------------------------------------------------------


def test_37_sacrifice_3_cards_for_15_crystals_purse_of_io_not_applying() -> None:
    s = position([seat(in_play=[37, 8, 22, 3]), seat()])
    s, _ = play(s, 0, {"type": "activate", "slot": 1})
    assert top(s)["kind"] == "dragon_skull"
    for card in (22, 3):
        s, _ = play(s, 0, {"type": "sacrifice", "slot": slot(s, 0, card)})
        assert s.seats[0].crystals == 0
    s, _ = play(s, 0, {"type": "sacrifice", "slot": slot(s, 0, 8)})
    assert s.seats[0].crystals == 15 and cards_in_play(s, 0) == [37]
    assert sorted(s.discard) == [3, 8, 22]


def test_37_needs_3_cards_in_play() -> None:
    s = position([seat(in_play=[37, 3]), seat(in_play=[1, 2, 4])])
    assert activations(s, 0, 37) == []


def test_37_may_sacrifice_itself() -> None:  # open question 6, our reading
    s = position([seat(in_play=[37, 3, 4]), seat()])
    s, _ = play(s, 0, {"type": "activate", "slot": 1})
    assert {"type": "sacrifice", "slot": 1} in GAME.legal_actions(s, 0)
    for card in (37, 3, 4):
        s, _ = play(s, 0, {"type": "sacrifice", "slot": slot(s, 0, card)})
    assert s.seats[0].crystals == 15 and cards_in_play(s, 0) == []


# --- 38 Demon of Argos -------------------------------------------------------------------------


def test_38_opponents_lose_1_gauge_and_draw_a_card_they_keep() -> None:
    s = position([seat(energy_=energy(air=1, water=1, fire=1, earth=1), hand=[38]),
                  seat(gauge=2, in_play=[3, 4]), seat(gauge=0)], deck=[12, 13, 14])
    s, _ = play(s, 0, {"type": "summon", "card": 38})
    assert [p.gauge for p in s.seats] == [6, 1, 0]  # never below 0
    assert s.seats[1].hand == [12] and s.seats[2].hand == [13]  # from the left, kept
    assert not s.stack
    assert cards_in_play(s, 1) == [3, 4]  # over the gauge: nothing sacrificed
    assert s.seats[0].hand == []


def test_38_below_the_gauge_summon_nothing_until_it_is_above_the_cards_again() -> None:
    from engine.seasons.summoning import summon_options

    s = position([seat(energy_=energy(air=1, water=1, fire=1, earth=1), hand=[38]),
                  seat(gauge=3, energy_=energy(earth=4), hand=[3], in_play=[1, 4])])
    assert summon_options(s, 1, 3)  # 2 cards in play, gauge 3: a free slot
    s, _ = play(s, 0, {"type": "summon", "card": 38})
    assert s.seats[1].gauge == 2 and summon_options(s, 1, 3) == []  # 2 cards, gauge 2


# --- 39 Titus Deepgaze -------------------------------------------------------------------------


def test_39_every_opponent_gives_1_crystal_at_the_end_of_the_round() -> None:
    s = position([seat(in_play=[39]), seat(crystals=5), seat(crystals=1)], turn=2)
    s, _ = end_round(s)
    assert [p.crystals for p in s.seats] == [2, 4, 0]
    assert cards_in_play(s, 0) == [39]


def test_39_an_opponent_who_cannot_pay_collect_from_the_others_then_sacrifice_titus() -> None:
    s = position([seat(in_play=[39]), seat(crystals=0), seat(crystals=3)], turn=2)
    s, events = end_round(s)
    assert [p.crystals for p in s.seats] == [1, 0, 2]
    assert cards_in_play(s, 0) == [] and 39 in s.discard
    kinds = [e["type"] for e in events]
    assert kinds.index("crystals_given") < kinds.index("card_sacrificed")


# --- 40 Air Elemental --------------------------------------------------------------------------


def test_40_every_token_in_each_opponent_reserve_becomes_air() -> None:
    s = position([seat(energy_=energy(air=3, earth=2), hand=[40]),
                  seat(energy_=energy(water=2, fire=1, earth=5),
                       in_play=[18, {"card": 4, "tokens": energy(fire=2)},
                                cauldron(energy(earth=3))]),
                  seat(energy_=energy())])
    s, _ = play(s, 0, {"type": "summon", "card": 40})
    assert s.seats[0].energy == [0, 0, 0, 2]  # own reserve unchanged (after paying 3 air)
    # all 8 (the Grimoire's tokens are reserve tokens) become air; #4 and #35 keep theirs
    assert s.seats[1].energy == [8, 0, 0, 0]
    assert [e.tokens for e in s.seats[1].in_play[1:]] == [[0, 0, 2, 0], [0, 0, 0, 3]]
    assert s.seats[2].energy == [0, 0, 0, 0]


# --- 41 Thieving Fairies -----------------------------------------------------------------------


def test_41_activating_opponent_gives_1_and_owner_takes_1_from_the_supply() -> None:
    s = position([seat(crystals=4, in_play=[43, 41]), seat(in_play=[41])])
    s, _ = play(s, 0, {"type": "activate", "slot": 1})
    # Idol: +1 per familiar (1); Fairies: −1 to seat 1, and seat 1 takes 1 more
    assert [p.crystals for p in s.seats] == [4, 2]


def test_41_opponent_with_0_crystals_may_still_activate_supply_crystal_still_given() -> None:
    s = position([seat(crystals=0, in_play=[43, 49]), seat(in_play=[41])])
    assert activations(s, 0, 43)
    s, _ = play(s, 0, {"type": "activate", "slot": 1})
    assert [p.crystals for p in s.seats] == [1, 1]


def test_41_each_opponents_fairies_take_their_crystal() -> None:
    s = position([seat(crystals=5, in_play=[43, 49]), seat(in_play=[41]),
                  seat(in_play=[41, 41])])
    s, _ = play(s, 0, {"type": "activate", "slot": 1})
    assert [p.crystals for p in s.seats] == [5 - 3 + 1, 2, 4]  # copies add up (ruling 16)


def test_41_own_activations_do_not_trigger_it() -> None:
    s = position([seat(crystals=0, in_play=[43, 41]), seat(crystals=3)])
    s, _ = play(s, 0, {"type": "activate", "slot": 1})
    assert [p.crystals for p in s.seats] == [1, 3]


def test_41_a_crystal_cost_must_be_payable_after_the_fairies_crystal() -> None:
    # reading: the Fairies take their crystal before the activation's cost (as BGA)
    s = position([seat(crystals=3, in_play=[32]), seat(in_play=[41])])
    assert {"type": "activate", "slot": 1, "use": "crystals"} not in GAME.legal_actions(s, 0)
    s = position([seat(crystals=4, in_play=[32]), seat(in_play=[41])])
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "use": "crystals"})
    assert [p.crystals for p in s.seats] == [0, 2]


# --- 42 Cursed Treatise of Arus ----------------------------------------------------------------


def test_42_entry_2_energies_10_crystals_1_gauge() -> None:
    s = position([seat(energy_=energy(water=1), hand=[42]), seat()])
    s, _ = play(s, 0, {"type": "summon", "card": 42})
    assert s.seats[0].crystals == 10 and s.seats[0].gauge == 7
    s = answer_energy(s, 0, "fire", "earth")
    assert s.seats[0].energy == [0, 0, 1, 1]


def test_42_sacrificed_discards_the_reserve_grimoire_tokens_too_not_4_or_35() -> None:
    s = position([seat(energy_=energy(air=4, fire=5), in_play=[
        37, 42, 18, {"card": 4, "tokens": energy(water=2)}, cauldron(energy(earth=1))]), seat()])
    s, _ = play(s, 0, {"type": "activate", "slot": 1})
    s, events = play(s, 0, {"type": "sacrifice", "slot": 2})
    p = s.seats[0]
    assert p.energy == [0, 0, 0, 0]
    assert cards_in_play(s, 0) == [37, 18, 4, 35]
    assert p.in_play[2].tokens == [0, 2, 0, 0] and p.in_play[3].tokens == [0, 0, 0, 1]
    assert any(e["type"] == "reserve_changed" for e in events)


def test_42_returned_to_hand_by_17_is_not_sacrificed() -> None:
    s = position([seat(energy_=energy(air=2, water=1, fire=3), hand=[17], in_play=[42]),
                  seat()])
    s, _ = play(s, 0, {"type": "summon", "card": 17})
    s, _ = play(s, 0, {"type": "return_card", "slot": 1})
    assert s.seats[0].hand == [42] and s.seats[0].energy == [1, 0, 3, 0]


# --- 43 Idol of the Familiar -------------------------------------------------------------------


def test_43_second_edition_entry_10_crystals() -> None:
    s = position([seat(energy_=energy(air=1, water=1, fire=1, earth=1), hand=[43]), seat()])
    s, _ = play(s, 0, {"type": "summon", "card": 43})
    assert s.seats[0].crystals == 10


def test_43_first_edition_activation_only() -> None:
    s = position([seat(energy_=energy(air=1, water=1, fire=1, earth=1), hand=[43]), seat()],
                 edition=1)
    s, _ = play(s, 0, {"type": "summon", "card": 43})
    assert s.seats[0].crystals == 0


def test_43_activation_1_crystal_per_familiar_in_play() -> None:
    s = position([seat(in_play=[43, 49, 50, 3]), seat(in_play=[41, 39])])
    s, _ = play(s, 0, {"type": "activate", "slot": 1})
    # two familiars (not seat 1's); the Fairies found seat 0 at 0 crystals: supply crystal only
    assert [p.crystals for p in s.seats] == [2, 1]
    s = position([seat(in_play=[43, 3]), seat(in_play=[49])])
    assert activations(s, 0, 43) == []  # no familiar: nothing to gain (reading: not offered)


# --- 44 Necrotic Kriss -------------------------------------------------------------------------


def test_44_discard_a_familiar_from_hand_for_4_energies() -> None:
    s = position([seat(hand=[3, 38, 49], in_play=[44, 29]), seat()])
    forms = activations(s, 0, 44)
    assert forms == [{"type": "activate", "slot": 1, "discard": 38},
                     {"type": "activate", "slot": 1, "discard": 49}]  # no item, none in play
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "discard": 38})
    assert s.seats[0].hand == [3, 49] and s.discard == [38]
    assert top(s)["kind"] == "gain_energy" and top(s)["count"] == 4


def test_44_sacrifice_a_familiar_in_play_for_4_energies() -> None:
    s = position([seat(in_play=[44, 49, 3]), seat()])
    assert activations(s, 0, 44) == [{"type": "activate", "slot": 1, "sacrifice": 2}]
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "sacrifice": 2})
    assert cards_in_play(s, 0) == [44, 3] and s.discard == [49]
    s = answer_energy(s, 0, "air", "air", "fire", "earth")
    assert s.seats[0].energy == [2, 0, 1, 1]


# --- 45 Lantern of Xidit, 46 Sealed Chest of Urm -----------------------------------------------


def final_crystals(state: State) -> list[int]:
    result = scoring.final_result(state, [])
    return [parts["crystals"] for parts in result["details"]["parts"]]


def test_45_3_crystals_per_reserve_token_at_the_end() -> None:
    s = position([seat(crystals=2, energy_=energy(air=2, earth=3), in_play=[
        45, 18, {"card": 4, "tokens": energy(fire=3)}, cauldron(energy(water=2))]), seat()])
    assert final_crystals(s) == [2 + 15, 0]  # tokens on #18 are the reserve's; not #4, #35


def test_46_20_crystals_without_a_familiar() -> None:
    s = position([seat(in_play=[46, 3]), seat(in_play=[46, 49])])
    assert final_crystals(s) == [20, 0]


# --- 47 Mirror of the Seasons ------------------------------------------------------------------


def test_47_pay_x_crystals_to_turn_x_identical_tokens_into_another_type() -> None:
    s = position([seat(crystals=2, energy_=energy(water=3, air=1), in_play=[47]), seat()])
    forms = activations(s, 0, 47)
    assert len(forms) == 6 and all(a["energy"] != a["into"] for a in forms)
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "energy": "water", "into": "earth"})
    assert GAME.legal_actions(s, 0) == [{"type": "choose", "count": 1},
                                        {"type": "choose", "count": 2}]  # X ≤ crystals
    s, _ = play(s, 0, {"type": "choose", "count": 2})
    assert s.seats[0].crystals == 0 and s.seats[0].energy == [1, 1, 0, 2]


def test_47_x_is_at_least_1() -> None:
    s = position([seat(crystals=0, energy_=energy(water=3), in_play=[47]), seat()])
    assert activations(s, 0, 47) == []
    s = position([seat(crystals=5, energy_=energy(water=1), in_play=[47]), seat()])
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "energy": "water", "into": "air"})
    assert GAME.legal_actions(s, 0) == [{"type": "choose", "count": 1}]
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, {"type": "choose", "count": 0})


def test_47_only_reserve_tokens() -> None:
    s = position([seat(crystals=5, in_play=[47, {"card": 4, "tokens": energy(fire=3)}]),
                  seat()])
    assert activations(s, 0, 47) == []


# --- 48 Pendant of Ragnor ----------------------------------------------------------------------


def test_48_1_energy_per_other_magic_item() -> None:
    s = position([seat(energy_=energy(air=1, water=1, fire=1), hand=[48],
                       in_play=[3, 22, 49]), seat(in_play=[4])])
    s, _ = play(s, 0, {"type": "summon", "card": 48})
    assert top(s)["kind"] == "gain_energy" and top(s)["count"] == 2  # not the familiar


def test_48_no_other_item_nothing() -> None:
    s = position([seat(energy_=energy(air=1, water=1, fire=1), hand=[48], in_play=[49]),
                  seat()])
    s, _ = play(s, 0, {"type": "summon", "card": 48})
    assert not s.stack and s.seats[0].energy == [0, 0, 0, 0]


# --- 49 Sid Nightshade -------------------------------------------------------------------------


def test_49_alone_with_most_each_opponent_gives_5_or_all_it_has() -> None:
    s = position([seat(crystals=10, energy_=energy(earth=2), hand=[49]), seat(crystals=9),
                  seat(crystals=3)])
    s, _ = play(s, 0, {"type": "summon", "card": 49})  # 3 players: 2 earth
    assert [p.crystals for p in s.seats] == [18, 4, 0]


def test_49_a_tie_for_most_gives_nothing() -> None:
    s = position([seat(crystals=10, energy_=energy(earth=2), hand=[49]), seat(crystals=10),
                  seat(crystals=3)])
    s, _ = play(s, 0, {"type": "summon", "card": 49})
    assert [p.crystals for p in s.seats] == [10, 10, 3]


# --- 50 Damned Soul of Onys --------------------------------------------------------------------


def test_50_entry_10_crystals_and_1_water() -> None:
    s = position([seat(energy_=energy(water=1), hand=[50]), seat()])
    s, _ = play(s, 0, {"type": "summon", "card": 50})
    assert s.seats[0].crystals == 10 and s.seats[0].energy == [0, 1, 0, 0]


def test_50_holder_loses_3_crystals_at_each_end_of_round() -> None:
    s = position([seat(crystals=5, in_play=[50]), seat(crystals=2, in_play=[50])], turn=1)
    s, _ = end_round(s)
    assert [p.crystals for p in s.seats] == [2, 0]  # stopping at 0


def test_50_pass_it_ready_to_the_left_even_with_a_full_gauge_no_entry_bonus() -> None:
    s = position([seat(energy_=energy(water=2), in_play=[50]),
                  seat(gauge=1, in_play=[3]), seat()])
    s, events = play(s, 0, {"type": "activate", "slot": 1})
    assert s.seats[0].energy == [0, 1, 0, 0]
    assert cards_in_play(s, 0) == [] and cards_in_play(s, 1) == [3, 50]
    moved = s.seats[1].in_play[1]
    assert not moved.used and moved.id == 1
    assert s.seats[1].crystals == 0 and s.seats[1].energy == [0, 0, 0, 0]  # summoner only
    assert any(e["type"] == "card_moved" and e["to"] == 1 for e in events)
    # its −5 prestige now counts for its holder
    assert scoring.score_parts(s, 1)["prestige"] == 6 - 5
    assert scoring.score_parts(s, 0)["prestige"] == 0


def test_50_the_receiver_may_pass_it_on_in_her_turn() -> None:
    s = position([seat(energy_=energy(water=1), in_play=[50]),
                  seat(energy_=energy(water=1)), seat()])
    s, _ = play(s, 0, {"type": "activate", "slot": 1})
    s, _ = play(s, 0, {"type": "end_turn"})
    while s.turn is not None and s.turn.step == "die":
        s, _ = play(s, 1, GAME.legal_actions(s, 1)[0])
    while s.stack:
        seat_ = top(s)["seat"]
        s, _ = play(s, seat_, GAME.legal_actions(s, seat_)[0])
    assert {"type": "activate", "slot": 1} in GAME.legal_actions(s, 1)
    s, _ = play(s, 1, {"type": "activate", "slot": 1})
    assert cards_in_play(s, 2) == [50]


def test_50_needs_a_water_token_amulet_of_water_pays_too() -> None:
    s = position([seat(energy_=energy(air=3), in_play=[50]), seat()])
    assert activations(s, 0, 50) == []
    s = position([seat(in_play=[50, {"card": 4, "tokens": energy(water=1)}]), seat()])
    s, _ = play(s, 0, {"type": "activate", "slot": 1, "amulet": {"water": 1}})
    assert cards_in_play(s, 1) == [50] and s.seats[0].in_play[0].tokens == [0, 0, 0, 0]


# --- random play with every master card in hand ------------------------------------------------


def card_count(state: State) -> int:
    secrets = sum(len(t.get("secret", {}).get("cards", [])) for t in state.stack)
    return (len(state.deck) + len(state.discard) + secrets
            + sum(len(p.hand) + len(p.in_play) for p in state.seats))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_with_the_master_cards_keeps_the_invariants(players: int) -> None:
    import random

    from engine.seasons.table import reserve_limit, reserve_size

    for seed in range(6):
        pick = random.Random(seed * 10 + players)
        master = list(range(31, 51))
        pick.shuffle(master)
        hands = [sorted(master[s::players][:6]) for s in range(players)]
        rest = [c for c in range(1, 51) for _ in range(2)]
        for hand in hands:
            for c in hand:
                rest.remove(c)
        pick.shuffle(rest)
        rich = energy(air=2, water=2, fire=2, earth=1)
        s = position([seat(crystals=12, energy_=rich, gauge=8, hand=h) for h in hands],
                     deck=rest)
        total = card_count(s)
        plies = 0
        while GAME.result(s) is None:
            owing = sorted(GAME.to_move(s))
            assert owing
            who = owing[pick.randrange(len(owing))]
            legal = GAME.legal_actions(s, who)
            assert legal
            s = GAME.apply(s, who, legal[pick.randrange(len(legal))]).state
            plies += 1
            assert card_count(s) == total
            for p in s.seats:
                assert p.crystals >= 0 and min(p.energy) >= 0 and 0 <= p.gauge <= 15
                assert all(min(e.tokens) >= 0 for e in p.in_play)
            if not s.stack and s.phase == "turn":
                assert all(reserve_size(p) <= reserve_limit(s, i) for i, p in enumerate(s.seats))
        assert plies > 50
