"""One test per apprentice card (1–30): a position built with ``load``, the thing done, the
effect asserted, with each ruling the sheet lists for the card (sheet section 9)."""

from __future__ import annotations

import pytest

from engine.protocol import IllegalAction
from engine.seasons.dice import DICE
from engine.seasons.scoring import final_result
from tests.seasons.positions import (
    GAME,
    energy,
    energy_of,
    of_type,
    owes,
    pending_kind,
    play,
    position,
    seat,
)


def leftover_with_time(season: str, players: int, time: int) -> int:
    return next(s for s in range(6) if DICE[season][players][s].time == time)


def last_turn(players: int = 2, seats: list | None = None, month: int = 1, time: int = 1,
              year: int = 1):
    """The last turn of a round: ending it ends the round, the leftover die moves ``time``."""
    season = ("winter", "spring", "summer", "autumn")[(month - 1) // 3]
    return position(players, seats, turn=players - 1, month=month, year=year,
                    leftover_side=leftover_with_time(season, players, time))


def summon(state, seat_: int, card: int, **extra):
    return play(state, seat_, {"type": "summon", "card": card, **extra})


def slot_of(state, seat_: int, card: int) -> int:
    return next(e.id for e in state.seats[seat_].in_play if e.card == card)


def activate(state, seat_: int, card: int, **choice):
    return play(state, seat_, {"type": "activate", "slot": slot_of(state, seat_, card), **choice})


def answer(state, action):
    return play(state, owes(state), action)


# --- 1–5 ---------------------------------------------------------------------------------------


def test_1_amulet_of_air_raises_the_gauge_by_2_never_above_15() -> None:
    s = position(seats=[seat(energy_=energy(air=2), gauge=1, hand=[1]), seat()])
    s, _ = summon(s, 0, 1)
    assert s.seats[0].gauge == 3
    s = position(seats=[seat(energy_=energy(air=2), gauge=14, hand=[1]), seat()])
    s, _ = summon(s, 0, 1)
    assert s.seats[0].gauge == 15


def test_2_amulet_of_fire_keeps_one_of_the_top_four_and_discards_three() -> None:
    s = position(seats=[seat(energy_=energy(fire=2), gauge=1, hand=[2]), seat()],
                 deck=[5, 6, 7, 8, 9])
    s, _ = summon(s, 0, 2)
    assert pending_kind(s) == "keep_one" and owes(s) == 0
    assert sorted(a["card"] for a in of_type(s, 0, "keep_card")) == [5, 6, 7, 8]
    assert GAME.view(s, 1)["pending"][-1]["secret"] == "hidden"
    s, _ = answer(s, {"type": "keep_card", "card": 7})
    assert s.seats[0].hand == [7] and sorted(s.discard) == [5, 6, 8] and s.deck == [9]


def test_3_amulet_of_earth_gives_9_crystals() -> None:
    s = position(seats=[seat(energy_=energy(earth=2), gauge=1, hand=[3]), seat()])
    s, _ = summon(s, 0, 3)
    assert s.seats[0].crystals == 9 and energy_of(s, 0) == energy()


def test_4_amulet_of_water_tokens_pay_but_are_not_in_the_reserve() -> None:
    s = position(seats=[seat(energy_=energy(water=2, air=7), gauge=3, hand=[3, 4]), seat()])
    s, _ = summon(s, 0, 4)
    for e in ("earth", "earth", "fire", "water"):
        assert pending_kind(s) == "gain_energy"
        s, _ = answer(s, {"type": "gain_energy", "energy": e})
    entry = s.seats[0].in_play[0]
    assert entry.tokens == [0, 1, 1, 2] and energy_of(s, 0) == energy(air=7)
    assert not s.stack, "7 in the reserve + 4 on the amulet: within the limit of 7"
    # they pay a summon (Amulet of Earth costs 2 earth; the reserve has none)
    assert of_type(s, 0, "summon") == [{"type": "summon", "card": 3, "amulet": {"earth": 2}}]
    s, _ = summon(s, 0, 3, amulet={"earth": 2})
    assert s.seats[0].in_play[0].tokens == [0, 1, 1, 0] and s.seats[0].crystals == 9
    # and can be transmuted, when allowed
    s.turn.may_transmute = True
    s, _ = play(s, 0, {"type": "transmute", "energy": "fire", "count": 1, "amulet": True})
    assert s.seats[0].crystals == 9 + 2 and s.seats[0].in_play[0].tokens == [0, 1, 0, 0]


def test_5_balance_of_ishtar_3_identical_tokens_for_9_without_permission() -> None:
    s = position(seats=[seat(energy_=energy(fire=3, air=2), in_play=[5]), seat()])
    assert of_type(s, 0, "transmute") == []
    assert of_type(s, 0, "activate") == [{"type": "activate", "slot": 1, "energy": "fire"}]
    s, _ = activate(s, 0, 5, energy="fire")
    assert s.seats[0].crystals == 9 and energy_of(s, 0) == energy(air=2)
    with pytest.raises(IllegalAction) as refused:
        activate(s, 0, 5, energy="air")
    assert refused.value.code == "already_used"
    # it counts as transmuting: Purse of Io +1 per token (12), Bonus 2 +1 per token
    s = position(seats=[seat(energy_=energy(fire=3), in_play=[5, 8]), seat()])
    s, _ = activate(s, 0, 5, energy="fire")
    assert s.seats[0].crystals == 12
    s = position(seats=[seat(energy_=energy(fire=3), in_play=[5]), seat()], transmute_bonus=1)
    s, _ = activate(s, 0, 5, energy="fire")
    assert s.seats[0].crystals == 12
    # 1st edition: 4 identical tokens for 12, costing 6 crystals
    s = position(seats=[seat(energy_=energy(fire=4), in_play=[5]), seat()],
                 options={"edition": 1})
    s, _ = activate(s, 0, 5, energy="fire")
    assert s.seats[0].crystals == 12 and energy_of(s, 0) == energy()
    s = position(seats=[seat(crystals=5, gauge=1, hand=[5]), seat()], options={"edition": 1})
    assert of_type(s, 0, "summon") == []


# --- 6–10 --------------------------------------------------------------------------------------


def test_6_staff_of_spring_3_crystals_per_summon_from_hand_only() -> None:
    s = position(seats=[seat(energy_=energy(earth=5), gauge=4, hand=[3, 6]), seat()])
    s, _ = summon(s, 0, 6)
    assert s.seats[0].crystals == 0, "no bonus for its own summon"
    s, _ = summon(s, 0, 3)
    assert s.seats[0].crystals == 9 + 3
    # a card put into play free (Potion of Dreams) gives nothing
    s = position(seats=[seat(gauge=3, hand=[29], in_play=[6, 24]), seat()])
    s, _ = activate(s, 0, 24)
    s, _ = answer(s, {"type": "choose_card", "card": 29})
    assert s.seats[0].crystals == 20


def test_7_temporal_boots_moves_the_marker_and_hands_out_libraries_once() -> None:
    s = position(seats=[seat(gauge=1, hand=[7]), seat()], month=1)
    s, _ = summon(s, 0, 7)
    assert [a["by"] for a in of_type(s, 0, "move_marker")] == [1, 2, 3], "not below year I"
    s, _ = answer(s, {"type": "move_marker", "by": 3})
    assert (s.year, s.month, s.season) == (1, 4, "spring")
    assert s.round_season == "winter", "this round's dice stay in use"
    # forward into a new year hands out Library II; back again keeps hands; forward again
    # gives nothing more
    libs = [[1, 2, 3], [18, 19, 20]]
    s = position(seats=[seat(gauge=2, hand=[7, 7], libraries=libs), seat(libraries=libs)],
                 month=11)
    s, _ = summon(s, 0, 7)
    s, _ = answer(s, {"type": "move_marker", "by": 2})
    assert (s.year, s.month) == (2, 1)
    assert s.seats[0].hand == [1, 2, 3, 7] and s.seats[1].hand == [1, 2, 3]
    s, _ = summon(s, 0, 7)
    s, _ = answer(s, {"type": "move_marker", "by": -2})
    assert (s.year, s.month) == (1, 11) and s.seats[1].hand == [1, 2, 3]
    assert s.seats[1].libraries == [[], [18, 19, 20]]
    # the rates follow the marker at once: in autumn water is worth 3
    s.turn.may_transmute = True
    s.seats[0].energy = [0, 1, 0, 0]
    s, _ = play(s, 0, {"type": "transmute", "energy": "water", "count": 1})
    assert s.seats[0].crystals == 3
    # past the end of year III: the round is finished, then the game ends
    s = last_turn(seats=[seat(), seat(gauge=1, hand=[7])], month=12, year=3)
    s, _ = summon(s, 1, 7)
    s, _ = answer(s, {"type": "move_marker", "by": 1})
    assert s.year == 4 and GAME.result(s) is None
    s, _ = play(s, 1, {"type": "end_turn"})
    assert GAME.result(s) is not None and s.year == 4 and s.month == 1


def test_8_purse_of_io_adds_1_per_token_per_copy() -> None:
    s = position(seats=[seat(energy_=energy(earth=2), in_play=[8]), seat()], may_transmute=True)
    s, _ = play(s, 0, {"type": "transmute", "energy": "earth", "count": 2})
    assert s.seats[0].crystals == 2 * (3 + 1)
    s = position(seats=[seat(energy_=energy(earth=1), in_play=[8, 8]), seat()],
                 may_transmute=True)
    s, _ = play(s, 0, {"type": "transmute", "energy": "earth", "count": 1})
    assert s.seats[0].crystals == 3 + 2


def test_9_divine_chalice_puts_one_card_into_play_free() -> None:
    four = energy(air=1, water=1, fire=1, earth=1)
    s = position(seats=[seat(energy_=four, gauge=3, hand=[9], in_play=[6]), seat()],
                 deck=[3, 22, 29, 1, 5])
    s, _ = summon(s, 0, 9)
    assert s.seats[0].crystals == 3, "the Chalice itself was summoned from hand (Staff +3)"
    assert pending_kind(s) == "chalice"
    s, _ = answer(s, {"type": "choose_card", "card": 29})
    assert [e.card for e in s.seats[0].in_play] == [6, 9, 29]
    assert s.seats[0].crystals == 3 + 20, "its own on-entry effect, no Staff bonus (free)"
    assert sorted(s.discard) == [1, 3, 22] and s.deck == [5]
    # without a free gauge slot the chosen card is discarded too
    s = position(seats=[seat(energy_=four, gauge=1, hand=[9]), seat()], deck=[3, 22, 29, 1])
    s, _ = summon(s, 0, 9)
    s, _ = answer(s, {"type": "choose_card", "card": 29})
    assert [e.card for e in s.seats[0].in_play] == [9] and sorted(s.discard) == [1, 3, 22, 29]


def test_10_syllas_each_opponent_sacrifices_a_card_of_their_choice() -> None:
    s = position(3, [seat(energy_=energy(fire=3), gauge=1, hand=[10]),
                     seat(in_play=[3, 1]), seat()])
    s, _ = summon(s, 0, 10)
    assert owes(s) == 1 and pending_kind(s) == "sacrifice_card"
    assert of_type(s, 1, "sacrifice") == [{"type": "sacrifice", "slot": 1},
                                          {"type": "sacrifice", "slot": 2}]
    s, _ = answer(s, {"type": "sacrifice", "slot": 2})
    assert [e.card for e in s.seats[1].in_play] == [3] and s.discard == [1]
    assert not s.stack and owes(s) == 0, "seat 2 has nothing in play: unaffected"


# --- 11–15 -------------------------------------------------------------------------------------


def test_11_figrim_takes_1_crystal_from_each_opponent_at_a_season_change() -> None:
    s = last_turn(3, [seat(in_play=[11]), seat(crystals=5), seat(crystals=0)], month=3, time=1)
    s, _ = play(s, 2, {"type": "end_turn"})
    assert s.month == 4 and s.season == "spring"
    assert [p.crystals for p in s.seats] == [1, 4, 0], "a seat at 0 gives nothing"
    # no season change, no crystal
    s = last_turn(3, [seat(in_play=[11]), seat(crystals=5), seat()], month=1, time=1)
    s, _ = play(s, 2, {"type": "end_turn"})
    assert s.month == 2 and [p.crystals for p in s.seats] == [0, 5, 0]


def test_12_naria_keeps_one_and_gives_one_to_each_opponent() -> None:
    s = position(3, [seat(crystals=3, gauge=1, hand=[12]), seat(), seat()], deck=[1, 2, 3, 4])
    s, _ = summon(s, 0, 12)
    assert s.seats[0].crystals == 0 and pending_kind(s) == "naria"
    assert [a["card"] for a in of_type(s, 0, "keep_card")] == [1, 2, 3]
    s, _ = answer(s, {"type": "keep_card", "card": 2})
    assert [a["card"] for a in of_type(s, 0, "give_card")] == [1, 3]
    s, _ = answer(s, {"type": "give_card", "card": 3})  # to seat 1, the next on the left
    assert [p.hand for p in s.seats] == [[2], [3], [1]] and not s.stack


def test_13_wondrous_chest_3_crystals_with_4_reserve_tokens_at_the_end_of_round() -> None:
    s = last_turn(seats=[seat(energy_=energy(air=4), in_play=[13]), seat()])
    s, _ = play(s, 1, {"type": "end_turn"})
    assert s.seats[0].crystals == 3
    # tokens on Amulet of Water do not count (ruling)
    amulet = {"card": 4, "tokens": energy(fire=4)}
    s = last_turn(seats=[seat(energy_=energy(air=3), in_play=[13, amulet]), seat()])
    s, _ = play(s, 1, {"type": "end_turn"})
    assert s.seats[0].crystals == 0


def test_14_beggars_horn_1_energy_with_at_most_1_token_at_the_end_of_round() -> None:
    s = last_turn(seats=[seat(energy_=energy(air=1), in_play=[14]), seat()])
    s, _ = play(s, 1, {"type": "end_turn"})
    assert owes(s) == 0 and pending_kind(s) == "gain_energy"
    s, _ = answer(s, {"type": "gain_energy", "energy": "earth"})
    assert energy_of(s, 0) == energy(air=1, earth=1) and s.phase == "dice"
    s = last_turn(seats=[seat(energy_=energy(air=2), in_play=[14]), seat()])
    s, _ = play(s, 1, {"type": "end_turn"})
    assert not s.stack and energy_of(s, 0) == energy(air=2)


def test_15_die_of_malice_rerolls_before_the_die_for_2_crystals() -> None:
    s = position(seats=[seat(in_play=[15, 15]), seat()], step="die")
    assert {"type": "activate", "slot": 1} in GAME.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as refused:
        play(s, 0, {"type": "end_turn"})
    assert refused.value.code == "die_first"
    s, events = activate(s, 0, 15)
    assert s.seats[0].crystals == 2 and any(e["type"] == "die_rerolled" for e in events)
    with pytest.raises(IllegalAction) as refused:
        play(s, 0, {"type": "activate", "slot": 1})
    assert refused.value.code == "already_used"
    s, _ = play(s, 0, {"type": "activate", "slot": 2})  # the second copy: a second re-roll
    assert s.seats[0].crystals == 4
    s, _ = play(s, 0, {"type": "resolve_die"})
    assert s.turn.step == "main"
    assert of_type(s, 0, "activate") == [], "only before the die"
    # not in the turn it enters play
    s = position(seats=[seat(in_play=[{"card": 15, "fresh": True}]), seat()], step="die")
    assert of_type(s, 0, "activate") == []


# --- 16–20 -------------------------------------------------------------------------------------


def test_16_kairn_discard_1_energy_each_opponent_loses_4_crystals_down_to_0() -> None:
    s = position(3, [seat(energy_=energy(air=1), in_play=[16]), seat(crystals=10),
                     seat(crystals=2)])
    assert of_type(s, 0, "activate") == [{"type": "activate", "slot": 1, "energy": "air"}]
    s, _ = activate(s, 0, 16, energy="air")
    assert [p.crystals for p in s.seats] == [0, 6, 0] and energy_of(s, 0) == energy()


def test_17_amsug_every_player_returns_a_magic_item_to_hand() -> None:
    s = position(3, [seat(energy_=energy(water=1, air=1), gauge=3, hand=[17],
                          in_play=[{"card": 4, "tokens": energy(fire=2)}]),
                     seat(in_play=[10, 29]), seat(in_play=[12])])
    s, _ = summon(s, 0, 17)
    assert owes(s) == 0 and of_type(s, 0, "return_card") == [{"type": "return_card", "slot": 1}]
    s, _ = answer(s, {"type": "return_card", "slot": 1})
    assert s.seats[0].hand == [4] and [e.card for e in s.seats[0].in_play] == [17]
    assert owes(s) == 1 and [a["slot"] for a in of_type(s, 1, "return_card")] == [3]
    s, _ = answer(s, {"type": "return_card", "slot": 3})
    assert s.seats[1].hand == [29] and not s.stack, "seat 2 has only a familiar: unaffected"
    assert s.discard == [], "returned, not sacrificed"


def test_18_bespelled_grimoire_two_energies_and_a_limit_of_10_that_does_not_add() -> None:
    s = position(seats=[seat(energy_=energy(water=1, earth=1, air=7), gauge=2, hand=[18]),
                        seat()])
    s, _ = summon(s, 0, 18)
    s, _ = answer(s, {"type": "gain_energy", "energy": "fire"})
    s, _ = answer(s, {"type": "gain_energy", "energy": "fire"})
    assert sum(s.seats[0].energy) == 9 and not s.stack
    assert GAME.view(s, 0)["seats"][0]["reserve_limit"] == 10
    s = position(seats=[seat(energy_=energy(air=11), in_play=[18, 18]), seat()])
    s, _ = play(s, 0, {"type": "end_turn"})
    assert owes(s) == 0 and pending_kind(s) == "discard_energy"
    s, _ = answer(s, {"type": "discard_energy", "energy": "air"})
    assert sum(s.seats[0].energy) == 10 and not s.stack


def test_19_ragfields_helm_20_crystals_for_strictly_most_cards_in_play() -> None:
    s = position(seats=[seat(in_play=[19, 3, 1]), seat(in_play=[3, 1])])
    events: list = []
    result = final_result(s.copy(), events)
    assert result["details"]["parts"][0]["crystals"] == 20
    s = position(seats=[seat(in_play=[19, 3]), seat(in_play=[3, 1])])
    result = final_result(s.copy(), [])
    assert result["details"]["parts"][0]["crystals"] == 0, "a tie gives nothing"


def test_20_hand_of_fortune_one_energy_less_never_below_one_token() -> None:
    s = position(seats=[seat(energy_=energy(earth=1), gauge=3, hand=[3], in_play=[20]), seat()])
    assert of_type(s, 0, "summon") == [{"type": "summon", "card": 3, "reduce": ["earth"]}]
    s, _ = summon(s, 0, 3, reduce=["earth"])
    assert energy_of(s, 0) == energy() and s.seats[0].crystals == 9
    # two Hands on a 2-token card: only down to 1 token
    s = position(seats=[seat(energy_=energy(earth=1), gauge=4, hand=[3], in_play=[20, 20]),
                        seat()])
    assert of_type(s, 0, "summon") == [{"type": "summon", "card": 3, "reduce": ["earth"]}]
    # a crystal cost is not reduced
    s = position(seats=[seat(crystals=19, gauge=3, hand=[22], in_play=[20]), seat()])
    assert of_type(s, 0, "summon") == []
    # a 3-different-type card: the player chooses which energy is taken off
    s = position(seats=[seat(energy_=energy(water=1, fire=1, earth=1), gauge=3, hand=[30],
                             in_play=[20]), seat()])
    assert sorted(a["reduce"][0] for a in of_type(s, 0, "summon")) == ["earth", "fire", "water"]


# --- 21–25 -------------------------------------------------------------------------------------


def test_21_lewis_greyface_copies_an_opponents_reserve_then_the_limit_applies() -> None:
    amulet = {"card": 4, "tokens": energy(water=3)}
    s = position(3, [seat(energy_=energy(fire=2, air=1), gauge=1, hand=[21]),
                     seat(energy_=energy(water=1)),
                     seat(energy_=energy(earth=5, air=1), in_play=[amulet])])
    s, _ = summon(s, 0, 21)
    assert of_type(s, 0, "choose_player") == [{"type": "choose_player", "seat": 1},
                                              {"type": "choose_player", "seat": 2}]
    s, _ = answer(s, {"type": "choose_player", "seat": 2})
    assert energy_of(s, 0) == energy(fire=1, earth=5, air=1), "amulet tokens not copied"
    assert energy_of(s, 2) == energy(earth=5, air=1), "the opponent loses nothing"
    assert not s.stack
    s = position(seats=[seat(energy_=energy(fire=1, air=1, water=3), gauge=1, hand=[21]),
                        seat(energy_=energy(earth=6))])
    s, _ = summon(s, 0, 21)  # 2 players: the only opponent, no question
    assert energy_of(s, 0) == energy(water=3, earth=6)
    assert pending_kind(s) == "discard_energy" and owes(s) == 0


def test_22_runic_cube_has_no_effect_and_30_prestige() -> None:
    s = position(seats=[seat(crystals=20, gauge=1, hand=[22]), seat()])
    s, _ = summon(s, 0, 22)
    assert s.seats[0].crystals == 0 and not s.stack
    assert GAME.view(s, 0)["seats"][0]["score"]["prestige"] == 30


def test_23_potion_of_power_sacrifice_draw_a_card_to_keep_and_2_gauge() -> None:
    s = position(seats=[seat(gauge=1, in_play=[23]), seat()], deck=[12, 5])
    s, _ = activate(s, 0, 23)
    assert s.seats[0].in_play == [] and s.discard == [23]
    assert s.seats[0].hand == [12] and s.seats[0].gauge == 3 and not s.stack


def test_24_potion_of_dreams_empties_the_reserve_and_puts_a_card_into_play_free() -> None:
    amulet = {"card": 4, "tokens": energy(fire=2)}
    s = position(seats=[seat(energy_=energy(air=3), gauge=2, hand=[3, 29],
                             in_play=[amulet, 24]), seat()])
    s, _ = activate(s, 0, 24)
    assert energy_of(s, 0) == energy() and s.seats[0].in_play[0].tokens == [0, 0, 2, 0]
    assert [a["card"] for a in of_type(s, 0, "choose_card")] == [3, 29]
    s, _ = answer(s, {"type": "choose_card", "card": 29})
    assert [e.card for e in s.seats[0].in_play] == [4, 29] and s.seats[0].crystals == 20
    assert s.seats[0].hand == [3]
    # with a full gauge even after freeing its own slot: cannot be activated
    s = position(seats=[seat(gauge=1, hand=[3], in_play=[24, 1]), seat()])
    assert of_type(s, 0, "activate") == []


def test_25_potion_of_knowledge_5_energies_then_the_reserve_limit() -> None:
    s = position(seats=[seat(energy_=energy(air=4), in_play=[25]), seat()])
    s, _ = activate(s, 0, 25)
    for _ in range(5):
        assert pending_kind(s) == "gain_energy"
        s, _ = answer(s, {"type": "gain_energy", "energy": "earth"})
    assert sum(s.seats[0].energy) == 9 and pending_kind(s) == "discard_energy"
    s, _ = answer(s, {"type": "discard_energy", "energy": "air"})
    s, _ = answer(s, {"type": "discard_energy", "energy": "air"})
    assert energy_of(s, 0) == energy(air=2, earth=5) and not s.stack


def test_26_potion_of_life_every_reserve_token_for_4_crystals() -> None:
    amulet = {"card": 4, "tokens": energy(fire=2)}
    s = position(seats=[seat(energy_=energy(air=2, earth=1), in_play=[26, amulet]), seat()])
    s, _ = activate(s, 0, 26)
    assert s.seats[0].crystals == 12 and energy_of(s, 0) == energy()
    assert s.seats[0].in_play[0].tokens == [0, 0, 2, 0], "amulet tokens are not included"
    assert s.turn.may_transmute is False, "gives no permission for later"
    s = position(seats=[seat(energy_=energy(air=3), in_play=[26, 8]), seat()])
    s, _ = activate(s, 0, 26)
    assert s.seats[0].crystals == 15, "Purse of Io adds 1 per token"


def test_27_hourglass_one_energy_of_your_choice_at_each_season_change() -> None:
    s = last_turn(seats=[seat(), seat(in_play=[27])], month=3, time=2)
    s, _ = play(s, 1, {"type": "end_turn"})
    assert s.season == "spring" and owes(s) == 1 and pending_kind(s) == "gain_energy"
    s, _ = answer(s, {"type": "gain_energy", "energy": "water"})
    assert energy_of(s, 1) == energy(water=1) and s.phase == "dice"


def test_28_scepter_3_crystals_per_other_magic_item() -> None:
    four = energy(air=1, water=1, fire=1, earth=1)
    s = position(seats=[seat(energy_=four, gauge=4, hand=[28], in_play=[3, 1, 10]), seat()])
    s, _ = summon(s, 0, 28)
    assert s.seats[0].crystals == 6, "two magic items; Syllas is a familiar"


def test_29_olafs_statue_20_crystals() -> None:
    s = position(seats=[seat(energy_=energy(water=3), gauge=1, hand=[29]), seat()])
    s, _ = summon(s, 0, 29)
    assert s.seats[0].crystals == 20
    assert GAME.view(s, 0)["seats"][0]["score"]["prestige"] == 0


def test_30_yjangs_vase_one_energy_per_other_summon_from_hand() -> None:
    s = position(seats=[seat(energy_=energy(water=1, fire=1, earth=3), gauge=3, hand=[3, 30]),
                        seat()])
    s, _ = summon(s, 0, 30)
    assert not s.stack, "nothing for its own summon"
    s, _ = summon(s, 0, 3)
    assert pending_kind(s) == "gain_energy"
    s, _ = answer(s, {"type": "gain_energy", "energy": "air"})
    assert energy_of(s, 0) == energy(air=1)
    s = position(seats=[seat(gauge=3, hand=[29], in_play=[30, 24]), seat()])
    s, _ = activate(s, 0, 24)
    s, _ = answer(s, {"type": "choose_card", "card": 29})
    assert not s.stack, "nothing for a card put into play free"
