"""View redaction: the view is the security boundary (DESIGN.md)."""

from __future__ import annotations

import json
import random

import pytest

from tests.viewcheck import assert_no_leaks
from tests.whirling.randomplay import GAME, mode, plies


def _views(state: object, players: int) -> dict[int | None, dict]:
    views: dict[int | None, dict] = {seat: GAME.view(state, seat) for seat in range(players)}
    views[None] = GAME.view(state, None)
    return views


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_view_shows_another_seats_secret(players: int) -> None:
    rng = random.Random(players)
    for seed in range(25):
        for ply in plies(players, 50_000 + seed, mode(seed)):
            if rng.random() > 0.5:
                continue
            state = ply.after
            views = _views(state, players)
            assert_no_leaks(views)
            texts = {seat: json.dumps(v) for seat, v in views.items()}
            # the deck order, the discard pile and the RNG are in no view at all
            for text in texts.values():
                assert state.rng not in text
                for card in state.deck + state.discard:
                    assert f'"{card}"' not in text
            for owner, witch in enumerate(state.witches):
                secrets = list(witch.hand) + witch.offer
                if state.phase == "personality" and witch.personality:
                    secrets.append(witch.personality)
                if witch.played is not None:
                    secrets.append(witch.played.card)
                for viewer, text in texts.items():
                    if viewer == owner:
                        continue
                    for secret in secrets:
                        # a personality may be public through another witch (Initiates are shared)
                        if secret.startswith("P") and state.phase != "personality":
                            continue
                        if secret.startswith("P") and any(
                            secret in w.offer or w.personality == secret
                            for s, w in enumerate(state.witches)
                            if s == viewer
                        ):
                            continue
                        assert f'"{secret}"' not in text, (viewer, owner, secret)


def test_a_spectator_sees_only_the_public_table() -> None:
    for ply in plies(4, 7, {"personalities": "choose"}):
        spectator = GAME.view(ply.after, None)
        for player in spectator["players"]:
            assert player["hand"] == "hidden"
            assert player["offer"] == "hidden"
            assert player["played"] == "hidden"
            assert player["production"] == "hidden"
            if spectator["phase"] == "personality":
                assert player["personality"] == "hidden"


def test_production_stays_private_until_the_cauldrons_pass() -> None:
    """Nobody sees another witch's production before committing her own (sheet section 6)."""
    for ply in plies(3, 11):
        state = ply.after
        if state.phase != "brew":
            continue
        for seat, witch in enumerate(state.witches):
            own = GAME.view(state, seat)["players"][seat]
            assert own["production"]["workbench"] == dict(
                zip(["heart", "mandrake", "mushroom", "spider", "toad"], witch.brew.workbench,
                    strict=True)
            )
            for other in range(3):
                if other != seat:
                    theirs = GAME.view(state, other)["players"][seat]
                    assert theirs["production"] == "hidden"
                    assert list(theirs["workbench"].values()) == witch.workbench
