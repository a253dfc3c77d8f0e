"""How ``strong`` searches Witch's Brew: its hints (``engine/bots/searching.py``) and the fast
policy that plays a dealt state on to the end of the set.

* The secret choice of roles is a choice of a set of 5: the search only ever ``keep``s (never
  ``unkeep``s, which would let it walk in circles) and weighs the next role to keep at the root
  only; the rest of every hand is chosen by the playout policy (``tree_leaf``).
* A playout runs to the end of the set (``playout_over``), where every hand is empty and the
  heuristic (``heuristic.evaluate``) reads only what is on the table: scores, drops and gold.
* The policy (``playout_action``) is quick and a little noisy: roles are kept and led by their
  worth (``worth.role_worth``) plus noise; answers, full actions, tributes and purchases go
  one ply ahead by the player's own worth (``worth.worth``; at most ``WIDTH`` of them, drawn
  at random when there are more, e.g. the Assistant's ten mixes of drops); now and then an
  action is drawn at random. It never looks at another seat's cards: what it does depends on
  its own hand and the table only, as a player's would.
"""

from __future__ import annotations

import random

from engine.brew import rules
from engine.brew.cards import ROLES_KEPT
from engine.brew.state import State
from engine.brew.worth import role_worth, worth
from engine.protocol import Action

EXPLORE = 0.1  # the share of playout actions drawn uniformly at random
ROLE_NOISE = 0.6  # VP: the spread of the noise on a role's worth when keeping or leading it
ACTION_NOISE = 0.1  # VP: the spread of the noise on the worth after an answer or an action
WIDTH = 4  # at most this many actions are tried one ply ahead (drawn at random among more)
CONFIRM: Action = {"type": "confirm"}


def search_actions(state: State, seat: int, legal: list[Action]) -> list[Action]:
    """While roles are chosen, only ``keep`` (and ``confirm`` once 5 are kept)."""
    if state.phase != "choose":
        return legal
    if len(state.witches[seat].hand) >= ROLES_KEPT:
        return [CONFIRM]
    keeps = [a for a in legal if a["type"] == "keep"]
    return keeps or legal


def tree_leaf(state: State) -> bool:
    """Below the root, the choice of roles is the playout's: its order carries no meaning."""
    return state.phase == "choose"


def playout_over(start: State, state: State) -> bool:
    """A playout ends with the set it began in (or with the match)."""
    return state.result is not None or state.set != start.set


def playout_action(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    legal = search_actions(state, seat, legal)
    if len(legal) == 1:
        return legal[0]
    if rng.random() < EXPLORE:
        return legal[rng.randrange(len(legal))]
    witch = state.witches[seat]
    if state.phase in ("choose", "lead"):
        return max(legal, key=lambda a: role_worth(state, witch, a["role"])
                   + rng.gauss(0.0, ROLE_NOISE))
    if len(legal) > WIDTH:
        legal = rng.sample(legal, WIDTH)
    return max(legal, key=lambda a: worth(rules.apply(state, seat, a).state, seat)
               + rng.gauss(0.0, ACTION_NOISE))
