"""My tables (issue 20, item 3), in Chromium.

Mira sits at four tables of Whirling Witchcraft with Ana, each taken by its rejoin link (the
seat token in her browser's storage): two where both owe a card (her turn; one with 5 minutes
per move, one with a day), one where she has played and Ana owes (a day per move), one waiting
for players. Her page lists them yours-to-play first (the 5-minute clock first), with the live
countdown ticking, the correspondence clock in words, the last move, and "(2) My tables · Coven"
in the tab title (and on the app badge where Chromium has one). She plays at the 5-minute
table over the API: back in view, the page moves it to the others' and counts 1. Ana starts
the waiting room: the page's own poll (every 20 s) shows it as Mira's turn and counts 2. The
lobby's title counts the same. A browser holding nothing is told what to do.
Pictures: tests/e2e/artifacts/h4_my_tables_{laptop,phone,phone_vi,empty}.png.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.api_rooms import HostedRoom
from tests.e2e.players import Player, assert_fits_the_screen, new_player, shot, wait_until

pytestmark = pytest.mark.e2e

GAME = "whirling-witchcraft"
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
FIVE_MINUTES = 300
DAY = 86400
POLL_SECONDS = 20
ROWS_JS = """[...document.querySelectorAll('[data-testid=my-table]')].map((row) => [
  row.dataset.code, row.dataset.yourTurn === '1',
  row.querySelector('[data-testid=turn]').textContent,
])"""
# The app icon's badge, as the page sets it (the Badging API, where Chromium has it).
RECORD_BADGES_JS = """
window.e2eBadges = [];
if (typeof navigator.setAppBadge === 'function') {
  const set = navigator.setAppBadge.bind(navigator);
  const clear = navigator.clearAppBadge.bind(navigator);
  navigator.setAppBadge = (n) => { window.e2eBadges.push(n); return set(n); };
  navigator.clearAppBadge = () => { window.e2eBadges.push(0); return clear(); };
}
"""


class TimedRoom(HostedRoom):
    """Ana's room of two seats with a turn clock of ``turn_seconds`` (None: none)."""

    def __init__(self, url: str, turn_seconds: int | None) -> None:
        body: dict[str, Any] = {"game": GAME, "name": "Ana", "visibility": "private", "seats": 2}
        if turn_seconds is not None:
            body["turn_seconds"] = turn_seconds
        created = httpx.post(f"{url}/api/rooms", json=body, timeout=10)
        assert created.status_code == 201, created.text
        self.url = url
        self.code: str = created.json()["room"]["code"]
        self.token: str = created.json()["token"]
        self.http = httpx.Client(
            base_url=f"{url}/api/rooms/{self.code}",
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
        )

    def mira_plays(self, token: str) -> None:
        """Mira plays her card (one action: then Ana alone owes one)."""
        state = self.state(token)
        assert 1 in state["to_move"] and state["legal"], state["to_move"]
        assert self._act(state, random.Random(1), token)
        assert self.state(token)["to_move"] == [0]


def rows(player: Player) -> list[tuple[str, bool, str]]:
    return [tuple(row) for row in player.page.evaluate(ROWS_JS)]


def row_text(player: Player, code: str, testid: str) -> str:
    text: str = player.page.inner_text(
        f"[data-testid=my-table][data-code='{code}'] [data-testid={testid}]"
    )
    return text


def open_my_tables(player: Player, url: str) -> None:
    player.page.goto(url)
    wait_until(player.page, "document.body.dataset.ready === '1'")


