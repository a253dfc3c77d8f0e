"""Rules at the table: from a room of each game the Rules button opens that game's rules beside
the table, in the room's language (English, Vietnamese, Spanish), with its card list drawn from
the catalog, no console error and no missing translation; the same rules open in a new tab.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.players import new_player, shot

pytestmark = pytest.mark.e2e

GAMES = {
    # game: (card-list directive, how many entries it lists)
    "whirling-witchcraft": ("ww-personalities", 13),
    "witchs-brew": ("wb-roles", 12),
    "seasons": ("se-cards", 50),
}
TITLES = {"en": "Rules", "vi": "Luật chơi", "es": "Reglas"}


def poll(page: Any, expression: str, seconds: float = 15) -> Any:
    """Poll a JavaScript expression until it is truthy (the CSP forbids ``wait_for_function``)."""
    deadline = time.monotonic() + seconds
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        assert time.monotonic() < deadline, f"{expression} never became true"
        time.sleep(0.05)


def new_room(server: str, game: str) -> str:
    response = httpx.post(
        f"{server}/api/rooms", json={"game": game, "name": "Host", "visibility": "private"}
    )
    assert response.status_code == 201, response.text
    code: str = response.json()["room"]["code"]
    return code


READY = "document.querySelector('[data-testid=rules-body]')?.dataset.ready === '1'"


@pytest.mark.parametrize("game", list(GAMES))
def test_rules_button_opens_the_rooms_game_in_each_language(
    browser: Any, coven_server: str, artifacts: Path, game: str
) -> None:
    directive, entries = GAMES[game]
    code = new_room(coven_server, game)
    for lang in ("en", "vi", "es"):
        player = new_player(browser, lang, locale="en-US", viewport={"width": 1280, "height": 860})
        page = player.page
        page.goto(f"{coven_server}/r/{code}?lang={lang}")
        button = page.locator("[data-testid=rules-open]")
        button.wait_for(state="visible")
        # Like every static label it reads English until the translations have loaded.
        poll(
            page,
            f"document.querySelector('[data-testid=rules-open]').textContent === '{TITLES[lang]}'",
        )
        button.click()
        poll(page, READY)
        body = page.locator("[data-testid=rules-body]")
        assert body.get_attribute("data-game") == game
        assert body.get_attribute("data-lang") == lang
        assert (
            page.locator(f"[data-testid=rules-{directive}] [data-testid=rules-entry]").count()
            == entries
        )
        for section in ("goal", "setup", "round", "end", "tiebreak", "cards", "table"):
            assert page.locator(f"#rules-{section}").count() == 1
        # The table is still there, beside the panel.
        assert page.locator("[data-testid=room]").is_visible()
        href = page.locator("[data-testid=rules-new-tab]").get_attribute("href")
        assert href == f"/rules/{game}?lang={lang}"
        if lang == "en":
            # The picture shows the card list drawn from the catalog and the translations.
            page.locator("#rules-cards").evaluate("(h) => h.scrollIntoView()")
            shot(player, artifacts, f"rules-{game}", full_page=False)
            # Switching the language redraws the open panel in the new one.
            page.select_option("[data-testid=lang-select]", "es")
            poll(
                page,
                "document.querySelector('[data-testid=rules-body]')?.dataset.lang === 'es' && "
                + READY,
            )
            assert page.locator("[data-testid=rules-panel] h2").first.inner_text() == TITLES["es"]
        page.locator("[data-testid=rules-close]").click()
        assert not page.locator("[data-testid=rules-panel]").is_visible()
        assert page.evaluate("window.coven.missingKeys()") == []
        assert player.errors == []
        page.context.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_rules_page_of_its_own(browser: Any, coven_server: str, game: str) -> None:
    directive, entries = GAMES[game]
    player = new_player(browser, "reader", locale="vi-VN")
    page = player.page
    response = page.goto(f"{coven_server}/rules/{game}?lang=vi")
    assert response is not None and response.status == 200
    csp = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in csp and "unsafe-eval" not in csp
    poll(page, "document.getElementById('rules-page')?.dataset.ready === '1'")
    assert page.locator("#rules-page").get_attribute("data-lang") == "vi"
    assert (
        page.locator(f"[data-testid=rules-{directive}] [data-testid=rules-entry]").count()
        == entries
    )
    assert page.evaluate("window.coven.missingKeys()") == []
    assert player.errors == []
    page.context.close()


def test_rules_panel_on_a_phone_leaves_the_top_bar_usable(browser: Any, coven_server: str) -> None:
    code = new_room(coven_server, "seasons")
    player = new_player(browser, "phone", locale="vi-VN", viewport={"width": 390, "height": 844})
    page = player.page
    page.goto(f"{coven_server}/r/{code}")
    poll(
        page, f"document.querySelector('[data-testid=rules-open]').textContent === '{TITLES['vi']}'"
    )
    page.click("[data-testid=rules-open]")
    poll(page, READY)
    panel = page.locator("[data-testid=rules-panel]").bounding_box()
    picker = page.locator("[data-testid=lang-select]").bounding_box()
    assert panel is not None and picker is not None
    assert picker["y"] + picker["height"] <= panel["y"]
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= 390
    # The language can still be switched with the panel open, and the panel follows.
    page.select_option("[data-testid=lang-select]", "en")
    poll(
        page,
        "document.querySelector('[data-testid=rules-body]')?.dataset.lang === 'en' && " + READY,
    )
    page.keyboard.press("Escape")
    assert not page.locator("[data-testid=rules-panel]").is_visible()
    assert page.evaluate("window.coven.missingKeys()") == []
    assert player.errors == []
    page.context.close()


def test_lobby_links_each_games_rules(browser: Any, coven_server: str) -> None:
    player = new_player(browser, "visitor", locale="es-ES")
    page = player.page
    page.goto(f"{coven_server}/")
    link = page.locator("[data-testid=rules-link-seasons]")
    poll(
        page,
        "document.querySelector('[data-testid=lobby-rules] span').textContent === "
        "'Leer las reglas'",
    )
    for game in GAMES:
        assert page.locator(f"[data-testid=rules-link-{game}]").get_attribute("href") == (
            f"/rules/{game}"
        )
    with page.expect_popup() as popup:
        link.click()
    rules = popup.value
    poll(rules, "document.getElementById('rules-page')?.dataset.ready === '1'")
    assert rules.locator("#rules-page").get_attribute("data-lang") == "es"
    assert rules.locator("#rules-page").get_attribute("data-game") == "seasons"
    assert rules.evaluate("window.coven.missingKeys()") == []
    assert page.evaluate("window.coven.missingKeys()") == []
    assert player.errors == []
    page.context.close()


def test_rules_of_an_unknown_game_is_a_404(coven_server: str) -> None:
    assert httpx.get(f"{coven_server}/rules/chess").status_code == 404
