"""Turn clocks people can see, and who is away (issue 20, items 1 and 2), in Chromium against
`coven serve`: the lobby offers live and correspondence paces and the rule at expiry; a live
clock counts down on the owing seat's board on every player's page; a correspondence table says
"due in"; a friend who closes her page shows "away" on the other's board within 5 s, the host
hands her seat to a bot from that board, and she takes it back in one click when she returns.
Screenshots of a table with clocks and an away seat: /tmp/shots/h1_*.png.
"""

from __future__ import annotations

import random
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.players import Player, new_player, shot, wait_until

pytestmark = pytest.mark.e2e

GAME = "whirling-witchcraft"  # both witches owe a decision at once from the first step
SHOTS = Path("/tmp/shots")
# Witch's Brew: the bubble of the witch who owes her answer to a claim now.
NOW_BUBBLE = "[data-testid=claim] li.a-waiting.now[data-seat='1'] .bubble"
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def text_of(player: Player, selector: str) -> str:
    found: str = player.page.locator(selector).inner_text()
    return found


def ticks(player: Player, selector: str) -> None:
    """The chip's text changes within 2 s (one timer for the page moves every clock)."""
    before = text_of(player, selector)
    deadline = time.monotonic() + 2.0
    while text_of(player, selector) == before:
        assert time.monotonic() < deadline, f"{selector} stood at {before!r} for 2 s"
        time.sleep(0.05)


