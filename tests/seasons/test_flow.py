"""The rulebook's flow: dice and their faces, the marker, years, transmutation, the reserve and
the gauge, bonuses, scoring (sheet sections 3–11, worked examples E1–E4)."""

from __future__ import annotations

import random

import pytest

from engine.protocol import IllegalAction
from engine.seasons import readings
from engine.seasons.dice import DICE, SEASONS
from engine.seasons.scoring import final_result, place
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
from tests.seasons.test_cards_apprentice import last_turn

ORDER = ("card_drawn", "energy_gained", "crystals_gained", "gauge_changed")


@pytest.mark.parametrize("season", SEASONS)
def test_every_face_is_applied_in_the_rulebooks_order(season: str) -> None:
    month = 1 + 3 * SEASONS.index(season)
    for die in range(5):
        for side in range(6):
            face = DICE[season][die][side]
            s = position(4, [seat() for _ in range(4)], step="die", month=month,
                         sides=[0, 0, 0, 0], deck=[22, 23])
            s.dice[0] = {"die": die, "side": side, "taken_by": 0}
            s, events = play(s, 0, {"type": "resolve_die"})
            kinds = [e["type"] for e in events if e["type"] in ORDER]
            assert kinds == sorted(kinds, key=ORDER.index), (season, die, side, kinds)
            assert energy_of(s, 0) == dict(zip(("air", "water", "fire", "earth"), face.energy,
                                               strict=True))
            assert s.seats[0].crystals == face.crystals and s.seats[0].gauge == face.gauge
            assert s.turn.may_transmute == face.transmute
            assert (pending_kind(s) == "keep_or_discard") == face.card


def test_every_face_of_every_die_is_rolled_in_random_matches() -> None:
    seen: set[tuple[str, int, int]] = set()
    for seed in range(60):
        pick = random.Random(seed)
        s = GAME.setup(4, seed)
        while GAME.result(s) is None and len(seen) < 120:
            who = pick.choice(sorted(GAME.to_move(s)))
            step = GAME.apply(s, who, pick.choice(GAME.legal_actions(s, who)))
            for e in step.events:
                if e["type"] == "round_started":
                    seen |= {(e["season"], d["die"], d["side"]) for d in e["dice"]}
            s = step.state
        if len(seen) == 120:
            break
    assert len(seen) == 120


def test_e4_a_card_energy_and_star_face_draws_first_then_energy_then_gauge() -> None:
    # No face of the 120 shows a card symbol together with energy (the card faces carry only
    # time), so E4 is checked on every face above; here: energy before the star, and only then
    # the other actions (a transmutation with this face's permission).
    s = position(step="die", sides=[0, 0])  # winter die 0 side 0: 1 fire, +1 gauge, transmute
    s, events = play(s, 0, {"type": "resolve_die"})
    kinds = [e["type"] for e in events if e["type"] in ORDER]
    assert kinds == ["energy_gained", "gauge_changed"]
    assert of_type(s, 0, "transmute") == [{"type": "transmute", "energy": "fire", "count": 1}]


def test_e2_dice_draft_two_players_three_dice_one_left_moves_the_marker() -> None:
    s = GAME.setup(2, 7, {"first_player": 0})
    s = _build_all(s)
    assert s.phase == "dice" and len(s.dice) == 3 and owes(s) == 0
    s, _ = play(s, 0, {"type": "take_die", "die": 2})
    assert owes(s) == 1
    assert [a["die"] for a in of_type(s, 1, "take_die")] == [0, 1]
    with pytest.raises(IllegalAction) as refused:
        play(s, 1, {"type": "take_die", "die": 2})
    assert refused.value.code == "die_taken"
    s, _ = play(s, 1, {"type": "take_die", "die": 0})
    leftover = s.dice[1]
    time = DICE["winter"][leftover["die"]][leftover["side"]].time
    while s.phase == "turn":
        who = owes(s)
        s, _ = play(s, who, GAME.legal_actions(s, who)[-1])
    assert s.month == 1 + time and s.first_player == 1


