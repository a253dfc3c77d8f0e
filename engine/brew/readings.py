"""Readings we chose where the rules sheet says [GUESS] or [UNKNOWN], kept in one place.

Each constant names the sheet's open question it settles (``docs/rules/witchs-brew.md``,
section 15); ``README.md`` lists them for players. A rules expert who finds the real numbers
changes them here and nowhere else. Facts the rulebook states are not here: they are in
``cards.py`` as plain data.
"""

from __future__ import annotations

from typing import Final

# --- potion cards (sheet 8.2, open question 1) -------------------------------------------------
# NOT real card data: the placeholder of sheet section 8.2 (one unverified hobby implementation,
# S24). Copper #1 = 1 white agrees with S9; two ravens per stack agrees with the rulebook.
# Each stack lists its cards from the top (lowest value) to the bottom: (cost, vp, raven).
# A shelf's cost is its price: {"gold": n} for the gold shelf, {"any_drops": n} for the
# ingredient shelf (drops of any colours) [GUESS].
PotionRow = tuple[dict[str, int], int, bool]

_CAULDRON_LADDER: Final = ((1, 0, 2), (1, 0, 2), (1, 1, 3), (1, 1, 3), (2, 1, 4), (2, 2, 5),
                           (3, 2, 6))
_CAULDRON_RAVENS: Final = (False, False, False, False, True, False, True)
# (main colour, second colour) of each metal's costs: copper white+red, silver green+white,
# iron red+green (sheet 8.2).
_CAULDRON_COLOURS: Final = {"copper": ("white", "red"), "silver": ("green", "white"),
                            "iron": ("red", "green")}


def _cauldron_rows(main: str, second: str) -> tuple[PotionRow, ...]:
    rows = []
    for (a, b, vp), raven in zip(_CAULDRON_LADDER, _CAULDRON_RAVENS, strict=True):
        cost = {main: a} | ({second: b} if b else {})
        rows.append((cost, vp, raven))
    return tuple(rows)


_SHELF_LADDER: Final = ((3, 2, False), (3, 2, False), (4, 3, True), (5, 4, False), (6, 5, True))

POTION_STACKS: Final[dict[str, tuple[PotionRow, ...]]] = {
    "copper": _cauldron_rows(*_CAULDRON_COLOURS["copper"]),
    "silver": _cauldron_rows(*_CAULDRON_COLOURS["silver"]),
    "iron": _cauldron_rows(*_CAULDRON_COLOURS["iron"]),
    "gold_shelf": tuple(({"gold": p}, vp, r) for p, vp, r in _SHELF_LADDER),
    "ingredient_shelf": tuple(({"any_drops": p}, vp, r) for p, vp, r in _SHELF_LADDER),
}
POTION_DATA_IS_PLACEHOLDER: Final = True

# --- roles -------------------------------------------------------------------------------------
# Open question 2: Witch = silver, Druid = iron (spell names Strix/Sanatio paired in order, S4).
CAULDRON_OF_ROLE: Final = {"wizard": "copper", "witch": "silver", "druid": "iron"}
# The same pairing for the spells that brew in any colours (Magus copper is [SOURCE: S4]).
CAULDRON_OF_SPELL: Final = {"magus": "copper", "strix": "silver", "sanatio": "iron"}

# Open question 3: the Wizard/Witch/Druid favor costs the printed drops plus this much gold, and
# allows no extra-drop vial.
FAVOR_SURCHARGE_GOLD: Final = 1

# Sheet section 5 notes: the full brewing action may pay one extra drop for this many vials
# (0 turns the extra-drop vial off).
EXTRA_DROP_VIALS: Final = 1
# Open question 4: the colours that extra drop may be (our reading: any colour).
EXTRA_DROP_COLOURS: Final = ("red", "white", "green")
# Open question 3 ("favor vial"): the brewers' favor allows no extra-drop vial.
FAVOR_EXTRA_DROP_VIAL: Final = False

# Open question 6: the Assistant's favor is 1 gold for this many drops of any colours (the full
# action, 3 drops for 1 gold, is [SOURCE: S3]).
ASSISTANT_FULL_DROPS: Final = 3
ASSISTANT_FAVOR_DROPS: Final = 1
ASSISTANT_PRICE_GOLD: Final = 1

# Open question 5: the Cutpurse takes this much gold from every other player who has gold (and is
# not exempt), then may buy the top gold-shelf card at its price.
CUTPURSE_TAKES_GOLD: Final = 1
# The Begging Monk takes this many drops (each giver picks the colour) from every other player who
# has drops (and is not exempt), then may buy the top ingredient-shelf card.
BEGGING_MONK_TAKES_DROPS: Final = 1
# The thieves' favor, room option ``thief_favor``: "exempt" (reading (a), the default: the favor
# taker is spared the theft) or "buy" (reading (b): a lesser version, buying the shelf card at its
# price without taking anything from anyone).
THIEF_FAVOR_DEFAULT: Final = "exempt"

# Open question 7: vials are unlimited, like drops and gold (S3 for those two). A number would be
# the size of the shared supply (45 in the box [RULEBOOK]): gains stop when it is empty.
VIAL_LIMIT: Final[int | None] = None

# Open question 10: vial counts are hidden in the other players' views (they may be kept under
# the potion cards, S3/S11); the gains stay in the public log, as at the table.
HIDE_VIALS: Final = True

# Sheet 3.6: the start player is drawn from the seeded generator.
RANDOM_START_PLAYER: Final = True

# Sheet 7: the top spell book goes to the bottom at the end of every set [SOURCE: S11], cast or not
# [GUESS]. (The other reading, turning only after a cast, is not implemented; False would stop
# the book from ever turning.)
SPELL_TURNS_EVERY_SET: Final = True

# Sheet 11: each set's block replaces the previous one (not cumulative).
BLOCKS_CUMULATIVE: Final = False
