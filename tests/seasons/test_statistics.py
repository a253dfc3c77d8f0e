"""Each sorcerer's figures of a finished match (``engine.seasons.statistics``), checked against
the golden playthroughs: counted again from the recorded events, and against the final state."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.protocol import public_events
from engine.seasons.statistics import FIGURES, statistics
from tests.support.golden import GoldenMatch, per_seat, replay

GOLDEN = sorted((Path(__file__).parent / "playthroughs").glob("*.jsonl"))


@pytest.fixture(params=GOLDEN, ids=lambda p: p.stem)
def match(request: pytest.FixtureRequest) -> GoldenMatch:
    return replay(request.param)


def test_every_sorcerer_has_every_figure(match: GoldenMatch) -> None:
    figures = statistics(match.state, match.events)
    assert len(figures) == match.players
    assert all(tuple(seat) == FIGURES for seat in figures)
    assert all(isinstance(v, int) and v >= 0 for seat in figures for v in seat.values())


def test_prestige_and_bonuses_are_those_of_the_score_sheet(match: GoldenMatch) -> None:
    result = match.game.result(match.state)
    assert result is not None
    figures = statistics(match.state, match.events)
    parts = result.details["parts"]
    assert [f["prestige"] for f in figures] == [p["prestige"] for p in parts]
    assert [f["bonuses_used"] for f in figures] == [p.bonus_used for p in match.state.seats]


def test_crystals_transmuted_add_up_the_recorded_transmutations(match: GoldenMatch) -> None:
    crystals = [0] * match.players
    for event in match.events:
        if event["type"] == "transmuted":
            crystals[event["seat"]] += event["crystals"]
    figures = statistics(match.state, match.events)
    assert [f["crystals_transmuted"] for f in figures] == crystals


def test_cards_in_play_came_by_a_summon_or_an_effect(match: GoldenMatch) -> None:
    figures = statistics(match.state, match.events)
    summoned = per_seat(match.players, match.events, "card_summoned")
    assert [f["cards_summoned"] for f in figures] == summoned
    assert [f["cards_activated"] for f in figures] == per_seat(
        match.players, match.events, "card_activated"
    )
    put = per_seat(match.players, match.events, "card_put_into_play")
    for seat, player in enumerate(match.state.seats):
        assert len(player.in_play) <= summoned[seat] + put[seat]
    assert sum(summoned) > 0


def test_figures_need_no_private_event(match: GoldenMatch) -> None:
    assert statistics(match.state, public_events(match.events)) == statistics(
        match.state, match.events
    )
