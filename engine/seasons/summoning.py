"""Summoning from the hand, putting into play for free, and activating cards in play.

Summoning [RULEBOOK]: a free gauge slot (cards in play fewer than the gauge) and the full cost,
energy from the reserve and/or Amulet of Water plus crystals. Hand of Fortune (#20) takes energy
tokens off, never below 1 token; an opponent's Arcano Leech (#33) is paid first. Triggers of
"when you summon a card from your hand" (#6, #30) fire for a summon from hand only, never for
the card's own summon (BGA checks them before the card enters play) and never for a card put
into play free (sheet ruling 4).
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from engine.protocol import Action, Event
from engine.seasons.cards import CARD, ENERGIES, ENERGY_INDEX, Cost
from engine.seasons.effects import Entry, cards_with, effect_of
from engine.seasons.state import InPlay, Player, State, energy_dict
from engine.seasons.table import (
    amulet_pool,
    give_crystals,
    has_room,
    new_entry,
    opponents,
    spend,
    splits,
)


def toll(state: State, seat: int) -> list[tuple[int, int]]:
    """(owner, crystals) the summoner owes opponents' cards before summoning from hand."""
    owed: list[tuple[int, int]] = []
    tolls = cards_with("summon_toll")
    seats = state.seats_to_read()
    for other in opponents(state, seat):
        for entry in seats[other].in_play:
            if entry.card in tolls:
                n = effect_of(entry.card).summon_toll(state, other, entry, seat)
                if n:
                    owed.append((other, n))
    return owed


def _reductions(state: State, seat: int) -> int:
    cuts = cards_with("cost_reductions")
    return sum(
        effect_of(e.card).cost_reductions(state, seat, e)
        for e in state.seats_to_read()[seat].in_play
        if e.card in cuts
    )


def reduced_costs(energy: list[int], count: int) -> list[tuple[list[int], list[str]]]:
    """Every way to take ``count`` tokens off ``energy``, keeping at least 1 token (#20)."""
    count = min(count, max(0, sum(energy) - 1))
    if count == 0:
        return [(energy, [])]
    out: list[tuple[list[int], list[str]]] = []
    for combo in combinations_with_replacement(range(4), count):
        left = energy[:]
        for k in combo:
            left[k] -= 1
        if min(left) >= 0:
            out.append((left, [ENERGIES[k] for k in combo]))
    return out


def summon_terms(state: State, seat: int) -> tuple[int, list[int], int]:
    """What every summon of this seat shares now: the toll owed, the amulet pool, the number
    of Hand of Fortune reductions (computed once for a whole legal-action list). ``toll``,
    ``amulet_pool`` and ``_reductions`` in one pass over the cards in play."""
    player = state.seats[seat]
    seats = state.seats_to_read()
    tolls = cards_with("summon_toll")
    owed = 0
    players = state.players
    for k in range(1, players):  # opponents(state, seat)
        other = (seat + k) % players
        for entry in seats[other].in_play:
            if entry.card in tolls:
                owed += effect_of(entry.card).summon_toll(state, other, entry, seat)
    cuts = cards_with("cost_reductions")
    reductions = 0
    for e in player.in_play:
        if e.card in cuts:
            reductions += effect_of(e.card).cost_reductions(state, seat, e)
    return owed, amulet_pool(player), reductions


_COSTS: dict[tuple[int, int], dict[int, tuple[int, ...]]] = {}
"""(players, edition) → card → its printed cost as (crystals, air, water, fire, earth)."""

_seat = list.__getitem__
"""A seat as the state holds it now, read without ``SeatsInWork``'s copy (to read only)."""

_PRINTED: dict[tuple[int, int, int], Cost] = {}


def printed_cost(card: int, players: int, edition: int) -> Cost:
    """``CARD[card].cost(players, edition)``, looked up once per card and setup."""
    key = (card, players, edition)
    found = _PRINTED.get(key)
    if found is None:
        found = _PRINTED[key] = CARD[card].cost(players, edition)
    return found


def summon_options(
    state: State, seat: int, card: int, terms: tuple[int, list[int], int] | None = None
) -> list[Action]:
    """Every way to summon ``card`` from the hand now (empty: it cannot be summoned)."""
    player = state.seats[seat]
    if card not in player.hand or not has_room(player):
        return []
    return _summon_ways(state, seat, player, card, terms or summon_terms(state, seat))


def hand_summons(state: State, seat: int) -> list[Action]:
    """Every way to summon each card of the hand now (the main step's legal summons)."""
    player = state.seats[seat]
    if not player.hand or not has_room(player):
        return []
    terms = summon_terms(state, seat)
    owed, pool, cuts = terms
    # the usual case, inlined (this runs for every card of the hand at every main step): no
    # reduction, no amulet tokens, the printed cost: one way or none
    plain = not cuts and not any(pool)
    choosers = cards_with("cost_choices")
    afford = player.crystals - owed
    a, w, f, e = player.energy
    players, edition = state.players, state.edition
    costs = _COSTS.get((players, edition))
    if costs is None:
        costs = _COSTS[players, edition] = {}
    out: list[Action] = []
    for card in sorted(set(player.hand)):
        if plain and card not in choosers:
            cost = costs.get(card)
            if cost is None:
                printed = printed_cost(card, players, edition)
                cost = costs[card] = (printed.crystals, *printed.energy)
            if (
                cost[0] <= afford
                and cost[1] <= a
                and cost[2] <= w
                and cost[3] <= f
                and cost[4] <= e
            ):
                out.append({"type": "summon", "card": card})
        else:
            out += _summon_ways(state, seat, player, card, terms)
    return out


