"""Nobody can stall the table (issue 13, item 2), in Chromium against `coven serve`: when the
lobby's turn clock runs out a bot plays the stalled seat's move (the seat stays its player's),
a background tab is told its turn came (title and notification), and before the start the host
removes a bot and a player leaves.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

GAME = "whirling-witchcraft"  # two players owe a decision at once from the first step

# A tab in the background, whose player allowed notifications: every notification is kept.
HIDDEN_TAB_JS = """
Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' });
Object.defineProperty(document, 'hidden', { get: () => true });
window.__notes = [];
window.Notification = class {
  static permission = 'granted';
  static requestPermission() { return Promise.resolve('granted'); }
  constructor(title, options) { window.__notes.push({ title, tag: options && options.tag }); }
  close() {}
};
"""

# Marks a control that sends one of the legal actions (not one that only selects a card).
MARK_A_MOVE_JS = """
(() => {
  const legal = new Set(((window.coven.page.state || {}).legal || []).map((a) => a.type));
  const move = [...document.querySelectorAll('#table [data-action]')].find(
    (e) => legal.has(e.dataset.action) && !e.disabled && e.offsetParent !== null);
  if (move) move.dataset.e2e = 'move';
  return Boolean(move);
})()
"""


def wait_until(page: Any, expression: str, seconds: float = 15) -> None:
    """Poll a JavaScript expression (the page's CSP forbids ``wait_for_function``'s string
    evaluation)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"{expression} never became true"
        time.sleep(0.05)


def new_page(browser: Any, errors: list[str], init: str | None = None) -> Any:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    if init:
        context.add_init_script(init)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def open_from_lobby(page: Any, url: str, name: str) -> None:
    page.goto(f"{url}/")
    page.wait_for_selector(f"[data-testid=game-list] input[value={GAME}]")
    page.check(f"[data-testid=game-list] input[value={GAME}]")
    page.fill("[data-testid=host-name]", name)
    page.check("[data-testid=seat-count-2]")


