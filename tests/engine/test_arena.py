"""``coven arena``: bots of chosen levels against each other, one JSON line of win rates."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.arena import arena, wilson

BOTH_BUDGETS = ["--budget-ms", "5", "--iterations", "5"]


def coven(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson(10, 10)
    assert round(low, 4) == 0.7225 and high == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_arena_prints_one_json_line_with_a_rate_per_seat_in_seat_order() -> None:
    run = coven(
        "arena", "whirling-witchcraft", "--seats", "strong,random,greedy",
        "--games", "4", "--seed", "3", "--iterations", "4",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert summary["games"] == 4 and summary["finished"] == 4 and summary["errors"] == 0
    rates = summary["win_rates"]
    assert [r["level"] for r in rates] == ["strong", "random", "greedy"]
    for r in rates:
        assert set(r) == {"level", "rate", "low", "high"}
        assert 0 <= r["low"] <= r["rate"] <= r["high"] <= 1
    # every finished match hands out exactly one win (a shared one in fractions)
    assert sum(r["rate"] for r in rates) == pytest.approx(1.0, abs=1e-3)


def test_a_run_is_reproducible_and_jobs_do_not_change_it() -> None:
    one = arena("whirling-witchcraft", ["strong", "greedy"], 4, 11, iterations=5)
    again = arena("whirling-witchcraft", ["strong", "greedy"], 4, 11, iterations=5, jobs=2)
    assert one == again


def test_rates_count_wins_of_the_seat() -> None:
    # greedy beats random nearly always at this table; the rates must say so, seat by seat
    result = arena("whirling-witchcraft", ["random", "greedy"], 12, 1)
    random_rate, greedy_rate = (r["rate"] for r in result["win_rates"])
    assert greedy_rate > random_rate and greedy_rate + random_rate == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["chess", "--seats", "random,random"], "unknown_game"),
        (["whirling-witchcraft", "--seats", "random"], "bad_player_count"),
        (["whirling-witchcraft", "--seats", "random,genius"], "unknown_bot"),
        (["whirling-witchcraft", "--seats", "random,random", "--games", "0"], "bad_games"),
        (["whirling-witchcraft", "--seats", "strong,random", "--iterations", "0"], "bad_budget"),
        (["whirling-witchcraft", "--seats", "strong,random", "--jobs", "0"], "bad_jobs"),
        (["whirling-witchcraft", "--seats", "random,random", "--options", "[1]"], "JSON object"),
        (
            ["whirling-witchcraft", "--seats", "random,random", "--options", '{"x": 1}'],
            "bad_options",
        ),
        (
            ["whirling-witchcraft", "--seats", "strong,random", *BOTH_BUDGETS],
            "not allowed with",
        ),
    ],
)
def test_bad_arguments_get_a_message_not_a_traceback(args: list[str], says: str) -> None:
    run = coven("arena", *args)
    assert run.returncode == 2
    assert says in run.stderr and "Traceback" not in run.stderr
    assert run.stdout == ""
