"""Table geometry and cube movements shared by every phase.

Seats go clockwise. Seen from seat ``s`` [sheet, Conventions]: the player on her **left** is
``s + 1`` (she passes her hand there, and sends her overflow there… from the receiver's point of
view), the player on her **right** — her nemesis — is ``s - 1``: her cauldron goes there.
"""

from __future__ import annotations

from engine.rng import Rng
from engine.whirling import readings
from engine.whirling.cards import CAPACITY
from engine.whirling.state import State


def left_of(seat: int, players: int) -> int:
    return (seat + 1) % players


def right_of(seat: int, players: int) -> int:
    """The nemesis: the one who receives ``seat``'s cauldron."""
    return (seat - 1) % players


def place(workbench: list[int], cubes: list[int]) -> tuple[list[int], list[int]]:
    """Put ``cubes`` on ``workbench`` (changed in place) type by type; return (placed, overflow)."""
    placed = [0, 0, 0, 0, 0]
    overflow = [0, 0, 0, 0, 0]
    for kind in range(5):
        if cubes[kind]:
            room = max(0, CAPACITY[kind] - workbench[kind])
            placed[kind] = min(room, cubes[kind])
            overflow[kind] = cubes[kind] - placed[kind]
            workbench[kind] += placed[kind]
    return placed, overflow


def draw(state: State, count: int) -> tuple[list[str], bool]:
    """Draw up to ``count`` recipes from the deck of ``state`` (which the caller owns).

    An empty deck takes the discard pile, shuffled, as its new deck (reading 7); with neither,
    fewer cards are drawn. Returns the cards and whether a reshuffle happened.
    """
    drawn: list[str] = []
    reshuffled = False
    while len(drawn) < count:
        if not state.deck:
            if not (readings.RESHUFFLE_DISCARD and state.discard):
                break
            rng = Rng.load(state.rng)
            state.deck = state.discard[:]
            state.discard = []
            rng.shuffle(state.deck)
            state.rng = rng.dump()
            reshuffled = True
        take = min(count - len(drawn), len(state.deck))
        drawn.extend(state.deck[:take])
        state.deck = state.deck[take:]
    return drawn, reshuffled
