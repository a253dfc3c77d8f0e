"""The rules audit of 2026-12-01: each test quotes (paraphrased, in English) the passage of the
Vietnamese rulebook (the team's ``seasons.vi.txt``, not in the repository) or of the sheet
(``docs/rules/seasons.md``) it checks, for a place where the engine was found wrong or where
nothing tested the passage yet.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.protocol import IllegalAction
from tests.seasons.positions import GAME, energy, play, position, seat
from tests.seasons.randomplay import plies

# --- bad input: wrong types never crash and never pass for a legal action ----------------------


def refused(state: Any, who: int, action: Any) -> str:
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, who, action)
    assert GAME.dump(state) == before, "a refused action changed the state"
    return caught.value.code


def test_a_float_where_a_whole_number_belongs_is_refused_not_a_crash() -> None:
    """BRIEF: bad input gets a stable IllegalAction code, never a TypeError. A library number
    3.0 used to reach ``libraries[lib - 2]`` (TypeError), a marker move 1.0 used to reach the
    season table (TypeError)."""
    s = GAME.setup(2, 1, {"level": "apprentice"})
    who = min(GAME.to_move(s))
    card = s.seats[who].hand[0]
    assert refused(s, who, {"type": "to_library", "card": card, "library": 3.0}) == "bad_action"
    assert refused(s, who, {"type": "to_library", "card": float(card), "library": 3}) \
        == "bad_action"
    assert refused(s, who, {"type": "to_library", "card": card, "library": float("nan")}) \
        == "bad_action"
    s = position(seats=[seat(gauge=1, hand=[7]), seat()])
    s, _ = play(s, 0, {"type": "summon", "card": 7})
    assert refused(s, 0, {"type": "move_marker", "by": 1.0}) == "bad_action"
    assert refused(s, 0, {"type": "move_marker", "by": True}) == "not_offered"


def test_true_does_not_name_card_1_nor_slot_1() -> None:
    """Python's ``True == 1`` must not make ``{"card": true}`` summon card 1 (it did, and left a
    bool in the hand and the play area), nor ``{"slot": true}`` activate the card with id 1."""
    s = position(seats=[seat(energy_=energy(air=2), gauge=2, hand=[1]), seat()])
    assert refused(s, 0, {"type": "summon", "card": True}) == "not_in_hand"
    s = position(seats=[seat(energy_=energy(air=2), in_play=[16]), seat(crystals=9)])
    assert refused(s, 0, {"type": "activate", "slot": True, "energy": "air"}) == "not_offered"
    s = GAME.setup(2, 3, {"level": "master"})
    card = s.seats[0].draft[0]
    assert refused(s, 0, {"type": "draft_pick", "card": float(card)}) == "bad_action"


_WRONG: list[Any] = [1.0, True, False, 10**30, -(10**30), [], [1], {}, {"a": 1}, None, "x",
                     float("nan")]


def _mutations(action: dict[str, Any], r: random.Random) -> list[dict[str, Any]]:
    out = []
    for key in [k for k in action if k != "type"]:
        dropped = dict(action)
        del dropped[key]
        out.append(dropped)
        out.append({**action, key: r.choice(_WRONG)})
        value = action[key]
        if isinstance(value, int) and not isinstance(value, bool):
            out.append({**action, key: float(value)})
            out.append({**action, key: value == 1})
        if isinstance(value, dict) and value:
            inner = r.choice(list(value))
            out.append({**action, key: {**value, inner: r.choice(_WRONG)}})
    for key in ("card", "slot", "energy", "count", "die", "library", "amulet", "reduce", "by",
                "seat", "energies", "use", "into", "discard", "sacrifice", "way"):
        if key not in action:
            out.append({**action, key: r.choice([*_WRONG, 1, "air"])})
    return out


@pytest.mark.parametrize("level", ["apprentice", "master"])
def test_mutated_legal_actions_are_refused_with_a_code_or_are_exactly_legal(level: str) -> None:
    """Fuzz: every legal action of random matches, with a field dropped, added or given a wrong
    type (list, dict, float, bool, huge int, None): apply raises IllegalAction with a code and
    changes nothing, or the action is one of the legal ones, types included."""
    from engine.seasons.rules import offered

    r = random.Random(level)
    for n, ply in enumerate(plies(3, 77 if level == "master" else 78, {"level": level})):
        if n % 3:
            continue
        legal = GAME.legal_actions(ply.before, ply.seat)
        before = GAME.dump(ply.before)
        for bad in _mutations(ply.action, r):
            if offered(bad, legal):
                continue
            with pytest.raises(IllegalAction) as caught:
                GAME.apply(ply.before, ply.seat, bad)
            assert caught.value.code and caught.value.message
        assert GAME.dump(ply.before) == before


def test_a_deeply_nested_or_huge_field_is_refused_not_a_recursion_error() -> None:
    """A 5,000-deep list used to raise RecursionError while the refusal message was written."""
    s = position()
    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    for value in (deep, list(range(100_000)), {f"k{i}": 1 for i in range(1000)}):
        assert refused(s, 0, {"type": "end_turn", "x": value}) == "bad_action"
        assert refused(s, 0, {"type": "summon", "card": value}) == "bad_action"


# --- tokens kept on Amulet of Water (#4) and Glutton Cauldron (#35) are not in the reserve -------

from tests.seasons.test_cards_apprentice import last_turn  # noqa: E402


def _kept(card: int, **tokens: int) -> dict[str, Any]:
    return {"card": card, "tokens": energy(**tokens)}


def test_reserve_counting_cards_ignore_tokens_on_4_and_35() -> None:
    """Sheet #4 ruling: tokens on Amulet of Water are not part of the reserve, and #13, #14, #21,
    #40, #42, #45 ignore them; #35's ruling: tokens on the Cauldron are not part of the reserve
    either."""
    # Wondrous Chest (#13): 3 in the reserve + 4 on an amulet is not "4 or more"
    s = last_turn(seats=[seat(), seat(energy_=energy(air=3), in_play=[13, _kept(4, fire=4)])])
    s, _ = play(s, 1, {"type": "end_turn"})
    assert s.seats[1].crystals == 0
    # Beggar's Horn (#14): 1 in the reserve + 6 on the Cauldron is "at most 1"
    s = last_turn(seats=[seat(), seat(energy_=energy(air=1), in_play=[14, _kept(35, fire=6)])])
    s, _ = play(s, 1, {"type": "end_turn"})
    assert s.stack and s.stack[-1]["kind"] == "gain_energy" and s.stack[-1]["seat"] == 1
    # Lewis Greyface (#21): copies the opponent's reserve, not the amulet
    s = position(seats=[seat(energy_=energy(air=1, fire=1), gauge=1, hand=[21]),
                        seat(energy_=energy(water=2), in_play=[_kept(4, earth=4)])])
    s, _ = play(s, 0, {"type": "summon", "card": 21})
    assert s.seats[0].energy == [0, 2, 0, 0]
    # Air Elemental (#40): the opponent's amulet and cauldron tokens keep their types
    s = position(seats=[seat(energy_=energy(air=3), gauge=1, hand=[40]),
                        seat(energy_=energy(fire=2), in_play=[_kept(4, earth=3),
                                                              _kept(35, water=2)])])
    s, _ = play(s, 0, {"type": "summon", "card": 40})
    assert s.seats[1].energy == [2, 0, 0, 0]
    assert [e.tokens for e in s.seats[1].in_play] == [[0, 0, 0, 3], [0, 2, 0, 0]]
    # Lantern of Xidit (#45): 3 crystals per reserve token only
    from engine.seasons.scoring import final_result

    s = position(seats=[seat(energy_=energy(air=2), in_play=[45, _kept(4, fire=4),
                                                              _kept(35, earth=5)]), seat()])
    final_result(s, [])
    assert s.seats[0].crystals == 6


# --- readings are data: changing one changes what the engine does ------------------------------


def test_the_tie_break_reading_is_read_from_readings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sheet section 10 / question 1: the tie-break is [UNKNOWN]; our reading (most cards in play,
    then a shared win) is ``readings.TIE_BREAK``. It used to be hard-coded in ``scoring.place``,
    so the named constant changed nothing."""
    from engine.seasons import readings
    from engine.seasons.scoring import place

    assert place([50, 50, 40], [3, 4, 9]) == [2, 1, 3]
    monkeypatch.setattr(readings, "TIE_BREAK", ())
    assert place([50, 50, 40], [3, 4, 9]) == [1, 1, 3], "no tie-break: a shared win"