def _summon_ways(
    state: State, seat: int, player: Player, card: int, terms: tuple[int, list[int], int]
) -> list[Action]:
    owed, pool, cuts = terms
    printed = printed_cost(card, state.players, state.edition)
    if printed.crystals + owed > player.crystals:
        return []
    choices = (
        effect_of(card).cost_choices(state, seat) if card in cards_with("cost_choices") else []
    )
    if not choices and not cuts and not any(pool):  # the usual case: one way, or none
        have, cost = player.energy, printed.energy
        if cost[0] <= have[0] and cost[1] <= have[1] and cost[2] <= have[2] and cost[3] <= have[3]:
            return [{"type": "summon", "card": card}]
        return []
    choices = choices or [({}, list(printed.energy))]
    out: list[Action] = []
    for extra, energy in choices:
        for need, reduce in reduced_costs(list(energy), cuts):
            for amulet in splits(need, player.energy, pool):
                out.append(summon_action(card, extra, reduce, amulet))
    return out


def summon_action(card: int, extra: dict[str, Any], reduce: list[str], amulet: list[int]) -> Action:
    """One way to summon ``card``: its cost choice's fields (``extra``), the energies Hands of
    Fortune take off (``reduce``) and the tokens paid from amulets (``amulet``, per energy)."""
    action: Action = {"type": "summon", "card": card, **extra}
    if reduce:
        action["reduce"] = reduce
    if any(amulet):
        action["amulet"] = {ENERGIES[k]: n for k, n in enumerate(amulet) if n}
    return action


def summon(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """Summon from hand; ``action`` is one of :func:`summon_options`."""
    card = action["card"]
    player = state.seats[seat]
    for owner, n in toll(state, seat):
        give_crystals(state, seat, owner, n, events, "summon_toll")
    extra = {k: v for k, v in action.items() if k not in ("type", "card", "reduce", "amulet")}
    printed = printed_cost(card, state.players, state.edition)
    energy = list(printed.energy)
    for ex, vec in effect_of(card).cost_choices(state, seat):
        if ex == extra:
            energy = list(vec)
    paid = energy[:]
    for name in action.get("reduce", []):
        energy[ENERGY_INDEX[name]] -= 1
    amulet = [int(action.get("amulet", {}).get(e, 0)) for e in ENERGIES]
    spend(player, [energy[k] - amulet[k] for k in range(4)], amulet)
    player.crystals -= printed.crystals
    player.hand.remove(card)
    events.append(
        {
            "type": "card_summoned",
            "seat": seat,
            "card": card,
            "energy": energy_dict(energy),
            "crystals": printed.crystals,
            "id": state.next_id,
        }
    )
    # Triggers look at the cards in play before this one enters [SOURCE: BGA]. Only the cards
    # with the hook (the others' does nothing); an opponent's seat is read without a copy
    # (``_seat``): a hook that changes it reads it through ``state.seats`` itself.
    hooked = cards_with("on_own_summon")
    for entry in list(player.in_play):
        if entry.card in hooked and player.entry(entry.id) is not None:
            effect_of(entry.card).on_own_summon(state, seat, entry, card, events)
    hooked = cards_with("on_opponent_summon")
    for other in opponents(state, seat):
        for entry in list(_seat(state.seats, other).in_play):
            if entry.card in hooked:
                effect_of(entry.card).on_opponent_summon(state, other, entry, seat, card, events)
    entry = new_entry(state, card)
    player.in_play.append(entry)
    effect_of(card).on_entry(state, seat, entry, Entry(False, tuple(paid), extra), events)


def put_into_play(state: State, seat: int, card: int, events: list[Event], why: str) -> InPlay:
    """Put a card into play for free (#9, #24, #34): the caller checked the gauge slot. Its own
    on-entry effect resolves; it is not "summoned" (no #6, #30, #33) [RULEBOOK; CONFIRMED]."""
    entry = new_entry(state, card)
    state.seats[seat].in_play.append(entry)
    events.append(
        {"type": "card_put_into_play", "seat": seat, "card": card, "id": entry.id, "why": why}
    )
    effect_of(card).on_entry(state, seat, entry, Entry(True), events)
    return entry


# --- activation --------------------------------------------------------------------------------


def activation_options(state: State, seat: int, entry: InPlay) -> list[Action]:
    if entry.used:
        return []
    return [
        {"type": "activate", "slot": entry.id, **choice}
        for choice in effect_of(entry.card).activations(state, seat, entry)
    ]


def activate(state: State, seat: int, action: Action, events: list[Event]) -> None:
    entry = state.seats[seat].own_entry(action["slot"])  # its effect may change it too (#35)
    assert entry is not None
    entry.used = True
    choice: dict[str, Any] = {k: v for k, v in action.items() if k not in ("type", "slot")}
    events.append(
        {"type": "card_activated", "seat": seat, "id": entry.id, "card": entry.card, **choice}
    )
    hooked = cards_with("on_opponent_activation")  # as in ``summon``
    for other in opponents(state, seat):
        for e in list(_seat(state.seats, other).in_play):
            if e.card in hooked:
                effect_of(e.card).on_opponent_activation(state, other, e, seat, events)
    effect_of(entry.card).activate(state, seat, entry, choice, events)
