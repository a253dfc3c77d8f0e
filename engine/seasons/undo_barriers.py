"""Seasons' steps that can never be taken back (``engine.undo`` adds its own: a die rolled, a
private event to another seat, the turn passed).

What may be undone: a draft pick before the cards pass, library building, and the steps of a
turn that reveal nothing: taking energy, transmuting, crystallizing, moving the gauge. A step is
a barrier when it ends a phase, a draft round or a month, moves a card from the deck or to the
discard pile, shows a card to anyone (``cards_seen``, a draw), or, during the year, changes a
hand (a card summoned from a hand is revealed to the table).
"""

from __future__ import annotations

from engine.protocol import Action, Event
from engine.seasons.state import State

SECRET_PHASES = frozenset({"draft", "build"})
"""Phases of hidden simultaneous choices, where a card leaving a hand stays hidden."""

REVEALING_EVENTS = frozenset({"cards_seen", "you_drew", "cards_received", "draft_offer"})


def barrier(before: State, after: State, seat: int, action: Action, events: list[Event], /) -> bool:
    if (
        before.phase != after.phase
        or before.draft_round != after.draft_round
        or before.month != after.month
        or before.year != after.year
        or before.round != after.round
        or len(before.deck) != len(after.deck)
        or len(before.discard) != len(after.discard)
    ):
        return True
    for e in events:  # loops, not generators: this runs after every step
        if e.get("type") in REVEALING_EVENTS:
            return True
    if before.phase not in SECRET_PHASES:
        for b, a in zip(before.seats, after.seats, strict=True):
            if b is not a and b.hand != a.hand:  # a seat apply never read is shared
                return True
    return False
