"""Readings we chose where the rules sheet says [GUESS] or [UNKNOWN], and the rulebook's numbers,
kept as named data. ``README.md`` ("Readings we chose") lists each for players; the sheet's
open-question numbers are given in the comments.
"""

from __future__ import annotations

# --- the rulebook's numbers [RULEBOOK] ----------------------------------------------------------

RESERVE_LIMIT = 7
GRIMOIRE_RESERVE_LIMIT = 10  # Bespelled Grimoire (#18) sets the limit; two do not add [CONFIRMED]
GAUGE_MAX = 15
BONUS_MAX_USES = 3
BONUS_PENALTY: dict[int, int] = {0: 0, 1: 5, 2: 12, 3: 20}  # subtracted at the end
HAND_PENALTY = 5  # per card left in hand at the end
DRAFT_CARDS = 9
LIBRARY_SIZE = 3  # the hand of year I, Library II and Library III hold 3 cards each
YEARS = 3
MONTHS = 12  # spaces of the season wheel; 1–3 winter, 4–6 spring, 7–9 summer, 10–12 autumn

# Transmutation values per season [CONFIRMED: BGA, TAK; RULEBOOK worked example], ENERGIES order
# (air, water, fire, earth).
TRANSMUTE_VALUES: dict[str, tuple[int, int, int, int]] = {
    "winter": (1, 1, 2, 3),
    "spring": (2, 1, 3, 1),
    "summer": (3, 2, 1, 1),
    "autumn": (1, 3, 1, 2),
}

# --- readings ----------------------------------------------------------------------------------

# Q3: with 2 or 3 players, players + 1 of the 5 dice of each season are picked at random at
# setup and kept all game (as BGA); with 4 players all 5 are used. The choice is data in the
# state (``dice_in_use``, drawn by ``rules.setup``), so a position may name any dice.

# Q9: the apprentice level uses BGA's four pre-built sets; each player gets one at random, the
# cards of unused sets and the other copies of cards 1–30 form the draw pile.
APPRENTICE_SETS: tuple[tuple[int, ...], ...] = (
    (1, 2, 7, 17, 18, 20, 26, 29, 30),
    (3, 5, 9, 14, 15, 21, 23, 25, 28),
    (4, 6, 7, 9, 12, 16, 22, 24, 30),
    (1, 2, 3, 11, 13, 15, 18, 25, 27),
)

# Q1 / section 10: the tie-break is "most power cards in play" (as BGA), then a shared win.
TIE_BREAK = ("most_cards_in_play",)

# Q8: the final score has no floor at 0 (the rulebook formula as written). Room option
# ``score_floor`` applies BGA's floor instead.
SCORE_FLOOR_DEFAULT = False

# Q12: Bonus 1 exchanges 1 or 2 tokens (BGA accepts 1). Room option ``exchange_exactly_two``.
EXCHANGE_MIN_DEFAULT = 1
EXCHANGE_MAX = 2

# Q5: Temporal Boots cannot move the marker below year I, space 1.
EARLIEST = (1, 1)

# Q6: Dragon Skull (#37) may sacrifice itself as one of its 3 cards.
DRAGON_SKULL_MAY_SACRIFICE_ITSELF = True

# Q10: the energy supply is unlimited: no count of supply tokens exists in the state (a limited
# supply would be a new state field, not a flag here).

# Q14: the first player is drawn from the match's seeded generator (room option ``first_player``
# lets the host name a seat).

# Section 8 step 4: end-of-round effects are applied player by player from the first player; a
# player with two or more different such cards chooses which resolves next (sheet [SOURCE: FAQ];
# ``rules.EndOfRoundOrder``); copies of one card resolve in the order they entered play.

# Section 8 step 3.5 (BGA): activated cards become ready again at the end of each turn.

# Card-payment reading: tokens on Amulet of Water (#4) may pay costs, be transmuted and pay
# discard costs; a summon or an activation names how many of each type come from the amulets
# (``"amulet"`` field), the rest comes from the reserve. Several amulets are one pool, emptied in
# the order they entered play.

# Potion of Life (#26) counts as transmuting: Purse of Io (+1, sheet) and, our reading, the
# Transmute +1 bonus of this turn (as for #5) add per token.
POTION_OF_LIFE_VALUE = 4

# A card drawn by the die (keep or discard) and overflow discards are asked as questions in the
# rulebook's order: draw → energy → crystals → gauge; the overflow discard comes after.
