"""Paying and gaining drops, gold and vials; taking the top card of a potion stack.

Every effect records what moved in a :class:`Ledger`, which becomes the public event of the
action (drops and gold lie openly on the table [RULEBOOK]; vial gains are made in public too).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.brew import readings
from engine.brew.cards import CARD_BY_ID, DROPS, PotionCard
from engine.brew.state import State, Witch
from engine.protocol import IllegalAction


class Ledger:
    """What one action moved, for its event: ``{"paid": {...}, "gained": {...}, "card": id}``."""

    __slots__ = ("card", "gained", "paid", "taken_from")

    def __init__(self) -> None:
        self.paid: dict[str, int] = {}
        self.gained: dict[str, int] = {}
        self.card: str | None = None
        self.taken_from: list[int] = []  # the Cutpurse's victims, in the order they paid

    def fields(self) -> dict[str, Any]:
        return {"paid": self.paid, "gained": self.gained, "card": self.card}


def gain(witch: Witch, what: dict[str, int], ledger: Ledger) -> None:
    for key, n in what.items():
        if key == "gold":
            witch.gold += n
        elif key == "vials":
            witch.vials += n
        else:
            witch.drops[key] += n
        ledger.gained[key] = ledger.gained.get(key, 0) + n


def gain_vials(state: State, witch: Witch, n: int, ledger: Ledger) -> None:
    """Vials from the supply; with a limited supply (``readings.VIAL_LIMIT``, the vials of the box
    shared by everyone) a gain stops when it is empty."""
    if readings.VIAL_LIMIT is not None:
        n = max(0, min(n, readings.VIAL_LIMIT - sum(w.vials for w in state.witches)))
    if n:
        gain(witch, {"vials": n}, ledger)


def can_pay(witch: Witch, what: dict[str, int]) -> bool:
    for key, n in what.items():
        have = witch.gold if key == "gold" else witch.drops[key]
        if have < n:
            return False
    return True


def pay(witch: Witch, what: dict[str, int], ledger: Ledger) -> None:
    if not can_pay(witch, what):
        raise IllegalAction("cannot_afford", f"you cannot pay {what}")
    for key, n in what.items():
        if key == "gold":
            witch.gold -= n
        else:
            witch.drops[key] -= n
        ledger.paid[key] = ledger.paid.get(key, 0) + n


def drop_total(witch: Witch) -> int:
    return sum(witch.drops.values())


@lru_cache(maxsize=64)
def _mixes(n: int) -> tuple[tuple[int, int, int], ...]:
    return tuple((r, w, n - r - w) for r in range(n + 1) for w in range(n + 1 - r))


def mixes(n: int, bound: dict[str, int] | None = None) -> list[dict[str, int]]:
    """Every way to make ``n`` drops in any mix of colours (within ``bound``, if given), each as a
    dict of positive counts only: the exact form an action must carry."""
    out = []
    for counts in _mixes(n):
        if bound is not None and any(c > bound[d] for c, d in zip(counts, DROPS, strict=True)):
            continue
        out.append({d: c for c, d in zip(counts, DROPS, strict=True) if c})
    return out


def check_colour(value: Any) -> str:
    if not isinstance(value, str) or value not in DROPS:
        raise IllegalAction("unknown_drop", f"{value!r} is not a drop colour (red, white, green)")
    return str(value)


def check_mix(value: Any, n: int) -> dict[str, int]:
    """A dict of drop colours to positive counts that add up to ``n``."""
    if not isinstance(value, dict) or not value:
        raise IllegalAction("bad_action", "drops are an object like {\"red\": 2, \"white\": 1}")
    for key, count in value.items():
        check_colour(key)
        if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
            raise IllegalAction("bad_action", "drop counts are positive whole numbers")
    if sum(value.values()) != n:
        raise IllegalAction("wrong_payment", f"this takes exactly {n} drops")
    return dict(value)


def top(state: State, stack: str) -> PotionCard | None:
    cards = state.stacks[stack]
    return CARD_BY_ID[cards[0]] if cards else None


def check_top(state: State, stack: str, card: Any) -> PotionCard:
    """The card named by an action, which must be the top card of ``stack`` [sheet 8.1]."""
    if not isinstance(card, str) or card not in CARD_BY_ID:
        raise IllegalAction("unknown_card", f"there is no potion card {card!r}")
    found = top(state, stack)
    if found is None:
        raise IllegalAction("stack_empty", f"the {stack} stack is empty")
    if found.id != card:
        raise IllegalAction("not_on_top", f"{card} is not the top card of the {stack} stack")
    return found


def take_top(state: State, witch: Witch, stack: str, ledger: Ledger) -> PotionCard:
    card = CARD_BY_ID[state.stacks[stack].pop(0)]
    witch.potions.append(card.id)
    ledger.card = card.id
    return card


def printed_drops(card: PotionCard) -> dict[str, int]:
    return dict(card.cost)


def price_count(card: PotionCard) -> int:
    return sum(card.cost.values())
