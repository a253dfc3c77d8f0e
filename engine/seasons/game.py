"""Seasons behind the engine protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine import adapter
from engine.protocol import PRIVATE, PUBLIC
from engine.seasons import RULES_VERSION, determinize, heuristic, rules, undo_barriers, view
from engine.seasons import statistics as figures
from engine.seasons.cards import CARDS, ENERGIES
from engine.seasons.dice import DICE, SEASONS
from engine.seasons.options import SeasonsOptions
from engine.seasons.state import State, energy_dict


class Seasons(adapter.SearchableRulesGame):
    id: ClassVar[str] = "seasons"
    rules_version: ClassVar[str] = RULES_VERSION
    title: ClassVar[str] = "Seasons"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[type[BaseModel]] = SeasonsOptions
    event_types: ClassVar[Mapping[str, str]] = {
        "undone": PUBLIC,  # engine.undo: a seat took back its last step
        "undone_privately": PRIVATE,  # engine.undo: the same, of a step only she could see
        # the table: everyone sees these
        "draft_picked": PUBLIC, "draft_passed": PUBLIC,
        "draft_over": PUBLIC, "libraries_built": PUBLIC, "round_started": PUBLIC,
        "die_taken": PUBLIC, "turn_started": PUBLIC, "die_resolved": PUBLIC,
        "card_drawn": PUBLIC, "cards_to_hand": PUBLIC, "card_discarded": PUBLIC,
        "energy_gained": PUBLIC, "energy_chosen": PUBLIC, "energy_discarded": PUBLIC,
        "energy_exchanged": PUBLIC, "crystals_gained": PUBLIC, "crystals_lost": PUBLIC,
        "crystals_given": PUBLIC, "gauge_changed": PUBLIC, "bonus_used": PUBLIC,
        "transmuted": PUBLIC, "card_summoned": PUBLIC, "card_put_into_play": PUBLIC,
        "card_activated": PUBLIC, "card_sacrificed": PUBLIC, "card_returned": PUBLIC,
        "card_moved": PUBLIC, "card_revealed": PUBLIC, "die_rerolled": PUBLIC,
        "turn_ended": PUBLIC, "marker_moved": PUBLIC, "year_changed": PUBLIC,
        "season_changed": PUBLIC, "deck_reshuffled": PUBLIC, "deck_empty": PUBLIC,
        "reserve_changed": PUBLIC, "game_over": PUBLIC,
        # one seat's own cards
        "draft_offer": PRIVATE, "cards_received": PRIVATE,
        "you_drew": PRIVATE, "you_discarded": PRIVATE, "cards_seen": PRIVATE,
    }
    benchmark_options: ClassVar[list[dict[str, Any]]] = [
        {"level": "apprentice"}, {"level": "master"}
    ]
    description: ClassVar[str] = (
        "Three years of a sorcerers' tournament: take a season die each round, gather energy, "
        "summon power cards and turn energy into crystals. Most crystals and prestige wins."
    )
    # where the protocol's calls go (engine/adapter.py)
    rules = rules
    views = view
    state_class = State
    undo_barriers = undo_barriers
    determinizer = determinize
    heuristic = heuristic
    # each sorcerer's own figures of a finished match, for history (statistics.py)
    statistic_names: ClassVar[tuple[str, ...]] = figures.FIGURES
    figures = figures

    def catalog(self) -> dict[str, Any]:
        """Static data for renderers: every card and every die face."""
        return {
            "energies": list(ENERGIES),
            "cards": {
                str(c.num): {
                    "num": c.num,
                    "name": c.name,
                    "kind": c.kind,
                    "level": c.level,
                    "cost": [
                        {"energy": energy_dict(cost.energy), "crystals": cost.crystals}
                        for cost in c.costs
                    ],
                    "choice_cost": c.choice_cost,
                    "pp": c.pp,
                    "timing": list(c.timing),
                    "effect": c.effect,
                    "rulings": list(c.rulings),
                    "first_edition": (
                        {
                            "cost": [{"energy": energy_dict(x.energy), "crystals": x.crystals}
                                     for x in c.first_edition.costs],
                            "effect": c.first_edition.effect,
                        }
                        if c.first_edition
                        else None
                    ),
                }
                for c in CARDS
            },
            "dice": {
                season: [[view.face_view(season, d, s) for s in range(6)]
                         for d in range(len(DICE[season]))]
                for season in SEASONS
            },
        }
