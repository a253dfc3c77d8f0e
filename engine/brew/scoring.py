"""Ravens, scores and the tie-break (sheet sections 9 and 10, [RULEBOOK])."""

from __future__ import annotations

from engine.brew.cards import CARD_BY_ID, VIAL_VP
from engine.brew.state import State, Witch
from engine.protocol import Result


def ravens_owned(state: State) -> int:
    """Raven cards in all play areas together: 4 or more end the match at the set's end."""
    return sum(CARD_BY_ID[c].raven for w in state.witches for c in w.potions)


def potion_vp(witch: Witch) -> int:
    return sum(CARD_BY_ID[c].vp for c in witch.potions)


def score(witch: Witch) -> int:
    """The VP bulbs on her potion cards plus 1 per vial."""
    return potion_vp(witch) + VIAL_VP * witch.vials


def leftovers(witch: Witch) -> int:
    """The tie-break: drops and gold nuggets left, counted together."""
    return sum(witch.drops.values()) + witch.gold


def decide(state: State) -> Result:
    """Most VP wins; among tied players, most drops + gold; still tied, a shared victory.

    Placings order every seat the same way (competition ranking: 1, 1, 3, ...)."""
    scores = [score(w) for w in state.witches]
    keys = [(scores[s], leftovers(w)) for s, w in enumerate(state.witches)]
    placings = [1 + sum(1 for other in keys if other > mine) for mine in keys]
    winners = [s for s, p in enumerate(placings) if p == 1]
    details = {
        "potion_vp": [potion_vp(w) for w in state.witches],
        "vials": [w.vials for w in state.witches],
        "leftovers": [leftovers(w) for w in state.witches],
        "ravens": ravens_owned(state),
        "tie_break": len([s for s in scores if s == max(scores)]) > 1,
    }
    return Result(winners, scores, "ravens", details, placings)
