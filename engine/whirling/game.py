"""Whirling Witchcraft behind the engine protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine import adapter
from engine.protocol import PRIVATE, PUBLIC
from engine.whirling import RULES_VERSION, determinize, heuristic, rules, undo_barriers, view
from engine.whirling import statistics as figures
from engine.whirling.arcana import arcana_names
from engine.whirling.cards import (
    ALTERNATIVES,
    CAPACITY,
    INGREDIENTS,
    PERSONALITIES,
    RECIPES,
    recipe_table,
)
from engine.whirling.options import WhirlingOptions
from engine.whirling.state import State

# Every private step of a witch's production; in open production each is public as
# ``<type>_openly`` with her ``seat`` (rules._brewing_event).
OPEN_PRODUCTION_STEPS = (
    "brewed", "potion_brewed", "raven_removed", "book_named", "cube_poured", "arcana_declined",
    "cube_claimed",
)


class WhirlingWitchcraft(adapter.SearchableRulesGame):
    id: ClassVar[str] = "whirling-witchcraft"
    rules_version: ClassVar[str] = RULES_VERSION
    title: ClassVar[str] = "Whirling Witchcraft"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options: ClassVar[type[BaseModel]] = WhirlingOptions
    event_types: ClassVar[Mapping[str, str]] = {
        "undone": PUBLIC,  # engine.undo: a seat took back its last step
        "undone_privately": PRIVATE,  # engine.undo: the same, of a step only she could see
        # the table: everyone sees these
        "personality_kept": PUBLIC, "personalities_revealed": PUBLIC, "round_started": PUBLIC,
        "recipe_chosen": PUBLIC, "random_play": PUBLIC, "hand_swapped": PUBLIC,
        "recipes_revealed": PUBLIC, "brewing_done": PUBLIC, "personality_discarded": PUBLIC,
        "production": PUBLIC, "cauldron_passed": PUBLIC, "recipe_turned": PUBLIC,
        "hands_passed": PUBLIC, "deck_reshuffled": PUBLIC, "deck_empty": PUBLIC,
        "game_over": PUBLIC,
        # one witch's own hand and her blind production
        "cards_drawn": PRIVATE, "hand_received": PRIVATE, "random_card": PRIVATE,
        "brewed": PRIVATE, "potion_brewed": PRIVATE, "raven_removed": PRIVATE,
        "book_named": PRIVATE, "cube_poured": PRIVATE, "arcana_declined": PRIVATE,
        "cube_claimed": PRIVATE,
        # the same steps when production is open (room option production="initiative")
        **{f"{kind}_openly": PUBLIC for kind in OPEN_PRODUCTION_STEPS},
    }
    description: ClassVar[str] = (
        "Turn ingredients into more ingredients and pour them on the witch to your right: "
        "whatever she cannot fit on her workbench scores for you. First to 5 wins."
    )
    # where the protocol's calls go (engine/adapter.py)
    rules = rules
    views = view
    state_class = State
    undo_barriers = undo_barriers
    determinizer = determinize
    heuristic = heuristic
    # each witch's own figures of a finished match, for history (statistics.py)
    statistic_names: ClassVar[tuple[str, ...]] = figures.FIGURES
    figures = figures

    def catalog(self) -> dict[str, Any]:
        """Static card data for renderers: every recipe, personality and ingredient."""
        table = recipe_table()
        return {
            "ingredients": [
                {"key": name, "capacity": CAPACITY[i]} for i, name in enumerate(INGREDIENTS)
            ],
            "recipes": {r.id: view.catalog_recipe(table[r.id]) for r in RECIPES},
            # Room option → the cards it replaces, in that reading.
            "variants": {
                option: {r.id: view.catalog_recipe(r) for r in cards}
                for option, cards in ALTERNATIVES.items()
            },
            "personalities": {
                p.id: {
                    "id": p.id,
                    "name": p.name,
                    "name_ja": p.name_ja,
                    "power": p.power,
                    "start": dict(zip(INGREDIENTS, p.start, strict=True)),
                    "hand_limit": p.hand_limit,
                    "discard_on_use": p.discard_on_use,
                    "initiate": p.initiate,
                    "recipe": view.catalog_recipe(p.recipe) if p.recipe else None,
                    "arcana_on_flip": arcana_names(p.arcana_on_flip),
                    "status": p.status,
                }
                for p in PERSONALITIES
            },
        }
