"""Witch's Brew behind the engine protocol."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.brew import determinize as _determinize
from engine.brew import heuristic, rules, view
from engine.brew.cards import ROLES, SPELLS, STACKS
from engine.brew.options import BrewOptions
from engine.brew.readings import POTION_DATA_IS_PLACEHOLDER
from engine.brew.state import State
from engine.protocol import (
    PRIVATE,
    PUBLIC,
    Action,
    Result,
    Step,
    check_player_count,
    parse_options,
)


class WitchsBrew:
    id: ClassVar[str] = "witchs-brew"
    title: ClassVar[str] = "Witch's Brew"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    options: ClassVar[type[BaseModel]] = BrewOptions
    event_types: ClassVar[Mapping[str, str]] = {
        # the table: everyone sees these
        "set_started": PUBLIC, "variant_shuffled": PUBLIC, "roles_chosen": PUBLIC,
        "lead_owed": PUBLIC, "role_led": PUBLIC, "passed": PUBLIC, "claimed": PUBLIC,
        "favor_taken": PUBLIC, "favor_declined": PUBLIC, "full_action_owed": PUBLIC,
        "full_action": PUBLIC, "full_action_declined": PUBLIC, "drop_given": PUBLIC,
        "shelf_bought": PUBLIC, "shelf_declined": PUBLIC, "round_ended": PUBLIC,
        "lead_passed": PUBLIC, "set_ended": PUBLIC, "spell_book_turned": PUBLIC,
        "game_over": PUBLIC,
        # one player's secret choice of roles
        "role_kept": PRIVATE, "role_unkept": PRIVATE, "hand_confirmed": PRIVATE,
    }
    description: ClassVar[str] = (
        "Keep 5 of your 12 roles in secret, then play them one by one: claim a role's full "
        "action (\"I am the Witch!\") and risk losing it, or settle for its favor (\"So be "
        "it!\"). Brew the most valuable potions."
    )

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        check_player_count(self, players)
        opts = parse_options(self, options)
        assert isinstance(opts, BrewOptions)
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
        """Constant while the roles are chosen (a simultaneous step); a new id after every
        sequential sub-action, so a re-sent one is refused as stale."""
        if state.phase == "choose":
            return f"{state.set}:choose"
        return f"{state.set}:{state.phase}:{state.turn}"

    def dump(self, state: State) -> dict[str, Any]:
        return state.dump()

    def load(self, data: dict[str, Any]) -> State:
        return State.load(data)

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return _determinize.determinize(view, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return heuristic.evaluate(state, seat)

    def catalog(self) -> dict[str, Any]:
        """Static data for renderers: the roles, the spells and every potion card."""
        return {
            "roles": {r.id: {"id": r.id, "name": r.name_en, "name_de": r.name_de,
                             "name_fr": r.name_fr, "name_es": r.name_es, "colour": r.colour,
                             "full": r.full_text, "favor": r.favor_text, "status": r.status}
                      for r in ROLES},
            "spells": {s.id: {"id": s.id, "name": s.name, "text": s.text, "status": s.status}
                       for s in SPELLS},
            "stacks": [{"id": s.id, "kind": s.kind, "cards": [c.as_dict() for c in s.cards]}
                       for s in STACKS],
            "potion_data_is_placeholder": POTION_DATA_IS_PLACEHOLDER,
        }
