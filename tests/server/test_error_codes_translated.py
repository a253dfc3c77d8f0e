"""Every error code the server can send reads as a sentence in English, Tiếng Việt and Español.

The browser shows a refusal by its stable ``code`` (``errorText`` in static/js/forms.js reads
``room.error_{code}``), never the server's English ``message``. The codes come from the source
(tests/support/error_codes.py), so a new ``CovenError("…")`` or ``IllegalAction("…")`` without
its three sentences fails here.
"""

from __future__ import annotations

import ast

import pytest

from tests.support.error_codes import GAMES, all_codes, client_codes, codes_in, readme_codes
from tests.support.i18n_catalog import LANGUAGES, catalog, placeholders

PREFIX = "room.error_"


def test_the_scan_finds_codes_from_every_origin() -> None:
    codes = all_codes()
    # server, socket, HTTP layer, a code held in a variable, and the browser's own
    for code in ("room_full", "frame_too_large", "too_large", "die_first", "die_resolved"):
        assert code in codes
    assert client_codes() == {"network", "http_error"}
    for game in GAMES:
        listed = readme_codes(game)
        assert len(listed) > 10, game
        assert sorted(listed - codes) == [], f"engine/{game}/README.md lists codes never raised"


def test_a_new_code_is_found() -> None:
    source = """
def refuse(flag):
    code = "first_new" if flag else "second_new"
    raise IllegalAction(code, "x")

def other():
    raise CovenError("third_new", "y", status=409)
"""
    assert set(codes_in(ast.parse(source))) == {"first_new", "second_new", "third_new"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_code_has_a_sentence(lang: str) -> None:
    texts = catalog(lang)
    missing = sorted(c for c in all_codes() if not texts.get(PREFIX + c, "").strip())
    assert missing == [], f"{lang}: no {PREFIX}<code> for {missing}"
    for code in all_codes():
        # errorText passes no parameters: a placeholder would show as "{name}".
        assert placeholders(texts[PREFIX + code]) == set(), f"{lang}:{PREFIX}{code}"


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_no_sentence_is_left_in_english(lang: str) -> None:
    english, texts = catalog("en"), catalog(lang)
    same = sorted(c for c in all_codes() if texts[PREFIX + c] == english[PREFIX + c])
    assert same == [], f"{lang} copies the English sentence for {same}"


def test_every_error_sentence_belongs_to_a_code() -> None:
    stale = sorted(
        k for k in catalog("en") if k.startswith(PREFIX) and k[len(PREFIX) :] not in all_codes()
    )
    assert stale == [], "translations of codes nothing sends"
