"""Whirling Witchcraft behind the engine protocol."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.protocol import (
    PRIVATE,
    PUBLIC,
    Action,
    Result,
    Step,
    check_player_count,
    parse_options,
)
from engine.whirling import determinize, heuristic, rules, view
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


class WhirlingWitchcraft:
    id: ClassVar[str] = "whirling-witchcraft"
    title: ClassVar[str] = "Whirling Witchcraft"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options: ClassVar[type[BaseModel]] = WhirlingOptions
    event_types: ClassVar[Mapping[str, str]] = {
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

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        check_player_count(self, players)
        opts = parse_options(self, options)
        assert isinstance(opts, WhirlingOptions)
        return rules.setup(players, seed, opts)

    def to_move(self, state: State) -> frozenset[int]:
        return rules.to_move(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def apply(self, state: State, seat: int, action: Action) -> Step:
        return rules.apply(state, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def result(self, state: State) -> Result | None:
        return Result.from_dict(state.result)

    def stage(self, state: State) -> str:
        # Open production passes the turn from witch to witch inside one phase: a stale re-send
        # from the previous brewer must land in another stage.
        current = rules.brewer(state)
        return f"{state.round}:{state.phase}" + ("" if current is None else f":{current}")

    def dump(self, state: State) -> dict[str, Any]:
        return state.dump()

    def load(self, data: dict[str, Any]) -> State:
        return State.load(data)

    def determinize(self, seen: dict[str, Any], seat: int, rng: random.Random) -> State:
        return determinize.determinize(seen, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return heuristic.evaluate(state, seat)

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
