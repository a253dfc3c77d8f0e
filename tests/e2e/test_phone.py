"""The room page on a phone (390×844), for each game at its most players with bots: the page
stays under two and a half screens, other players' areas are compact summaries that open on a
tap, the game title fits the top bar, and chat and log live in a drawer opened by a button
fixed at the bottom, whose badge counts the chat lines that came while it was closed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.api_rooms import MAX_PLAYERS, FriendsTable
from tests.e2e.players import FINITE_ANIMATIONS_DONE, Player, new_player, shot, wait_until

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
MAX_HEIGHT = 2.5 * PHONE["height"]

HEIGHT_JS = "document.documentElement.scrollHeight"
# Everything of the top bar inside the screen, and the title not cut.
TOP_BAR_JS = """() => {
  const title = document.getElementById('room-title');
  const width = document.documentElement.clientWidth;
  const out = [...document.querySelectorAll('.topbar *')]
    .filter((e) => e.getBoundingClientRect().right > width + 1);
  return {text: title.textContent, cut: title.scrollWidth > title.clientWidth + 1, out: out.length};
}"""


def phone(browser: Any) -> Player:
    return new_player(
        browser, "Morgana", locale="en-US", viewport=PHONE, is_mobile=True, has_touch=True
    )


def page_height(player: Player) -> int:
    player.page.evaluate(FINITE_ANIMATIONS_DONE)
    height: int = player.page.evaluate(HEIGHT_JS)
    return height


def opponents(game: str) -> list[int]:
    return list(range(1, MAX_PLAYERS[game]))


def assert_opponents_collapsed(player: Player, game: str) -> None:
    for seat in opponents(game):
        board = player.page.locator(f"[data-testid=board-{seat}]")
        assert board.get_attribute("data-open") == "0", f"board-{seat} should start collapsed"
        assert board.locator(".panel-detail").is_hidden()
        assert board.locator(".board-name").is_visible()


@pytest.mark.parametrize("game", sorted(MAX_PLAYERS))
def test_phone_table(browser: Any, coven_server: str, artifacts: Path, game: str) -> None:
    table = FriendsTable(coven_server, game)
    player = phone(browser)
    page = player.page
    page.goto(table.seat_url(table.host_token, 0))
    page.wait_for_selector("#table [data-testid=my-board]")
    boards = "document.querySelectorAll('#table [data-testid^=board-]').length"
    wait_until(page, f"{boards} === {len(opponents(game))}")

    # The title is whole and nothing of the top bar sticks out.
    bar = page.evaluate(TOP_BAR_JS)
    assert bar["text"] and not bar["cut"] and bar["out"] == 0, bar

    # Short enough, with every opponent folded to a summary line, as the match goes on.
    assert_opponents_collapsed(player, game)
    heights = [page_height(player)]
    shot(player, artifacts, f"phone-{game}")
    rng = random.Random(game)
    for _ in range(3):
        table.play_both(6, rng)
        page.wait_for_timeout(300)
        heights.append(page_height(player))
    assert max(heights) < MAX_HEIGHT, f"{game}: page heights {heights} (limit {MAX_HEIGHT})"
    assert_opponents_collapsed(player, game)  # a redraw keeps them folded

    # A tap opens one opponent's area in full (and it stays open across redraws); another
    # tap folds it again.
    first = opponents(game)[0]
    board = page.locator(f"[data-testid=board-{first}]")
    board.locator(".panel-toggle").tap()
    wait_until(page, f"document.querySelector('[data-testid=board-{first}]').dataset.open === '1'")
    assert board.locator(".panel-detail").is_visible()
    assert board.locator(".panel-toggle").get_attribute("aria-expanded") == "true"
    # The table redraws at every bot move: measure the board as drawn now, once it is there.
    board.wait_for(state="visible")
    wait_until(
        page,
        f"(document.querySelector('[data-testid=board-{first}]')?.getBoundingClientRect().height"
        " || 0) > 120",
    )
    table.play_both(2, rng)
    page.wait_for_timeout(300)
    assert page.locator(f"[data-testid=board-{first}]").get_attribute("data-open") == "1"
    page.evaluate(f"document.querySelector('[data-testid=board-{first}]').scrollIntoView()")
    page.evaluate(FINITE_ANIMATIONS_DONE)
    page.screenshot(path=str(artifacts / f"phone-{game}-opponent-open.png"))
    page.locator(f"[data-testid=board-{first}] .panel-toggle").tap()
    wait_until(page, f"document.querySelector('[data-testid=board-{first}]').dataset.open === '0'")

    # The chat and log drawer: its button stays on screen wherever the page is scrolled.
    opener = page.locator("[data-testid=talk-open]")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert opener.is_visible() and page.locator("[data-testid=chat-input]").is_hidden()
    box = opener.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"]
    page.evaluate("window.scrollTo(0, 0)")
    assert opener.is_visible()

    # A friend's chat line while the drawer is closed: counted on the button, cleared on opening.
    badge = page.locator("[data-testid=unread]")
    assert badge.is_hidden()
    table.say(table.friend_token, f"Blessed be, {game}!")
    wait_until(page, "document.querySelector('[data-testid=unread]').textContent === '1'")
    assert badge.is_visible()
    shot(player, artifacts, f"phone-{game}-unread", full_page=False)
    opener.tap()
    page.wait_for_selector("[data-testid=talk].open")
    assert page.locator("[data-testid=chat]").inner_text().count(f"Blessed be, {game}!") == 1
    assert page.locator("[data-testid=chat-input]").is_visible()
    assert badge.is_hidden()
    shot(player, artifacts, f"phone-{game}-chat", full_page=False)
    page.locator("[data-testid=talk-tab-log]").tap()
    assert page.locator("[data-testid=log]").is_visible()
    assert page.locator("[data-testid=chat]").is_hidden()
    # (the page arrived after the bots' first moves: its log reads the versions before its
    # arrival once it first comes into view)
    wait_until(
        page,
        "document.querySelector('[data-testid=log]').innerText.includes('The match begins')",
        20,
    )
    shot(player, artifacts, f"phone-{game}-log", full_page=False)
    page.locator("[data-testid=talk-close]").tap()
    page.wait_for_selector("[data-testid=talk]", state="hidden")
    assert badge.is_hidden()

    assert page.evaluate("window.coven.missingKeys()") == []
    assert player.errors == [], player.errors
    page.context.close()
