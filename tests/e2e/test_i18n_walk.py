"""A whole room in Tiếng Việt (and Español) with no English left, in Chromium.

- Every translation key and every plural form through the page's own ``t`` / ``tn``, and every
  error code the server can send (tests/support/error_codes.py) through the page's own
  ``errorText``: each reads as its own sentence of the language, never the server's message.
- A refusal of the live socket shows in a toast in Vietnamese.
- A whole match of each game (the bots play every seat, the host's too), seen by the host in
  Vietnamese once it is over: end screen, seats, setup and the whole table log (their text,
  tooltips and labels) hold no English phrase of the catalog, no raw key and no programmer's
  identifier, and no key fell back.
Pictures: tests/e2e/artifacts/walk-{game}-vi.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.api_rooms import HostedRoom
from tests.e2e.page_words import page_words
from tests.e2e.players import new_player, shot, wait_until
from tests.support.error_codes import all_codes
from tests.support.i18n_catalog import (
    LANGUAGES,
    PLURAL_CATEGORIES,
    catalog,
    english_left,
    plain_keys,
    plural_families,
)

pytestmark = pytest.mark.e2e

# Seats per game: as few as it plays with, so the bots' matches are short (greedy bots brew
# and end a match of Witch's Brew in about 330 steps where random ones take some 1200).
GAMES = {"whirling-witchcraft": 2, "witchs-brew": 3, "seasons": 2}
MATCH_SECONDS = 90
# CLDR categories a language has that our texts leave to ``.other`` (Spanish "many": a million).
READ_AS_OTHER = {"en": set(), "vi": set(), "es": {"many"}}

WALK_JS = """
async ([plain, families, codes]) => {
  const { t, tn, pluralCategory } = await import('/static/js/i18n.js');
  const { errorText } = await import('/static/js/forms.js');
  const texts = {};
  for (const key of plain) texts[key] = t(key);
  for (const family of families)
    for (const n of [0, 1, 2, 5, 21, 1000000]) texts[`${family}#${n}`] = tn(family, n);
  const errors = {};
  for (const code of codes)
    errors[code] = errorText({ status: 409, code, message: 'ENGLISH SERVER MESSAGE' });
  return { texts, errors, refused: t('error.refused'), one: pluralCategory(1),
           missing: window.coven.missingKeys() };
}
"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_table_is_the_browsers(browser: Any, coven_server: str, lang: str) -> None:
    """The categories our texts write are CLDR's for the language (Chromium's Intl)."""
    player = new_player(browser, "Ana", locale=lang)
    page = player.page
    page.goto(f"{coven_server}/?lang={lang}")
    cldr = set(page.evaluate(f"new Intl.PluralRules('{lang}').resolvedOptions().pluralCategories"))
    assert set(PLURAL_CATEGORIES[lang]) <= cldr
    assert cldr - set(PLURAL_CATEGORIES[lang]) == READ_AS_OTHER[lang]
    page.context.close()


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_key_and_every_error_code(browser: Any, coven_server: str, lang: str) -> None:
    player = new_player(browser, "Ana", locale=lang)
    page = player.page
    page.goto(f"{coven_server}/?lang={lang}")
    # ``data-texts`` on the root is set once the language's texts are loaded (static/js/i18n.js);
    # ``lang`` is there before, as the server wrote it.
    wait_until(page, f"document.documentElement.dataset.texts === '{lang}'")
    english, own = catalog("en"), catalog(lang)
    families = plural_families(english)
    codes = sorted(all_codes())
    walked = page.evaluate(
        WALK_JS, [sorted(plain_keys(english, families)), sorted(families), codes]
    )
    assert walked["missing"] == []
    for key, text in walked["texts"].items():
        if "#" in key:  # a plural form: its count is filled in
            assert "{count}" not in text, key
        else:  # the language's own text, never English's
            assert text == own[key], key
    # Vietnamese has no "one": 1 reads like any count; Spanish says "1 punto de prestigio".
    assert walked["one"] == ("other" if lang == "vi" else "one")
    assert walked["texts"]["se.pp#1"] == own[f"se.pp.{walked['one']}"].replace("{count}", "1")
    assert walked["texts"]["se.pp#1000000"] == own["se.pp.other"].replace("{count}", "1000000")
    for code, text in walked["errors"].items():
        assert "ENGLISH" not in text, code
        assert text == own[f"room.error_{code}"], code
        assert text != english[f"room.error_{code}"], f"{lang}:{code} reads as English"
    assert player.errors == []
    page.context.close()


def test_a_refused_move_reads_in_vietnamese(browser: Any, coven_server: str) -> None:
    """The socket's ``error`` message (here: a move before the start) shows by its code."""
    room = HostedRoom(coven_server, "seasons", seats=2)
    player = new_player(browser, "Ana", locale="vi")
    page = player.page
    page.goto(room.page_url("vi"))
    wait_until(page, "document.body.dataset.connection === 'open'")
    page.evaluate("window.coven.page.client.act({type: 'end_turn'})")
    toast = page.locator("#toasts >> text=" + catalog("vi")["room.error_not_started"])
    toast.wait_for()
    assert page.evaluate("window.coven.missingKeys()") == []
    assert player.errors == []
    room.close()
    page.context.close()


@pytest.fixture(scope="module", autouse=True)
def matches(coven_server: str) -> Iterator[dict[str, HostedRoom]]:
    """One match of each game played by bots in every seat, the host's too, the three at once
    from the first test of this module on: they play while the other tests run."""
    rooms = {}
    for game, seats in GAMES.items():
        rooms[game] = room = HostedRoom(coven_server, game, seats)
        room.start_with_bots(seats - 1, "greedy")
        room.hand_host_to_bot("greedy")
    yield rooms
    for room in rooms.values():
        room.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_match_in_vietnamese(
    browser: Any,
    coven_server: str,
    artifacts: Path,
    matches: dict[str, HostedRoom],
    game: str,
) -> None:
    room = matches[game]
    room.until_over(MATCH_SECONDS)
    player = new_player(browser, "Ana", locale="vi", viewport={"width": 1280, "height": 900})
    page = player.page
    page.goto(room.page_url("vi"))
    page.wait_for_selector("[data-testid=game-over]")
    # The table log is filled from the start of the match (GET /log) after the page opens.
    wait_until(page, "document.querySelectorAll('#log > *').length > 20", 20)
    shot(player, artifacts, f"walk-{game}-vi")
    assert english_left(page_words(page), "vi") == []
    assert page.evaluate("window.coven.missingKeys()") == []
    assert player.errors == []
    page.context.close()
