"""Witch's Brew's steps that can never be taken back (``engine.undo`` adds its own).

``keep`` and ``unkeep`` already reverse each other; undo adds the one step they cannot: a hand
confirmed while the simultaneous choice of roles is still open (the others have not all
confirmed, nobody has seen it). Every step of the played rounds is a barrier: each reveals a
role to the table, and the other witches answer it.
"""

from __future__ import annotations

from engine.brew.state import State
from engine.protocol import Action, Event


def barrier(before: State, after: State, seat: int, action: Action, events: list[Event], /) -> bool:
    return before.phase != "choose" or after.phase != "choose" or before.set != after.set
