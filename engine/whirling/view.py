"""What one seat may see (DESIGN.md: views are the security boundary).

Every view has the same shape. What a seat may not see is replaced in place by ``"hidden"``:
another witch's hand, her pending recipe (or personality) choice, her production sheet while the
brew phase runs (unless production is open: room option ``production: "initiative"``, where every
sheet is public, as at the table). Counts stay public. Never in any view: the deck order, the
discard pile's contents, the RNG state.
"""

from __future__ import annotations

from typing import Any

from engine.whirling.arcana import arcana_names
from engine.whirling.cards import ARCANA, INGREDIENTS
from engine.whirling.rules import brewer, decision_order
from engine.whirling.state import State, Witch

HIDDEN = "hidden"


def _cubes(vec: list[int]) -> dict[str, int]:
    return {name: vec[i] for i, name in enumerate(INGREDIENTS)}


def _production(witch: Witch) -> dict[str, Any] | None:
    prod = witch.brew
    if prod is None:
        return None
    return {
        "workbench": _cubes(prod.workbench),
        "outputs": _cubes(prod.outputs),
        "cauldron": _cubes(prod.cauldron),
        "used": prod.used[:],
        "triggers": prod.triggers[:],
        "books": [INGREDIENTS[k] for k in prod.books],
        "scholar_used": prod.scholar,
        "claimed": _cubes(prod.claimed),
    }


def _played(witch: Witch) -> dict[str, Any] | None:
    p = witch.played
    if p is None:
        return None
    return {
        "card": p.card,
        "rotated": p.rotated,
        "random": p.random,
        "extra_arcana": p.extra_arcana,
    }


def _witch(state: State, seat: int, witch: Witch, viewer: int | None) -> dict[str, Any]:
    mine = viewer == seat
    choosing = state.phase == "personality"
    own = state.recipes.get(witch.personality) if witch.personality else None
    return {
        "seat": seat,
        # In advanced mode the kept personality stays secret until everyone has kept one.
        "personality": witch.personality if (mine or not choosing) else HIDDEN,
        "offer": witch.offer[:] if mine else HIDDEN,
        "offer_count": len(witch.offer),
        "own_recipe": (
            {"recipe": own.id, "rotated": witch.rotated_own} if own and not choosing else None
        ),
        "hand": witch.hand[:] if mine else HIDDEN,
        "hand_count": len(witch.hand),
        "tableau": [{"card": card, "rotated": rotated} for card, rotated in witch.tableau],
        "workbench": _cubes(witch.workbench),
        "circle": _cubes(witch.circle),
        "circle_total": sum(witch.circle),
        "arcana": {name: witch.arcana[i] for i, name in enumerate(ARCANA)},
        "gain_due": witch.gain_due,
        "committed": witch.committed,
        "played": _played(witch) if mine else HIDDEN,
        "production": _production(witch) if mine or state.open_production else HIDDEN,
        "brewing": witch.brew is not None and not witch.brew.done,
        "done": witch.brew is not None and witch.brew.done,
    }


def view(state: State, viewer: int | None) -> dict[str, Any]:
    return {
        "game": "whirling-witchcraft",
        "round": state.round,
        "phase": state.phase,
        "players": [_witch(state, s, w, viewer) for s, w in enumerate(state.witches)],
        "deck_count": len(state.deck),
        "discard_count": len(state.discard),
        "decision_order": decision_order(state),
        "brewer": brewer(state),  # open production: whose turn it is to brew, else null
        "options": dict(state.options),
        "result": state.result,
    }


def catalog_recipe(recipe: Any) -> dict[str, Any]:
    def side(face: Any) -> dict[str, Any]:
        return {
            "in": {INGREDIENTS[k]: n for k, n in enumerate(face.inputs) if n},
            "in_choice": [[INGREDIENTS[k] for k in slot] for slot in face.input_choices],
            "out": {INGREDIENTS[k]: n for k, n in enumerate(face.outputs) if n},
            "out_choice": [[INGREDIENTS[k] for k in slot] for slot in face.output_choices],
        }

    return {
        "id": recipe.id,
        "name": recipe.name,
        "name_ja": recipe.name_ja,
        "family": recipe.family,
        "reversible": recipe.reversible,
        "arcana": arcana_names(recipe.arcana),
        "initiative": recipe.initiative,
        "single_use": recipe.single_use,
        "status": recipe.status,
        "front": side(recipe.face),
        "turned": side(recipe.face.turned()),
    }
