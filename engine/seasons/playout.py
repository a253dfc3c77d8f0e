"""How ``strong`` searches Seasons: its hints (``engine/bots/searching.py``) and the fast policy
that plays a dealt state on to the end of the round.

* While building the libraries the search never ``reset_libraries`` (a tree of placing and
  taking back has no end).
* A playout runs to the end of the round it began in (``playout_over``): every seat has taken
  a die and played its turn, and ``heuristic.evaluate`` scores the position there. What a die,
  a summon or a card kept is worth shows when the turns that follow are played.
* The policy (``playout_action``) is quick and a little noisy, and reads only the seat's own
  reserve, hand and the table: a die is taken by the value of its face (``worth.die_value``
  plus noise); in its turn a sorcerer resolves the die, summons the card of most prestige it
  can pay for (plus noise), activates a card now and then, transmutes its best energy when the
  match is running out (``worth.late``) or its reserve is nearly full, then ends the turn;
  a question is answered at random. Now and then an action is drawn at random.
"""

from __future__ import annotations

import random

from engine.protocol import Action
from engine.seasons import readings
from engine.seasons.cards import CARD, ENERGIES
from engine.seasons.state import State
from engine.seasons.worth import die_value, late

EXPLORE = 0.1  # the share of playout actions drawn uniformly at random
NOISE = 1.0  # points: the spread of the noise on a die's or a summon's worth
ACTIVATE = 0.3  # the chance to activate a card (the first offered) before anything else
FULL = readings.RESERVE_LIMIT - 1  # a reserve this large is transmuted when it may be


def search_actions(state: State, seat: int, legal: list[Action]) -> list[Action]:
    """Never take the libraries apart again while building them."""
    if state.phase != "build":
        return legal
    return [a for a in legal if a["type"] != "reset_libraries"] or legal


def playout_over(start: State, state: State) -> bool:
    """A playout ends with the round it began in (or with the match)."""
    return state.result is not None or state.round != start.round


def playout_action(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    legal = search_actions(state, seat, legal)
    if len(legal) == 1:
        return legal[0]
    if rng.random() < EXPLORE:
        return legal[rng.randrange(len(legal))]
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    if "take_die" in by_type:
        return max(by_type["take_die"],
                   key=lambda a: die_value(state, a["die"]) + rng.gauss(0.0, NOISE))
    if "confirm_libraries" in by_type:
        return by_type["confirm_libraries"][0]
    if "resolve_die" in by_type:
        return by_type["resolve_die"][0]
    if "end_turn" not in by_type:  # a question, the draft or the libraries
        return legal[rng.randrange(len(legal))]
    if "activate" in by_type and rng.random() < ACTIVATE:
        return by_type["activate"][0]
    if "summon" in by_type:
        return max(by_type["summon"],
                   key=lambda a: CARD[a["card"]].pp + rng.gauss(0.0, NOISE))
    if "transmute" in by_type:
        player = state.seats_to_read()[seat]
        if late(state) < 1.0 or sum(player.energy) >= FULL:
            values = readings.TRANSMUTE_VALUES[state.season]
            return max(by_type["transmute"], key=lambda a: _transmuted(a, values))
    return by_type["end_turn"][0]


def _transmuted(action: Action, values: tuple[int, int, int, int]) -> float:
    worth: float = action["count"] * values[ENERGIES.index(action["energy"])]
    return worth - 0.5 * bool(action.get("amulet"))
