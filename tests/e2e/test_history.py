"""History and ratings in Chromium: two players with profiles finish a match (their turn clocks
run out at once, so random bots play their seats); the end screen shows the match's figures per
seat; a profile's page shows ratings, the game's figures, the head-to-head and the match with
its replay (the room is private: only to those who sat in it); the leaderboard lists both.

Pictures (laptop 1366×900, phone 375×812): tests/e2e/artifacts/history-*.png.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.players import Player, new_player, shot, wait_until

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 375, "height": 812}
GAME = "whirling-witchcraft"


def post(player: Player, url: str, path: str, body: dict[str, Any], token: str = "") -> Any:
    """A request from the player's browser context (its profile cookie goes with it)."""
    headers = {"Origin": url, **({"Authorization": f"Bearer {token}"} if token else {})}
    answer = player.page.request.post(f"{url}{path}", data=body, headers=headers)
    assert answer.ok, answer.text()
    return answer.json()


def keep_profile(player: Player, url: str) -> str:
    made = post(player, url, "/api/profile", {"name": player.name, "seats": []})
    public_id: str = made["public_id"]
    return public_id


def finished_and_recorded(url: str, code: str, seconds: float = 150) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=url, timeout=10) as http:
        while True:
            body: dict[str, Any] = http.get(f"/api/rooms/{code}/results").json()
            if body["recorded"]:
                return body
            assert time.monotonic() < deadline, f"the match in {code} was never recorded"
            time.sleep(0.5)


def test_a_match_between_two_profiles_in_their_history(
    coven_server: str, browser: Any, artifacts: Path
) -> None:
    url = coven_server
    ann = new_player(browser, "Ann", viewport=LAPTOP)
    bea = new_player(browser, "Bea", viewport=PHONE)
    ann_id, bea_id = keep_profile(ann, url), keep_profile(bea, url)
    # A private table; each seat's clock runs out at once and a random bot plays it.
    created = post(
        ann, url, "/api/rooms",
        {"game": GAME, "name": "Ann", "visibility": "private", "turn_seconds": 0.05},
    )
    code = created["room"]["code"]
    post(bea, url, f"/api/rooms/{code}/join", {"name": "Bea"})
    post(ann, url, f"/api/rooms/{code}/start", {}, token=created["token"])
    results = finished_and_recorded(url, code)
    assert [s["public_id"] for s in results["match"]["seats"]] == [ann_id, bea_id]
    assert results["match"]["rated"] is True

    # The end screen: one row per seat, a column per figure of the game.
    ann.page.goto(f"{url}/r/{code}")
    figures = ann.page.locator("[data-testid=match-figures][data-recorded='1']")
    figures.wait_for()
    assert figures.locator("tbody tr").count() == 2
    assert "Cubes poured" in figures.locator("thead").inner_text()
    shot(ann, artifacts, "history-end-screen-laptop")

    # Her friend's page: the head-to-head, the match with its replay (she sat in it).
    ann.page.goto(f"{url}/p/{bea_id}")
    ann.page.locator("[data-testid=player-versus]").wait_for()
    assert ann.page.locator("[data-testid=player-name]").inner_text() == "Bea"
    assert ann.page.locator("[data-testid=player-match]").count() == 1
    replay = ann.page.locator("[data-testid=player-replay]")
    assert replay.get_attribute("href") == f"/r/{code}/replay"
    assert ann.page.locator(f"[data-testid=player-game][data-game='{GAME}']").count() == 1
    shot(ann, artifacts, "history-friend-page-laptop")

    # Her own page on a phone, in Vietnamese: nothing sticks out sideways.
    bea.page.goto(f"{url}/p/{bea_id}?lang=vi")
    bea.page.locator("[data-testid=player-history]").wait_for()
    wait_until(bea.page, "document.body.scrollWidth <= document.documentElement.clientWidth")
    shot(bea, artifacts, "history-own-page-phone-vi")

    # The leaderboard lists both; a stranger sees the match but not the private room's code.
    ann.page.goto(f"{url}/leaderboard/{GAME}")
    ann.page.locator("[data-testid=leaderboard-table]").wait_for()
    names = ann.page.locator("[data-testid=leaderboard-row] th").all_inner_texts()
    assert {"Ann", "Bea"} <= set(names)
    shot(ann, artifacts, "history-leaderboard-laptop")
    stranger = new_player(browser, "Cleo", viewport=PHONE)
    stranger.page.goto(f"{url}/p/{ann_id}")
    stranger.page.locator("[data-testid=player-match]").wait_for()
    assert stranger.page.locator("[data-testid=player-replay]").count() == 0
    shot(stranger, artifacts, "history-stranger-view-phone")
    for player in (ann, bea, stranger):
        player.page.context.close()
