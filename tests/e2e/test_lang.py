"""Languages carried along, in Chromium against `coven serve`: a `?lang=vi` link opened once
sets the language of every page the reader goes to next (a room, its replay, the rules, My
tables), the page's `<html lang>` as the server sends it included; a browser whose language is
Spanish opens Coven in Spanish; an invite link sent by a host reading Vietnamese opens in the
friend's own language, not the host's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.e2e.api_rooms import HostedRoom
from tests.e2e.players import Player, new_player, wait_until
from tests.e2e.test_replay import all_bot_match

ROOT = Path(__file__).resolve().parents[2]
TEXTS = {lang: json.loads((ROOT / f"static/i18n/{lang}.json").read_text()) for lang in ("vi", "es")}


def sent_lang(response: Any) -> str:
    """The `<html lang>` of the page as the server sent it (before any script ran)."""
    found = re.search(r'<html lang="([a-z]+)"', response.text())
    assert found, "the page has no <html lang>"
    return found.group(1)


def drawn_in(player: Player, lang: str) -> None:
    """The page's scripts drew it in `lang`, with no text of that language missing."""
    page = player.page
    wait_until(page, f"window.coven?.language?.() === '{lang}'")
    assert page.evaluate("document.documentElement.lang") == lang
    # The language is known at once; the menu shows it once its texts have loaded.
    wait_until(page, f"document.getElementById('lang-select').value === '{lang}'")
    missing = [key for key in page.evaluate("window.coven.missingKeys()") if key.startswith(lang)]
    assert missing == [], missing


def test_a_lang_link_carries_into_the_room_its_replay_and_the_rules(
    browser: Any, coven_server: str
) -> None:
    code, token = all_bot_match(coven_server)
    ana = new_player(browser, "Ana")  # a browser in English
    page = ana.page

    assert sent_lang(page.goto(f"{coven_server}/?lang=vi")) == "vi"
    drawn_in(ana, "vi")
    assert page.inner_text("[data-testid=nav-my-tables]") == TEXTS["vi"]["tables.title"]

    # The room by its rejoin link, which carries no language: still Vietnamese.
    assert sent_lang(page.goto(f"{coven_server}/r/{code}#seat=0&token={token}")) == "vi"
    drawn_in(ana, "vi")
    watch = page.wait_for_selector("[data-testid=watch-replay]")
    assert watch.inner_text() == TEXTS["vi"]["replay.watch"]

    # Its replay, from the end screen's link.
    with page.expect_navigation() as replay:
        watch.click()
    assert "/replay" in page.url and "lang=" not in page.url
    assert sent_lang(replay.value) == "vi"
    drawn_in(ana, "vi")

    # The rules, as anyone would open them: no `?lang=`.
    assert sent_lang(page.goto(f"{coven_server}/rules/witchs-brew")) == "vi"
    page.wait_for_selector("[data-testid=rules-page][data-ready='1']")
    assert page.get_attribute("[data-testid=rules-page]", "data-lang") == "vi"
    drawn_in(ana, "vi")

    # And the picker changes it for every page after: Spanish from now on.
    page.select_option("[data-testid=lang-select]", "es")
    wait_until(page, "window.coven.language() === 'es'")
    assert sent_lang(page.goto(f"{coven_server}/tables")) == "es"
    drawn_in(ana, "es")
    ana.page.context.close()


def test_a_spanish_browser_opens_in_spanish_and_an_invite_keeps_the_friends_language(
    browser: Any, coven_server: str
) -> None:
    room = HostedRoom(coven_server, "witchs-brew", seats=3)
    host = new_player(browser, "Ana")  # English browser, Vietnamese by her link
    host.page.goto(room.page_url("vi"))
    drawn_in(host, "vi")
    wait_until(host.page, "document.getElementById('invite-link').value !== ''")
    invite = host.page.input_value("#invite-link")
    assert "lang" not in invite

    # Her friend's browser speaks Spanish: the invite opens in Spanish, not in Vietnamese.
    friend = new_player(browser, "Bea", locale="es-ES")
    assert sent_lang(friend.page.goto(invite)) == "es"
    drawn_in(friend, "es")
    # ... as does the lobby, first thing, with nothing chosen yet.
    assert sent_lang(friend.page.goto(f"{coven_server}/")) == "es"
    drawn_in(friend, "es")
    assert friend.page.evaluate("localStorage.getItem('coven:lang')") is None
    for player in (host, friend):
        player.page.context.close()
