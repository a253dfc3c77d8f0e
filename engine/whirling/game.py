"""Whirling Witchcraft behind the engine protocol."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.protocol import PRIVATE, PUBLIC, Action, IllegalAction, Result, Step, parse_options
from engine.whirling import determinize, heuristic, rules, view
from engine.whirling.cards import CAPACITY, INGREDIENTS, PERSONALITIES, RECIPES, recipe_table
from engine.whirling.options import WhirlingOptions
from engine.whirling.state import State


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
    }
    description: ClassVar[str] = (
        "Turn ingredients into more ingredients and pour them on the witch to your right: "
        "whatever she cannot fit on her workbench scores for you. First to 5 wins."
    )

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise IllegalAction(
                "bad_player_count",
                f"{self.title} is for {self.min_players} to {self.max_players} players",
            )
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
        r = state.result
        if r is None:
            return None
        return Result(r["winners"], r["scores"], r["reason"], r.get("details", {}))

    def stage(self, state: State) -> str:
        return f"{state.round}:{state.phase}"

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
            "variants": {
                "R16": view.catalog_recipe(recipe_table(flask_symmetric=True)["R16"]),
                "R24": view.catalog_recipe(recipe_table(summoning_one_way=True)["R24"]),
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
                    "status": p.status,
                }
                for p in PERSONALITIES
            },
        }
