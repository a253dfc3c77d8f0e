"""Each witch's own figures of a finished match, for her history (``Game.statistics``).

Read from the public events (every lead, claim, favor, full action and purchase is announced
at the table), so no figure tells anything a seat did not see.
"""

from __future__ import annotations

from engine.brew.state import State
from engine.protocol import Event, Figures, count_events, zero_figures

FIGURES: tuple[str, ...] = (
    "roles_led", "roles_claimed", "full_actions", "favors_taken", "potions_brewed",
)
"""In the order a table shows them:

- ``roles_led``: roles she led ("I am the …!" as the leader);
- ``roles_claimed``: roles she claimed when answering, taking them over from the claimant;
- ``full_actions``: full actions she carried out as the last claimant (not declined);
- ``favors_taken``: "So be it!" favors she took;
- ``potions_brewed``: potion cards she took (by a favor, a full action or a shelf purchase).
"""

_COUNTED = {
    "role_led": "roles_led",
    "claimed": "roles_claimed",
    "full_action": "full_actions",
    "favor_taken": "favors_taken",
}
# The events through which a potion card enters a witch's play area (``card`` set).
_ACQUIRING = ("favor_taken", "full_action", "shelf_bought")


def statistics(state: State, events: list[Event]) -> list[Figures]:
    figures = zero_figures(FIGURES, state.players)
    count_events(figures, events, _COUNTED)
    for event in events:
        if event.get("type") in _ACQUIRING and event.get("card"):
            figures[event["seat"]]["potions_brewed"] += 1
    return figures
