"""``greedy``: the best action one ply ahead by the game's own heuristic.

For each legal action: deal a few full states consistent with the seat's view (the game's
``determinize``, drawn from the bot's own random stream), apply the action to each, score the
result with ``evaluate(state, seat)`` and average. The same deals serve every action, so actions
are compared on equal cards. In a simultaneous step the other seats' pending choices are hidden;
the deal fills them in, so they are averaged away too. Ties go to the earliest listed action.

It weighs only the actions the game's ``search_actions`` hint keeps (``engine/bots/searching``),
as ``strong`` does: taking back what it just did (Seasons' ``reset_libraries``, Witch's Brew's
``unkeep``) can score best one ply ahead, and a bot that always decides the same way in the same
position then places, takes back and places again for ever (Seasons at master level: 3 of 30
two-player matches of ``greedy`` never ended).
"""

from __future__ import annotations

import random
from typing import Any

from engine.bots.base import Seen
from engine.bots.searching import hints, supports
from engine.protocol import Action, Game, IllegalAction

DEALS = 3


class GreedyBot:
    level = "greedy"

    def __init__(self, seed: int = 0, deals: int = DEALS, **_: Any) -> None:
        self._random = random.Random(seed)
        self.deals = deals

    def choose(self, game: Game, seen: Seen) -> Action:
        if not seen.legal:
            raise ValueError(f"seat {seen.seat} has no legal action")
        if len(seen.legal) == 1:
            return seen.legal[0]
        if not supports(game):
            return seen.legal[self._random.randrange(len(seen.legal))]
        return best_by_evaluation(game, seen, self._random, self.deals)


def best_by_evaluation(game: Any, seen: Seen, rng: random.Random, deals: int) -> Action:
    weigh = hints(game).search_actions
    candidates = seen.legal
    totals = [0.0] * len(candidates)
    for deal in range(deals):
        state = game.determinize(seen.view, seen.seat, rng)
        if deal == 0 and weigh is not None:
            candidates = weigh(state, seen.seat, seen.legal)
            if len(candidates) == 1:
                return candidates[0]
            totals = [0.0] * len(candidates)
        for i, action in enumerate(candidates):
            try:
                after = game.apply(state, seen.seat, action).state
            except IllegalAction:
                totals[i] = float("-inf")  # never expected: the deal must keep legal actions
                continue
            totals[i] += game.evaluate(after, seen.seat)
    best = max(range(len(totals)), key=lambda i: (totals[i], -i))
    return candidates[best]
