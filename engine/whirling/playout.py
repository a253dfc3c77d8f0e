"""How ``strong`` searches Whirling Witchcraft: its hints (``engine/bots/searching.py``) and the
fast policy that plays a dealt state on to the reveal of the recipes.

* **Paired root** (``paired_root``): every action of the root is weighed on the same deals, each
  with the same random stream for its playout (common random numbers), as ``greedy`` compares
  its actions; a deal's luck then cancels out between the actions instead of drowning the
  difference between them (a tree that scores each action on deals of its own trailed ``greedy``
  at three or more witches).
* **Playout to the reveal** (``playout_over``): from the root action the other witches still to
  choose their recipe choose it, and so does the bot if it has only gained or swapped so far;
  the recipes are revealed (arcana triggers included) and ``heuristic.evaluate`` scores the
  position there, projecting the production, the pass and one more round. Scoring at once would
  compare one's own play against others who have not played yet.
* **The policy** (``playout_action``) is one ply ahead by the witch's own round alone
  (``projection.own_round``: what her production would overflow onto her nemesis): the others'
  rows are not read, so what she picks does not depend on another's hidden play, as at a real
  table. It never swaps its hand (Initiate), and breaks ties by the order of the legal actions,
  so it draws nothing from ``rng`` and a deal's playouts differ only by the root action.
"""

from __future__ import annotations

import random

from engine.protocol import Action
from engine.whirling import rules
from engine.whirling.projection import own_round
from engine.whirling.state import State


def paired_root(state: State) -> bool:
    """Every decision weighs its actions side by side on shared deals."""
    return True


def playout_over(start: State, state: State) -> bool:
    """A playout ends once the recipes chosen in the study it began in are revealed (at once
    when the search began in the brew phase), or with the match."""
    return state.result is not None or state.phase != "study" or state.round != start.round


def playout_action(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    choices = [a for a in legal if a["type"] != "swap_hand"] or legal
    if len(choices) == 1:
        return choices[0]
    best = choices[0]
    best_value = -1.0
    for action in choices:
        value = own_round(rules.apply(state, seat, action).state, seat)
        if value > best_value:
            best, best_value = action, value
    return best