def _build_all(s):
    for who in range(s.players):
        hand = s.seats[who].hand[:]
        s, _ = play(s, who, {"type": "to_library", "card": hand[0], "library": 2})
        for card in hand[1:3]:
            s, _ = play(s, who, {"type": "to_library", "card": card, "library": 2})
        for card in hand[3:6]:
            s, _ = play(s, who, {"type": "to_library", "card": card, "library": 3})
        s, _ = play(s, who, {"type": "confirm_libraries"})
    return s


def test_year_change_hands_out_library_ii_and_the_end_comes_after_year_iii() -> None:
    libs = [[1, 2, 3], [18, 19, 20]]
    s = last_turn(seats=[seat(libraries=libs), seat(libraries=libs)], month=12, time=2)
    s, events = play(s, 1, {"type": "end_turn"})
    assert (s.year, s.month, s.season) == (2, 2, "winter")
    assert s.seats[0].hand == [1, 2, 3] and s.seats[0].libraries == [[], [18, 19, 20]]
    assert any(e["type"] == "year_changed" for e in events)
    assert s.phase == "dice" and s.round == 2
    # the last move of year III: season-change effects first (Figrim), then the end
    s = last_turn(seats=[seat(in_play=[11]), seat(crystals=4)], month=11, year=3, time=3)
    s, events = play(s, 1, {"type": "end_turn"})
    assert GAME.result(s) is not None and s.phase == "over"
    assert s.seats[0].crystals == 1 and GAME.to_move(s) == frozenset()
    types = [e["type"] for e in events]
    assert types.index("crystals_given") < types.index("game_over")


def test_seasons_change_at_spaces_3_6_9_12() -> None:
    for month, season in ((3, "winter"), (4, "spring"), (6, "spring"), (7, "summer"),
                          (9, "summer"), (10, "autumn"), (12, "autumn")):
        assert position(month=month).season == season


def test_e1_transmutation_winter_2_earth_1_fire_is_8_crystals() -> None:
    s = position(seats=[seat(energy_=energy(earth=2, fire=1)), seat()], may_transmute=True)
    s, _ = play(s, 0, {"type": "transmute", "energy": "earth", "count": 2})
    s, _ = play(s, 0, {"type": "transmute", "energy": "fire", "count": 1})
    assert s.seats[0].crystals == 8 and energy_of(s, 0) == energy()
    # with Bonus 2 the same is 11; with Purse of Io as well, 14 [derived]
    s = position(seats=[seat(energy_=energy(earth=2, fire=1), in_play=[]), seat()])
    s, _ = play(s, 0, {"type": "bonus", "bonus": "transmute"})
    s, _ = play(s, 0, {"type": "transmute", "energy": "earth", "count": 2})
    s, _ = play(s, 0, {"type": "transmute", "energy": "fire", "count": 1})
    assert s.seats[0].crystals == 11
    s = position(seats=[seat(energy_=energy(earth=2, fire=1), in_play=[8]), seat()])
    s, _ = play(s, 0, {"type": "bonus", "bonus": "transmute"})
    s, _ = play(s, 0, {"type": "transmute", "energy": "earth", "count": 2})
    s, _ = play(s, 0, {"type": "transmute", "energy": "fire", "count": 1})
    assert s.seats[0].crystals == 14


def test_transmuting_needs_permission() -> None:
    s = position(seats=[seat(energy_=energy(earth=2)), seat()])
    assert of_type(s, 0, "transmute") == []
    with pytest.raises(IllegalAction) as refused:
        play(s, 0, {"type": "transmute", "energy": "earth", "count": 1})
    assert refused.value.code == "no_permission"


