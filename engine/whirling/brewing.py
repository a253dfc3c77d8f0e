"""Using one recipe during the brew phase: which ways are possible, and checking one.

A use is written as an action::

    {"type": "brew", "recipe": "R24",
     "take": {"workbench": {"mushroom": 1}, "outputs": {"mushroom": 1}},
     "make": {"mandrake": 1, "spider": 2}}

``take`` says where every input cube comes from: the workbench, the output slots of recipes
already used this round (chaining: such a cube is never sent), or the supply for a type named by a
Book this round. ``make`` is the total output, either/or slots already chosen. Counts are positive
integers; empty sources are left out. The inputs are always filled completely [RULEBOOK].
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import product
from typing import Any

from engine.protocol import IllegalAction
from engine.whirling.cards import INGREDIENT_INDEX, INGREDIENTS, Cubes, Face
from engine.whirling.state import Production

SOURCES = ("workbench", "outputs", "supply")


def cube_dict(vec: list[int] | tuple[int, ...]) -> dict[str, int]:
    """``[0, 1, 2, 0, 0]`` → ``{"mandrake": 1, "mushroom": 2}``."""
    return {INGREDIENTS[i]: n for i, n in enumerate(vec) if n}


def parse_cubes(raw: Any, what: str) -> list[int]:
    """A ``{"toad": 2}`` object from an action, strictly: known types, positive integers."""
    if not isinstance(raw, Mapping):
        raise IllegalAction("bad_action", f"{what} must be an object of ingredient counts")
    vec = [0, 0, 0, 0, 0]
    for key, count in raw.items():
        index = INGREDIENT_INDEX.get(key) if isinstance(key, str) else None
        if index is None:
            raise IllegalAction("unknown_ingredient", f"{what}: no ingredient called {key!r}")
        if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
            raise IllegalAction("bad_action", f"{what}: {key} must be a positive whole number")
        vec[index] = count
    return vec


def _splits(need: int, workbench: int, outputs: int, supply: bool) -> list[tuple[int, int, int]]:
    """Every way to take ``need`` cubes of one type: (from workbench, from outputs, from supply)."""
    ways = []
    for from_outputs in range(min(need, outputs) + 1):
        rest = need - from_outputs
        if supply:
            for from_supply in range(rest + 1):
                if rest - from_supply <= workbench:
                    ways.append((rest - from_supply, from_outputs, from_supply))
        elif rest <= workbench:
            ways.append((rest, from_outputs, 0))
    return ways


def _takes(need: Cubes, prod: Production) -> Iterator[dict[str, dict[str, int]]]:
    per_type: list[list[tuple[int, int, int, int]]] = []
    for kind in range(5):
        if need[kind]:
            supply = kind in prod.books
            splits = _splits(need[kind], prod.workbench[kind], prod.outputs[kind], supply)
            if not splits:
                return
            per_type.append([(kind, *s) for s in splits])
    for combo in product(*per_type):
        take: dict[str, dict[str, int]] = {}
        for kind, from_wb, from_out, from_supply in combo:
            for source, n in zip(SOURCES, (from_wb, from_out, from_supply), strict=True):
                if n:
                    take.setdefault(source, {})[INGREDIENTS[kind]] = n
        yield take


def uses(recipe_id: str, face: Face, prod: Production) -> list[dict[str, Any]]:
    """Every distinct way to use this recipe now (empty when it cannot be afforded)."""
    makes = [cube_dict(total) for total in sorted(face.output_totals)]
    actions: list[dict[str, Any]] = []
    for need in sorted(face.input_totals):
        for take in _takes(need, prod):
            for make in makes:
                actions.append({"type": "brew", "recipe": recipe_id, "take": take, "make": make})
    return actions


def can_use(face: Face, prod: Production) -> bool:
    for need in face.input_totals:
        if all(
            need[k] <= prod.workbench[k] + prod.outputs[k] or (k in prod.books)
            for k in range(5)
            if need[k]
        ):
            return True
    return False


def check_use(face: Face, prod: Production, action: Mapping[str, Any]) -> tuple[
    list[int], list[int], list[int], list[int]
]:
    """Validate one ``brew`` action against the recipe face and the production sheet.

    Returns ``(from_workbench, from_outputs, from_supply, make)`` as cube vectors.
    """
    take = action.get("take", {})
    if not isinstance(take, Mapping) or any(k not in SOURCES for k in take):
        raise IllegalAction("bad_action", "take must name sources among workbench, outputs, supply")
    if any(not v for v in take.values()):
        raise IllegalAction("bad_action", "leave out a source you take nothing from")
    from_wb = parse_cubes(take.get("workbench", {}), "take.workbench")
    from_out = parse_cubes(take.get("outputs", {}), "take.outputs")
    from_supply = parse_cubes(take.get("supply", {}), "take.supply")
    make = parse_cubes(action.get("make", {}), "make")
    need = tuple(from_wb[k] + from_out[k] + from_supply[k] for k in range(5))
    if need not in face.input_totals:
        raise IllegalAction(
            "wrong_inputs", f"the inputs {cube_dict(need) or 'nothing'} do not fill this recipe"
        )
    if tuple(make) not in face.output_totals:
        raise IllegalAction(
            "wrong_outputs", f"this recipe cannot make {cube_dict(make) or 'nothing'}"
        )
    for k in range(5):
        if from_wb[k] > prod.workbench[k]:
            raise IllegalAction(
                "cannot_afford", f"your workbench holds only {prod.workbench[k]} {INGREDIENTS[k]}"
            )
        if from_out[k] > prod.outputs[k]:
            raise IllegalAction(
                "cannot_afford",
                f"your output slots hold only {prod.outputs[k]} {INGREDIENTS[k]}",
            )
        if from_supply[k] and k not in prod.books:
            raise IllegalAction(
                "no_book", f"no Book lets you take {INGREDIENTS[k]} from the supply this round"
            )
    return from_wb, from_out, from_supply, make
