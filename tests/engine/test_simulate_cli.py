"""``coven simulate`` as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def coven(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_simulate_prints_one_json_summary() -> None:
    run = coven(
        "simulate",
        "whirling-witchcraft",
        "--players",
        "4",
        "--games",
        "30",
        "--seed",
        "1",
        "--bot",
        "random",
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["games"] == summary["finished"] == 30 and summary["errors"] == 0
    assert len(summary["wins_by_seat"]) == 4
    for key in ("mean_actions", "mean_rounds", "actions_per_second"):
        assert summary[key] > 0


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["chess", "--players", "2"], "unknown_game"),
        (["whirling-witchcraft", "--players", "9"], "bad_player_count"),
        (["whirling-witchcraft", "--players", "2", "--bot", "genius"], "unknown_bot"),
        (
            ["whirling-witchcraft", "--players", "2", "--options", '{"personalities": 1}'],
            "bad_options",
        ),
        (["whirling-witchcraft", "--players", "2", "--options", "nope"], "JSON object"),
    ],
)
def test_bad_arguments_get_a_message_not_a_traceback(args: list[str], says: str) -> None:
    run = coven("simulate", *args)
    assert run.returncode == 2
    assert says in run.stderr and "Traceback" not in run.stderr
    assert run.stdout == ""
