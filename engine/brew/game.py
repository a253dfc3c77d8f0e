"""Witch's Brew behind the engine protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine import adapter
from engine.brew import RULES_VERSION, determinize, heuristic, rules, undo_barriers, view
from engine.brew import statistics as figures
from engine.brew.cards import ROLES, SPELLS, STACKS, printed_stacks
from engine.brew.options import BrewOptions
from engine.brew.readings import POTION_DATA_IS_PLACEHOLDER
from engine.brew.state import State
from engine.protocol import PRIVATE, PUBLIC


class WitchsBrew(adapter.SearchableRulesGame):
    id: ClassVar[str] = "witchs-brew"
    rules_version: ClassVar[str] = RULES_VERSION
    title: ClassVar[str] = "Witch's Brew"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    options: ClassVar[type[BaseModel]] = BrewOptions
    event_types: ClassVar[Mapping[str, str]] = {
        "undone": PUBLIC,  # engine.undo: a seat took back its last step
        "undone_privately": PRIVATE,  # engine.undo: the same, of a step only she could see
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
        "it!\"). Brew the most valuable potions. The potion cards' costs and values are our "
        "reconstruction (the printed ones are not public), unless the server loaded the box's."
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
            # the box's cards, where the operator loaded them (room option potion_values)
            "printed_stacks": [
                {"id": s.id, "kind": s.kind, "cards": [c.as_dict() for c in s.cards]}
                for s in printed_stacks() or ()
            ],
        }
