"""``engine.envs``: the three games as PettingZoo AEC environments (issue 25, item 3)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from engine import registry
from engine.envs import make
from engine.envs.catalog import action_space
from engine.envs.env import CovenEnv, placing_rewards
from engine.envs.policies import builtin
from engine.protocol import Result
from tests.viewcheck import assert_no_leaks

GAMES = [g.id for g in registry.games()]
COUNTS = [(g.id, n) for g in registry.games() for n in range(g.min_players, g.max_players + 1)]
# room options that change what a game can offer (personalities, open production, the master
# deck with the draft, the thieves' favor that buys)
OPTIONS: list[tuple[str, int, dict[str, Any] | None]] = [
    ("whirling-witchcraft", 3, {"personalities": "choose", "production": "initiative"}),
    ("witchs-brew", 4, {"thief_favor": "buy", "variant_blocked_roles": True}),
    ("seasons", 3, {"level": "master"}),
]


def coven(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, timeout=600
    )


def random_step(env: CovenEnv, rng: random.Random) -> None:
    observation, _, terminated, truncated, info = env.last()
    if terminated or truncated:
        env.step(None)
        return
    legal = [i for i, allowed in enumerate(observation["action_mask"]) if allowed]
    assert legal == sorted(info["legal_index"])
    env.step(legal[rng.randrange(len(legal))])


# Both warnings are PettingZoo's for every masked environment (its own classic games raise them):
# the observation is the standard {"observation", "action_mask"} dict, not a bare array.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(("game_id", "players"), COUNTS)
def test_pettingzoo_api_and_seed_tests_pass(game_id: str, players: int) -> None:
    api_test(make(game_id, players, seed=players, render_mode="ansi"), num_cycles=25)
    seed_test(lambda: make(game_id, players, seed=3), num_cycles=25)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_match_ends_with_rewards_from_the_placings(game_id: str) -> None:
    game = registry.get(game_id)
    players = game.min_players + 1
    env = make(game_id, players, seed=11, render_mode="ansi")
    env.reset(seed=11)
    rng = random.Random(11)
    for _ in env.agent_iter(max_iter=100_000):
        random_step(env, rng)
    assert env.agents == []  # every seat terminated and stepped out
    result = game.result(env.match_state)
    assert result is not None
    rendered = env.render()
    assert isinstance(rendered, str) and f"placings {result.placings}" in rendered
    # replaying the same seed gives the rewards each seat saw at the end
    replay = make(game_id, players, seed=11)
    replay.reset(seed=11)
    rng = random.Random(11)
    finals: dict[str, float] = {}
    for agent in replay.agent_iter(max_iter=100_000):
        _, reward, terminated, truncated, _ = replay.last()
        if terminated or truncated:
            finals[agent] = reward
        random_step(replay, rng)
    expected = placing_rewards(result)
    assert [finals[f"seat_{s}"] for s in range(players)] == expected
    assert sum(expected) == pytest.approx(0.0)


def test_placing_rewards_share_ties() -> None:
    assert placing_rewards(Result([0], [9, 5, 3], "x")) == [1.0, 0.0, -1.0]
    assert placing_rewards(Result([0, 1], [9, 9, 3, 1], "x")) == pytest.approx(
        [2 / 3, 2 / 3, -1 / 3, -1.0]
    )
    assert placing_rewards(Result([0, 1], [5, 5], "x")) == [0.0, 0.0]


@pytest.mark.parametrize(("game_id", "players", "options"), [
    *((g, n, None) for g, n in COUNTS),
    *OPTIONS,
])  # fmt: skip
def test_every_legal_action_has_its_index_in_the_fixed_space(
    game_id: str, players: int, options: dict[str, Any] | None
) -> None:
    game = registry.get(game_id)
    space = action_space(game_id, players, options)
    for seed in range(2):
        state = game.setup(players, seed, options)
        rng = random.Random(seed)
        while game.to_move(state):
            seat = rng.choice(sorted(game.to_move(state)))
            legal = game.legal_actions(state, seat)
            indexed = space.legal(game.view(state, seat), seat, legal)
            assert list(indexed.values()) == legal  # one index each, none shared
            state = game.apply(state, seat, rng.choice(legal)).state


def observed(env: CovenEnv, agent: str) -> tuple[list[float], list[int], str]:
    seen = env.observe(agent)
    info = env._info(agent)
    return (
        seen["observation"].tolist(),
        seen["action_mask"].nonzero()[0].tolist(),
        json.dumps([info["view"], info["legal"], info["to_move"]], sort_keys=True),
    )


@pytest.mark.parametrize(("game_id", "options"), [
    *((g, None) for g in GAMES),
    *((g, options) for g, _, options in OPTIONS),
])  # fmt: skip
def test_no_observation_holds_another_seats_secret(
    game_id: str, options: dict[str, Any] | None
) -> None:
    """Deal every other seat's secrets anew (the game's determinize from this seat's view): this
    seat's observation, mask and info stay the same, while the others' views did change."""
    game = registry.get(game_id)
    players = 3
    env = make(game_id, players, seed=5, options=options)
    env.reset(seed=5)
    rng = random.Random(5)
    changed = 0
    for step in range(150):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        real = env.match_state
        views = {s: game.view(real, s) for s in range(players)}
        assert_no_leaks({**views, None: game.view(real, None)})
        for seat, agent in enumerate(env.possible_agents):
            before = observed(env, agent)
            deal = random.Random(step * players + seat)
            dealt = game.determinize(views[seat], seat, deal)  # type: ignore[attr-defined]
            env.match_state = dealt
            assert observed(env, agent) == before, (agent, step)
            changed += any(game.view(dealt, o) != views[o] for o in range(players) if o != seat)
            env.match_state = real
        random_step(env, rng)
    assert changed > 0  # the check could fail: other seats' secrets really were dealt anew


@pytest.mark.parametrize("game_id", GAMES)
def test_a_pending_simultaneous_choice_never_reaches_the_other_seats(game_id: str) -> None:
    """The first step where several seats choose at once: seat A answers two different ways in
    two copies of the match; every other seat's observation is the same in both."""
    players = 3
    env = make(game_id, players, seed=2)
    env.reset(seed=2)
    rng = random.Random(2)
    while len(registry.get(game_id).to_move(env.match_state)) < 2:
        random_step(env, rng)
    agent = env.agent_selection
    legal = env.last()[4]["legal_index"]
    assert len(legal) >= 2
    twins = []
    for choice in legal[:2]:
        twin = make(game_id, players, seed=2)
        twin.reset(seed=2)
        twin.match_state = env.match_state
        twin.agent_selection = agent
        twin.step(choice)
        twins.append(twin)
    assert twins[0].match_state != twins[1].match_state  # the two answers really differ
    for other in env.possible_agents:
        if other != agent:
            assert observed(twins[0], other) == observed(twins[1], other), other