def test_the_score_floor_default_is_read_from_readings() -> None:
    """Sheet question 8: no floor at 0 by default (``readings.SCORE_FLOOR_DEFAULT``)."""
    from engine.seasons import readings
    from engine.seasons.options import SeasonsOptions

    field = SeasonsOptions.model_fields["score_floor"]
    assert field.default is readings.SCORE_FLOOR_DEFAULT is False


def test_no_card_face_carries_anything_but_time() -> None:
    """Rulebook: draw a card → take energy → take crystals → raise the gauge → the rest. The
    engine asks the keep-or-discard question after applying the rest of the face (README reading
    4); that can only be seen on a face with a card symbol and something else, and there is
    none among the 120 (sheet 5.3)."""
    from engine.seasons.dice import DICE, SEASONS, face_dict

    for season in SEASONS:
        for d in range(len(DICE[season])):
            for side in range(6):
                f = face_dict(season, d, side)
                if f["card"]:
                    assert not any(f["energy"].values()) and not f["crystals"] and not f["gauge"]
                    assert not f["transmute"]


def test_missing_fields_get_stable_codes() -> None:
    """Each action type with its fields missing is refused with the code its checker names."""
    s = position(seats=[seat(energy_=energy(earth=2), gauge=2, hand=[3], in_play=[16]), seat()])
    assert refused(s, 0, {"type": "summon"}) == "not_in_hand"
    assert refused(s, 0, {"type": "activate"}) == "not_in_play"
    assert refused(s, 0, {"type": "transmute"}) == "no_permission"
    assert refused(s, 0, {"type": "bonus"}) == "bad_action"
    s = position(seats=[seat(energy_=energy(earth=2)), seat()], may_transmute=True)
    assert refused(s, 0, {"type": "transmute"}) == "bad_action"
    assert refused(s, 0, {"type": "transmute", "energy": "earth"}) == "bad_action"
    assert refused(s, 0, {"type": "transmute", "energy": "earth", "count": 10**30}) \
        == "cannot_afford"
    s = position(phase="dice", turn=None)
    s.chooser = 0
    for d in s.dice:
        d["taken_by"] = None
    assert refused(s, 0, {"type": "take_die"}) == "no_such_die"
    assert refused(s, 0, {"type": "take_die", "die": 10**30}) == "no_such_die"
    s = GAME.setup(2, 5, {"level": "master"})
    assert refused(s, 0, {"type": "draft_pick"}) == "not_offered"
    s = GAME.setup(2, 5, {"level": "apprentice"})
    assert refused(s, 0, {"type": "to_library"}) == "not_in_hand"
    card = s.seats[0].hand[0]
    assert refused(s, 0, {"type": "to_library", "card": card}) == "not_offered"
    assert refused(s, 0, {"type": "to_library", "card": card, "library": 10**30}) \
        == "not_offered"
