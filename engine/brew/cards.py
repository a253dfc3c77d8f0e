"""The components of Witch's Brew as typed data: 12 roles, 8 spell books, 31 potion cards.

Role and spell effects are small functions next to this data (``roles.py``, ``spells.py``); the
numbers the sheet marks [GUESS] come from ``readings.py``. Ids are stable snake_case so that the
renderer can translate them; the English, German, French and Spanish names are for the catalog.

The potion cards come in two editions: the reconstruction of ``readings.py`` (ids
``copper-3``), which every table plays by default, and the **printed values** an operator who
owns the box may load from a JSON file (``COVEN_BREW_PRINTED_VALUES``, README "Printed potion
values"; ids ``copper-p3``), played by the tables whose room option ``potion_values`` is
``"printed"``. Both are checked against the rulebook's facts; the ids never collide, so a card
id alone says its data.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Final

from engine.brew import readings

DROPS: Final = ("red", "white", "green")
"""The three ingredients: red = wolf blood, white = snake venom, green = herb juice [RULEBOOK
names; SOURCE: S3 colours]."""

START_DROPS: Final = {"red": 1, "white": 1, "green": 1}  # [RULEBOOK]
START_GOLD: Final = 2  # [RULEBOOK]
ROLES_KEPT: Final = 5  # 5 of 12 each set [RULEBOOK]
RAVEN_THRESHOLD: Final = 4  # the game ends at the end of the set with 4 ravens owned [RULEBOOK]
VIAL_VP: Final = 1  # [RULEBOOK]


@dataclass(frozen=True, slots=True)
class Role:
    id: str
    name_en: str
    name_de: str | None
    name_fr: str | None
    name_es: str | None
    colour: str  # "green" | "gold" | "light_blue" | "gray" | "red"
    full_text: str
    favor_text: str
    status: str


ROLES: Final[tuple[Role, ...]] = (
    Role("wolf_keeper", "Wolf Keeper", "Wolfshüter", None, None, "green",
         "Take 3 red drops.", "Take 1 red drop.", "SOURCE: S3"),
    Role("snake_hunter", "Snake Hunter", "Schlangenfänger", "Serpentin", None, "green",
         "Take 3 white drops.", "Take 1 white drop.", "SOURCE: S3"),
    Role("herb_collector", "Herb Collector", None, "Herboriste", None, "green",
         "Take 3 green drops.", "Take 1 green drop.", "SOURCE: S3"),
    Role("alchemist", "Alchemist", None, None, "alquimista", "gold",
         "Return 1 drop of any colour, take 5 gold.", "Return 1 drop of any colour, take 2 gold.",
         "SOURCE: S3"),
    Role("fortune_teller", "Fortune Teller", None, "Voyante", None, "gold",
         "Pay 1 gold, take 2 vials.", "Pay 1 gold, take 1 vial.", "SOURCE: S3"),
    Role("assistant", "Assistant", None, None, None, "gold",
         "Pay 1 gold, take any 3 drops.", "Pay 1 gold, take any 1 drop.",
         "full SOURCE: S3; favor GUESS"),
    Role("wizard", "Wizard", "Zauberer", "Magicien", None, "light_blue",
         "Brew the top copper cauldron (its printed drops); 1 extra drop for 1 vial.",
         "Brew the top copper cauldron, paying its drops plus 1 gold.",
         "stack SOURCE: S9; extra vial and surcharge GUESS"),
    Role("witch", "Witch", "Hexe", "Sorcière", "bruja", "light_blue",
         "Brew the top silver cauldron (its printed drops); 1 extra drop for 1 vial.",
         "Brew the top silver cauldron, paying its drops plus 1 gold.", "GUESS (silver)"),
    Role("druid", "Druid", "Druide", "Druide", None, "light_blue",
         "Brew the top iron cauldron (its printed drops); 1 extra drop for 1 vial.",
         "Brew the top iron cauldron, paying its drops plus 1 gold.", "GUESS (iron)"),
    Role("warlock", "Warlock", None, "Maître-sorcier", "brujo", "gray",
         "Cast the spell of the top spell book.", "Take 1 gold.", "RULEBOOK"),
    Role("cutpurse", "Cutpurse", None, "Bourtax", None, "red",
         "Every other player gives you 1 gold; then you may buy the top gold shelf.",
         "You are spared the theft.", "GUESS (amounts, favor); shelf link CONFIRMED"),
    Role("begging_monk", "Begging Monk", "Bettelmönch", None, None, "red",
         "Every other player gives you 1 drop; then you may buy the top ingredient shelf.",
         "You are spared the begging.", "GUESS (amounts, favor); shelf link CONFIRMED"),
)
ROLE_IDS: Final = tuple(r.id for r in ROLES)
ROLE_BY_ID: Final = MappingProxyType({r.id: r for r in ROLES})


@dataclass(frozen=True, slots=True)
class Spell:
    id: str
    name: str
    text: str
    status: str


SPELLS: Final[tuple[Spell, ...]] = (
    Spell("copia", "Copia", "Take any 3 drops.", "SOURCE: S4"),
    Spell("magus", "Magus", "Take the top copper cauldron, paying as many drops as printed, in "
          "any colours.", "SOURCE: S4"),
    Spell("strix", "Strix", "As Magus, on the silver stack.", "SOURCE: S4; GUESS (silver)"),
    Spell("sanatio", "Sanatio", "As Magus, on the iron stack.", "SOURCE: S4; GUESS (iron)"),
    Spell("optio", "Optio", "Take the top card of any cauldron stack, paying its printed drops.",
          "SOURCE: S4"),
    Spell("herba", "Herba", "Return 1 green drop, take 2 vials.", "SOURCE: S4"),
    Spell("lupus", "Lupus", "Return 1 red drop, take 2 vials.", "SOURCE: S4"),
    Spell("serpens", "Serpens", "Return 1 white drop, take 2 vials.", "SOURCE: S4"),
)
SPELL_IDS: Final = tuple(s.id for s in SPELLS)
SPELL_BY_ID: Final = MappingProxyType({s.id: s for s in SPELLS})


@dataclass(frozen=True, slots=True)
class PotionCard:
    id: str  # "copper-3": stack and position from the top at setup
    stack: str
    cost: MappingProxyType[str, int]  # {"white": 1, "red": 1} | {"gold": 3} | {"any_drops": 3}
    vp: int
    raven: bool

    def as_dict(self) -> dict[str, object]:
        return {"id": self.id, "stack": self.stack, "cost": dict(self.cost), "vp": self.vp,
                "raven": self.raven}


@dataclass(frozen=True, slots=True)
class PotionStack:
    id: str
    kind: str  # "cauldron" | "shelf"
    cards: tuple[PotionCard, ...]  # top to bottom at setup: lowest value on top [RULEBOOK]


STACK_IDS: Final = ("copper", "silver", "iron", "gold_shelf", "ingredient_shelf")
CAULDRONS: Final = ("copper", "silver", "iron")
STACK_SIZE: Final = {"copper": 7, "silver": 7, "iron": 7, "gold_shelf": 5,
                     "ingredient_shelf": 5}  # [RULEBOOK] (31 cards)
RAVENS_PER_STACK: Final = 2  # [RULEBOOK]


def _build_stacks(
    data: dict[str, tuple[readings.PotionRow, ...]], id_infix: str = ""
) -> tuple[PotionStack, ...]:
    """The five stacks from data, refusing data that breaks the rulebook's facts; card ids are
    ``{stack}-{id_infix}{row}``."""
    stacks = []
    for sid in STACK_IDS:
        rows = data[sid]
        if len(rows) != STACK_SIZE[sid]:
            raise ValueError(f"{sid}: {len(rows)} cards, the game has {STACK_SIZE[sid]}")
        if sum(1 for _, _, raven in rows if raven) != RAVENS_PER_STACK:
            raise ValueError(f"{sid}: each stack has exactly {RAVENS_PER_STACK} ravens")
        if any(a[1] > b[1] for a, b in itertools.pairwise(rows)):
            raise ValueError(f"{sid}: values must not decrease from top to bottom")
        kind = "cauldron" if sid in CAULDRONS else "shelf"
        for cost, _, _ in rows:
            allowed = set(DROPS) if kind == "cauldron" else {"gold", "any_drops"}
            if not cost or not set(cost) <= allowed or any(n <= 0 for n in cost.values()):
                raise ValueError(f"{sid}: bad cost {cost}")
        cards = tuple(
            PotionCard(f"{sid}-{id_infix}{i + 1}", sid, MappingProxyType(dict(cost)), vp, raven)
            for i, (cost, vp, raven) in enumerate(rows)
        )
        stacks.append(PotionStack(sid, kind, cards))
    return tuple(stacks)


STACKS: Final = _build_stacks(readings.POTION_STACKS)
STACK_BY_ID: Final = MappingProxyType({s.id: s for s in STACKS})
_CARDS: dict[str, PotionCard] = {c.id: c for s in STACKS for c in s.cards}
CARD_BY_ID: Final = MappingProxyType(_CARDS)  # both editions, once the printed one is loaded
"""Every potion card by id: the reconstruction's, and the printed ones once loaded."""

