"""Each witch's figures of a finished match (``engine.whirling.statistics``), checked against
the golden playthroughs: counted again from the recorded events, and against the final state."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.protocol import public_events
from engine.whirling.statistics import FIGURES, statistics
from tests.support.golden import GoldenMatch, replay

GOLDEN = sorted((Path(__file__).parent / "playthroughs").glob("*.jsonl"))


@pytest.fixture(params=GOLDEN, ids=lambda p: p.stem)
def match(request: pytest.FixtureRequest) -> GoldenMatch:
    return replay(request.param)


def test_every_witch_has_every_figure(match: GoldenMatch) -> None:
    figures = statistics(match.state, match.events)
    assert len(figures) == match.players
    assert all(tuple(seat) == FIGURES for seat in figures)
    assert all(isinstance(v, int) and v >= 0 for seat in figures for v in seat.values())


def test_cubes_poured_are_the_cubes_each_cauldron_carried(match: GoldenMatch) -> None:
    carried = [0] * match.players
    for event in match.events:
        if event["type"] == "cauldron_passed":
            carried[event["from"]] += sum(event["cubes"].values())
    figures = statistics(match.state, match.events)
    assert [f["cubes_poured"] for f in figures] == carried
    assert sum(carried) > 0


def test_overflow_and_claims_are_the_final_score(match: GoldenMatch) -> None:
    claimed = [0] * match.players
    for event in match.events:
        if event["type"] == "production":
            claimed[event["seat"]] += sum(event.get("claimed", {}).values())
    result = match.game.result(match.state)
    assert result is not None
    figures = statistics(match.state, match.events)
    assert [f["cubes_overflowed"] + c for f, c in zip(figures, claimed, strict=True)] == (
        result.scores
    )
    assert all(f["cubes_overflowed"] <= f["cubes_poured"] for f in figures)


def test_recipes_played_are_the_tableau(match: GoldenMatch) -> None:
    figures = statistics(match.state, match.events)
    assert [f["recipes_played"] for f in figures] == [len(w.tableau) for w in match.state.witches]
    # Every played recipe was used at most once a round, personality recipes besides.
    assert all(f["recipes_brewed"] > 0 for f in figures)


def test_rounds_won_never_exceed_the_rounds_played(match: GoldenMatch) -> None:
    figures = statistics(match.state, match.events)
    assert sum(f["rounds_won"] for f in figures) <= match.state.round
    winners = match.game.result(match.state)
    assert winners is not None
    # The last round made somebody reach the threshold: she scored in it, so somebody won
    # at least one round over the match.
    assert sum(f["rounds_won"] for f in figures) >= 1


def test_figures_need_no_private_event(match: GoldenMatch) -> None:
    assert statistics(match.state, public_events(match.events)) == statistics(
        match.state, match.events
    )


def test_a_round_is_won_only_by_the_one_witch_who_scored_most() -> None:
    def passed(sender: int, overflow: int) -> dict[str, object]:
        return {
            "type": "cauldron_passed", "from": sender, "to": (sender + 1) % 3,
            "cubes": {"toad": overflow + 1}, "placed": {"toad": 1},
            "overflow": {"toad": overflow} if overflow else {},
        }

    def production(seat: int, claimed: int = 0) -> dict[str, object]:
        return {"type": "production", "seat": seat, "used": ["R01"],
                "claimed": {"heart": claimed} if claimed else {}}

    three = replay(GOLDEN[1]).state  # any state of three witches: only its size is read
    assert three.players == 3
    events = [
        # round 1: seat 1 scores 2, seat 2 scores 1
        production(0), production(1), production(2),
        passed(0, 0), passed(1, 2), passed(2, 1), {"type": "round_started", "round": 2},
        # round 2: seats 0 and 2 tie at 1 (nobody wins it)
        production(0), production(1), production(2),
        passed(0, 1), passed(1, 0), passed(2, 1), {"type": "round_started", "round": 3},
        # round 3: seat 0 claims 2 and overflows 1, seat 2 overflows 2
        production(0, claimed=2), production(1), production(2),
        passed(0, 1), passed(1, 0), passed(2, 2), {"type": "game_over"},
    ]
    figures = statistics(three, events)
    assert [f["rounds_won"] for f in figures] == [1, 1, 0]
    assert [f["cubes_overflowed"] for f in figures] == [2, 2, 4]