def test_reserve_overflow_is_discarded_at_once_tokens_of_the_players_choice() -> None:
    # winter die 1 side 0: 2 water and a star; 6 tokens in the reserve → 8
    s = position(seats=[seat(energy_=energy(air=3, fire=3)), seat()], step="die", sides=[0, 0])
    s.dice[0] = {"die": 1, "side": 0, "taken_by": 0}
    s, _ = play(s, 0, {"type": "resolve_die"})
    assert pending_kind(s) == "discard_energy" and owes(s) == 0
    assert [a["energy"] for a in GAME.legal_actions(s, 0)] == ["air", "water", "fire"]
    with pytest.raises(IllegalAction) as refused:
        play(s, 0, {"type": "end_turn"})
    assert refused.value.code == "answer_first"
    s, _ = play(s, 0, {"type": "discard_energy", "energy": "fire"})
    assert sum(s.seats[0].energy) == 7 and not s.stack
    assert energy_of(s, 0) == energy(air=3, fire=2, water=2)


def test_gauge_is_the_limit_of_cards_in_play_and_stops_at_15() -> None:
    s = position(seats=[seat(energy_=energy(earth=4), gauge=1, hand=[3, 3], in_play=[1]),
                        seat()])
    assert of_type(s, 0, "summon") == []
    with pytest.raises(IllegalAction) as refused:
        play(s, 0, {"type": "summon", "card": 3})
    assert refused.value.code == "gauge_full"
    s = position(seats=[seat(gauge=15), seat()], step="die", sides=[0, 0])
    s, _ = play(s, 0, {"type": "resolve_die"})  # winter die 0 side 0 has a star
    assert s.seats[0].gauge == 15
    assert {"type": "bonus", "bonus": "gauge"} not in GAME.legal_actions(s, 0)


def test_bonus_uses_at_most_3_and_their_penalties() -> None:
    s = position(seats=[seat(energy_=energy(air=2), gauge=0), seat()])
    s, _ = play(s, 0, {"type": "bonus", "bonus": "gauge"})
    assert s.seats[0].gauge == 1
    s, _ = play(s, 0, {"type": "bonus", "bonus": "exchange"})
    s, _ = play(s, 0, {"type": "return_energy", "energy": "air"})
    s, _ = play(s, 0, {"type": "return_energy", "energy": "air"})
    assert of_type(s, 0, "return_energy") == []
    s, _ = play(s, 0, {"type": "take_energy", "energy": "earth"})
    s, _ = play(s, 0, {"type": "take_energy", "energy": "fire"})
    assert energy_of(s, 0) == energy(earth=1, fire=1) and not s.stack
    s, _ = play(s, 0, {"type": "bonus", "bonus": "transmute"})
    assert s.seats[0].bonus_used == 3
    assert of_type(s, 0, "bonus") == []
    with pytest.raises(IllegalAction) as refused:
        play(s, 0, {"type": "bonus", "bonus": "gauge"})
    assert refused.value.code == "bonus_exhausted"
    penalties = []
    for uses in range(4):
        p = position(seats=[seat(bonus_used=uses), seat()])
        penalties.append(GAME.view(p, None)["seats"][0]["score"]["bonus"])
    assert penalties == [0, -5, -12, -20]


def test_bonus_1_exchanges_one_token_or_exactly_two_by_option() -> None:
    s = position(seats=[seat(energy_=energy(air=1)), seat()])
    s, _ = play(s, 0, {"type": "bonus", "bonus": "exchange"})
    s, _ = play(s, 0, {"type": "return_energy", "energy": "air"})
    s, _ = play(s, 0, {"type": "take_energy", "energy": "water"})
    assert energy_of(s, 0) == energy(water=1) and not s.stack
    s = position(seats=[seat(energy_=energy(air=1)), seat()],
                 options={"exchange_exactly_two": True})
    assert {"type": "bonus", "bonus": "exchange"} not in GAME.legal_actions(s, 0)


def test_bonus_4_draws_two_keeps_one_declared_before_the_die() -> None:
    card_side = next(i for i in range(6) if DICE["winter"][0][i].card)
    s = position(step="die", sides=[card_side, 0], deck=[3, 29, 5])
    assert {"type": "bonus", "bonus": "card_choice"} in GAME.legal_actions(s, 0)
    s, _ = play(s, 0, {"type": "bonus", "bonus": "card_choice"})
    s, _ = play(s, 0, {"type": "resolve_die"})
    assert pending_kind(s) == "keep_one"
    s, _ = play(s, 0, {"type": "keep_card", "card": 29})
    assert s.seats[0].hand == [29] and s.discard == [3] and s.seats[0].bonus_used == 1
    s = position(step="die", sides=[0, 0])  # no card symbol: the die is resolved at once
    assert s.turn.step == "die" and GAME.legal_actions(s, 0) == [{"type": "resolve_die"}]


