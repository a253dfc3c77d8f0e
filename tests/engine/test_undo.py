"""Undo within a turn (engine/undo.py), for every game: where the rules allow it, undo restores
exactly the earlier state; after a draw, a roll, a reveal or another seat's answer it is refused;
a match with undos replays from (seed, actions) to the same end; no view carries the journal."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from engine import registry
from engine.protocol import Game, IllegalAction, Undoes

UNDO = {"type": "undo"}
WHIRLING, SEASONS, BREW = (
    registry.get(g) for g in ("whirling-witchcraft", "seasons", "witchs-brew")
)
GAMES = [WHIRLING, SEASONS, BREW]


def dumped(game: Game, state: Any) -> str:
    return json.dumps(game.dump(state), sort_keys=True)


def advance(game: Game, state: Any, until: Callable[[Any], bool], seed: int = 0) -> Any:
    """Random legal play (no undo) until ``until(state)``."""
    pick = random.Random(seed)
    while not until(state):
        assert game.result(state) is None, "the match ended before the position was reached"
        seat = pick.choice(sorted(game.to_move(state)))
        state = game.apply(state, seat, pick.choice(game.legal_actions(state, seat))).state
    return state


def refused(game: Game, state: Any, seat: int) -> None:
    assert isinstance(game, Undoes)
    assert not game.undo_allowed(state, seat)
    with pytest.raises(IllegalAction) as caught:
        game.apply(state, seat, UNDO)
    assert caught.value.code in {"cannot_undo", "game_over"}


def first(game: Game, state: Any, seat: int, kind: str) -> dict[str, Any]:
    return next(a for a in game.legal_actions(state, seat) if a["type"] == kind)


# --- Whirling Witchcraft: a recipe played while the round's choice is still open ---------------


def test_whirling_a_recipe_played_is_taken_back_until_everyone_chose() -> None:
    game = WHIRLING
    assert isinstance(game, Undoes)
    base = advance(
        game, game.setup(3, 4), lambda s: s.phase == "study" and len(game.to_move(s)) == 3
    )
    refused(game, base, 0)  # nothing of hers to take back yet
    after0 = game.apply(base, 0, first(game, base, 0, "play")).state
    assert game.undo_allowed(after0, 0) and not game.undo_allowed(after0, 1)
    step = game.apply(after0, 0, UNDO)
    assert dumped(game, step.state) == dumped(game, base)  # exactly as before
    assert step.events == [{"type": "undone", "seat": 0}]
    assert game.legal_actions(step.state, 0) == game.legal_actions(base, 0)

    # Another witch chose since: her choice is hidden and independent, so 0 still takes hers back.
    after1 = game.apply(after0, 1, first(game, after0, 1, "play")).state
    assert game.undo_allowed(after1, 0) and game.undo_allowed(after1, 1)
    only1 = game.apply(base, 1, first(game, base, 1, "play")).state
    assert dumped(game, game.apply(after1, 0, UNDO).state) == dumped(game, only1)

    # The last choice resolves the round (the recipes are revealed): nothing goes back.
    done = game.apply(after1, 2, first(game, after1, 2, "play")).state
    assert done.phase != "study" or done.round != base.round
    for seat in range(3):
        refused(game, done, seat)


# --- Seasons: draft picks, library building, the steps of a turn --------------------------------


def test_seasons_a_draft_pick_is_taken_back_before_the_cards_pass() -> None:
    game = SEASONS
    assert isinstance(game, Undoes)
    base = game.setup(2, 3, {"level": "magician"})
    assert base.phase == "draft"
    picked = game.apply(base, 0, game.legal_actions(base, 0)[0]).state
    assert game.undo_allowed(picked, 0)
    assert dumped(game, game.apply(picked, 0, UNDO).state) == dumped(game, base)
    passed = game.apply(picked, 1, game.legal_actions(picked, 1)[0]).state  # the cards pass
    refused(game, passed, 0)
    refused(game, passed, 1)


def test_seasons_library_building_is_taken_back_step_by_step() -> None:
    game = SEASONS
    assert isinstance(game, Undoes)
    base = advance(game, game.setup(2, 3), lambda s: s.phase == "build")
    one = game.apply(base, 0, game.legal_actions(base, 0)[0]).state
    two = game.apply(one, 0, game.legal_actions(one, 0)[0]).state
    back = game.apply(two, 0, UNDO).state
    assert dumped(game, back) == dumped(game, one)
    assert dumped(game, game.apply(back, 0, UNDO).state) == dumped(game, base)


def _turn_steps(game: Game, seed: int) -> list[tuple[Any, int, dict[str, Any], Any]]:
    """Every (before, seat, action, after) of a random match during the year."""
    state = game.setup(2, seed)
    pick = random.Random(seed)
    out = []
    while game.result(state) is None:
        seat = pick.choice(sorted(game.to_move(state)))
        action = pick.choice(game.legal_actions(state, seat))
        step = game.apply(state, seat, action)
        if state.phase == "turn":
            out.append((state, seat, action, step))
        state = step.state
    return out


def test_seasons_a_turn_step_goes_back_but_not_after_a_draw_or_a_roll() -> None:
    game = SEASONS
    assert isinstance(game, Undoes)
    undone = drawn = passed = 0
    for before, seat, _action, step in _turn_steps(game, 5):
        after = step.state
        kinds = {e["type"] for e in step.events}
        if game.undo_allowed(after, seat):
            back = game.apply(after, seat, UNDO).state
            if back.undo is None or back.undo.log == ():
                undone += dumped(game, back) == dumped(game, before)
            assert before.rng == after.rng and len(before.deck) == len(after.deck)
        if "you_drew" in kinds or "cards_seen" in kinds or before.rng != after.rng:
            drawn += 1
            refused(game, after, seat)
        if game.to_move(after) - game.to_move(before):
            passed += 1  # the decision went to another seat: the mover can no longer undo
            refused(game, after, seat)
    assert undone > 10 and drawn > 3 and passed > 10, (undone, drawn, passed)


# --- Witch's Brew: a hand confirmed while the choice of roles is still open ---------------------


def test_brew_a_confirmed_hand_is_taken_back_until_everyone_confirmed() -> None:
    game = BREW
    assert isinstance(game, Undoes)
    state = game.setup(3, 2)
    assert state.phase == "choose"
    for seat in range(3):
        for _ in range(5):
            state = game.apply(state, seat, first(game, state, seat, "keep")).state
    before = state
    confirmed = game.apply(before, 0, first(game, before, 0, "confirm")).state
    assert 0 not in game.to_move(confirmed) and game.undo_allowed(confirmed, 0)
    back = game.apply(confirmed, 0, UNDO).state
    assert dumped(game, back) == dumped(game, before)
    assert 0 in game.to_move(back)
    confirmed = game.apply(confirmed, 1, first(game, confirmed, 1, "confirm")).state
    assert game.undo_allowed(confirmed, 0)  # 1 confirmed since, 0's hand is still hidden
    played = game.apply(confirmed, 2, first(game, confirmed, 2, "confirm")).state
    assert played.phase != "choose"  # the roles are revealed and the rounds begin
    for seat in range(3):
        refused(game, played, seat)
    seat = next(iter(game.to_move(played)))
    led = game.apply(played, seat, game.legal_actions(played, seat)[0]).state
    refused(game, led, seat)  # a role led is shown to the table: no way back


# --- every game: replay, round trip, views ------------------------------------------------------


def _match_with_undos(game: Game, seed: int) -> tuple[Any, list[tuple[int, dict[str, Any]]], int]:
    state = game.setup(3, seed)
    pick = random.Random(seed)
    actions: list[tuple[int, dict[str, Any]]] = []
    undos = 0
    assert isinstance(game, Undoes)
    while game.result(state) is None:
        seat = pick.choice(sorted(game.to_move(state) | {0}))
        if game.undo_allowed(state, seat) and pick.random() < 0.3:
            action: dict[str, Any] = dict(UNDO)
            undos += 1
        elif seat in game.to_move(state):
            action = pick.choice(game.legal_actions(state, seat))
        else:
            continue
        state = game.apply(state, seat, action).state
        actions.append((seat, action))
        if state.undo is not None:  # the journal survives the snapshot: dump, load, go on
            state = game.load(json.loads(json.dumps(game.dump(state))))
    return state, actions, undos


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_a_match_with_undos_replays_to_the_same_end(game: Game) -> None:
    end, actions, undos = _match_with_undos(game, 11)
    assert undos > 5
    again = game.setup(3, 11)
    for seat, action in actions:
        again = game.apply(again, seat, action).state
    assert dumped(game, again) == dumped(game, end)
    assert game.result(again) == game.result(end)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_no_view_carries_the_journal(game: Game) -> None:
    state = game.setup(3, 7)
    pick = random.Random(7)
    journaled = 0
    while game.result(state) is None and journaled < 40:
        seat = pick.choice(sorted(game.to_move(state)))
        state = game.apply(state, seat, pick.choice(game.legal_actions(state, seat))).state
        if state.undo is None:
            continue
        journaled += 1
        bare = game.state_class.load(state.dump())  # type: ignore[attr-defined]
        assert bare.undo is None
        for viewer in [None, 0, 1, 2]:
            view = game.view(state, viewer)
            assert view == game.view(bare, viewer)
            assert "undo" not in json.dumps(view) or "undo" in json.dumps(game.view(bare, viewer))
    assert journaled == 40


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_undo_is_never_a_legal_action_and_takes_no_field(game: Game) -> None:
    state = game.setup(3, 1)
    seat = min(game.to_move(state))
    assert all(a["type"] != "undo" for a in game.legal_actions(state, seat))
    with pytest.raises(IllegalAction) as caught:
        game.apply(state, seat, {"type": "undo", "steps": 2})
    assert caught.value.code == "bad_action"
