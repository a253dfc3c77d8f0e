"""How good a Whirling Witchcraft position is for one witch: the ``greedy`` bot's one-ply score
and the ``strong`` bot's leaf value (``engine/bots``).

The game is won by the cubes your cauldron pours onto the witch on your right that her workbench
cannot hold [RULEBOOK]. So the score projects the rest of the round: every witch finishes her
production with a simple greedy rule (use each affordable recipe of her row once, inputs from the
workbench first, outputs chosen where her nemesis has least room; a pending potion becomes the
most damaging cube, a raven clears her two fullest slots), the cauldrons pass, and the overflow
is added to each circle. A second, discounted projection of the next round (same rows, the
workbenches left by the first) values what a position is worth beyond this round: a production
engine, a nemesis whose workbench is full, a workbench of your own with room.

The projection lives in ``projection.py``. The score is the projected margin over the best other
witch, plus a little of one's own projection (in a four-witch race the leader is whom to beat, yet
cubes of one's own count), squashed by a logistic into (0, 1), a rough chance of winning; a
finished match scores 1 for a win (1/k for a win shared by k), 0 for a loss, so search bots can mix
both on one scale.

``strong``'s search hints (``engine/bots/searching.py``) are read from this module; they live in
``playout.py``.
"""

from __future__ import annotations

import math

from engine.whirling import projection
from engine.whirling.cards import CAPACITY
from engine.whirling.playout import paired_root, playout_action, playout_over
from engine.whirling.state import State
from engine.whirling.table import right_of

__all__ = ["evaluate", "evaluate_all", "paired_root", "playout_action", "playout_over"]

SCALE = 1.5  # cubes of margin that make a position about 2:1 (logistic)
NEXT_ROUND = 0.5  # weight of the second projected round
OWN = 0.25  # weight of one's own projection besides the margin over the leader
WIN_AT = 5

_cache: tuple[State | None, list[float]] = (None, [])


def evaluate(state: State, seat: int) -> float:
    """Higher is better for ``seat``. Scores for every seat are computed together and the last
    state's are kept, since a search asks for each seat of the same leaf in turn."""
    global _cache
    cached_state, values = _cache
    if cached_state is not state:
        values = evaluate_all(state)
        _cache = (state, values)
    return values[seat]


def evaluate_all(state: State) -> list[float]:
    n = state.players
    if state.result is not None:
        winners = state.result["winners"]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]
    rows = [projection.recipe_row(state, w) for w in state.witches]
    benches, cauldrons = projection.this_round(state, rows)
    circles = [float(sum(w.circle) + (sum(w.brew.claimed) if w.brew else 0)) for w in state.witches]
    first = projection.overflow(benches, cauldrons, n)
    projected = [circles[s] + first[s] for s in range(n)]
    # The next round: the same rows, the benches left after the pass.
    after = [b[:] for b in benches]
    for s in range(n):
        r = right_of(s, n)
        for k in range(5):
            after[r][k] = min(CAPACITY[k], after[r][k] + cauldrons[s][k])
    if max(projected) < WIN_AT:
        second_benches, second_cauldrons = projection.next_round(after, rows, n)
        second = projection.overflow(second_benches, second_cauldrons, n)
        projected = [projected[s] + NEXT_ROUND * second[s] for s in range(n)]
    values = []
    for s in range(n):
        leader = max(projected[o] for o in range(n) if o != s)
        mine = projected[s]
        values.append(1.0 / (1.0 + math.exp(-((mine - leader) + OWN * mine) / SCALE)))
    return values