# --- the printed values (an operator's file) ---------------------------------------------------

PRINTED_VALUES_SETTING: Final = "COVEN_BREW_PRINTED_VALUES"
PRINTED_ID_INFIX: Final = "p"
VP_RANGE: Final = range(1, 21)  # a glass bulb's value: a positive whole number (sanity bound)
COST_RANGE: Final = range(1, 13)  # drops or gold on one card, all colours together (sanity bound)
# The only printed cost a source gives (sheet 8.1, [SOURCE: S9]): the top copper cauldron.
TOP_COPPER_COST: Final = {"white": 1}
_printed: tuple[PotionStack, ...] | None = None


class PrintedValuesError(ValueError):
    """A printed-values file that cannot be the box's: the message says what and where."""


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _printed_row(sid: str, pos: int, card: object) -> readings.PotionRow:
    where = f"{sid} card {pos}"
    if not isinstance(card, dict) or set(card) != {"cost", "vp", "raven"}:
        raise PrintedValuesError(f"{where}: give exactly cost, vp and raven")
    cost, vp, raven = card["cost"], card["vp"], card["raven"]
    if not _whole(vp) or vp not in VP_RANGE:
        raise PrintedValuesError(f"{where}: vp must be a whole number from 1 to {VP_RANGE[-1]}")
    if not isinstance(raven, bool):
        raise PrintedValuesError(f"{where}: raven must be true or false")
    allowed = (
        set(DROPS) if sid in CAULDRONS else {"gold"} if sid == "gold_shelf" else {"any_drops"}
    )
    if (
        not isinstance(cost, dict)
        or not cost
        or not set(cost) <= allowed
        or not all(_whole(n) and n > 0 for n in cost.values())
        or sum(cost.values()) not in COST_RANGE
    ):
        raise PrintedValuesError(
            f"{where}: cost must count {' / '.join(sorted(allowed))} "
            f"(whole numbers, {COST_RANGE[-1]} at most in all), not {cost!r}"
        )
    return dict(cost), vp, raven