def test_die_card_symbol_keep_or_discard() -> None:
    card_side = next(i for i in range(6) if DICE["winter"][0][i].card)
    s = position(seats=[seat(bonus_used=3), seat()], step="die", sides=[card_side, 0],
                 deck=[3, 29])
    s, _ = play(s, 0, {"type": "resolve_die"})
    assert of_type(s, 0, "discard_card") == [{"type": "discard_card", "card": 3}]
    s, _ = play(s, 0, {"type": "discard_card", "card": 3})
    assert s.seats[0].hand == [] and s.discard == [3]


def test_empty_draw_pile_is_remade_from_the_discards() -> None:
    s = position(seats=[seat(energy_=energy(fire=2), gauge=1, hand=[2]), seat()], deck=[5],
                 discard=[6, 7, 8])
    s, events = play(s, 0, {"type": "summon", "card": 2})
    assert any(e["type"] == "deck_reshuffled" for e in events)
    assert sorted(s.stack[-1]["secret"]["cards"]) == [5, 6, 7, 8]


def test_e3_score_formula() -> None:
    s = position(seats=[seat(crystals=80, in_play=[1, 6, 42], hand=[3, 5], bonus_used=2),
                        seat()])
    result = final_result(s.copy(), [])
    assert result["scores"][0] == 80 + 5 - 10 - 12 == 63


def test_tie_break_most_cards_in_play_then_shared() -> None:
    assert place([50, 50, 40], [3, 4, 9]) == [2, 1, 3]
    assert place([50, 50, 40], [4, 4, 9]) == [1, 1, 3]
    s = position(seats=[seat(crystals=40, in_play=[3]), seat(crystals=34, in_play=[3, 22])])
    s.seats[1].crystals = 10  # 10 + 6 + 30 = 46 = 40 + 6
    result = GAME.result(_finished(s))
    assert result.scores == [46, 46] and result.winners == [1] and result.placings == [2, 1]


def _finished(s):
    from engine.seasons.rules import finish

    s = s.copy()
    finish(s, [])
    return s


def test_score_floor_option() -> None:
    s = position(seats=[seat(hand=[1, 2]), seat()], options={"score_floor": True})
    assert GAME.result(_finished(s)).scores[0] == 0
    s = position(seats=[seat(hand=[1, 2]), seat()])
    assert GAME.result(_finished(s)).scores[0] == -10


def test_apprentice_sets_and_draw_pile() -> None:
    for players in (2, 3, 4):
        s = GAME.setup(players, players)
        sets = {tuple(p.hand) for p in s.seats}
        assert sets <= {tuple(sorted(x)) for x in readings.APPRENTICE_SETS}
        assert len(sets) == players
        everything = sorted(s.deck + [c for p in s.seats for c in p.hand])
        assert everything == sorted(list(range(1, 31)) * 2)
        assert s.phase == "build" and all(len(v) == players + 1 for v in s.dice_in_use.values())