@pytest.mark.parametrize("level", ["random", "greedy"])
def test_builtin_bots_are_policies(level: str) -> None:
    env = make("witchs-brew", 3, seed=4)
    env.reset(seed=4)
    policies = [builtin(level, seed=s) for s in range(3)]
    for agent in env.agent_iter(max_iter=100_000):
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = policies[env.seat_of(agent)](observation, info)
        assert observation["action_mask"][action] == 1
        env.step(action)
    assert registry.get("witchs-brew").result(env.match_state) is not None


def test_an_illegal_index_is_refused_with_a_clear_error() -> None:
    env = make("seasons", 2, seed=1)
    env.reset(seed=1)
    mask = env.last()[0]["action_mask"]
    illegal = int((mask == 0).nonzero()[0][0])
    with pytest.raises(ValueError, match="action_mask"):
        env.step(illegal)


def test_arena_seats_a_module_callable_policy() -> None:
    run = coven(
        "arena", "witchs-brew", "--seats", "tests.engine.env_policies:first_legal,greedy,random",
        "--games", "2", "--seed", "4",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["finished"] == 2 and summary["errors"] == 0
    assert [r["level"] for r in summary["win_rates"]] == [
        "tests.engine.env_policies:first_legal", "greedy", "random",
    ]  # fmt: skip
    assert sum(r["rate"] for r in summary["win_rates"]) == pytest.approx(1.0)


@pytest.mark.parametrize("spec", [
    "tests.engine.env_policies:missing", "no_such_module:policy",
    "tests.engine.env_policies:NOT_CALLABLE",
])  # fmt: skip
def test_arena_refuses_a_policy_it_cannot_load(spec: str) -> None:
    run = coven("arena", "witchs-brew", "--seats", f"{spec},random,random", "--games", "1")
    assert run.returncode == 2
    assert "(unknown_bot)" in run.stderr and "Traceback" not in run.stderr


def test_arena_counts_a_policy_that_answers_an_illegal_index_as_an_error() -> None:
    run = coven(
        "arena", "witchs-brew", "--seats", "tests.engine.env_policies:out_of_range,random,random",
        "--games", "1",
    )  # fmt: skip
    assert run.returncode == 0
    assert json.loads(run.stdout)["errors"] == 1
    assert "not a legal action's index" in run.stderr


def test_the_server_and_the_engine_never_import_the_env_libraries() -> None:
    code = (
        "import sys, app.main, app.cli, engine.arena, engine.bots, engine.registry\n"
        "from engine import registry\n"
        "[g.setup(g.min_players, 1) for g in registry.games()]\n"
        "print(sorted(m for m in ('pettingzoo', 'gymnasium', 'numpy') if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_the_example_agent_learns_values_and_runs_small(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from engine.envs.example_tabular import Values, main

    values = Values()
    values.credit([4, 7], 1.0)
    values.credit([7], -1.0)
    values.credit([9], -0.5)
    assert values.q(4) == 1.0 and values.q(7) == 0.0 and values.q(12) == 0.0
    policy = values.greedy_policy()
    observation: dict[str, Any] = {}
    assert policy(observation, {"legal_index": [7, 9, 4]}) == 4
    assert policy(observation, {"legal_index": [9, 12, 7]}) == 7  # ties: the lower index
    report = main(["whirling-witchcraft", "--players", "2", "--train", "3", "--eval", "3"])
    printed = json.loads(capsys.readouterr().out)
    assert printed == report
    assert report["trained_matches"] == 3 and report["eval_matches"] == 3
    assert report["against"] == "random" and report["actions_valued"] > 0
    assert 0.0 <= report["win_rate"] <= 1.0 and report["fair_share"] == 0.5


@pytest.mark.parametrize("game_id", GAMES)
def test_an_action_space_does_not_depend_on_what_was_imported_before(game_id: str) -> None:
    module = {
        "whirling-witchcraft": "whirling_actions", "witchs-brew": "brew_actions",
        "seasons": "seasons_actions",
    }[game_id]  # fmt: skip
    code = (
        f"from engine.envs.{module} import actions\n"
        "from engine.envs.actions import ActionSpace, key\n"
        "print(key(ActionSpace(actions(3, None)).actions))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == json.dumps(
        action_space(game_id, 3, None).actions, sort_keys=True, separators=(",", ":")
    )


def test_a_match_too_long_is_truncated_for_every_seat() -> None:
    env = CovenEnv("witchs-brew", 3, seed=2, max_actions=10)
    env.reset(seed=2)
    rng = random.Random(2)
    played = 0
    for _ in env.agent_iter(max_iter=1_000):
        if not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            played += 1
        random_step(env, rng)
    assert played == 10 and env.agents == []
    assert registry.get("witchs-brew").result(env.match_state) is None
