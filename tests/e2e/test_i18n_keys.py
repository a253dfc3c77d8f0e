"""Every string a player sees exists in English, Tiếng Việt and Español (no browser needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "vi", "es")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _catalog(lang: str) -> dict[str, str]:
    data = json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_same_keys_and_placeholders_as_english(lang: str) -> None:
    english, other = _catalog("en"), _catalog(lang)
    assert sorted(set(english) - set(other)) == [], f"missing in {lang}"
    assert sorted(set(other) - set(english)) == [], f"unknown keys in {lang}"
    for key, text in english.items():
        assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), key
        assert other[key].strip(), f"{lang}:{key} is empty"


def test_every_literal_key_in_the_code_is_translated() -> None:
    english = _catalog("en")
    sources = [*(ROOT / "static" / "js").rglob("*.js"), *(ROOT / "templates").glob("*.html")]
    used: set[str] = set()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bt\(\s*\"([^\"]+)\"", text))
        used |= set(re.findall(r"data-i18n(?:-placeholder|-label)?=\"([^\"]+)\"", text))
    assert used, "no translation keys found: the pattern is stale"
    assert sorted(used - set(english)) == []


def test_game_vocabulary_is_complete() -> None:
    """Ingredients, arcana, phases, personalities and tie-break reasons of Whirling Witchcraft."""
    from engine.whirling.cards import INGREDIENTS, PERSONALITIES
    from engine.whirling.scoring import TIE_BREAKS

    english = _catalog("en")
    wanted = [f"ww.ingredient.{k}" for k in INGREDIENTS]
    wanted += [f"ww.arcana.{k}" for k in ("potion", "raven", "book")]
    wanted += [f"ww.phase.{p}" for p in ("personality", "study", "brew", "over")]
    wanted += [f"ww.personality.{p.id}" for p in PERSONALITIES]
    wanted += [f"ww.power.{p.power}" for p in PERSONALITIES]
    reasons = [r for r, _ in TIE_BREAKS] + ["circle", "shared_win"]
    wanted += [f"ww.reason.{r}" for r in reasons]
    assert [k for k in wanted if k not in english] == []
