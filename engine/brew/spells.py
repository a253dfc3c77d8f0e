"""The 8 spell books: what the Warlock's full action does with the top one [SOURCE: S4].

Each spell has the parameter sets it may take now and the function that casts it, in the same
shape as the role effects (``roles.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.brew import readings
from engine.brew.cards import CAULDRONS
from engine.brew.payments import (
    Ledger,
    can_pay,
    check_mix,
    check_top,
    gain,
    gain_vials,
    mixes,
    pay,
    price_count,
    printed_drops,
    take_top,
    top,
)
from engine.brew.state import State
from engine.protocol import IllegalAction

Params = dict[str, Any]


@dataclass(frozen=True, slots=True)
class SpellEffect:
    options: Callable[[State, int], list[Params]]
    cast: Callable[[State, int, Params, Ledger], None]


def _copia_options(state: State, seat: int) -> list[Params]:
    return [{"drops": mix} for mix in mixes(3)]


def _copia(state: State, seat: int, p: Params, ledger: Ledger) -> None:
    """Take any 3 drops, any mix of colours."""
    gain(state.witches[seat], check_mix(p.get("drops"), 3), ledger)


def _any_colour_brew(stack: str) -> SpellEffect:
    """Magus / Strix / Sanatio: the top cauldron of one metal for as many drops as printed, in
    any colours; no extra-drop vial [SOURCE: S4]."""

    def options(state: State, seat: int) -> list[Params]:
        card = top(state, stack)
        if card is None:
            return []
        drops = state.witches[seat].drops
        return [{"card": card.id, "pay": mix} for mix in mixes(price_count(card), drops)]

    def cast(state: State, seat: int, p: Params, ledger: Ledger) -> None:
        card = check_top(state, stack, p.get("card"))
        witch = state.witches[seat]
        pay(witch, check_mix(p.get("pay"), price_count(card)), ledger)
        take_top(state, witch, stack, ledger)

    return SpellEffect(options, cast)


def _optio_options(state: State, seat: int) -> list[Params]:
    out = []
    for stack in CAULDRONS:
        card = top(state, stack)
        if card is not None and can_pay(state.witches[seat], printed_drops(card)):
            out.append({"card": card.id})
    return out


def _optio(state: State, seat: int, p: Params, ledger: Ledger) -> None:
    """The top card of any one cauldron stack, for its exact printed drops."""
    card_id = p.get("card")
    stack = next((s for s in CAULDRONS if isinstance(card_id, str) and
                  card_id.startswith(s + "-")), None)
    if stack is None:
        raise IllegalAction("not_on_top", f"{card_id!r} is not the top card of a cauldron stack")
    card = check_top(state, stack, card_id)
    witch = state.witches[seat]
    pay(witch, printed_drops(card), ledger)
    take_top(state, witch, stack, ledger)


def _vials_for(colour: str) -> SpellEffect:
    """Herba / Lupus / Serpens: return 1 drop of one colour, take 2 vials."""

    def options(state: State, seat: int) -> list[Params]:
        return [{}] if state.witches[seat].drops[colour] > 0 else []

    def cast(state: State, seat: int, p: Params, ledger: Ledger) -> None:
        witch = state.witches[seat]
        pay(witch, {colour: 1}, ledger)
        gain_vials(state, witch, 2, ledger)

    return SpellEffect(options, cast)


EFFECTS: dict[str, SpellEffect] = {
    "copia": SpellEffect(_copia_options, _copia),
    "magus": _any_colour_brew(readings.CAULDRON_OF_SPELL["magus"]),
    "strix": _any_colour_brew(readings.CAULDRON_OF_SPELL["strix"]),
    "sanatio": _any_colour_brew(readings.CAULDRON_OF_SPELL["sanatio"]),
    "optio": SpellEffect(_optio_options, _optio),
    "herba": _vials_for("green"),
    "lupus": _vials_for("red"),
    "serpens": _vials_for("white"),
}
