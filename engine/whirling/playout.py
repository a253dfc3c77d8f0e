"""How ``strong`` searches Whirling Witchcraft: its hints (``engine/bots/searching.py``) and the
fast policy that plays a dealt state on to the reveal of the next round's recipes.

* **Paired root** (``paired_root``): every action of the root is weighed on the same deals, each
  with the same random stream for its playout (common random numbers), as ``greedy`` compares
  its actions; a deal's luck then cancels out between the actions instead of drowning the
  difference between them (a tree that scores each action on deals of its own trailed ``greedy``
  at three or more witches).
* **Playout over a round** (``playout_over``): a choice of recipe is played out through the
  reveal, this round's production, the cauldrons' pass, the hands passed and refilled, and the
  next round's choices up to their reveal; ``heuristic.evaluate`` scores the position there. So
  a recipe is judged by two rounds of production, the triggers it sets off and the hand it
  leaves to the witch on the left, not just by the projection. A decision of the brew phase is
  scored at once (the projection finishes the round): there the deal changes little.
* **The policy** (``playout_action``) decides from the witch's own sheet, never from another's
  hidden play: a recipe by her own round alone (``projection.own_round``: what her production
  would overflow onto her nemesis), worked out without playing it; arcana triggers and the
  personality's before-choosing steps one ply ahead by the same measure; production as the
  projection does it: every recipe of her row once, in row order, taking from her workbench's
  fullest slots and making what her nemesis has least room for, then ``done``. It never swaps
  its hand (Initiate) and draws nothing from ``rng``: a deal's playouts differ only by the root
  action.
"""

from __future__ import annotations

import random
from typing import Any

from engine.protocol import Action
from engine.whirling import rules
from engine.whirling.cards import CAPACITY, INGREDIENT_INDEX
from engine.whirling.projection import own_round
from engine.whirling.state import State
from engine.whirling.table import right_of

DONE: Action = {"type": "done"}
PICKS_KEPT = 20_000  # recipe picks remembered, then forgotten all at once
STEPS = ("gain", "play_random", "confirm_random", "potion", "raven", "book", "pour", "decline")

_picks: dict[tuple[Any, ...], int] = {}


def paired_root(state: State) -> bool:
    """Every decision weighs its actions side by side on shared deals."""
    return True


def playout_over(start: State, state: State) -> bool:
    """From the study: once the next round's recipes are revealed (or the match is over); from
    the brew phase: at once."""
    if state.result is not None or start.phase != "study":
        return True
    return state.round > start.round + 1 or (
        state.round == start.round + 1 and state.phase == "brew"
    )


def playout_action(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    choices = [a for a in legal if a["type"] != "swap_hand"] or legal
    if len(choices) == 1:
        return choices[0]
    if state.phase == "study" and choices[0]["type"] == "play":
        return _recipe_to_play(state, seat, choices)
    kind = choices[0]["type"]
    if kind in ("potion", "raven", "pour"):
        return _resolve(state, seat, [a for a in choices if a["type"] == kind])
    steps = [a for a in choices if a["type"] in STEPS]
    if steps:
        return max(steps, key=lambda a: own_round(rules.apply(state, seat, a).state, seat))
    brews = [a for a in choices if a["type"] == "brew"]
    if brews and DONE in choices:
        return _use(state, seat, brews)
    return DONE if DONE in choices else choices[0]


def _recipe_to_play(state: State, seat: int, plays: list[Action]) -> Action:
    """Her best recipe (and side) by her own round. The others' picks are the same for every
    root action on a deal, so each pick is kept by what it reads (``_picks``)."""
    witch = state.witches[seat]
    nemesis = state.witches[right_of(seat, state.players)]
    recipes = state.recipes
    known = (
        id(recipes),
        witch.personality,
        witch.rotated_own,
        tuple(tuple(entry) for entry in witch.tableau),
        tuple(witch.workbench),
        tuple(nemesis.workbench),
        tuple((a.get("card"), a.get("rotated")) for a in plays),
    )
    pick = _picks.get(known)
    if pick is None:
        best_value = -1.0
        for i, action in enumerate(plays):
            if action["type"] != "play":
                continue
            recipe = recipes[action["card"]]
            value = own_round(state, seat, (recipe, recipe.side(action["rotated"])))
            if value > best_value:
                pick, best_value = i, value
        if len(_picks) >= PICKS_KEPT:
            _picks.clear()
        _picks[known] = pick = pick or 0
    return plays[pick]


def _resolve(state: State, seat: int, options: list[Action]) -> Action:
    """An arcana trigger resolved as the projection resolves it: the potion's cube of the type
    her nemesis has least room for, the raven's two cubes off her fullest slots, the pour of the
    cube that hurts most."""
    prod = state.witches[seat].brew
    assert prod is not None
    bench = prod.workbench
    nemesis = state.witches[right_of(seat, state.players)]
    target = nemesis.brew.workbench if nemesis.brew else nemesis.workbench

    def worth(action: Action) -> float:
        if action["type"] == "raven":
            return sum(
                float(n) * (1 + bench[INGREDIENT_INDEX[name]] / CAPACITY[INGREDIENT_INDEX[name]])
                for name, n in action["remove"].items()
            )
        k = INGREDIENT_INDEX[action["ingredient"]]
        return target[k] - CAPACITY[k] - k / 10  # least room first; ties: the earlier type

    return max(options, key=worth)


def _use(state: State, seat: int, brews: list[Action]) -> Action:
    """The first recipe of her row worth using, the way the projection uses it: outputs where
    her nemesis has least room, inputs from the fullest slots of her workbench; a recipe that
    makes fewer cubes than it takes only when what it makes hurts. None left: ``done``."""
    prod = state.witches[seat].brew
    assert prod is not None
    bench = prod.workbench
    nemesis = state.witches[right_of(seat, state.players)]
    target = nemesis.brew.workbench if nemesis.brew else nemesis.workbench

    def worth(action: Action) -> tuple[float, float]:
        freed = sum(
            n * bench[INGREDIENT_INDEX[name]] / CAPACITY[INGREDIENT_INDEX[name]]
            for name, n in action["take"].get("workbench", {}).items()
        )
        hurt = sum(n * (target[INGREDIENT_INDEX[name]] + 1) for name, n in action["make"].items())
        return hurt, freed

    def pays(action: Action) -> bool:
        made = action["make"]
        if sum(made.values()) >= sum(sum(cubes.values()) for cubes in action["take"].values()):
            return True
        return any(
            CAPACITY[INGREDIENT_INDEX[name]] - target[INGREDIENT_INDEX[name]] < 3 for name in made
        )

    for recipe in dict.fromkeys(a["recipe"] for a in brews):
        best = max((a for a in brews if a["recipe"] == recipe), key=worth)
        if best["make"] and pays(best):
            return best
    return DONE
