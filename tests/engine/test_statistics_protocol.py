"""Every built-in game keeps its own statistics (``protocol.KeepsStatistics``): one dict per
seat of a finished match, with exactly the names the game declares, in its order."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import registry
from engine.protocol import KeepsStatistics
from tests.support.golden import replay
from tests.support.i18n_catalog import LANGUAGES, catalog

ROOT = Path(__file__).resolve().parents[1]
FIRST_GOLDEN = {
    "whirling-witchcraft": ROOT / "whirling/playthroughs/whirling-2p-seed3-initiates.jsonl",
    "witchs-brew": ROOT / "brew/playthroughs/brew-3p-seed8-plain-exempt.jsonl",
    "seasons": ROOT / "seasons/playthroughs/seasons-2p-seed3-apprentice.jsonl",
}


@pytest.mark.parametrize("game_id", sorted(FIRST_GOLDEN))
def test_a_finished_match_has_the_declared_figures_per_seat(game_id: str) -> None:
    game = registry.get(game_id)
    assert isinstance(game, KeepsStatistics)
    assert game.statistic_names and len(set(game.statistic_names)) == len(game.statistic_names)
    match = replay(FIRST_GOLDEN[game_id])
    figures = game.statistics(match.state, match.events)
    assert [tuple(seat) for seat in figures] == [game.statistic_names] * match.players
    assert any(value for seat in figures for value in seat.values())


@pytest.mark.parametrize("game_id", sorted(FIRST_GOLDEN))
def test_every_figure_reads_in_words_in_every_language(game_id: str) -> None:
    """The end screen and the profile page name a figure ``stat.<game>.<name>``."""
    game = registry.get(game_id)
    assert isinstance(game, KeepsStatistics)
    english = catalog("en")
    for lang in LANGUAGES:
        texts = catalog(lang)
        for name in game.statistic_names:
            key = f"stat.{game_id}.{name}"
            assert texts.get(key, "").strip(), f"{lang}: no {key}"
            if lang != "en":
                assert texts[key] != english[key], f"{lang}: {key} reads as English"
