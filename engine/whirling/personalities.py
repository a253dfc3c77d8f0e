"""What each personality's power does (sheet section 8), one small function per power.

Recipe-only personalities (Frog Whisperer, Hidden Power, Fae-Blessed, Spider Summoner, and the
recipes of Uncontrolled Powers and Trickster) need no code here: their recipes sit in the row and
brew like any card (``rules.row``). What is here is everything a recipe cannot say.
"""

from __future__ import annotations

from typing import Any

from engine.protocol import Action, Event, IllegalAction, private
from engine.rng import Rng
from engine.whirling import readings
from engine.whirling.brewing import cube_dict, parse_cubes
from engine.whirling.cards import (
    ARCANA,
    INGREDIENT_INDEX,
    INGREDIENTS,
    MANDRAKE,
    PERSONALITY_BY_ID,
    Personality,
)
from engine.whirling.state import Played, State, Witch
from engine.whirling.table import draw, left_of, place


def personality(witch: Witch) -> Personality | None:
    return PERSONALITY_BY_ID[witch.personality] if witch.personality else None


def has_power(witch: Witch, power: str) -> bool:
    card = personality(witch)
    return card is not None and card.power == power


def hand_limit(witch: Witch) -> int:
    card = personality(witch)
    return card.hand_limit if card else readings.HAND_LIMIT


# --- Uncontrolled Powers: mandatory gain before choosing ---------------------------------------


def forced_gain_options() -> list[Action]:
    return [{"type": "gain", "ingredient": INGREDIENTS[k]} for k in readings.FORCED_GAIN_TYPES]


def forced_gain(state: State, seat: int, witch: Witch, action: Action, events: list[Event]) -> None:
    """Take 3 cubes of one type onto her own workbench; what does not fit scores for the player on
    her left [RULEBOOK clarification]."""
    name = action.get("ingredient")
    kind = INGREDIENT_INDEX.get(name) if isinstance(name, str) else None
    if kind is None or kind not in readings.FORCED_GAIN_TYPES:
        raise IllegalAction("unknown_ingredient", f"cannot gain {name!r}")
    cubes = [0, 0, 0, 0, 0]
    cubes[kind] = readings.FORCED_GAIN
    placed, overflow = place(witch.workbench, cubes)
    witch.gain_due = False
    receiver = left_of(seat, state.players)
    if any(overflow):
        neighbour = state.witches[receiver] = state.witches[receiver].copy()
        for k in range(5):
            neighbour.circle[k] += overflow[k]
    events.append(
        {
            "type": "forced_gain",
            "seat": seat,
            "placed": cube_dict(placed),
            "overflow": cube_dict(overflow),
            "overflow_to": receiver,
        }
    )


# --- Initiate: once per game, swap the whole hand ----------------------------------------------


def can_swap(state: State, witch: Witch) -> bool:
    return has_power(witch, "hand_swap") and bool(witch.hand or state.deck or state.discard)


def hand_swap(state: State, seat: int, witch: Witch, action: Action, events: list[Event]) -> None:
    """Discard this personality and the whole hand, draw 4 new recipes (reading: before choosing,
    so the new cards can be played this round; the old hand goes to the discard pile)."""
    state.deck = state.deck[:]
    state.discard = state.discard + witch.hand
    witch.hand, reshuffled = draw(state, readings.INITIATE_SWAP_DRAW)
    witch.personality = None
    if reshuffled:
        events.append({"type": "deck_reshuffled"})
    events.append({"type": "hand_swapped", "seat": seat, "drawn": len(witch.hand)})
    events.append(private({"type": "cards_drawn", "cards": witch.hand[:]}, seat))


# --- Daredevil: a random card, and one extra arcana named with it ------------------------------


def random_play(state: State, seat: int, witch: Witch, action: Action, events: list[Event]) -> None:
    """The engine picks the card from its own stream for (round, seat), so the pick does not depend
    on when the other witches choose (reading 8)."""
    rng = Rng.load(state.rng).derive(state.round, seat)
    card = witch.hand[rng.below(len(witch.hand))]
    witch.hand.remove(card)
    witch.played = Played(card, False, True, None)
    events.append({"type": "random_play", "seat": seat})
    events.append(private({"type": "random_card", "card": card}, seat))


def confirm_random_options(witch: Witch, reversible: bool) -> list[Action]:
    assert witch.played is not None
    rotations = (False, True) if reversible else (False,)
    return [
        {"type": "confirm_random", "rotated": rotated, "arcana": extra}
        for rotated in rotations
        for extra in (None, *ARCANA)
    ]


