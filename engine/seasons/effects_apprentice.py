"""The effects of cards 1–30 (the apprentice level), one small class per card, registered by
number. The data (cost, prestige, timing, rulings) is in ``cards.py``; README.md, "Adding a card
effect", says where each hook is called and how a choice is asked.
"""

from __future__ import annotations

from engine.protocol import Event
from engine.seasons.effects import Effect, Entry, effect
from engine.seasons.state import InPlay, State
from engine.seasons.table import add_gauge, gain_crystals


@effect(1)
class AmuletOfAir(Effect):
    """+2 summoning gauge (never above 15)."""

    def on_entry(self, state: State, seat: int, entry: InPlay, how: Entry,
                 events: list[Event]) -> None:
        add_gauge(state, seat, 2, events, "card:1")


@effect(3)
class AmuletOfEarth(Effect):
    """+9 crystals."""

    def on_entry(self, state: State, seat: int, entry: InPlay, how: Entry,
                 events: list[Event]) -> None:
        gain_crystals(state, seat, 9, events, "card:3")


@effect(29)
class OlafsBlessedStatue(Effect):
    """+20 crystals."""

    def on_entry(self, state: State, seat: int, entry: InPlay, how: Entry,
                 events: list[Event]) -> None:
        gain_crystals(state, seat, 20, events, "card:29")
