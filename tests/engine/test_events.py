"""Event addressing, for every registered game: what the rules call public reaches everyone.

Each game declares the visibility of every event type it emits (``Game.event_types``). Random
matches of every game check the declaration against what ``apply`` really emits, and that the
server-side filters (``public_events``, ``events_for``) deliver each event to exactly the seats
it is meant for. A game field that happens to be called ``to`` (Whirling Witchcraft's receiving
witch) must never hide an event.
"""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.protocol import PRIVATE, PUBLIC, TO, Game, events_for, private, public_events

GAMES = [g for g in registry.games() if not g.id.startswith("test-")]
MATCHES = 6


def _seat_counts(game: Game) -> list[int]:
    return sorted({game.min_players, game.max_players})


def _events_of_random_matches(game: Game, players: int) -> list[dict]:
    emitted: list[dict] = []
    for seed in range(MATCHES):
        state = game.setup(players, seed)
        pick = random.Random(seed)
        for _ in range(20_000):
            owing = sorted(game.to_move(state))
            if not owing:
                break
            seat = pick.choice(owing)
            step = game.apply(state, seat, pick.choice(game.legal_actions(state, seat)))
            emitted.extend(step.events)
            state = step.state
        assert game.result(state) is not None, f"{game.id} seed {seed} did not finish"
    return emitted


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_event_follows_its_declared_visibility(game: Game) -> None:
    assert set(game.event_types.values()) <= {PUBLIC, PRIVATE}
    for players in _seat_counts(game):
        emitted = _events_of_random_matches(game, players)
        seen_types = set()
        for event in emitted:
            kind = event["type"]
            seen_types.add(kind)
            assert kind in game.event_types, f"{game.id} emits undeclared event {kind!r}"
            assert not any(k.startswith("@") and k != TO for k in event), event
            if game.event_types[kind] == PUBLIC:
                assert TO not in event, f"public event {kind!r} is addressed: {event}"
                assert event in public_events([event])
                for seat in [None, *range(players)]:
                    assert events_for([event], seat) == [event], (kind, seat)
            else:
                seats = event.get(TO)
                assert seats and all(0 <= s < players for s in seats), event
                assert public_events([event]) == []
                assert events_for([event], None) == []
                for seat in range(players):
                    assert (events_for([event], seat) == [event]) == (seat in seats)
        assert seen_types, f"{game.id} emitted no event"


def test_whirling_cauldron_passes_are_public() -> None:
    """The bug this file was written for: a pass names its receiver in ``to``, a game field."""
    game = registry.get("whirling-witchcraft")
    emitted = _events_of_random_matches(game, 3)
    passes = [e for e in emitted if e["type"] == "cauldron_passed"]
    assert passes
    public = public_events(emitted)
    assert all(p in public for p in passes)
    assert all({"from", "to", "cubes", "placed", "overflow"} <= set(p) for p in passes)


def test_an_event_may_go_to_a_set_of_seats() -> None:
    event = private({"type": "shown", "to": 2}, [3, 1, 1])
    assert event[TO] == [1, 3] and event["to"] == 2
    assert events_for([event], 1) == [event] and events_for([event], 3) == [event]
    assert events_for([event], 2) == [] and events_for([event], None) == []
    with pytest.raises(ValueError):
        private({"type": "shown"}, [])
    with pytest.raises(ValueError):
        private({"type": "shown", "@x": 1}, 0)
