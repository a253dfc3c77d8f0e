"""A one-ply evaluation for the greedy bot (``Game.evaluate``): score so far plus resources.

Drops and gold are worth a fraction of a VP each (a cheap cauldron turns 1–2 drops into 2 VP;
gold buys vials and shelves); the value is relative to the best other player, so that taking
from others (the thieves) counts too.
"""

from __future__ import annotations

from engine.brew.scoring import leftovers, score
from engine.brew.state import State, Witch

DROP_VALUE = 0.6
GOLD_VALUE = 0.4
WIN_BONUS = 100.0


def worth(witch: Witch) -> float:
    return score(witch) + DROP_VALUE * sum(witch.drops.values()) + GOLD_VALUE * witch.gold


def evaluate(state: State, seat: int) -> float:
    if state.result is not None:
        place = state.result["placings"][seat]
        return (WIN_BONUS if place == 1 else -place) + 0.01 * leftovers(state.witches[seat])
    mine = worth(state.witches[seat])
    best_other = max(worth(w) for s, w in enumerate(state.witches) if s != seat)
    return mine - best_other
