"""An undo tells the table exactly when the server's rule would (issue 22): ``engine.undo`` gives
it the private ``undone_privately`` event, addressed to the seat, just when the server's
private-step rule (``app/rooms/private_steps.private_to``: every event hers alone, every other
reader's view, legal actions, undo, who owes and stage unchanged) finds the undo private; else
the public ``undone``. And every step the rule finds private is taken back privately: Witch's
Brew's keeps, Seasons' library building (since its view hides another seat's piles),
Whirling Witchcraft's blind production."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.rooms.private_steps import Faces, private_to
from engine import registry
from engine.protocol import TO, Game, Undoes

UNDO = {"type": "undo"}
GAMES = [registry.get(g) for g in ("witchs-brew", "seasons", "whirling-witchcraft")]


def private(game: Game, before: Any, seat: int, step: Any, players: int) -> int | None:
    faces = (Faces(game, s, game.to_move(s)) for s in (before, step.state))
    return private_to(game, *faces, seat, step.events, players)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_an_undo_is_private_exactly_when_the_rule_says_so(game: Game) -> None:
    assert isinstance(game, Undoes)
    told = {"undone": 0, "undone_privately": 0}
    private_steps_undone = 0
    for seed in range(2):
        players = 3
        state = game.setup(players, 40 + seed)
        pick = random.Random(seed)
        steps = 0
        while game.result(state) is None and steps < 400:
            steps += 1
            owing = sorted(game.to_move(state))
            seat = pick.choice(sorted({*owing, *range(players)}))
            if game.undo_allowed(state, seat) and pick.random() < 0.25:
                # The step she takes back: the rule's verdict on it, where it was taken.
                last = [a for s, a in state.undo.log if s == seat][-1]
                base, was_private = state.undo.base, None
                for s, a in state.undo.log:
                    stepped = game.apply(base, s, a)
                    if s == seat and a is last:
                        was_private = private(game, base, s, stepped, players)
                    base = stepped.state
                step = game.apply(state, seat, UNDO)
                (event,) = step.events
                told[event["type"]] += 1
                judged = private(game, state, seat, step, players)
                assert (event["type"] == "undone_privately") == (judged == seat), event
                assert (TO in event) == (judged == seat), event
                if was_private == seat:  # what nobody saw done, nobody sees undone
                    assert event["type"] == "undone_privately", (last, event)
                    private_steps_undone += 1
            elif seat in owing:
                step = game.apply(state, seat, pick.choice(game.legal_actions(state, seat)))
            else:
                continue
            state = step.state
    assert told["undone"] > 0 and told["undone_privately"] > 0, told
    assert private_steps_undone > 0
