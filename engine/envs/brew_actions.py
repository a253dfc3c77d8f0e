"""Witch's Brew's every action, derived from the catalog (``engine/brew/cards.py``): roles,
drop colours, potion cards and their prices. A superset: every card with every way the rules
can ask for it (its printed drops, an extra drop for a vial, or its price in any mix of colours),
whether or not that card is ever bought that way. The player count changes nothing.
"""

from __future__ import annotations

from typing import Any

from engine.brew import readings
from engine.brew.cards import CARD_BY_ID, DROPS, ROLE_IDS
from engine.brew.payments import mixes, price_count
from engine.protocol import Action

PLAIN = ("confirm", "pass", "claim", "decline_favor", "decline", "no_buy")


def _params() -> list[dict[str, Any]]:
    """Every parameter set a role's full action, its favor, a spell or a shelf may take."""
    out: list[dict[str, Any]] = [{}]
    out += [{"drop": d} for d in DROPS]
    counts = sorted({readings.ASSISTANT_FULL_DROPS, readings.ASSISTANT_FAVOR_DROPS, 3})
    out += [{"drops": mix} for n in counts for mix in mixes(n)]
    for card in CARD_BY_ID.values():
        out.append({"card": card.id})
        out += [{"card": card.id, "extra": x} for x in (None, *readings.EXTRA_DROP_COLOURS)]
        out += [{"card": card.id, "pay": mix} for mix in mixes(price_count(card))]
    return out


def actions(players: int, options: dict[str, Any] | None) -> list[Action]:
    out: list[Action] = [{"type": kind} for kind in PLAIN]
    out += [
        {"type": kind, "role": role} for kind in ("keep", "unkeep", "lead") for role in ROLE_IDS
    ]
    out += [{"type": "give", "drop": d} for d in DROPS]
    params = _params()
    out += [{"type": kind, **p} for kind in ("act", "favor", "buy") for p in params]
    return out
