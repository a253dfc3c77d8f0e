"""Chat and log on the room page, on a desktop screen (1280×800): the chat input never leaves
the screen however long the log, the chat and the page; a line the server refuses (too fast)
stays in the input with the reason; the same error again does not pile up toasts; only links
to this server's own rooms become links."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.api_rooms import FriendsTable
from tests.e2e.players import Player, new_player, shot, wait_until

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
DESKTOP = {"width": 1280, "height": 800}
ENGLISH = json.loads((ROOT / "static" / "i18n" / "en.json").read_text(encoding="utf-8"))

IN_VIEW_JS = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
    && box.left >= 0 && box.right <= window.innerWidth;
}"""


def host_page(browser: Any, table: FriendsTable) -> Player:
    player = new_player(browser, "Morgana", locale="en-US", viewport=DESKTOP)
    player.page.goto(table.seat_url(table.host_token, 0))
    player.page.wait_for_selector("#table [data-testid=my-board]")
    return player


def in_view(player: Player, selector: str) -> bool:
    seen: bool = player.page.evaluate(IN_VIEW_JS, selector)
    return seen


def send(player: Player, text: str) -> None:
    player.page.fill("[data-testid=chat-input]", text)
    player.page.click("[data-testid=chat-send]")


@pytest.fixture(scope="module")
def table(coven_server: str) -> FriendsTable:
    return FriendsTable(coven_server, "whirling-witchcraft")


def test_chat_input_stays_in_view(browser: Any, table: FriendsTable, artifacts: Path) -> None:
    player = host_page(browser, table)
    page = player.page
    table.play_both(8, random.Random(3))  # the log fills with the bots' moves
    # Sixty chat lines, as the server would push them.
    page.evaluate(
        """() => {
          for (let i = 1; i <= 60; i += 1) {
            const line = {type: 'chat', seat: 1 + (i % 4), name: `Witch ${i}`, at: 1000 + i};
            line.text = `Line ${i} of the long talk`;
            window.coven.page.client.receive(JSON.stringify(line));
          }
        }"""
    )
    wait_until(page, "document.querySelectorAll('[data-testid=chat] li').length >= 60")
    wait_until(page, "document.querySelectorAll('[data-testid=log] li').length >= 6")
    assert page.evaluate("document.documentElement.scrollHeight > window.innerHeight + 200"), (
        "the page should be taller than the screen for this test to mean anything"
    )
    for selector in ("[data-testid=chat-input]", "[data-testid=chat-send]"):
        assert in_view(player, selector), f"{selector} out of view at the top"
    # The newest line is in view inside the chat list, which scrolls by itself.
    assert in_view(player, "[data-testid=chat] li:last-child")
    page.mouse.wheel(0, 5000)
    wait_until(page, "window.scrollY > 200")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    for selector in ("[data-testid=chat-input]", "[data-testid=chat-send]", "[data-testid=log]"):
        assert in_view(player, selector), f"{selector} out of view at the bottom of the page"
    page.screenshot(path=str(artifacts / "chat-desktop-scrolled.png"))
    # Typing there and sending works, and empties the input once the server has it.
    send(player, "Still here at the bottom")
    page.wait_for_selector("[data-testid=chat] >> text=Still here at the bottom")
    wait_until(page, "document.querySelector('[data-testid=chat-input]').value === ''")
    shot(player, artifacts, "chat-desktop", full_page=False)
    assert player.errors == [], player.errors
    page.context.close()


def test_refused_line_stays_in_the_input(
    browser: Any, table: FriendsTable, artifacts: Path
) -> None:
    player = host_page(browser, table)
    page = player.page
    # The server takes 5 lines per socket in 10 s; each one empties the input once echoed.
    for n in range(1, 6):
        send(player, f"Quick line {n}")
        wait_until(page, "document.querySelector('[data-testid=chat-input]').value === ''")
    send(player, "One line too many")
    note = page.locator("[data-testid=chat-note]")
    note.wait_for(state="visible")
    assert note.inner_text() == ENGLISH["room.chat_rate_limited"]
    assert page.input_value("[data-testid=chat-input]") == "One line too many"
    assert "One line too many" not in page.inner_text("[data-testid=chat]")
    assert page.locator("[data-testid=toast]").count() == 0, "the reason is by the input"
    assert in_view(player, "[data-testid=chat-note]")
    page.screenshot(path=str(artifacts / "chat-rate-limited.png"))
    # Typing again clears the reason; the text stays hers to send later.
    page.locator("[data-testid=chat-input]").press("End")
    page.keyboard.type("!")
    note.wait_for(state="hidden")
    assert page.input_value("[data-testid=chat-input]") == "One line too many!"
    assert player.errors == [], player.errors
    page.context.close()


def test_the_same_error_makes_one_toast(browser: Any, table: FriendsTable, artifacts: Path) -> None:
    player = host_page(browser, table)
    page = player.page
    for _ in range(5):
        page.evaluate("window.coven.page.client.act({type: 'no_such_move'})")
        page.wait_for_timeout(120)
    toasts = page.locator("[data-testid=toast]")
    toasts.first.wait_for(state="visible")
    page.wait_for_timeout(300)
    assert toasts.count() <= 1
    assert "×" in toasts.first.inner_text(), "the toast says the error came again"
    page.screenshot(path=str(artifacts / "chat-toast.png"))
    # Other messages push the oldest out: never more than two at once.
    page.evaluate(
        """async () => { const { toast } = await import('/static/js/dom.js');
             for (const text of ['one', 'two', 'three', 'four']) toast(text, 'error'); }"""
    )
    assert toasts.count() == 2
    assert toasts.all_inner_texts()[-1].startswith("four")
    # Each can be closed.
    toasts.first.locator("button").click()
    toasts.first.locator("button").click()
    assert toasts.count() == 0
    assert player.errors == [], player.errors
    page.context.close()


def test_only_this_servers_rooms_are_links(
    browser: Any, table: FriendsTable, coven_server: str
) -> None:
    player = host_page(browser, table)
    page = player.page
    here = f"{coven_server}/r/{table.code}"
    text = (
        f"come to {here}, or /r/{table.code}. Not https://evil.example/r/{table.code} nor "
        f"{coven_server}/api/rooms nor {here}?x=1 nor javascript:alert(1) <b>bold</b> /r/../x"
    )
    table.say(table.friend_token, text)
    line = page.locator("[data-testid=chat] li", has_text="come to")
    line.wait_for()
    links = line.locator("a")
    assert links.count() == 2
    assert [links.nth(i).get_attribute("href") for i in range(2)] == [here, f"/r/{table.code}"]
    assert [links.nth(i).inner_text() for i in range(2)] == [here, f"/r/{table.code}"]
    shown = line.inner_text()
    assert f"https://evil.example/r/{table.code}" in shown and "<b>bold</b>" in shown
    assert line.locator("b").count() == 0
    assert re.search(r"\bBaba: come to", shown)
    assert player.errors == [], player.errors
    page.context.close()
