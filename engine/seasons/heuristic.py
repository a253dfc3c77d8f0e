"""A one-ply score of a position for one seat (the ``greedy`` bot): the seat's projected final
score against the best opponent's, with energy, gauge and cards in hand valued on top.

The projection is the final formula applied now (crystals + prestige in play − 5 per card in
hand − bonus penalty), plus what the reserve would transmute for in the current season, a small
value for each gauge slot still free and for each card in hand (a card not yet summoned costs
5 at the end but is worth its prestige once in play).
"""

from __future__ import annotations

from engine.seasons import readings
from engine.seasons.cards import CARD
from engine.seasons.scoring import score_parts
from engine.seasons.state import State

GAUGE_SLOT = 1.5
CARD_IN_HAND = 4.0  # offsets most of the −5: a card in hand is a future summon


def _projected(state: State, seat: int) -> float:
    player = state.seats[seat]
    if state.result is not None:
        return float(state.result["scores"][seat])
    parts = score_parts(state, seat)
    values = readings.TRANSMUTE_VALUES[state.season]
    energy = sum(n * values[k] for k, n in enumerate(player.energy))
    free_slots = max(0, player.gauge - len(player.in_play))
    # library cards join the hand later: counted alike, so building libraries is neutral
    waiting = player.hand + player.libraries[0] + player.libraries[1]
    hand_value = sum(CARD_IN_HAND + 0.3 * max(0, CARD[c].pp) for c in waiting)
    return parts["total"] + energy + GAUGE_SLOT * min(free_slots, len(player.hand)) + hand_value


def evaluate(state: State, seat: int) -> float:
    mine = _projected(state, seat)
    best_other = max(_projected(state, s) for s in range(state.players) if s != seat)
    return mine - best_other