def test_master_draft_pick_one_pass_left_hidden_and_simultaneous() -> None:
    s = GAME.setup(3, 11, {"level": "master"})
    assert s.phase == "draft" and GAME.to_move(s) == frozenset({0, 1, 2})
    offers = [p.draft[:] for p in s.seats]
    picks = [o[0] for o in offers]
    s, _ = play(s, 0, {"type": "draft_pick", "card": picks[0]})
    assert GAME.to_move(s) == frozenset({1, 2})
    assert GAME.view(s, 1)["seats"][0]["pick"] == "hidden"
    with pytest.raises(IllegalAction) as refused:
        play(s, 0, {"type": "draft_pick", "card": offers[0][1]})
    assert refused.value.code == "not_your_turn"
    s, _ = play(s, 1, {"type": "draft_pick", "card": picks[1]})
    s, _ = play(s, 2, {"type": "draft_pick", "card": picks[2]})
    for who in range(3):
        rest = offers[who][:]
        rest.remove(picks[who])
        assert s.seats[(who + 1) % 3].draft == rest, "the rest goes to the left"
        assert s.seats[who].hand == [picks[who]]
    while s.phase == "draft":
        for who in sorted(GAME.to_move(s)):
            s, _ = play(s, who, GAME.legal_actions(s, who)[0])
    assert all(len(p.hand) == 9 for p in s.seats) and s.phase == "build"
    all_cards = sorted(s.deck + [c for p in s.seats for c in p.hand])
    assert all_cards == sorted(list(range(1, 51)) * 2)


def test_building_libraries_three_sets_of_three() -> None:
    s = GAME.setup(2, 3)
    hand = s.seats[0].hand[:]
    s, _ = play(s, 0, {"type": "to_library", "card": hand[0], "library": 2})
    assert {"type": "confirm_libraries"} not in GAME.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as refused:
        play(s, 0, {"type": "confirm_libraries"})
    assert refused.value.code == "libraries_incomplete"
    s, _ = play(s, 0, {"type": "reset_libraries"})
    assert s.seats[0].hand == hand
    s = _build_all(s)
    assert all(len(p.hand) == 3 and [len(x) for x in p.libraries] == [3, 3] for p in s.seats)
    assert s.phase == "dice" and s.round == 1


def test_options_are_checked_and_the_catalog_holds_every_card_and_face() -> None:
    with pytest.raises(IllegalAction) as refused:
        GAME.setup(2, 1, {"first_player": 3})
    assert refused.value.code == "bad_options"
    with pytest.raises(IllegalAction) as refused:
        GAME.setup(2, 1, {"level": "wizard"})
    assert refused.value.code == "bad_options"
    with pytest.raises(IllegalAction) as refused:
        GAME.setup(5, 1)
    assert refused.value.code == "bad_player_count"
    assert GAME.setup(3, 1, {"first_player": 2}).first_player == 2
    catalog = GAME.catalog()
    assert sorted(int(k) for k in catalog["cards"]) == list(range(1, 51))
    assert sum(len(die) for dice in catalog["dice"].values() for die in dice) == 120
    assert catalog["cards"]["11"]["cost"][2]["crystals"] == 9  # 4 players


def test_end_of_round_effects_seat_by_seat_and_the_player_orders_her_own() -> None:
    s = last_turn(seats=[seat(energy_=energy(air=1), in_play=[13, 14, 13]),
                         seat(energy_=energy(air=4), in_play=[13])])
    s, _ = play(s, 1, {"type": "end_turn"})
    # the first player (seat 0) first; she has two different cards: she picks the order
    assert owes(s) == 0 and pending_kind(s) == "end_of_round_order"
    assert GAME.legal_actions(s, 0) == [{"type": "resolve_card", "slot": 1},
                                        {"type": "resolve_card", "slot": 2}]
    s, _ = play(s, 0, {"type": "resolve_card", "slot": 2})  # Beggar's Horn first
    assert pending_kind(s) == "gain_energy"
    s, _ = play(s, 0, {"type": "gain_energy", "energy": "air"})
    # the two Chests are the same card: no more question; 2 tokens give nothing
    assert s.seats[0].crystals == 0 and energy_of(s, 0) == energy(air=2)
    assert s.seats[1].crystals == 3 and s.phase == "dice"


def test_chest_first_then_horn_when_she_says_so() -> None:
    s = last_turn(seats=[seat(energy_=energy(air=4), in_play=[14, 13]), seat()])
    s, _ = play(s, 1, {"type": "end_turn"})
    s, _ = play(s, 0, {"type": "resolve_card", "slot": 2})  # Wondrous Chest: 4 tokens, +3
    assert s.seats[0].crystals == 3 and not s.stack and s.phase == "dice"
