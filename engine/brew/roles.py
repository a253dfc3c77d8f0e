"""What each of the 12 roles does: one small function per half of each card (sheet section 5).

Each role has a :class:`RoleEffect`: the parameter sets its full action and its favor may take
now (``*_options``, what ``legal_actions`` offers after ``"type"``) and the functions that carry
them out. A ``do`` function gets the action's parameters, raises ``IllegalAction`` with a stable
code when they are wrong, and changes the (already copied) state. ``rules.py`` then checks that
the parameters were among the offered ones, so ``apply`` accepts exactly ``legal_actions``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.brew import readings, spells
from engine.brew.cards import DROPS, PotionCard
from engine.brew.payments import (
    Ledger,
    can_pay,
    check_colour,
    check_mix,
    check_top,
    drop_total,
    gain,
    gain_vials,
    mixes,
    pay,
    price_count,
    printed_drops,
    take_top,
    top,
)
from engine.brew.state import State, Witch

Params = dict[str, Any]
Options = Callable[[State, int], list[Params]]
Do = Callable[[State, int, Params, Ledger], None]

NOTHING: list[Params] = [{}]


@dataclass(frozen=True, slots=True)
class RoleEffect:
    full_options: Options
    full: Do
    favor_options: Options
    favor: Do


# --- green: the ingredient gatherers [SOURCE: S3] -----------------------------------------------


def _gatherer(colour: str) -> RoleEffect:
    def full(state: State, seat: int, p: Params, ledger: Ledger) -> None:
        gain(state.witches[seat], {colour: 3}, ledger)

    def favor(state: State, seat: int, p: Params, ledger: Ledger) -> None:
        gain(state.witches[seat], {colour: 1}, ledger)

    return RoleEffect(lambda s, seat: NOTHING, full, lambda s, seat: NOTHING, favor)


# --- gold roles ---------------------------------------------------------------------------------


def _alchemist_options(state: State, seat: int) -> list[Params]:
    drops = state.witches[seat].drops
    return [{"drop": d} for d in DROPS if drops[d] > 0]


def _alchemist(gold: int) -> Do:
    """Return 1 drop of any colour, take gold (5 full, 2 favor) [SOURCE: S3]."""

    def do(state: State, seat: int, p: Params, ledger: Ledger) -> None:
        witch = state.witches[seat]
        pay(witch, {check_colour(p.get("drop")): 1}, ledger)
        gain(witch, {"gold": gold}, ledger)

    return do


def _fortune_teller_options(state: State, seat: int) -> list[Params]:
    return NOTHING if state.witches[seat].gold >= 1 else []


def _fortune_teller(vials: int) -> Do:
    """Pay 1 gold, take vials (2 full, 1 favor) [SOURCE: S3]."""

    def do(state: State, seat: int, p: Params, ledger: Ledger) -> None:
        witch = state.witches[seat]
        pay(witch, {"gold": 1}, ledger)
        gain_vials(state, witch, vials, ledger)

    return do


def _assistant_options(n: int) -> Options:
    def options(state: State, seat: int) -> list[Params]:
        if state.witches[seat].gold < readings.ASSISTANT_PRICE_GOLD:
            return []
        return [{"drops": mix} for mix in mixes(n)]

    return options


def _assistant(n: int) -> Do:
    """Pay 1 gold, take any n drops (3 full [SOURCE: S3], 1 favor [GUESS])."""

    def do(state: State, seat: int, p: Params, ledger: Ledger) -> None:
        witch = state.witches[seat]
        drops = check_mix(p.get("drops"), n)
        pay(witch, {"gold": readings.ASSISTANT_PRICE_GOLD}, ledger)
        gain(witch, drops, ledger)

    return do


# --- light blue: the brewers (Wizard copper [SOURCE: S9]; Witch silver, Druid iron [GUESS]) ----


def _extras(witch: Witch, card: PotionCard, base: Params,
            surcharge: dict[str, int] | None = None) -> list[Params]:
    """One more drop (``readings.EXTRA_DROP_COLOURS``) for a vial, each colour she can pay
    [GUESS, sheet 5 notes]; none when ``readings.EXTRA_DROP_VIALS`` is 0."""
    if not readings.EXTRA_DROP_VIALS:
        return []
    out = []
    for d in readings.EXTRA_DROP_COLOURS:
        cost = printed_drops(card) | (surcharge or {})
        cost[d] = cost.get(d, 0) + 1
        if can_pay(witch, cost):
            out.append(base | {"extra": d})
    return out


def _brewer(role: str) -> RoleEffect:
    stack = readings.CAULDRON_OF_ROLE[role]

    def full_options(state: State, seat: int) -> list[Params]:
        card = top(state, stack)
        witch = state.witches[seat]
        if card is None or not can_pay(witch, printed_drops(card)):
            return []
        return [{"card": card.id, "extra": None}, *_extras(witch, card, {"card": card.id})]

    def full(state: State, seat: int, p: Params, ledger: Ledger) -> None:
        witch = state.witches[seat]
        card = check_top(state, stack, p.get("card"))
        extra = p.get("extra")
        cost = printed_drops(card)
        if extra is not None:
            colour = check_colour(extra)
            cost[colour] = cost.get(colour, 0) + 1
        pay(witch, cost, ledger)
        take_top(state, witch, stack, ledger)
        if extra is not None:
            gain_vials(state, witch, readings.EXTRA_DROP_VIALS, ledger)

    def favor_cost(state: State) -> dict[str, int] | None:
        card = top(state, stack)
        if card is None:
            return None
        return printed_drops(card) | {"gold": readings.FAVOR_SURCHARGE_GOLD}

    def favor_options(state: State, seat: int) -> list[Params]:
        cost = favor_cost(state)
        card = top(state, stack)
        witch = state.witches[seat]
        if cost is None or card is None or not can_pay(witch, cost):
            return []
        if not readings.FAVOR_EXTRA_DROP_VIAL:  # our reading: no "extra" field at all
            return [{"card": card.id}]
        base = {"card": card.id}
        return [base | {"extra": None},
                *_extras(witch, card, base, {"gold": readings.FAVOR_SURCHARGE_GOLD})]

    def favor(state: State, seat: int, p: Params, ledger: Ledger) -> None:
        """The same top cauldron for its drops plus gold [CONFIRMED: S3, S15; amount GUESS]."""
        witch = state.witches[seat]
        check_top(state, stack, p.get("card"))
        cost = favor_cost(state)
        assert cost is not None
        extra = p.get("extra") if readings.FAVOR_EXTRA_DROP_VIAL else None
        if extra is not None:
            colour = check_colour(extra)
            cost[colour] = cost.get(colour, 0) + 1
        pay(witch, cost, ledger)
        take_top(state, witch, stack, ledger)
        if extra is not None:
            gain_vials(state, witch, readings.EXTRA_DROP_VIALS, ledger)

    return RoleEffect(full_options, full, favor_options, favor)


# --- the Warlock [RULEBOOK] ---------------------------------------------------------------------


def _warlock_options(state: State, seat: int) -> list[Params]:
    return spells.EFFECTS[state.spells[0]].options(state, seat)


def _warlock(state: State, seat: int, p: Params, ledger: Ledger) -> None:
    spells.EFFECTS[state.spells[0]].cast(state, seat, p, ledger)


def _warlock_favor(state: State, seat: int, p: Params, ledger: Ledger) -> None:
    gain(state.witches[seat], {"gold": 1}, ledger)


# --- the thieves: Cutpurse and Begging Monk [CONFIRMED: takes from others for the shelves;
# amounts GUESS] ---------------------------------------------------------------------------------

SHELF_OF_THIEF = {"cutpurse": "gold_shelf", "begging_monk": "ingredient_shelf"}


def shelf_options(state: State, seat: int, stack: str) -> list[Params]:
    """Ways to buy the top card of a shelf at its printed price [GUESS: the symbol says how]."""
    card = top(state, stack)
    if card is None:
        return []
    witch = state.witches[seat]
    if stack == "gold_shelf":
        return [{"card": card.id}] if witch.gold >= card.cost["gold"] else []
    return [{"card": card.id, "pay": mix} for mix in mixes(price_count(card), witch.drops)]


def buy_shelf(state: State, seat: int, stack: str, p: Params, ledger: Ledger) -> None:
    witch = state.witches[seat]
    card = check_top(state, stack, p.get("card"))
    if stack == "gold_shelf":
        pay(witch, {"gold": card.cost["gold"]}, ledger)
    else:
        pay(witch, check_mix(p.get("pay"), price_count(card)), ledger)
    take_top(state, witch, stack, ledger)


def victims(state: State, thief: int) -> list[int]:
    """The other players clockwise from the thief, except those spared by the favor."""
    exempt = state.current.exempt if state.current else []
    n = state.players
    return [s for s in ((thief + k) % n for k in range(1, n)) if s not in exempt]


def _cutpurse(state: State, seat: int, p: Params, ledger: Ledger) -> None:
    """Every other player with gold gives 1; the shelf purchase follows (rules: shelf step)."""
    witch = state.witches[seat]
    for other in victims(state, seat):
        giver = state.witches[other]
        n = min(giver.gold, readings.CUTPURSE_TAKES_GOLD)
        if n:
            giver.gold -= n
            gain(witch, {"gold": n}, ledger)
            ledger.taken_from.append(other)


def _begging_monk(state: State, seat: int, p: Params, ledger: Ledger) -> None:
    """Every other player with drops owes 1 of her choice (rules: tribute step)."""
    assert state.current is not None
    state.current.givers = [
        s for s in victims(state, seat) for _ in range(readings.BEGGING_MONK_TAKES_DROPS)
    ]


def _thief_favor_options(role: str) -> Options:
    def options(state: State, seat: int) -> list[Params]:
        if state.options.get("thief_favor", readings.THIEF_FAVOR_DEFAULT) == "buy":
            return shelf_options(state, seat, SHELF_OF_THIEF[role])
        return NOTHING

    return options


def _thief_favor(role: str) -> Do:
    def do(state: State, seat: int, p: Params, ledger: Ledger) -> None:
        assert state.current is not None
        if state.options.get("thief_favor", readings.THIEF_FAVOR_DEFAULT) == "buy":
            buy_shelf(state, seat, SHELF_OF_THIEF[role], p, ledger)
        else:
            state.current.exempt.append(seat)

    return do


def thief_gives(state: State, giver: int) -> bool:
    """Whether a Begging Monk's victim owes a drop at all (she has one left)."""
    return drop_total(state.witches[giver]) > 0