def created_room(page: Any) -> str:
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/*")
    wait_until(page, "document.body.dataset.ready === '1'")
    code: str = page.url.rsplit("/", 1)[1].split("#")[0]
    return code


def join(page: Any, url: str, code: str, name: str, seat: int) -> None:
    page.goto(f"{url}/r/{code}")
    page.fill("[data-testid=join-name]", name)
    page.click("[data-testid=join-button]")
    page.wait_for_selector(f"[data-testid=seat-{seat}] >> text={name}")


def test_the_lobbys_turn_clock_lets_a_bot_play_a_stalled_seats_move(
    browser: Any, coven_server: str
) -> None:
    errors: list[str] = []
    host = new_page(browser, errors)
    guest = new_page(browser, errors)
    open_from_lobby(host, coven_server, "Ada")
    for seconds in (0, 30, 60, 120, 300, 43200, 86400, 259200):
        host.wait_for_selector(f"[data-testid=turn-clock-{seconds}]")
    # The lobby's shortest clock is 30 s; the test makes that choice send 2 s (the API takes
    # any positive clock), so the clock runs out within the test.
    host.evaluate("document.querySelector('[data-testid=turn-clock-30]').value = '2'")
    host.check("[data-testid=turn-clock-30]")
    code = created_room(host)
    room = httpx.get(f"{coven_server}/api/rooms/{code}").json()
    assert room["turn_seconds"] == 2 and room["seat_count"] == 2
    # The room page says what was chosen, in the lobby's words.
    options = host.inner_text("[data-testid=room-options]")
    assert "Turn clock: 2 s per move" in options
    assert "Personalities" in options or "personalities" in options
    join(guest, coven_server, code, "Bea", 1)
    host.click("[data-testid=start]")
    guest.wait_for_selector("#table .ww")
    # Each stalled seat's clock counts down on the table.
    host.wait_for_selector("[data-testid=my-board] [data-testid=clock-0]")
    host.wait_for_selector("[data-testid=board-1] [data-testid=clock-1]")
    # Nobody moves: once a seat's clock runs out a bot plays its move; the seat stays its
    # player's (the lobby's default rule).
    deadline = time.monotonic() + 20
    while httpx.get(f"{coven_server}/api/rooms/{code}/log").json()["version"] < 1:
        assert time.monotonic() < deadline, "the turn clock never let a bot play the move"
        time.sleep(0.2)
    seats = httpx.get(f"{coven_server}/api/rooms/{code}").json()["seats"]
    assert [s["away"] for s in seats] == [False, False]
    assert host.locator("[data-testid=seats] .badge.away").count() == 0
    assert host.evaluate("window.coven.missingKeys()") == []
    assert errors == []
    host.context.close()
    guest.context.close()


def test_a_background_tab_is_told_its_turn_came(browser: Any, coven_server: str) -> None:
    errors: list[str] = []
    host = new_page(browser, errors)
    guest = new_page(browser, errors, HIDDEN_TAB_JS)
    open_from_lobby(host, coven_server, "Ada")
    code = created_room(host)
    join(guest, coven_server, code, "Bea", 1)
    assert guest.evaluate("document.hidden") is True
    before = guest.title()
    assert not before.startswith("●")
    guest.wait_for_selector("[data-testid=turn-sound]")
    assert not guest.is_checked("[data-testid=turn-sound]"), "the sound is off by default"
    host.click("[data-testid=start]")
    # Both witches choose at once from the first step: Bea's hidden tab hears of it.
    wait_until(guest, "document.title.startsWith('● Your turn')")
    assert guest.title().endswith(before)
    wait_until(guest, "window.__notes.length === 1")
    assert guest.evaluate("window.__notes[0].title") == "Your turn"
    # The host's tab is in front: her title changes too, but no notification is made.
    wait_until(host, "document.title.startsWith('●')")
    # Bea acts: the title goes back.
    # (Whirling Witchcraft: pick a card, then play it.)
    guest.click("#table [data-action=select-card]")
    wait_until(guest, MARK_A_MOVE_JS)
    guest.click("[data-e2e=move]")
    wait_until(guest, "!document.title.startsWith('●')")
    assert errors == []
    host.context.close()
    guest.context.close()


def test_before_the_start_the_host_removes_a_bot_moves_a_seat_and_a_player_leaves(
    browser: Any, coven_server: str
) -> None:
    errors: list[str] = []
    host = new_page(browser, errors)
    guest = new_page(browser, errors)
    host.goto(f"{coven_server}/")
    host.wait_for_selector(f"[data-testid=game-list] input[value={GAME}]")
    host.fill("[data-testid=host-name]", "Ada")
    code = created_room(host)
    host.click("[data-testid=add-bot]")
    host.wait_for_selector("[data-testid=remove-seat-1]")
    join(guest, coven_server, code, "Bea", 2)
    # A second bot takes seat 3: its "remove" and "↑" sit on its line, beside its name.
    host.click("[data-testid=add-bot]")
    host.wait_for_selector("[data-testid=move-up-3]")
    lines = host.eval_on_selector(
        "[data-testid=seat-3]",
        """(seat) => [seat.querySelector('.seat-name'), ...seat.querySelectorAll('.btn')]
             .map((e) => Math.round(e.getBoundingClientRect().top + e.offsetHeight / 2))""",
    )
    assert len(lines) == 3 and max(lines) - min(lines) <= 4, lines
    host.click("[data-testid=remove-seat-3]")
    host.wait_for_selector("[data-testid=seat-3]", state="detached")
    host.click("[data-testid=remove-seat-1]")
    # Everyone's room view updates at once; the bot's seat is free again.
    guest.wait_for_selector("[data-testid=seat-1]", state="detached")
    host.wait_for_selector("[data-testid=seat-1]", state="detached")
    seats = httpx.get(f"{coven_server}/api/rooms/{code}").json()["seats"]
    assert [(s["seat"], s["name"]) for s in seats] == [(0, "Ada"), (2, "Bea")]
    # Bea is here: the host is not offered to remove her. He moves her up a seat instead,
    # and her page follows: "you" is on seat 1 now, and so is her stored seat.
    assert host.query_selector("[data-testid=remove-seat-2]") is None
    host.click("[data-testid=move-up-2]")
    guest.wait_for_selector("[data-testid=seat-1] .badge.you")
    assert guest.evaluate(f"JSON.parse(localStorage.getItem('coven:seat:{code}')).seat") == 1
    # She leaves herself.
    guest.click("[data-testid=leave-seat]")
    host.wait_for_selector("[data-testid=seat-1]", state="detached")
    guest.wait_for_selector("[data-testid=join-button]")
    seats = httpx.get(f"{coven_server}/api/rooms/{code}").json()["seats"]
    assert [s["seat"] for s in seats] == [0]
    assert guest.evaluate(f"localStorage.getItem('coven:seat:{code}')") is None
    assert errors == []
    host.context.close()
    guest.context.close()
