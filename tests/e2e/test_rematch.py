"""One-click rematch in Chromium against ``coven serve``: three friends and a bot finish a quick
Whirling Witchcraft match (the friends' moves sent over the API), each friend sits at its end
screen in her own browser, the host clicks "Play again" once, and all three are seated in the
new, started match within 2 s with no other click; a spectator follows. The end screen's
rematch (the host's choice, the others' "waiting for the host") on a laptop and a phone; the
lobby's "who may start a rematch"."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.api_rooms import HostedRoom
from tests.e2e.players import Player, assert_fits_the_screen, new_player, shot, wait_until

# Timed: it runs alone, after the other browser tests (Makefile), so no other Chromium shares
# the two cores while it measures.
pytestmark = [pytest.mark.e2e, pytest.mark.solo]

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 375, "height": 812}
GAME = "whirling-witchcraft"
LANDING_SECONDS = 2.0

# Where a page is and what it holds: its room code, its seat in the match state it holds (-1: no
# seat), whether that match is over, whether the table is drawn yet, when it was opened and when
# it first held a live match's state (ms since the epoch, taken in the page by SEATED_JS, so the
# test's own polling of four pages adds nothing). Null while it loads.
WHERE_JS = """() => {
  const page = window.coven && window.coven.page;
  if (!page || !page.state) return null;
  return {code: decodeURIComponent(location.pathname.split('/')[2]),
          seat: page.state.seat === null ? -1 : page.state.seat,
          over: page.state.result !== null,
          drawn: document.querySelector('#table .ww') !== null,
          opened: performance.timeOrigin,
          seated: window.__seatedAt || null};
}"""

# In every page a context opens from now on: note the moment it first holds a live match.
SEATED_JS = """(() => {
  const look = setInterval(() => {
    const page = window.coven && window.coven.page;
    if (page && page.state && page.state.result === null) {
      window.__seatedAt = Date.now();
      clearInterval(look);
    }
  }, 5);
})();"""

# The moment the host's click reaches the page (kept across her page's departure).
CLICK_JS = """() => document.addEventListener("click", (event) => {
  if (event.target.closest("[data-testid=rematch]")) {
    localStorage.setItem("e2e-clicked", Date.now());
  }
}, true)"""


def where(player: Player) -> dict[str, Any] | None:
    try:
        found: dict[str, Any] | None = player.page.evaluate(WHERE_JS)
        return found
    except Exception:  # the page is navigating: its context is gone for a moment
        return None


def play_out(room: HostedRoom, tokens: list[str], seconds: float = 180) -> None:
    rng = random.Random(1919)
    deadline = time.monotonic() + seconds
    while room.state().get("result") is None:
        assert time.monotonic() < deadline, "the match did not end"
        room.play_moves(tokens, 10, rng)


def test_one_click_brings_three_friends_a_bot_and_a_spectator_to_a_new_match(
    browser: Any, coven_server: str, artifacts: Path
) -> None:
    room = HostedRoom(coven_server, GAME, seats=4, name="Ana")
    tokens = [room.token, room.join("Bea"), room.join("Cy")]
    room.add_bots(1, "random")
    room.start()
    play_out(room, tokens)
    # Each friend at the end screen on her own browser (her seat's link), a spectator too.
    friends = [new_player(browser, name, viewport=LAPTOP) for name in ("Ana", "Bea", "Cy")]
    for seat, (friend, token) in enumerate(zip(friends, tokens, strict=True)):
        friend.page.goto(room.seat_url(token, seat))
    watcher = new_player(browser, "watcher", viewport=LAPTOP)
    watcher.page.goto(f"{coven_server}/r/{room.code}")
    for player in (*friends, watcher):
        player.page.wait_for_selector("[data-testid=game-over]")
        wait_until(player.page, "document.body.dataset.connection === 'open'")
    ana, bea, cy = friends

    # The host: Play again, and her choice beside it; the others wait for her; the spectator
    # is offered nothing (he follows by himself).
    ana.page.wait_for_selector("[data-testid=rematch-choice]")
    assert ana.page.input_value("[data-testid=rematch-seats]") == "keep"
    assert ana.page.input_value("[data-testid=rematch-absent]") == "bot"
    for other in (bea, cy):
        other.page.wait_for_selector("[data-testid=rematch-waiting]")
        assert other.page.locator("[data-testid=rematch]").count() == 0
    assert watcher.page.locator("[data-testid=rematch], [data-testid=rematch-waiting]").count() == 0
    shot(ana, artifacts, "rematch-end-host-laptop")
    shot(bea, artifacts, "rematch-end-player-laptop")
    ana.page.set_viewport_size(PHONE)
    assert_fits_the_screen(ana)
    ana.page.locator("[data-testid=rematch-choice]").scroll_into_view_if_needed()
    ana.page.screenshot(path=str(artifacts / "rematch-end-host-phone.png"))
    ana.page.set_viewport_size(LAPTOP)

    # One click. A friend has landed when her page holds the new match's state for her seat (the
    # table is drawn a moment later: both are timed), from the moment the click reached the page.
    for player in (*friends, watcher):
        player.page.context.add_init_script(SEATED_JS)
    ana.page.evaluate(CLICK_JS)
    clicked = time.monotonic()
    ana.page.click("[data-testid=rematch]")
    seats = {"Ana": 0, "Bea": 1, "Cy": 2, "watcher": -1}
    seen: dict[str, dict[str, Any]] = {}
    new_code = ""
    while len(seen) < 4 and time.monotonic() - clicked < 15:
        for player in (*friends, watcher):
            now = where(player)
            if now is None or now["code"] == room.code or now["over"] or not now["drawn"]:
                continue
            assert now["seat"] == seats[player.name], (player.name, now)
            new_code = now["code"]
            seen.setdefault(player.name, now)
        time.sleep(0.02)
    assert len(seen) == 4, "not everyone came to the new match"
    clicked_at = float(ana.page.evaluate("Number(localStorage.getItem('e2e-clicked'))"))
    landed = {name: (now["seated"] - clicked_at) / 1000 for name, now in seen.items()}
    left = {name: (now["opened"] - clicked_at) / 1000 for name, now in seen.items()}
    print(
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; seconds after the "
        "click: "
        + "; ".join(
            f"{name} left {left[name]:.2f}, seated {landed[name]:.2f}" for name in sorted(seen)
        )
    )
    assert max(landed.values()) < LANDING_SECONDS

    new = httpx.get(f"{coven_server}/api/rooms/{new_code}").json()
    assert new["status"] == "playing"
    assert [(s["seat"], s["name"], s["bot"]) for s in new["seats"]] == [
        (0, "Ana", None),
        (1, "Bea", None),
        (2, "Cy", None),
        (3, "Bot 4", "random"),
    ]
    shot(bea, artifacts, "rematch-new-match-laptop")
    # The old table stays as it was: its end screen, now with the way to the rematch.
    watcher.page.goto(f"{coven_server}/r/{room.code}")
    watcher.page.wait_for_selector("[data-testid=game-over] [data-testid=rematch-follow]")
    assert httpx.get(f"{coven_server}/api/rooms/{room.code}/replay").status_code == 200
    for player in (*friends, watcher):
        assert player.errors == [], player.name
        assert player.page.evaluate("window.coven.missingKeys()") == []
        player.page.context.close()
    room.close()


def test_the_lobby_lets_anyone_start_a_rematch_and_the_host_changes_it(
    browser: Any, coven_server: str, artifacts: Path
) -> None:
    host = new_player(browser, "Hex", viewport=PHONE, locale="es")
    page = host.page
    page.goto(f"{coven_server}/?lang=es")
    page.wait_for_selector(f"[data-testid=game-list] input[value={GAME}]")
    page.check(f"[data-testid=game-list] input[value={GAME}]")
    page.check("[data-testid=rematch-by-anyone]")
    page.fill("[data-testid=host-name]", "Hex")
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/**")
    wait_until(page, "document.body.dataset.ready === '1'")
    code = page.url.split("/r/")[1].split("?")[0].split("#")[0]
    assert httpx.get(f"{coven_server}/api/rooms/{code}").json()["rematch_by"] == "anyone"
    # The waiting room: the host may change it back.
    assert page.input_value("[data-testid=rematch-by]") == "anyone"
    page.select_option("[data-testid=rematch-by]", "host")
    deadline = time.monotonic() + 5
    while httpx.get(f"{coven_server}/api/rooms/{code}").json()["rematch_by"] != "host":
        assert time.monotonic() < deadline, "the host's change did not reach the room"
        time.sleep(0.05)
    assert_fits_the_screen(host)
    shot(host, artifacts, "rematch-waiting-room-host-phone-es")
    assert host.errors == []
    assert page.evaluate("window.coven.missingKeys()") == []
    page.context.close()