def room_seats(url: str, code: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = httpx.get(f"{url}/api/rooms/{code}").json()["seats"]
    return found


def test_live_clocks_tick_on_every_board_and_an_away_friend_takes_her_seat_back(
    browser: Any, coven_server: str
) -> None:
    url = coven_server
    ana = new_player(browser, "Ana", viewport=LAPTOP)
    bea = new_player(browser, "Bea", viewport=LAPTOP)
    page = ana.page

    # The lobby: no clock, a live pace, or correspondence; and the rule at expiry.
    page.goto(f"{url}/")
    page.wait_for_selector(f"[data-testid=game-list] input[value={GAME}]")
    page.check(f"[data-testid=game-list] input[value={GAME}]")
    page.fill("[data-testid=host-name]", "Ana")
    page.check("[data-testid=seat-count-2]")
    for seconds in (0, 30, 60, 120, 300, 43200, 86400, 259200):
        page.wait_for_selector(f"[data-testid=turn-clock-{seconds}]")
    clock_labels = page.inner_text("[data-setup=clock]")
    assert "12 h" in clock_labels and "1 day" in clock_labels and "3 days" in clock_labels
    # Without a clock the rule has nothing to say.
    assert page.is_disabled("[data-testid=clock-rule-seat]")
    page.check("[data-testid=turn-clock-60]")
    assert page.is_enabled("[data-testid=clock-rule-seat]")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("[data-setup=clock]").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "h1_lobby_laptop.png"))
    assert page.is_checked("[data-testid=clock-rule-move]")
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/*")
    wait_until(page, "document.body.dataset.ready === '1'")
    code = page.url.rsplit("/", 1)[1].split("#")[0]
    room = httpx.get(f"{url}/api/rooms/{code}").json()
    assert (room["turn_seconds"], room["clock_rule"], room["pace"]) == (60, "move", "live")
    options = page.inner_text("[data-testid=room-options]")
    assert "Turn clock: 1 min per move" in options
    assert "When time runs out: a bot plays the move" in options

    bea.page.goto(f"{url}/r/{code}")
    bea.page.fill("[data-testid=join-name]", "Bea")
    bea.page.click("[data-testid=join-button]")
    page.wait_for_selector("[data-testid=seat-1][data-connected=true]")
    page.click("[data-testid=start]")

    # Both owe a decision: each board shows its seat's countdown, on both pages, and it ticks.
    for player, mine, other in ((ana, 0, 1), (bea, 1, 0)):
        player.page.wait_for_selector(f"[data-testid=my-board] [data-testid=clock-{mine}]")
        player.page.wait_for_selector(f"[data-testid=board-{other}] [data-testid=clock-{other}]")
        player.page.wait_for_selector(f"[data-testid=seat-clock-{other}]")
        first = text_of(player, f"[data-testid=board-{other}] [data-testid=clock-{other}]")
        assert first in {"1:00", "0:59", "0:58", "0:57", "0:56", "0:55"}, first
    ticks(ana, "[data-testid=board-1] [data-testid=clock-1]")
    ticks(bea, "[data-testid=board-0] [data-testid=clock-0]")
    ticks(ana, "[data-testid=my-board] [data-testid=clock-0]")
    assert page.locator("[data-testid=away-1]").count() == 0
    bea_token = bea.page.evaluate(f"JSON.parse(localStorage.getItem('coven:seat:{code}')).token")

    # Bea closes her page: her board on Ana's page says "away" within 5 s (never "thinking"),
    # and Ana, the host, is offered to hand the seat to a bot right there.
    closed = time.monotonic()
    bea.page.context.close()
    page.wait_for_selector("[data-testid=board-1] [data-testid=away-1]", timeout=5000)
    away_after = time.monotonic() - closed
    print(f"away shown {away_after:.2f} s after her page closed")
    assert away_after <= 5.0
    page.wait_for_selector("[data-testid=seat-1] [data-testid=seat-away-1]")
    hand_over = page.locator("[data-testid=board-1] [data-testid=hand-to-bot-board-1]")
    hand_over.wait_for()
    # Her clock still runs on her board while she is away.
    assert page.locator("[data-testid=board-1] [data-testid=clock-1]").count() == 1
    shot(ana, SHOTS, "h1_live_away_laptop", full_page=False)
    hand_over.click()
    page.wait_for_selector("[data-testid=board-1] [data-testid=bot-playing-1]")
    assert page.locator("[data-testid=away-1]").count() == 0
    assert room_seats(url, code)[1]["away"] is True

    # She comes back (her rejoin link): a bot plays for her; one click and the seat is hers.
    back = new_player(browser, "Bea", viewport=PHONE)
    back.page.goto(f"{url}/r/{code}#seat=1&token={bea_token}")
    back.page.wait_for_selector("[data-testid=take-back]")
    assert "a bot is playing for you" in text_of(back, "[data-testid=seat-banner]")
    shot(back, SHOTS, "h1_take_back_phone", full_page=False)
    back.page.click("[data-testid=take-back]")
    back.page.wait_for_selector("[data-testid=seat-banner]", state="hidden")
    assert room_seats(url, code)[1]["away"] is False
    page.wait_for_selector("[data-testid=board-1] [data-testid=bot-playing-1]", state="detached")
    assert page.locator("[data-testid=away-1]").count() == 0
    # Twice is harmless: the banner is gone; the server says why if asked again.
    again = httpx.post(
        f"{url}/api/rooms/{code}/back", headers={"Authorization": f"Bearer {bea_token}"}
    )
    assert again.json()["error"]["code"] == "not_away"
    for player in (ana, back):
        assert player.page.evaluate("window.coven.missingKeys()") == []
        assert player.errors == [], player.errors
    page.context.close()
    back.page.context.close()


def test_a_correspondence_table_says_when_a_move_is_due(browser: Any, coven_server: str) -> None:
    url = coven_server
    created = httpx.post(
        f"{url}/api/rooms",
        json={
            "game": GAME,
            "name": "Ana",
            "visibility": "public",
            "turn_seconds": 86400,
            "clock_rule": "seat",
            "seats": 2,
        },
    ).json()
    code, token = created["room"]["code"], created["token"]
    # The lobby's list of open tables says its pace.
    lobby = new_player(browser, "Visitor", viewport=LAPTOP)
    lobby.page.goto(f"{url}/")
    row = lobby.page.locator(f".room-row:has(a[href='/r/{code}'])")
    row.wait_for()
    assert row.locator("[data-testid=room-pace]").inner_text() == "1 day per move"
    lobby.page.context.close()

    joined = httpx.post(f"{url}/api/rooms/{code}/join", json={"name": "Bea"}).json()
    assert joined["seat"] == 1
    httpx.post(
        f"{url}/api/rooms/{code}/start", headers={"Authorization": f"Bearer {token}"}
    ).raise_for_status()
    for viewport, name in ((LAPTOP, "laptop"), (PHONE, "phone")):
        ana = new_player(browser, "Ana", viewport=viewport)
        page = ana.page
        page.goto(f"{url}/r/{code}#seat=0&token={token}")
        chip = page.locator("[data-testid=my-board] [data-testid=clock-0]")
        chip.wait_for()
        assert chip.inner_text() == "due in 23 h"
        assert chip.get_attribute("data-pace") == "correspondence"
        # Bea has no page open: "away", and her day runs too.
        page.wait_for_selector("[data-testid=board-1] [data-testid=away-1]")
        assert text_of(ana, "[data-testid=board-1] [data-testid=clock-1]") == "due in 23 h"
        # (the seats panel, where the options are listed, is folded on a phone)
        options = page.locator("[data-testid=room-options]").text_content() or ""
        assert "Turn clock: 1 day per move" in options
        assert "When time runs out: the seat goes to a bot for good" in options
        # In Spanish too.
        page.goto(f"{url}/r/{code}?lang=es#seat=0&token={token}")
        page.locator("[data-testid=my-board] [data-testid=clock-0]").wait_for()
        assert text_of(ana, "[data-testid=my-board] [data-testid=clock-0]") == "vence en 23 h"
        assert text_of(ana, "[data-testid=board-1] [data-testid=away-1]") == "ausente"
        page.goto(f"{url}/r/{code}#seat=0&token={token}")
        page.locator("[data-testid=board-1] [data-testid=away-1]").wait_for()
        shot(ana, SHOTS, f"h1_correspondence_{name}", full_page=False)
        # Bea's board, with her clock and "away" (on a phone: in its folded header).
        page.locator("[data-testid=board-1]").evaluate("(e) => e.scrollIntoView()")
        page.screenshot(path=str(SHOTS / f"h1_correspondence_away_{name}.png"))
        assert page.evaluate("window.coven.missingKeys()") == []
        assert ana.errors == [], ana.errors
        page.context.close()


def test_witchs_brew_says_away_not_thinking_for_a_witch_with_no_page_open(
    browser: Any, coven_server: str
) -> None:
    url = coven_server
    created = httpx.post(
        f"{url}/api/rooms",
        json={"game": "witchs-brew", "name": "Ana", "visibility": "private", "seats": 3},
    ).json()
    code, tokens = created["room"]["code"], [created["token"]]
    tokens.append(httpx.post(f"{url}/api/rooms/{code}/join", json={"name": "Bea"}).json()["token"])
    with httpx.Client(base_url=f"{url}/api/rooms/{code}", timeout=10) as http:
        host = {"Authorization": f"Bearer {tokens[0]}"}
        http.post("/bots", json={"level": "random"}, headers=host).raise_for_status()
        http.post("/start", headers=host).raise_for_status()
        # Both play at random (over HTTP, no page open) until Bea owes an answer to a claim.
        rng = random.Random(20)
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "Bea never came to answer a claim"
            states = [
                http.get("/state", headers={"Authorization": f"Bearer {t}"}).json() for t in tokens
            ]
            current = states[1]["view"].get("current") or {}
            if current.get("responder") == 1:
                break
            for token, state in zip(tokens, states, strict=True):
                if state["legal"]:
                    http.post(
                        "/actions",
                        headers={"Authorization": f"Bearer {token}"},
                        json={
                            "action": rng.choice(state["legal"]),
                            "client_id": uuid.uuid4().hex,
                            "version": state["version"],
                        },
                    )
                    break
    ana = new_player(browser, "Ana", viewport=LAPTOP)
    ana.page.goto(f"{url}/r/{code}#seat=0&token={tokens[0]}")
    bubble = ana.page.locator(NOW_BUBBLE)
    bubble.wait_for()
    assert bubble.inner_text() == "away"
    ana.page.wait_for_selector("[data-testid=board-1] [data-testid=away-1]")
    # She opens her page: her witch is thinking again, on Ana's page too.
    bea = new_player(browser, "Bea", viewport=LAPTOP)
    bea.page.goto(f"{url}/r/{code}#seat=1&token={tokens[1]}")
    wait_until(ana.page, f"document.querySelector({NOW_BUBBLE!r}).textContent === 'thinking…'")
    assert ana.page.locator("[data-testid=away-1]").count() == 0
    assert ana.errors == [] and bea.errors == []
    ana.page.context.close()
    bea.page.context.close()
