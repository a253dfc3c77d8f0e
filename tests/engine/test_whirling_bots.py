"""Whirling Witchcraft's ``strong`` bot: its playout (``engine/whirling/playout.py``) plays only
legal actions, the same ones from the same deal, and stops once the next round's recipes are
revealed; its paired root weighs every action on the same deals and decides the same way from
the same seed.
"""

from __future__ import annotations

import random

import pytest

from engine.bots import StrongBot, seen
from engine.bots.searching import hints
from engine.protocol import Action
from engine.whirling.determinize import determinize
from engine.whirling.state import State
from tests.whirling.randomplay import GAME, mode, plies

HINTS = hints(GAME)
LONGEST = 400  # actions: far more than two rounds of five witches take


def _study_positions(seed: int) -> list[State]:
    """Every position of a random match in which someone still owes a study decision."""
    players = 2 + seed % 4
    return [
        p.after
        for p in plies(players, 91_000 + seed, mode(seed))
        if p.after.phase == "study" and GAME.to_move(p.after)
    ]


def _play_out(start: State, state: State, rng: random.Random) -> tuple[State, list[Action]]:
    """What ``strong`` does from a new leaf (``StrongBot._play_out``), checking every action."""
    policy, over = HINTS.playout_action, HINTS.playout_over
    assert policy is not None and over is not None
    played: list[Action] = []
    for _ in range(LONGEST):
        if over(start, state):
            return state, played
        owing = GAME.to_move(state)
        assert owing, "a match that is not over owes a decision"
        actor = min(owing)
        legal = GAME.legal_actions(state, actor)
        action = policy(state, actor, legal, rng)
        assert action in legal, f"{action} is not legal for seat {actor}"
        played.append(action)
        state = GAME.apply(state, actor, action).state
    raise AssertionError(f"the playout did not stop within {LONGEST} actions")


@pytest.mark.parametrize("seed", range(24))
def test_a_playout_plays_legal_actions_up_to_the_reveal_of_the_next_round(seed: int) -> None:
    rng = random.Random(seed)
    positions = _study_positions(seed)
    for state in rng.sample(positions, min(4, len(positions))):
        seat = rng.choice(sorted(GAME.to_move(state)))
        dealt = determinize(GAME.view(state, seat), seat, rng)
        after = GAME.apply(dealt, seat, rng.choice(GAME.legal_actions(dealt, seat))).state
        end, played = _play_out(dealt, after, random.Random(1))
        if end.result is None:
            # this round played through: the next round's recipes are revealed, nothing brewed
            assert (end.phase, end.round) == ("brew", dealt.round + 1)
            assert all(w.brew is not None and not w.brew.used for w in end.witches)
            assert any(a["type"] == "brew" for a in played)
        assert all(a["type"] != "swap_hand" for a in played)
        # nothing is drawn from the random stream: another stream plays the same actions
        again, replayed = _play_out(dealt, after, random.Random(2))
        assert replayed == played
        assert GAME.dump(again) == GAME.dump(end)


def test_a_playout_from_the_brew_phase_plays_nothing() -> None:
    for p in plies(3, 91_500, mode(0)):
        if p.after.phase == "brew" and GAME.to_move(p.after):
            end, played = _play_out(p.after, p.after, random.Random(0))
            assert played == [] and end is p.after
            return
    raise AssertionError("no brew phase in a random match")


@pytest.mark.parametrize("players", [3, 5])
def test_strong_weighs_every_action_on_each_deal_and_decides_the_same_from_the_same_seed(
    players: int,
) -> None:
    for state in _study_positions(players)[:3]:
        seat = min(GAME.to_move(state))
        shown = seen(GAME, state, seat)
        bots = [StrongBot(7, iterations=20) for _ in range(2)]
        choices = [bot.choose(GAME, shown) for bot in bots]
        assert choices[0] in shown.legal and choices[0] == choices[1]
        if len(shown.legal) > 1:
            # whole deals only, each scoring every legal action once (a tree would stop at 20)
            deals = -(-20 // len(shown.legal))
            for bot in bots:
                assert bot.last_iterations == deals * len(shown.legal)


def test_strong_on_a_time_budget_scores_whole_deals() -> None:
    """The server's way (``budget_ms``): the clock is read between deals, never inside one."""
    state = next(
        s for s in _study_positions(4) if len(GAME.legal_actions(s, min(GAME.to_move(s)))) > 1
    )
    seat = min(GAME.to_move(state))
    shown = seen(GAME, state, seat)
    bot = StrongBot(3, budget_ms=1)
    assert bot.choose(GAME, shown) in shown.legal
    assert bot.last_iterations >= len(shown.legal)
    assert bot.last_iterations % len(shown.legal) == 0
