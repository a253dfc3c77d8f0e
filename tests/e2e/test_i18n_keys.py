"""Every string a player sees exists in English, Tiếng Việt and Español (no browser needed).

Plural keys (``tn``) are checked per language: each plural family holds exactly the categories
its language distinguishes (``tests/support/i18n_catalog.py``).
"""

from __future__ import annotations

import re
import typing
from typing import Any

import pytest

from tests.support.i18n_catalog import (
    CLDR_CATEGORIES,
    LANGUAGES,
    PLURAL_CATEGORIES,
    ROOT,
    catalog,
    english_left,
    english_only_fragments,
    placeholders,
    plain_keys,
    plural_families,
    plural_keys,
)


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_same_keys_and_placeholders_as_english(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    families = plural_families(english)
    plain_en, plain_other = plain_keys(english, families), plain_keys(other, families)
    assert sorted(plain_en - plain_other) == [], f"missing in {lang}"
    assert sorted(plain_other - plain_en) == [], f"unknown keys in {lang}"
    for key in plain_en:
        assert placeholders(other[key]) == placeholders(english[key]), key
        assert other[key].strip(), f"{lang}:{key} is empty"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_families_hold_the_categories_of_their_language(lang: str) -> None:
    english, cat = catalog("en"), catalog(lang)
    families = plural_families(english)
    assert families, "no plural families found: the pattern is stale"
    for family in sorted(families):
        present = {f"{family}.{c}" for c in CLDR_CATEGORIES if f"{family}.{c}" in cat}
        assert present == plural_keys(family, lang), f"{lang}:{family}"
        # The count may be written as a word ("a card") in one category, never a stranger.
        wanted = placeholders(english[f"{family}.other"])
        for key in present:
            assert placeholders(cat[key]) <= wanted, key
            assert cat[key].strip(), f"{lang}:{key} is empty"
        assert placeholders(cat[f"{family}.other"]) == wanted, f"{lang}:{family}.other"


def test_plural_table_names_real_categories() -> None:
    for lang, categories in PLURAL_CATEGORIES.items():
        assert "other" in categories and set(categories) <= set(CLDR_CATEGORIES), lang
    assert set(PLURAL_CATEGORIES) == set(LANGUAGES)


def _used_keys() -> tuple[set[str], set[str]]:
    """Literal keys of ``t("…")`` / ``data-i18n…="…"`` and of ``tn("…", n)`` in the client."""
    sources = [*(ROOT / "static" / "js").rglob("*.js"), *(ROOT / "templates").glob("*.html")]
    plain: set[str] = set()
    plural: set[str] = set()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        plain |= set(re.findall(r"\bt\(\s*\"([^\"]+)\"", text))
        plain |= set(re.findall(r"data-i18n(?:-placeholder|-label)?=\"([^\"]+)\"", text))
        plural |= set(re.findall(r"\btn\(\s*\"([^\"]+)\"", text))
    return plain, plural


def test_every_literal_key_in_the_code_is_translated() -> None:
    english = catalog("en")
    families = plural_families(english)
    plain, plural = _used_keys()
    assert plain and plural, "no translation keys found: the pattern is stale"
    assert sorted(plain - plain_keys(english, families)) == [], "t() of a missing or plural key"
    assert sorted(plural - families) == [], "tn() of a key without .one and .other"


def test_no_count_is_glued_to_a_noun_without_plural_handling() -> None:
    """'recipe(s)', 'witch(es)', 'receta(s)': a count in a sentence goes through ``tn``."""
    glued = re.compile(r"\w\((?:s|es|as|os)\)|\w/s\b")
    for lang in LANGUAGES:
        found = sorted(k for k, text in catalog(lang).items() if glued.search(text))
        assert found == [], f"{lang}: {found}"


def test_game_vocabulary_is_complete() -> None:
    """Ingredients, arcana, recipes, phases, personalities and tie-break reasons of Whirling
    Witchcraft (a recipe's name is ``ww.card.{id}``: the catalog's English name is a fallback)."""
    from engine.whirling.cards import INGREDIENTS, PERSONALITIES, RECIPES
    from engine.whirling.scoring import TIE_BREAKS

    english = catalog("en")
    wanted = [f"ww.ingredient.{k}" for k in INGREDIENTS]
    wanted += [f"ww.card.{r.id}" for r in RECIPES]
    wanted += [f"ww.arcana.{k}" for k in ("potion", "raven", "book")]
    wanted += [f"ww.phase.{p}" for p in ("personality", "study", "brew", "over")]
    wanted += [f"ww.personality.{p.id}" for p in PERSONALITIES]
    wanted += [f"ww.power.{p.power}" for p in PERSONALITIES]
    reasons = [r for r, _ in TIE_BREAKS] + ["circle", "shared_win"]
    wanted += [f"ww.reason.{r}" for r in reasons]
    assert [k for k in wanted if k not in english] == []


def _option_values(field: Any) -> list[object]:
    """The values of a game option the room's setup may show: each choice of a ``Literal``,
    ``None`` when it may be unset, each whole number between its bounds; a yes/no reads as
    ``room.option_yes`` / ``room.option_no``."""
    annotation = field.annotation
    values: list[object] = []
    for arm in typing.get_args(annotation) or (annotation,):
        if arm is type(None):
            values.append(None)
        elif typing.get_origin(arm) is typing.Literal:
            values += list(typing.get_args(arm))
        elif arm is int:
            low = next(m.ge for m in field.metadata if hasattr(m, "ge"))
            high = next(m.le for m in field.metadata if hasattr(m, "le"))
            values += list(range(low, high + 1))
    return values


def test_every_game_option_reads_in_words() -> None:
    """The room lists the chosen setup (static/js/setup_text.js): no "first_player: null"."""
    from engine.registry import _builtin_games

    english = catalog("en")
    wanted = []
    for game in _builtin_games():
        for name, field in game.options.model_fields.items():
            prefix = f"game.{game.id}.option.{name}"
            wanted.append(f"{prefix}.label")
            wanted += [f"{prefix}.{'null' if v is None else v}" for v in _option_values(field)]
    assert [k for k in wanted if k not in english] == []


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_the_english_finder_finds_english(lang: str) -> None:
    """The browser tests look for these on pages in ``lang``: it must see English and code."""
    english, own = catalog("en"), catalog(lang)
    assert len(english_only_fragments(lang)) > len(english) / 2
    assert english_left(own["room.error_not_started"], lang) == []
    assert english_left(english["room.error_not_started"], lang) != []
    assert english_left("Người đi đầu: first_player · ww.phase.brew", lang) == [
        "first_player",
        "ww.phase.brew",
    ]


def test_no_server_message_is_shown() -> None:
    """A refusal reads by its code (``errorText``): only api.js, which builds the ApiError, and
    forms.js, which reads which field a validation error names, touch the server's English."""
    allowed = {"api.js", "forms.js"}
    reading = re.compile(r"\b(?:err|error|exc|e|message)\.message\b")
    found = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "static" / "js").rglob("*.js")
        if path.name not in allowed and reading.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []
