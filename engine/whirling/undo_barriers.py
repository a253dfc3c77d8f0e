"""Whirling Witchcraft's steps that can never be taken back (``engine.undo`` adds its own).

What may be undone: a personality kept, a recipe played face down while the round's choice is
still open (before everyone chose), the steps of one's own production. A step is a barrier when
it ends a phase or round (the choice resolved, the recipes revealed) or moves a card from the
deck or the discard pile.
"""

from __future__ import annotations

from engine.protocol import Action, Event
from engine.whirling.state import State


def barrier(before: State, after: State, seat: int, action: Action, events: list[Event], /) -> bool:
    return (
        before.phase != after.phase
        or before.round != after.round
        or len(before.deck) != len(after.deck)
        or len(before.discard) != len(after.discard)
    )
