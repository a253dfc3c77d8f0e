"""The three arcana tracks and their effects (sheet section 5).

A revealed recipe moves each token up one space per icon; reaching or passing an even space
(2, 4, 6) gives one trigger of that effect for this round [RULEBOOK]. Triggers are resolved by the
witch before she produces (reading 11), each used or declined; an unused one is lost.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from engine.protocol import Action, IllegalAction
from engine.whirling import readings
from engine.whirling.brewing import cube_dict, parse_cubes
from engine.whirling.cards import ARCANA, INGREDIENT_INDEX, INGREDIENTS
from engine.whirling.state import Production

# Potion Brewer's pour is resolved like an arcana trigger: one per potion icon on her new card.
TRIGGERS = ("potion", "raven", "book", "pour")


def advance(value: int, icons: int) -> tuple[int, int]:
    """Move a token ``icons`` spaces; return the new value and how many triggers it earned."""
    new = min(value + icons, readings.TRACK_MAX)
    earned = sum(1 for space in readings.TRIGGER_SPACES if value < space <= new)
    return new, earned


def _ingredient(action: Action) -> int:
    name = action.get("ingredient")
    index = INGREDIENT_INDEX.get(name) if isinstance(name, str) else None
    if index is None:
        raise IllegalAction("unknown_ingredient", f"no ingredient called {name!r}")
    return index


def options(prod: Production) -> list[Action]:
    """Every way to resolve one of the pending triggers, trigger by trigger."""
    actions: list[Action] = []
    for trigger in TRIGGERS:
        if trigger not in prod.triggers:
            continue
        if trigger == "potion":
            actions += [{"type": "potion", "ingredient": name} for name in INGREDIENTS]
        elif trigger == "raven":
            workbench = prod.workbench
            kinds = [k for k in range(5) if workbench[k]]
            # each pick is distinct (combinations_with_replacement); only its own types can be
            # short on the workbench
            for size in range(1, readings.RAVEN_REMOVES + 1):
                for pick in combinations_with_replacement(kinds, size):
                    vec = [0, 0, 0, 0, 0]
                    for k in pick:
                        vec[k] += 1
                    for k in pick:
                        if vec[k] > workbench[k]:
                            break
                    else:
                        actions.append({"type": "raven", "remove": cube_dict(vec)})
        elif trigger == "book":
            actions += [
                {"type": "book", "ingredient": INGREDIENTS[k]}
                for k in range(5)
                if k not in prod.books
            ]
        else:
            actions += [
                {"type": "pour", "ingredient": INGREDIENTS[k]}
                for k in range(5)
                if prod.workbench[k]
            ]
        actions.append({"type": "decline", "arcana": trigger})
    return actions


def resolve(prod: Production, action: Action) -> dict[str, Any]:
    """Apply one trigger action to ``prod`` (owned by the caller); return a private event body."""
    kind = action["type"]
    trigger = action.get("arcana") if kind == "decline" else kind
    if trigger not in prod.triggers:
        raise IllegalAction("no_trigger", f"you have no {trigger} effect to resolve this round")
    if kind == "decline":
        prod.triggers.remove(trigger)
        return {"type": "arcana_declined", "arcana": trigger}
    if kind == "potion":
        k = _ingredient(action)
        prod.cauldron[k] += 1
        result: dict[str, Any] = {"type": "potion_brewed", "ingredient": INGREDIENTS[k]}
    elif kind == "raven":
        vec = parse_cubes(action.get("remove"), "remove")
        if not 1 <= sum(vec) <= readings.RAVEN_REMOVES:
            raise IllegalAction(
                "bad_action", f"the raven removes 1 to {readings.RAVEN_REMOVES} cubes"
            )
        for k in range(5):
            if vec[k] > prod.workbench[k]:
                have = f"{prod.workbench[k]} {INGREDIENTS[k]}"
                raise IllegalAction("cannot_afford", f"your workbench holds only {have}")
        for k in range(5):
            prod.workbench[k] -= vec[k]
        result = {"type": "raven_removed", "cubes": cube_dict(vec)}
    elif kind == "book":
        k = _ingredient(action)
        if k in prod.books:
            raise IllegalAction("already_named", f"a Book already names {INGREDIENTS[k]}")
        prod.books.append(k)
        result = {"type": "book_named", "ingredient": INGREDIENTS[k]}
    else:  # pour: Potion Brewer moves a workbench cube of any type into her cauldron
        k = _ingredient(action)
        if not prod.workbench[k]:
            raise IllegalAction("cannot_afford", f"your workbench holds no {INGREDIENTS[k]}")
        prod.workbench[k] -= 1
        prod.cauldron[k] += 1
        result = {"type": "cube_poured", "ingredient": INGREDIENTS[k]}
    prod.triggers.remove(trigger)
    return result


def arcana_names(icons: tuple[int, int, int]) -> dict[str, int]:
    return {ARCANA[i]: n for i, n in enumerate(icons) if n}
