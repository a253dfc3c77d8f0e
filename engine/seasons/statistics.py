"""Each sorcerer's own figures of a finished match, for her history (``Game.statistics``).

Counted from the public events (summons, activations, transmutations are played face up),
and the prestige from the final position, as the score sheet shows it.
"""

from __future__ import annotations

from engine.protocol import Event, Figures, count_events, zero_figures
from engine.seasons.cards import CARD
from engine.seasons.state import State

FIGURES: tuple[str, ...] = (
    "cards_summoned", "cards_activated", "crystals_transmuted", "prestige", "bonuses_used",
)
"""In the order a table shows them:

- ``cards_summoned``: power cards she summoned from her hand (not those an effect put in play);
- ``cards_activated``: activations of her cards in play;
- ``crystals_transmuted``: crystals she gained by transmuting energy;
- ``prestige``: prestige points of her cards in play at the end;
- ``bonuses_used``: bonus actions she took (each one costs points at the end).
"""

_COUNTED = {
    "card_summoned": "cards_summoned",
    "card_activated": "cards_activated",
    "bonus_used": "bonuses_used",
}


def statistics(state: State, events: list[Event]) -> list[Figures]:
    figures = zero_figures(FIGURES, state.players)
    count_events(figures, events, _COUNTED)
    for event in events:
        if event.get("type") == "transmuted":
            figures[event["seat"]]["crystals_transmuted"] += event["crystals"]
    for seat, player in enumerate(state.seats):
        figures[seat]["prestige"] = sum(CARD[entry.card].pp for entry in player.in_play)
    return figures
