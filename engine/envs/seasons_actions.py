"""Seasons' every action, derived from the catalog (``engine/seasons/cards.py``): the 50 cards
and their costs at this player count and edition, the four energies, the bonuses, the dice.

A card in play is named in the game's actions by the id it got when it entered play (``slot``,
and ``sacrifice`` in an activation), a number that grows through the match; here it is replaced
by the card's position in the acting seat's row of cards in play (0 … 14, the gauge's maximum),
read from that seat's own view (:func:`normalize`). Everything else is catalog data as is.
Summons come from the game's own generators (``summoning.reduced_costs``, ``table.splits``,
``summoning.summon_action``): every cost choice, every Hand of Fortune reduction and every
amulet share of every card.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from engine.protocol import Action
from engine.seasons import effects_apprentice, effects_master, readings
from engine.seasons.bonus import BONUSES
from engine.seasons.cards import CARD, ENERGIES
from engine.seasons.effects import Effect, effect_of
from engine.seasons.options import SeasonsOptions
from engine.seasons.summoning import reduced_costs, summon_action
from engine.seasons.table import splits

POSITIONS = range(readings.GAUGE_MAX)  # a seat has at most 15 cards in play
MOST_REDUCTIONS = 3  # Hand of Fortune reductions at once (the deck holds fewer copies)
MOST_TOKENS = readings.GRIMOIRE_RESERVE_LIMIT  # a reserve never holds more
MOST_PAID = 4  # the most tokens of one energy an activation asks for
SLOT_FIELDS = ("slot", "sacrifice")
# the cards' effects register themselves on import; the enumeration reads them (cost choices)
EFFECT_MODULES = (effects_apprentice, effects_master)


def _amulets(most: list[int]) -> list[dict[str, int]]:
    """Every non-empty share of tokens taken from the amulets, at most ``most`` of each."""
    out = []
    for vec in product(*(range(n + 1) for n in most)):
        if any(vec):
            out.append({ENERGIES[k]: n for k, n in enumerate(vec) if n})
    return out


def _summons(card: int, players: int, edition: int) -> list[Action]:
    effect = effect_of(card)
    printed = list(CARD[card].cost(players, edition).energy)
    choices: list[tuple[dict[str, Any], list[int]]] = [({}, printed)]
    if type(effect).cost_choices is not Effect.cost_choices:
        # the alternative costs depend on the card alone, never on the match
        choices = effect.cost_choices(None, 0)  # type: ignore[arg-type]
    out: list[Action] = []
    for extra, energy in choices:
        for count in range(MOST_REDUCTIONS + 1):
            for need, reduce in reduced_costs(list(energy), count):
                for amulet in splits(need, need, need):
                    out.append(summon_action(card, extra, reduce, amulet))
    return out


def _activation_choices(cards: list[int]) -> list[dict[str, Any]]:
    """Every set of extra fields any card's activation may carry."""
    out: list[dict[str, Any]] = [{}]
    out += [{"use": use} for use in ("crystals", "look", "discard_top")]
    for e in ENERGIES:
        out.append({"energy": e})
        out += [{"energy": e, "amulet": {e: n}} for n in range(1, MOST_PAID + 1)]
        out.append({"use": "energy", "energy": e})
        out.append({"use": "energy", "energy": e, "amulet": {e: 1}})
        out += [{"energy": e, "into": f} for f in ENERGIES if f != e]
    out += [{"amulet": a} for a in _amulets([MOST_PAID] * 4)]
    out += [{"discard": c} for c in cards]
    out += [{"sacrifice": p} for p in POSITIONS]
    return out


def actions(players: int, options: dict[str, Any] | None) -> list[Action]:
    parsed = SeasonsOptions.model_validate(options or {})
    cards = sorted(CARD)
    out: list[Action] = [
        {"type": kind}
        for kind in ("confirm_libraries", "reset_libraries", "resolve_die", "end_turn", "pass")
    ]
    for kind in ("draft_pick", "choose_card", "keep_card", "discard_card", "give_card"):
        out += [{"type": kind, "card": c} for c in cards]
    out += [{"type": "to_library", "card": c, "library": lib} for c in cards for lib in (2, 3)]
    out += [{"type": "take_die", "die": d} for d in range(players + 1)]
    out += [{"type": "bonus", "bonus": b} for b in BONUSES]
    for kind in ("gain_energy", "return_energy", "take_energy", "discard_energy"):
        out += [{"type": kind, "energy": e} for e in ENERGIES]
    out += [{"type": "discard_energy", "energy": e, "amulet": True} for e in ENERGIES]
    out += [{"type": "move_marker", "by": by} for by in (-3, -2, -1, 1, 2, 3)]
    out += [{"type": "choose_player", "seat": s} for s in range(players)]
    out.append({"type": "choose", "way": "draw"})
    out += [{"type": "choose", "count": n} for n in range(1, MOST_TOKENS + 1)]
    for kind in ("sacrifice", "return_card", "resolve_card"):
        out += [{"type": kind, "slot": p} for p in POSITIONS]
    for e in ENERGIES:
        for n in range(1, MOST_TOKENS + 1):
            out.append({"type": "transmute", "energy": e, "count": n})
            out.append({"type": "transmute", "energy": e, "count": n, "amulet": True})
    for c in cards:
        out += _summons(c, players, parsed.edition)
    choices = _activation_choices(cards)
    out += [{"type": "activate", "slot": p, **choice} for p in POSITIONS for choice in choices]
    return out


def normalize(view: dict[str, Any], seat: int, action: Action) -> Action:
    """``slot`` / ``sacrifice`` (a card's id in play) → its position in the seat's row."""
    if not any(name in action for name in SLOT_FIELDS):
        return action
    row = [entry["id"] for entry in view["seats"][seat]["in_play"]]
    return {k: row.index(v) if k in SLOT_FIELDS else v for k, v in action.items()}