def read_printed_values(path: str | Path) -> tuple[PotionStack, ...]:
    """The printed potion cards of the JSON file at ``path`` (format: README "Printed potion
    values"), checked against the rulebook's facts: the five stacks, 7 cards per cauldron metal
    and 5 per shelf, 2 ravens per stack, values never decreasing from top to bottom, each
    shelf paid in its own kind, and the top copper cauldron at the 1 white drop a source
    gives. Raises ``PrintedValuesError`` saying what is wrong."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise PrintedValuesError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise PrintedValuesError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict) or not set(data) <= {"about", "stacks"} or "stacks" not in data:
        raise PrintedValuesError(f'{path}: expected {{"about": "...", "stacks": {{...}}}}')
    stacks = data["stacks"]
    if not isinstance(stacks, dict) or set(stacks) != set(STACK_IDS):
        raise PrintedValuesError(f"{path}: stacks must be exactly {', '.join(STACK_IDS)}")
    rows: dict[str, tuple[readings.PotionRow, ...]] = {}
    for sid in STACK_IDS:
        cards = stacks[sid]
        if not isinstance(cards, list):
            raise PrintedValuesError(f"{path}: {sid} must be a list of cards, top to bottom")
        rows[sid] = tuple(_printed_row(sid, i + 1, card) for i, card in enumerate(cards))
    if rows["copper"] and rows["copper"][0][0] != TOP_COPPER_COST:
        raise PrintedValuesError(
            f"{path}: the top copper cauldron costs 1 white drop (the rules sheet, 8.1), "
            f"not {rows['copper'][0][0]!r}"
        )
    try:
        return _build_stacks(rows, PRINTED_ID_INFIX)
    except ValueError as exc:
        raise PrintedValuesError(f"{path}: {exc}") from None


def use_printed_values(path: str | Path | None) -> None:
    """Load the printed values from ``path`` for the tables that ask for them (``None``: forget
    them). Raises ``PrintedValuesError`` for a wrong file, leaving the edition loaded before."""
    global _printed
    stacks = read_printed_values(path) if path is not None else None
    for stack in _printed or ():
        for card in stack.cards:
            del _CARDS[card.id]
    _printed = stacks
    for stack in stacks or ():
        _CARDS.update({c.id: c for c in stack.cards})


def printed_stacks() -> tuple[PotionStack, ...] | None:
    """The printed potion stacks when the operator loaded them, else ``None``."""
    return _printed


def stacks_for(potion_values: str) -> tuple[PotionStack, ...]:
    """The potion stacks a table of room option ``potion_values`` plays."""
    if potion_values == "printed":
        if _printed is None:
            raise ValueError(f"this server has no printed potion values ({PRINTED_VALUES_SETTING})")
        return _printed
    return STACKS


def stack_of_card(card_id: str) -> PotionStack:
    """The stack, of its own edition, that a potion card belongs to."""
    card = _CARDS[card_id]
    for stack in (*STACKS, *(_printed or ())):
        if stack.id == card.stack and card in stack.cards:
            return stack
    raise KeyError(card_id)


# Every process of a server (its workers, its bots' thinking processes) loads the same file. A
# wrong file is reported by app/settings.py, which stops ``coven serve`` with its message.
if os.environ.get(PRINTED_VALUES_SETTING):
    with contextlib.suppress(PrintedValuesError):
        use_printed_values(os.environ[PRINTED_VALUES_SETTING])
