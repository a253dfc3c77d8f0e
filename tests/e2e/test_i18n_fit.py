"""Every name at the table is readable whole in Tiếng Việt and Español, on a desktop and a phone.

For each game a room is made over the HTTP API (the host and two bots) and started; the host
plays random legal moves over the API, so the table holds cards, cubes and roles. Her page is
opened in Vietnamese and in Spanish and looked at twice (she plays on between the looks), each
time at 1280×800 and at 390×844. No text element of the table may be cut: none wider inside
than its box (``scrollWidth > clientWidth``: clipped, or spilling out of it), none ending in an
ellipsis that is not the translation's own ("Đang chờ…").
Pictures: tests/e2e/artifacts/fit-{game}-{lang}-{a|b}-{desktop|phone}.png.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.api_rooms import HostedRoom
from tests.e2e.page_words import page_words
from tests.e2e.players import FINITE_ANIMATIONS_DONE, Player, new_player, shot, wait_until
from tests.support.i18n_catalog import catalog, english_left

pytestmark = pytest.mark.e2e

# The host's own moves before each look at the table: the two looks of a language at a game
# see it from its first steps into the match, short of the end (each language has its own room:
# one room looked at four times could end first — random moves of a 3-witch Whirling match did).
GAMES = {"whirling-witchcraft": 4, "witchs-brew": 5, "seasons": 4}
# The setups that show the most names at once: personalities dealt to choose from, roles
# blocked, all 50 Seasons cards drafted (nine offered at a time).
OPTIONS: dict[str, dict[str, Any]] = {
    "whirling-witchcraft": {"personalities": "choose"},
    "witchs-brew": {"variant_blocked_roles": True},
    "seasons": {"level": "master"},
}
LANGUAGES = ("vi", "es")
# The layout follows the width alone (no pointer or hover media query), so one page is
# looked at in both sizes.
SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

# The text elements of the table that do not show their whole text, with why.
CUT_JS = """
(endings) => {
  for (const animation of document.getAnimations()) {
    const timing = animation.effect && animation.effect.getComputedTiming();
    if (timing && timing.endTime !== Infinity) animation.finish();
  }
  const cut = [];
  for (const e of document.querySelectorAll('#table *')) {
    const box = e.getBoundingClientRect();
    // (a 1-pixel box is text for screen readers only: .sr-only)
    if (box.width <= 1 || box.height <= 1 || e.closest('[hidden]')) continue;
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden') continue;
    const text = e.textContent.replace(/\\s+/g, ' ').trim();
    if (!text) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const where = `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} "${text.slice(0, 60)}"`;
    // A chooser's button says "Transmute…": more choices follow, nothing is cut.
    const opens = e.closest('[data-action^="open-"]');
    if (own && /(…|\\.\\.\\.)$/.test(text) && text !== '…' && !opens
        && !endings.some((end) => text.endsWith(end))) cut.push(`ellipsis: ${where}`);
    const inline = style.display === 'inline' || style.display === 'contents';
    const scrolls = ['auto', 'scroll'].includes(style.overflowX);
    // An ellipsis is drawn for a fraction of a pixel: no rounding slack then.
    const slack = style.textOverflow === 'ellipsis' ? 0 : 1;
    if (!inline && !scrolls && e.scrollWidth > e.clientWidth + slack) {
      cut.push(`${e.scrollWidth} > ${e.clientWidth}: ${where}`);
    }
  }
  return cut;
}
"""


@pytest.fixture(scope="module")
def tables(coven_server: str) -> Iterator[dict[tuple[str, str], HostedRoom]]:
    """A started room of each game for each language: the host (her moves are the test's) and
    two bots. (One room for both languages could end before the second looked at it.)"""
    rooms = {
        (game, lang): HostedRoom(coven_server, game, 3, OPTIONS[game])
        for game in GAMES
        for lang in LANGUAGES
    }
    for room in rooms.values():
        room.start_with_bots(2)
    yield rooms
    for room in rooms.values():
        room.close()


def _own_endings(lang: str) -> list[str]:
    """How the language's own texts with an ellipsis end ("Đang chờ các pháp sư khác…")."""
    endings = [text.split("}")[-1] for text in catalog(lang).values() if text.endswith("…")]
    return sorted({end for end in endings if len(end.strip()) >= 4})


def _look(host: Player, lang: str, artifacts: Path, name: str) -> list[str]:
    """What is cut on a desktop and on a phone, the table as it is now."""
    page = host.page
    cut = []
    for screen, size in SCREENS.items():
        page.set_viewport_size(size)
        page.evaluate(FINITE_ANIMATIONS_DONE)
        cut += [f"{screen}: {c}" for c in page.evaluate(CUT_JS, _own_endings(lang))]
        shot(host, artifacts, f"{name}-{screen}")
    return cut


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_name_fits(
    browser: Any,
    coven_server: str,
    artifacts: Path,
    tables: dict[tuple[str, str], HostedRoom],
    game: str,
    lang: str,
) -> None:
    """Two moments of the match (the host plays on over the API between them), two widths."""
    table = tables[game, lang]
    host = new_player(browser, "Ana", locale=lang, viewport=SCREENS["desktop"])
    page = host.page
    rng = random.Random(f"{game}-{lang}")
    table.play(GAMES[game], rng)
    page.goto(table.page_url(lang))
    page.wait_for_selector("#table [data-action]")
    cut = _look(host, lang, artifacts, f"fit-{game}-{lang}-a")
    version = table.play(GAMES[game], rng)
    wait_until(page, f"window.coven.page.state && window.coven.page.state.version >= {version}")
    page.wait_for_selector("#table [data-action]")
    cut += _look(host, lang, artifacts, f"fit-{game}-{lang}-b")
    assert cut == []
    assert english_left(page_words(page), lang) == []
    assert page.evaluate("window.coven.missingKeys()") == []
    assert host.errors == []
    page.context.close()
