"""What a witch's position is worth, roughly in VP: her score plus resources plus the roles she
still holds. ``heuristic.evaluate`` compares it between players; the playout policy
(``playout.py``) keeps, leads and answers by it.

Drops and gold are worth a fraction of a VP each (a cheap cauldron turns 1–2 drops into 2 VP;
gold buys vials and shelves). Roles still in hand are worth a little, more when they can be used
now (a brewer whose top cauldron she can pay, a Fortune Teller with gold), so that choosing and
keeping roles is not a coin toss; holding the claim of the current round counts as part of that
role's worth.
"""

from __future__ import annotations

from engine.brew import readings
from engine.brew.payments import can_pay, printed_drops, top
from engine.brew.scoring import score
from engine.brew.state import State, Witch

DROP_VALUE = 0.6
GOLD_VALUE = 0.4
HAND_WEIGHT = 0.3
CLAIM_WEIGHT = 0.8
BASE_ROLE_WORTH = {
    "wolf_keeper": 1.2, "snake_hunter": 1.2, "herb_collector": 1.2, "alchemist": 1.0,
    "fortune_teller": 1.2, "assistant": 1.0, "warlock": 1.5, "cutpurse": 1.0,
    "begging_monk": 1.0,
}


def role_worth(state: State, witch: Witch, role: str) -> float:
    """How much a role in hand may still bring her, roughly in VP."""
    stack = readings.CAULDRON_OF_ROLE.get(role)
    if stack is not None:
        card = top(state, stack)
        if card is None:
            return 0.0
        return card.vp * (1.0 if can_pay(witch, printed_drops(card)) else 0.3)
    if role in ("fortune_teller", "assistant") and witch.gold < 1:
        return 0.2
    if role == "alchemist" and not any(witch.drops.values()):
        return 0.2
    return BASE_ROLE_WORTH[role]


def worth(state: State, seat: int) -> float:
    witch = state.witches[seat]
    value = score(witch) + DROP_VALUE * sum(witch.drops.values()) + GOLD_VALUE * witch.gold
    value += HAND_WEIGHT * sum(role_worth(state, witch, r) for r in witch.hand)
    cur = state.current
    if cur is not None and cur.claimant == seat and state.phase in ("respond", "act"):
        value += CLAIM_WEIGHT * role_worth(state, witch, cur.role)
    return value
