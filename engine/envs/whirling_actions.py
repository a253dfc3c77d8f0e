"""Whirling Witchcraft's every action, derived from the card catalog (``engine/whirling``).

The brew actions come from the game's own generators (``brewing.uses``, ``arcana.options``)
run on a production sheet that holds everything: every way to fill and use every face of every
recipe the room's card readings contain, with cubes from each source. Player count changes
nothing here; the room options ``flasks_as_converted`` and ``spider_summoning_one_way`` change
which recipes exist (hence the catalog key includes them).
"""

from __future__ import annotations

from typing import Any

from engine.protocol import Action
from engine.whirling import arcana, brewing, readings
from engine.whirling.cards import ARCANA, INGREDIENTS, PERSONALITIES, RECIPE_BY_ID, recipe_table
from engine.whirling.options import WhirlingOptions
from engine.whirling.state import Production

PLENTY = 20  # more cubes of each type than any recipe, raven or scholar can take


def _everything() -> Production:
    return Production(
        workbench=[PLENTY] * 5,
        outputs=[PLENTY] * 5,
        cauldron=[PLENTY] * 5,
        used=[],
        triggers=list(arcana.TRIGGERS),
        books=list(range(5)),
    )


def _scholar() -> list[Action]:
    cost = readings.SCHOLAR_COST
    takes: list[dict[str, dict[str, int]]] = []
    for from_outputs in range(cost + 1):
        take: dict[str, dict[str, int]] = {}
        if cost - from_outputs:
            take["workbench"] = {"mandrake": cost - from_outputs}
        if from_outputs:
            take["outputs"] = {"mandrake": from_outputs}
        takes.append(take)
    return [
        {"type": "scholar", "ingredient": name, "take": take}
        for take in takes
        for name in INGREDIENTS
    ]


def actions(players: int, options: dict[str, Any] | None) -> list[Action]:
    parsed = WhirlingOptions.model_validate(options or {})
    table = recipe_table(parsed.flasks_as_converted, parsed.spider_summoning_one_way)
    out: list[Action] = [{"type": "keep_personality", "personality": p.id} for p in PERSONALITIES]
    out += [{"type": "gain", "ingredient": INGREDIENTS[k]} for k in readings.FORCED_GAIN_TYPES]
    out += [{"type": "swap_hand"}, {"type": "play_random"}, {"type": "skip"}]
    out += [
        {"type": "confirm_random", "rotated": rotated, "arcana": extra}
        for rotated in (False, True)
        for extra in (None, *ARCANA)
    ]
    out += [
        {"type": "play", "card": card, "rotated": rotated}
        for card in RECIPE_BY_ID
        for rotated in (False, True)
    ]
    # every trigger: potion/book/pour × ingredient, raven × cubes removed, decline × arcana
    without_books = _everything()
    without_books.books = []
    out += arcana.options(without_books)
    full = _everything()
    for recipe in table.values():
        for rotated in (False, True):
            out += brewing.uses(recipe.id, recipe.side(rotated), full)
    out += _scholar()
    out += [{"type": "claim", "ingredient": name} for name in INGREDIENTS]
    out.append({"type": "done"})
    return out