def single_colour(state: State, giver: int) -> str | None:
    """The one colour she can give, when there is no choice to make."""
    colours = [d for d in DROPS if state.witches[giver].drops[d] > 0]
    return colours[0] if len(colours) == 1 else None


def _always(state: State, seat: int) -> list[Params]:
    return NOTHING


EFFECTS: dict[str, RoleEffect] = {
    "wolf_keeper": _gatherer("red"),
    "snake_hunter": _gatherer("white"),
    "herb_collector": _gatherer("green"),
    "alchemist": RoleEffect(_alchemist_options, _alchemist(5), _alchemist_options, _alchemist(2)),
    "fortune_teller": RoleEffect(_fortune_teller_options, _fortune_teller(2),
                                 _fortune_teller_options, _fortune_teller(1)),
    "assistant": RoleEffect(_assistant_options(readings.ASSISTANT_FULL_DROPS),
                            _assistant(readings.ASSISTANT_FULL_DROPS),
                            _assistant_options(readings.ASSISTANT_FAVOR_DROPS),
                            _assistant(readings.ASSISTANT_FAVOR_DROPS)),
    "wizard": _brewer("wizard"),
    "witch": _brewer("witch"),
    "druid": _brewer("druid"),
    "warlock": RoleEffect(_warlock_options, _warlock, _always, _warlock_favor),
    "cutpurse": RoleEffect(_always, _cutpurse, _thief_favor_options("cutpurse"),
                           _thief_favor("cutpurse")),
    "begging_monk": RoleEffect(_always, _begging_monk, _thief_favor_options("begging_monk"),
                               _thief_favor("begging_monk")),
}

THIEVES = frozenset(SHELF_OF_THIEF)
