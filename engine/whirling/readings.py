"""Readings we chose where the rules sheet says [GUESS] or [UNKNOWN], kept as data.

Each constant names the sheet's open question it settles; ``README.md`` lists them for players.
Card-level readings (Flask of Insight, Spider Summoning) are room options, see ``options.py``.
"""

from __future__ import annotations

# Open question 6: the arcana card has spaces 1–6; a token stops at 6 and triggers nothing more.
TRACK_MAX = 6
TRIGGER_SPACES = (2, 4, 6)

# Open question 7: when the draw deck is empty, shuffle the discard pile (only the Initiate's
# swap makes one) into a new deck; with neither, nobody draws. An empty hand plays no card.
RESHUFFLE_DISCARD = True

# Winning [RULEBOOK]: 5 or more cubes in one's Witch's Circle at the check after the pass.
WIN_THRESHOLD = 5

# Cards dealt at setup and the usual hand limit [RULEBOOK]; the Clairvoyant's 5 is card data.
HAND_LIMIT = 4
INITIATE_SWAP_DRAW = 4

# Raven [RULEBOOK]: remove up to 2 cubes of your own workbench.
RAVEN_REMOVES = 2

# Uncontrolled Powers [SOURCE]: 3 cubes of one type of her choice, any of the five types.
FORCED_GAIN = 3
FORCED_GAIN_TYPES = (0, 1, 2, 3, 4)

# Spellbook Scholar [SOURCE]: 2 mandrakes, once per round, from workbench or output slots.
SCHOLAR_COST = 2