def confirm_random(witch: Witch, action: Action, reversible: bool) -> None:
    assert witch.played is not None
    rotated = action.get("rotated", False)
    extra = action.get("arcana")
    if not isinstance(rotated, bool):
        raise IllegalAction("bad_action", "rotated must be true or false")
    if rotated and not reversible:
        raise IllegalAction("cannot_rotate", "this recipe is one-way")
    if extra is not None and extra not in ARCANA:
        raise IllegalAction("unknown_arcana", f"no arcana called {extra!r}")
    witch.played.rotated = rotated
    witch.played.extra_arcana = extra
    witch.committed = True


# --- Spellbook Scholar: 2 mandrakes buy an extra Book, once a round ----------------------------


def scholar_options(witch: Witch) -> list[Action]:
    prod = witch.brew
    if prod is None or prod.scholar or not has_power(witch, "scholar_book"):
        return []
    cost = readings.SCHOLAR_COST
    ways = []
    for from_outputs in range(min(cost, prod.outputs[MANDRAKE]) + 1):
        from_wb = cost - from_outputs
        if from_wb <= prod.workbench[MANDRAKE]:
            take: dict[str, dict[str, int]] = {}
            if from_wb:
                take["workbench"] = {"mandrake": from_wb}
            if from_outputs:
                take["outputs"] = {"mandrake": from_outputs}
            ways.append(take)
    return [
        {"type": "scholar", "ingredient": INGREDIENTS[k], "take": take}
        for take in ways
        for k in range(5)
        if k not in prod.books
    ]


def scholar(witch: Witch, action: Action) -> dict[str, Any]:
    prod = witch.brew
    assert prod is not None
    if not has_power(witch, "scholar_book"):
        raise IllegalAction("no_power", "only the Spellbook Scholar can do that")
    if prod.scholar:
        raise IllegalAction("once_per_round", "the Scholar's book is once per round")
    take = action.get("take")
    if not isinstance(take, dict) or set(take) - {"workbench", "outputs"} or not take:
        raise IllegalAction("bad_action", "take mandrakes from workbench and/or outputs")
    from_wb = parse_cubes(take.get("workbench", {}), "take.workbench")
    from_out = parse_cubes(take.get("outputs", {}), "take.outputs")
    if any(from_wb[k] or from_out[k] for k in range(5) if k != MANDRAKE) or (
        from_wb[MANDRAKE] + from_out[MANDRAKE] != readings.SCHOLAR_COST
    ):
        cost = readings.SCHOLAR_COST
        raise IllegalAction("wrong_inputs", f"the Scholar spends exactly {cost} mandrakes")
    if from_wb[MANDRAKE] > prod.workbench[MANDRAKE] or from_out[MANDRAKE] > prod.outputs[MANDRAKE]:
        raise IllegalAction("cannot_afford", "not enough mandrakes there")
    name = action.get("ingredient")
    kind = INGREDIENT_INDEX.get(name) if isinstance(name, str) else None
    if kind is None:
        raise IllegalAction("unknown_ingredient", f"no ingredient called {name!r}")
    if kind in prod.books:
        raise IllegalAction("already_named", f"a Book already names {name}")
    prod.workbench[MANDRAKE] -= from_wb[MANDRAKE]
    prod.outputs[MANDRAKE] -= from_out[MANDRAKE]
    prod.books.append(kind)
    prod.scholar = True
    return {"type": "book_named", "ingredient": name, "by": "scholar"}


# --- Witch of All Trades: one cube from a full cauldron into her own circle --------------------


def claim_options(witch: Witch) -> list[Action]:
    prod = witch.brew
    if prod is None or not has_power(witch, "claim_from_cauldron"):
        return []
    contents = [prod.cauldron[k] + prod.outputs[k] for k in range(5)]
    if not all(contents):
        return []
    return [{"type": "claim", "ingredient": name} for name in INGREDIENTS]


def claim(witch: Witch, action: Action) -> dict[str, Any]:
    """After producing, before the pass [RULEBOOK]: claiming ends her production."""
    prod = witch.brew
    assert prod is not None
    if not claim_options(witch):
        raise IllegalAction(
            "cannot_claim",
            "the Witch of All Trades claims only from a cauldron holding all five types",
        )
    name = action.get("ingredient")
    kind = INGREDIENT_INDEX.get(name) if isinstance(name, str) else None
    if kind is None:
        raise IllegalAction("unknown_ingredient", f"no ingredient called {name!r}")
    if prod.outputs[kind]:
        prod.outputs[kind] -= 1
    else:
        prod.cauldron[kind] -= 1
    prod.claimed[kind] += 1  # it reaches her circle when the cauldrons pass
    return {"type": "cube_claimed", "ingredient": name}