def test_my_tables_lists_her_tables_yours_to_play_first(
    coven_server: str, browser: Any, artifacts: Path
) -> None:
    soon, daily, waits, lobby = (
        TimedRoom(coven_server, FIVE_MINUTES),
        TimedRoom(coven_server, DAY),
        TimedRoom(coven_server, DAY),
        TimedRoom(coven_server, None),
    )
    mira = new_player(browser, "Mira", viewport=LAPTOP)
    mira.page.add_init_script(RECORD_BADGES_JS)
    tokens = {}
    for room in (soon, daily, waits, lobby):
        tokens[room.code] = room.join("Mira")
        # Her seat's rejoin link: the room page keeps the token in this browser.
        mira.page.goto(room.seat_url(tokens[room.code], 1))
        wait_until(mira.page, "document.body.dataset.ready === '1'")
    for room in (soon, daily, waits):
        room.start()
    waits.mira_plays(tokens[waits.code])

    open_my_tables(mira, f"{coven_server}/tables")
    assert rows(mira) == [
        (soon.code, True, "Your turn"),
        (daily.code, True, "Your turn"),
        (waits.code, False, "Waiting for Ana"),
        (lobby.code, False, "Every seat taken · waiting for the start"),
    ]
    assert mira.page.title() == "(2) My tables · Coven"
    assert mira.page.inner_text("[data-testid=my-tables-yours] h2") == "Your turn (2)"
    assert row_text(mira, soon.code, "players") == "Ana · Mira (you)"
    # Time left: the live clock counts down each second; a day per move reads in words.
    countdown = row_text(mira, soon.code, "time-left")
    assert re.fullmatch(r"[45]:\d\d", countdown), countdown
    ticked = f"document.querySelector(\"[data-code='{soon.code}'] [data-testid=time-left]\")"
    wait_until(mira.page, f"{ticked}.textContent !== '{countdown}'", 3)
    assert row_text(mira, daily.code, "time-left") == "due in 23 h"
    assert row_text(mira, waits.code, "time-left") == "due in 23 h"  # Ana's clock
    assert row_text(mira, waits.code, "last-move") == "Last move: now"
    assert row_text(mira, lobby.code, "last-move") == "Opened now"
    assert mira.page.query_selector(f"[data-code='{lobby.code}'] [data-testid=time-left]") is None
    # Each row opens its table.
    link = mira.page.get_attribute(f"[data-code='{daily.code}'] a", "href")
    assert link == f"/r/{daily.code}"
    badges = mira.page.evaluate("window.e2eBadges")
    if mira.page.evaluate("typeof navigator.setAppBadge === 'function'"):
        assert badges[-1] == 2, badges
    shot(mira, artifacts, "h4_my_tables_laptop")

    # She plays at the 5-minute table on another device: back in view, the page knows.
    soon.mira_plays(tokens[soon.code])
    mira.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    wait_until(mira.page, "document.title === '(1) My tables · Coven'", 5)
    assert rows(mira) == [
        (daily.code, True, "Your turn"),
        (soon.code, False, "Waiting for Ana"),  # her clock (5 min) runs out before the day
        (waits.code, False, "Waiting for Ana"),
        (lobby.code, False, "Every seat taken · waiting for the start"),
    ]
    if mira.page.evaluate("typeof navigator.setAppBadge === 'function'"):
        assert mira.page.evaluate("window.e2eBadges")[-1] == 1

    # Ana starts the waiting room: both owe a card; the page's own poll shows it.
    loads = mira.page.evaluate("window.coven.myTables.loads")
    lobby.start()
    started = time.monotonic()
    wait_until(mira.page, "document.title === '(2) My tables · Coven'", POLL_SECONDS + 5)
    assert mira.page.evaluate("window.coven.myTables.loads") > loads  # its poll did it
    assert time.monotonic() - started <= POLL_SECONDS + 5
    assert rows(mira) == [
        (daily.code, True, "Your turn"),
        (lobby.code, True, "Your turn"),  # no clock: after the one that runs out
        (soon.code, False, "Waiting for Ana"),
        (waits.code, False, "Waiting for Ana"),
    ]

    # The lobby counts the same in its title, and links to this page.
    mira.page.goto(f"{coven_server}/")
    wait_until(mira.page, "document.body.dataset.ready === '1'")
    wait_until(mira.page, "document.title === '(2) Coven — lobby'", 5)
    assert mira.page.get_attribute("[data-testid=home-see-all]", "href") == "/tables"
    with mira.page.expect_navigation():
        mira.page.click("[data-testid=nav-my-tables]")
    wait_until(mira.page, "document.body.dataset.ready === '1'")
    assert mira.page.title() == "(2) My tables · Coven"

    # Her phone (the same storage), in English and in Vietnamese.
    phone = new_player(
        browser,
        "Mira's phone",
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        storage_state=mira.page.context.storage_state(),
    )
    open_my_tables(phone, f"{coven_server}/tables")
    assert [r[:2] for r in rows(phone)] == [r[:2] for r in rows(mira)]
    assert_fits_the_screen(phone)
    shot(phone, artifacts, "h4_my_tables_phone")
    open_my_tables(phone, f"{coven_server}/tables?lang=vi")
    assert phone.page.title() == "(2) Bàn của tôi · Coven"
    assert row_text(phone, daily.code, "turn") == "Đến lượt bạn"
    assert row_text(phone, waits.code, "time-left") == "còn 23 giờ"
    assert phone.page.evaluate("window.coven.missingKeys()") == []
    assert_fits_the_screen(phone)
    shot(phone, artifacts, "h4_my_tables_phone_vi")
    for room in (soon, daily, waits, lobby):
        room.close()
    assert mira.errors == [] and phone.errors == []


def test_a_browser_holding_no_table_is_told_what_to_do(
    coven_server: str, browser: Any, artifacts: Path
) -> None:
    newcomer = new_player(browser, "Newcomer", viewport=LAPTOP)
    requests: list[str] = []
    newcomer.page.on("request", lambda r: requests.append(r.url) if "/api/" in r.url else None)
    open_my_tables(newcomer, f"{coven_server}/tables")
    empty = newcomer.page.wait_for_selector("[data-testid=my-tables-empty]")
    assert "You sit at no table right now." in empty.inner_text()
    assert newcomer.page.get_attribute("[data-testid=my-tables-lobby]", "href") == "/"
    assert newcomer.page.title() == "My tables · Coven"
    assert requests == []  # nothing to ask for: no profile cookie, no seat token
    shot(newcomer, artifacts, "h4_my_tables_empty")
    assert newcomer.errors == []
