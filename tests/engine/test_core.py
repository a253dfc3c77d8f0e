"""The engine core: RNG, registry, protocol conformance, simulate."""

from __future__ import annotations

import json

import pytest

from engine import registry
from engine.protocol import Game, IllegalAction
from engine.rng import Rng
from engine.simulate import simulate


def test_rng_is_deterministic_and_round_trips_through_json() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    saved = json.loads(json.dumps(a.dump()))
    c = Rng.load(saved)
    assert [a.below(60) for _ in range(20)] == [c.below(60) for _ in range(20)]
    assert Rng(1).dump() != Rng(2).dump()


def test_rng_shuffle_is_a_permutation_and_uniform_enough() -> None:
    rng = Rng(7)
    counts = [0] * 6
    for _ in range(6000):
        items = list(range(6))
        rng.shuffle(items)
        assert sorted(items) == list(range(6))
        counts[items[0]] += 1
    assert all(850 < n < 1150 for n in counts), counts


def test_rng_derive_does_not_advance_the_parent() -> None:
    rng = Rng(3)
    before = rng.dump()
    child = rng.derive(1, 2)
    assert rng.dump() == before
    assert child.dump() != before
    assert rng.derive(1, 2).dump() == child.dump()
    assert rng.derive(2, 1).dump() != child.dump()


def test_registry_serves_every_game_through_the_protocol() -> None:
    for game in registry.games():
        assert isinstance(game, Game)
        assert registry.get(game.id) is game
        assert game.min_players <= game.max_players
        game.options.model_json_schema()
    with pytest.raises(IllegalAction) as unknown:
        registry.get("chess")
    assert unknown.value.code == "unknown_game"


def test_bad_setup_is_refused_with_a_code() -> None:
    game = registry.get("whirling-witchcraft")
    with pytest.raises(IllegalAction) as too_many:
        game.setup(6, 1)
    assert too_many.value.code == "bad_player_count"
    with pytest.raises(IllegalAction) as bad:
        game.setup(3, 1, {"personalities": "all of them"})
    assert bad.value.code == "bad_options"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_simulate_plays_whole_matches(players: int) -> None:
    summary = simulate("whirling-witchcraft", players, 20, seed=1)
    assert summary["games"] == summary["finished"] == 20
    assert summary["errors"] == 0
    assert sum(summary["wins_by_seat"]) >= 20
    assert summary["mean_actions"] > 0 and summary["mean_rounds"] > 0
    assert summary["actions_per_second"] > 0


class _BrokenOnOddSeeds:
    """Whirling Witchcraft, except that its matches with odd seeds crash on the first action."""

    id = "broken-whirling"
    title = "Broken"

    def __init__(self) -> None:
        self._inner = registry.get("whirling-witchcraft")
        self.min_players, self.max_players = 2, 5
        self.options = self._inner.options

    def setup(self, players, seed, options=None):  # type: ignore[no-untyped-def]
        state = self._inner.setup(players, seed, options)
        state.options["crash"] = seed % 2 == 1
        return state

    def apply(self, state, seat, action):  # type: ignore[no-untyped-def]
        if state.options.get("crash"):
            raise RuntimeError("boom")
        return self._inner.apply(state, seat, action)

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(self._inner, name)


def test_a_crashing_match_counts_as_an_error_with_its_seed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    registry.games()
    monkeypatch.setitem(registry._GAMES, "broken-whirling", _BrokenOnOddSeeds())
    summary = simulate("broken-whirling", 3, 4, seed=10)
    assert summary["errors"] == 2 and summary["finished"] == 2
    err = capsys.readouterr().err
    assert "seed=11" in err and "seed=13" in err and "boom" in err
