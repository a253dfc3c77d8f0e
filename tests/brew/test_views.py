"""View redaction (the security boundary) and determinization for search bots."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.brew.cards import SPELL_IDS
from engine.protocol import public_events
from tests.brew.randomplay import GAME, mode, plies
from tests.viewcheck import assert_no_leaks


def _views(state: Any, players: int) -> dict[int | None, dict[str, Any]]:
    views: dict[int | None, dict[str, Any]] = {s: GAME.view(state, s) for s in range(players)}
    views[None] = GAME.view(state, None)
    return views


@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_view_shows_another_seats_secret(players: int) -> None:
    rng = random.Random(players)
    for seed in range(12):
        for ply in plies(players, 50_000 + seed, mode(players, seed)):
            if rng.random() > 0.3:
                continue
            state = ply.after
            views = _views(state, players)
            assert_no_leaks(views)
            for viewer, view in views.items():
                text = json.dumps(view)
                assert state.rng not in text
                for cards in state.stacks.values():  # only the top card of a stack shows
                    for card in cards[1:]:
                        assert f'"{card}"' not in text
                unseen = set(SPELL_IDS) - {state.spells[0]} - set(state.spell_history)
                for spell in unseen:
                    assert f'"{spell}"' not in text
                for seat, player in enumerate(view["players"]):
                    if seat == viewer:
                        assert player["hand"] == state.witches[seat].hand
                        continue
                    assert player["hand"] == "hidden" and player["set_aside"] == "hidden"
                    if state.phase != "over":
                        assert player["vials"] == "hidden"
                    if state.phase == "choose" and not state.witches[seat].confirmed:
                        assert player["hand_count"] == "hidden"
                    else:
                        assert player["hand_count"] == len(state.witches[seat].hand)


def test_public_events_never_name_a_kept_role() -> None:
    for ply in plies(4, 3, mode(4, 3)):
        for event in public_events(ply.events):
            if ply.before.phase == "choose":
                assert "role" not in event and "roles" not in event, event


def test_to_move_asks_every_seat_with_cards_holder_or_not() -> None:
    """Whoever holds the role, the seats asked are the same: every seat with cards, in turn."""
    recorded = list(plies(5, 4, mode(5, 4)))
    rounds = 0
    for i, ply in enumerate(recorded):
        if ply.action["type"] != "lead":
            continue
        n = ply.before.players
        expected = [(ply.seat + k) % n for k in range(1, n)
                    if ply.before.witches[(ply.seat + k) % n].hand]
        asked = []
        for later in recorded[i + 1:]:
            if later.before.phase != "respond":
                break
            asked.append(later.seat)
        assert asked == expected
        rounds += 1
    assert rounds > 20


@pytest.mark.parametrize("players", [3, 4, 5])
def test_determinize_is_consistent_with_the_view(players: int) -> None:
    rng = random.Random(players * 7)
    checked = 0
    for seed in range(6):
        for ply in plies(players, 60_000 + seed, mode(players, seed)):
            if rng.random() > 0.15 or GAME.result(ply.after) is not None:
                continue
            state = ply.after
            for seat in range(players):
                view = GAME.view(state, seat)
                guess = GAME.determinize(view, seat, random.Random(seed * 31 + seat))
                assert GAME.view(guess, seat) == view
                assert GAME.to_move(guess) == GAME.to_move(state)
                # the guess is a playable state: every owing seat has legal actions
                for owing in GAME.to_move(guess):
                    legal = GAME.legal_actions(guess, owing)
                    assert legal
                    GAME.apply(guess, owing, legal[0])
                # other hands avoid every role the seat knows they cannot hold
                for other, witch in enumerate(guess.witches):
                    if other != seat and state.phase != "choose":
                        assert not set(witch.hand) & set(witch.played)
                        assert len(witch.hand) == len(state.witches[other].hand)
                checked += 1
    assert checked > 20


def test_evaluate_prefers_more_points_and_resources() -> None:
    state = GAME.setup(3, 1)
    base = GAME.evaluate(state, 0)
    richer = GAME.load(GAME.dump(state) | {})
    richer.witches[0].potions.append("copper-1")
    richer.witches[0].gold += 2
    assert GAME.evaluate(richer, 0) > base
    assert GAME.evaluate(richer, 1) < GAME.evaluate(state, 1)
