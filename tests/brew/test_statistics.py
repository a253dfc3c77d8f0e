"""Each witch's figures of a finished match (``engine.brew.statistics``), checked against the
golden playthroughs: counted again from the recorded events, and against the final state."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.brew.statistics import FIGURES, statistics
from engine.protocol import public_events
from tests.support.golden import GoldenMatch, per_seat, replay

GOLDEN = sorted((Path(__file__).parent / "playthroughs").glob("*.jsonl"))


@pytest.fixture(params=GOLDEN, ids=lambda p: p.stem)
def match(request: pytest.FixtureRequest) -> GoldenMatch:
    return replay(request.param)


def test_every_witch_has_every_figure(match: GoldenMatch) -> None:
    figures = statistics(match.state, match.events)
    assert len(figures) == match.players
    assert all(tuple(seat) == FIGURES for seat in figures)
    assert all(isinstance(v, int) and v >= 0 for seat in figures for v in seat.values())


def test_potions_brewed_are_the_cards_in_her_play_area(match: GoldenMatch) -> None:
    figures = statistics(match.state, match.events)
    assert [f["potions_brewed"] for f in figures] == [len(w.potions) for w in match.state.witches]
    assert sum(f["potions_brewed"] for f in figures) > 0


def test_every_round_has_one_leader_and_one_full_action_or_refusal(match: GoldenMatch) -> None:
    rounds = sum(1 for e in match.events if e["type"] == "round_ended")
    declined = sum(1 for e in match.events if e["type"] == "full_action_declined")
    figures = statistics(match.state, match.events)
    assert sum(f["roles_led"] for f in figures) == rounds
    assert sum(f["full_actions"] for f in figures) + declined == rounds


@pytest.mark.parametrize(
    ("figure", "kind"),
    [("roles_led", "role_led"), ("roles_claimed", "claimed"), ("favors_taken", "favor_taken")],
)
def test_counted_figures_match_the_recorded_events(
    match: GoldenMatch, figure: str, kind: str
) -> None:
    figures = statistics(match.state, match.events)
    assert [f[figure] for f in figures] == per_seat(match.players, match.events, kind)


def test_figures_need_no_private_event(match: GoldenMatch) -> None:
    assert statistics(match.state, public_events(match.events)) == statistics(
        match.state, match.events
    )
