"""A one-ply evaluation for the search bots (``Game.evaluate``), and the hints ``strong`` reads
from this module (``engine/bots/searching.py``; they live in ``playout.py``).

A position is worth the player's score plus resources plus roles in hand (``worth.py``), relative
to the best other player, so that taking from others (the thieves) counts too. A finished match
is worth the score against the best other score (negative for a loser), plus ``WIN_BONUS`` for a
win: on the same scale as a match still being played, so that a search that reaches the end in
some of its playouts and not in others can compare them.
"""

from __future__ import annotations

from engine.brew.playout import playout_action, playout_over, search_actions, tree_leaf
from engine.brew.scoring import leftovers
from engine.brew.state import State
from engine.brew.worth import role_worth, worth

WIN_BONUS = 5.0  # VP

__all__ = [
    "evaluate",
    "playout_action",
    "playout_over",
    "role_worth",
    "search_actions",
    "tree_leaf",
    "worth",
]


def evaluate(state: State, seat: int) -> float:
    if state.result is not None:
        scores = state.result["scores"]
        margin = float(scores[seat] - max(v for s, v in enumerate(scores) if s != seat))
        won = state.result["placings"][seat] == 1
        return margin + (WIN_BONUS if won else 0.0) + 0.01 * leftovers(state.witches[seat])
    mine = worth(state, seat)
    best_other = max(worth(state, s) for s in range(state.players) if s != seat)
    return mine - best_other
