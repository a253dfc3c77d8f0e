"""Your board in view (issue 21, item 2), at each game's largest table: on a 1366×900 laptop the
player's own board, hand and moves are in the window at each of her decisions, with the
opponents folded to a strip of summary lines that opens on demand (by keyboard too) and stays
as she left it; on a 375×812 phone no control is covered. Pictures of both at a decision.
And a whole Seasons match played on the phone, checked at every decision (the whole-match test
of Seasons plays on a laptop; those of the two other games have a phone player)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import in_view
from tests.e2e.api_rooms import MAX_PLAYERS, HostedRoom
from tests.e2e.players import FINITE_ANIMATIONS_DONE, Player, new_player, shot, wait_until
from tests.e2e.test_seasons import step as seasons_step

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 375, "height": 812}
ROOT = "#table > [data-version]"


def at_new_decision(player: Player, room: HostedRoom, seen: int) -> int:
    """Wait until the page shows the host's next decision (a version after ``seen``)."""
    version: int = room.host_to_move(30)["version"]
    assert version > seen, (version, seen)
    wait_until(
        player.page,
        f"+(document.querySelector('{ROOT}')?.dataset.version || 0) >= {version}"
        f" && document.querySelector('{ROOT}').dataset.myTurn === '1'",
        20,
    )
    player.page.evaluate(FINITE_ANIMATIONS_DONE)
    return version


@pytest.mark.parametrize("game", sorted(MAX_PLAYERS))
def test_own_area_in_view_at_the_largest_table(
    browser: Any, coven_server: str, artifacts: Path, game: str
) -> None:
    table = HostedRoom(coven_server, game, name="Morgana")
    table.start_with_bots(MAX_PLAYERS[game] - 1)
    laptop = new_player(browser, "Morgana", locale="en-US", viewport=LAPTOP)
    page = laptop.page
    page.goto(table.page_url("en"))
    page.wait_for_selector(f"{ROOT} [data-testid=my-board]")
    others = MAX_PLAYERS[game] - 1
    wait_until(
        page, f"document.querySelectorAll('#table [data-testid^=board-]').length === {others}"
    )

    # The opponents are a strip of folded summaries.
    folded = "[...document.querySelectorAll('#table .others > [data-open]')]"
    assert page.evaluate(f"{folded}.every((b) => b.dataset.open === '0')")
    rng = random.Random(game)
    version = -1  # (a first decision may come at version 0: the bots' first steps are private)
    checked = 0
    for i in range(6):
        version = at_new_decision(laptop, table, version)
        checked += in_view.assert_mine_in_view(page)
        if i == 2:
            shot(laptop, artifacts, f"inview-{game}-laptop", full_page=False)
        table.play(1, rng)
    assert checked >= 3, checked

    # One opponent opened with the keyboard stays open across new messages (for this page);
    # folded again, her own area is back in view.
    toggle = page.locator("#table .others [data-testid^=toggle-board-]").first
    key = toggle.get_attribute("data-testid")
    toggle.focus()
    page.keyboard.press("Enter")
    wait_until(
        page,
        f"document.querySelector('[data-testid={key}]').getAttribute('aria-expanded') === 'true'",
    )
    table.play(1, rng)
    version = at_new_decision(laptop, table, version)
    assert page.get_attribute(f"[data-testid={key}]", "aria-expanded") == "true"
    shot(laptop, artifacts, f"inview-{game}-laptop-opponent-open", full_page=False)
    page.locator(f"[data-testid={key}]").focus()
    page.keyboard.press("Enter")
    wait_until(
        page,
        f"document.querySelector('[data-testid={key}]').getAttribute('aria-expanded') === 'false'",
    )
    page.evaluate("window.scrollTo(0, 0)")
    assert in_view.assert_mine_in_view(page)

    # The same seat on a phone: nothing covers a control at her decisions.
    page.set_viewport_size(PHONE)
    for i in range(3):
        page.evaluate("window.scrollTo(0, 0)")
        assert in_view.assert_controls_hit(page)
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        assert in_view.assert_controls_hit(page)
        if i == 0:
            shot(laptop, artifacts, f"inview-{game}-phone", full_page=False)
        table.play(1, rng)
        version = at_new_decision(laptop, table, version)
    assert laptop.errors == [], laptop.errors
    page.context.close()
    table.close()


def test_whole_seasons_match_on_a_phone(browser: Any, coven_server: str) -> None:
    room = HostedRoom(coven_server, "seasons", options={"level": "apprentice"})
    room.start_with_bots(1)
    phone = new_player(
        browser, "Ana", locale="en-US", viewport=PHONE, is_mobile=True, has_touch=True
    )
    page = phone.page
    page.goto(room.page_url("en"))
    page.wait_for_selector(f"{ROOT}", state="attached")
    rng = random.Random(375)
    decisions = 0
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, "the match did not end in time"
        decisions += in_view.assert_controls_hit(page)  # before the click: nothing covered
        info = seasons_step(phone, rng)
        if info["state"] == "over":
            break
        if info["state"] != "move":
            page.wait_for_timeout(20)
    assert decisions > 20, decisions
    assert phone.errors == [], phone.errors
    page.context.close()
    room.close()
