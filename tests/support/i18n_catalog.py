"""The browser's translation catalogs (``static/i18n/{lang}.json``) and their plural keys.

``tn(key, count)`` (static/js/i18n.js) reads ``key.{category}`` where the category is
``Intl.PluralRules(lang).select(count)``, and falls back to ``key.other`` when the language
writes no text of its own for that category. So a plural family ``key`` needs, per language,
exactly the categories that language distinguishes in our texts: English and Spanish ``one``
and ``other`` (Spanish's CLDR ``many``, for a million, reads as ``other``), Vietnamese only
``other``. The browser test ``test_i18n_walk.py`` checks this table against Chromium's CLDR.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "vi", "es")
PLURAL_CATEGORIES: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "es": ("one", "other"),
    "vi": ("other",),
}
CLDR_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# What only a programmer writes: a raw key ("ww.phase.brew") or an identifier ("first_player").
RAW_KEY = re.compile(r"\b(?:ww|wb|se|room|lobby|rules|error|game|conn|ui)\.[a-z_]+(?:\.[\w-]+)*")
IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def catalog(lang: str) -> dict[str, str]:
    data = json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def plural_families(english: dict[str, str]) -> set[str]:
    """Keys used with ``tn``: English writes both ``key.one`` and ``key.other``.

    (A plain key may end in ``.other`` too, such as ``se.answer.other``: it has no ``.one``.)
    """
    ones = {k[: -len(".one")] for k in english if k.endswith(".one")}
    return {base for base in ones if f"{base}.other" in english}


def plural_keys(family: str, lang: str) -> set[str]:
    return {f"{family}.{category}" for category in PLURAL_CATEGORIES[lang]}


def plain_keys(cat: dict[str, str], families: set[str]) -> set[str]:
    """Every key of ``cat`` that is not one category of a plural family."""
    return set(cat) - {f"{f}.{c}" for f in families for c in CLDR_CATEGORIES}


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def english_only_fragments(lang: str) -> list[str]:
    """Pieces of English text that must never show on a page in ``lang``: the longest fixed part
    of each English string whose translation differs, when it is a phrase of 2 or more words
    (shorter ones, such as "Bot" or "OK", may be the same word in both) and ``lang`` itself
    never writes it."""
    english, other = catalog("en"), catalog(lang)
    written = "\n".join(other.values())
    fragments = set()
    for key, text in english.items():
        if other.get(key) == text:
            continue
        longest = max(PLACEHOLDER.split(text), key=len).strip(" .,:;()·—–-")
        if len(longest) >= 10 and " " in longest and longest not in written:
            fragments.add(longest)
    return sorted(fragments)


def english_left(text: str, lang: str) -> list[str]:
    """What a page's visible ``text`` in ``lang`` still says in English or in code."""
    english = [f for f in english_only_fragments(lang) if f in text]
    return english + sorted(set(RAW_KEY.findall(text)) | set(IDENTIFIER.findall(text)))
