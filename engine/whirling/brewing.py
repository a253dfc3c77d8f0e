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

from collections.abc import Mapping
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
    if type(raw) is not dict and not isinstance(raw, Mapping):  # the type test first: faster
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


_Part = tuple[tuple[int, int, str], ...]
_Shape = tuple[tuple[Cubes, ...], tuple[dict[str, int], ...], tuple[_Part, ...]]
_SHAPES: dict[int, tuple[Face, _Shape]] = {}


def _shape(face: Face) -> _Shape:
    """A face's input totals in order, its output totals as objects, and each input total's
    counts as ``(type, count, name)`` (no zero), worked out once (the faces are the catalog's,
    they live as long as the program)."""
    found = _SHAPES.get(id(face))
    if found is None or found[0] is not face:
        needs = tuple(sorted(face.input_totals))
        makes = tuple(cube_dict(total) for total in sorted(face.output_totals))
        parts = tuple(
            tuple((k, n, INGREDIENTS[k]) for k, n in enumerate(need) if n) for need in needs
        )
        found = _SHAPES[id(face)] = (face, (needs, makes, parts))
    return found[1]


def uses(recipe_id: str, face: Face, prod: Production) -> list[dict[str, Any]]:
    """Every distinct way to use this recipe now (empty when it cannot be afforded). The
    ``make`` objects are shared between calls: never change an action."""
    _, makes, parts = _shape(face)
    actions: list[dict[str, Any]] = []
    workbench, outputs, books = prod.workbench, prod.outputs, prod.books
    # the usual case, early in the phase: no output slot holds a cube and no Book names a type,
    # so every input comes from the workbench: one take per input total, or none
    only_workbench = not books and not any(outputs)
    for part in parts:
        if only_workbench:
            for k, n, _ in part:
                if n > workbench[k]:
                    break
            else:
                take = {"workbench": {name: n for _, n, name in part}} if part else {}
                for make in makes:
                    actions.append(
                        {"type": "brew", "recipe": recipe_id, "take": take, "make": make}
                    )
            continue
        # every way to fill each type (from workbench, outputs, supply), then
        # every combination of those ways
        per_type: list[list[tuple[str, int, int, int]]] = []
        one_way = True  # every type needed comes from the workbench alone
        for k, n, name in part:
            on_slots = outputs[k]
            if not on_slots and k not in books:
                if n > workbench[k]:
                    break
                per_type.append([(name, n, 0, 0)])
                continue
            on_bench, supply = workbench[k], k in books
            ways = []
            for from_outputs in range(min(n, on_slots) + 1):
                rest = n - from_outputs
                if supply:
                    for from_supply in range(rest + 1):
                        if rest - from_supply <= on_bench:
                            ways.append((name, rest - from_supply, from_outputs, from_supply))
                elif rest <= on_bench:
                    ways.append((name, rest, from_outputs, 0))
            if not ways:
                break
            one_way = False
            per_type.append(ways)
        else:
            if one_way:
                take = {"workbench": {name: n for ((name, n, _, _),) in per_type}} if part else {}
                for make in makes:
                    actions.append(
                        {"type": "brew", "recipe": recipe_id, "take": take, "make": make}
                    )
                continue
            for combo in product(*per_type):
                take = {}  # sources in the order they first appear
                for name, from_wb, from_out, from_supply in combo:
                    if from_wb:
                        take.setdefault("workbench", {})[name] = from_wb
                    if from_out:
                        take.setdefault("outputs", {})[name] = from_out
                    if from_supply:
                        take.setdefault("supply", {})[name] = from_supply
                for make in makes:
                    actions.append(
                        {"type": "brew", "recipe": recipe_id, "take": take, "make": make}
                    )
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


def check_use(
    face: Face, prod: Production, action: Mapping[str, Any]
) -> tuple[list[int], list[int], list[int], list[int]]:
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
    w, o, f = from_wb, from_out, from_supply
    need = (
        w[0] + o[0] + f[0],
        w[1] + o[1] + f[1],
        w[2] + o[2] + f[2],
        w[3] + o[3] + f[3],
        w[4] + o[4] + f[4],
    )
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
