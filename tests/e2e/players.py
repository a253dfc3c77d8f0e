"""The people of the browser tests: one Chromium context each, its console watched, and the
helpers every game's browser test shares (polling under the page CSP, screenshots)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def wait_until(page: Any, expression: str, seconds: float = 10) -> None:
    """Poll a JavaScript expression until it is true (the page's CSP forbids the string
    evaluation ``wait_for_function`` relies on)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"{expression} never became true"
        time.sleep(0.05)


@dataclass
class Player:
    name: str
    page: Any
    errors: list[str] = field(default_factory=list)

    def watch_console(self) -> None:
        def on_console(message: Any) -> None:
            if message.type == "error":
                self.errors.append(f"console: {message.text}")

        self.page.on("console", on_console)
        self.page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))


def new_player(browser: Any, name: str, **context: Any) -> Player:
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    player = Player(name, page)
    player.watch_console()
    return player


FINITE_ANIMATIONS_DONE = """() => Promise.race([
  Promise.all(document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
    .map((a) => a.finished.catch(() => null))),
  new Promise((done) => setTimeout(done, 3000)),
])"""


def shot(player: Player, artifacts: Path, name: str, *, full_page: bool = True) -> None:
    player.page.evaluate("window.scrollTo(0, 0)")
    # Let running transitions (the reveal, the cauldron flight, the end fade-in) finish, so the
    # picture shows what a player sees once the table is still.
    player.page.evaluate(FINITE_ANIMATIONS_DONE)
    player.page.screenshot(path=str(artifacts / f"{name}.png"), full_page=full_page)


def click_pick(player: Player, seconds: float = 3) -> bool:
    """Click the control a test marked ``data-e2e="pick"``, as a player's mouse would (the
    browser waits until it is visible, still and not covered). False at once when the table
    was redrawn meanwhile (another seat moved: the marked control is gone), so the caller looks
    again instead of waiting out the timeout on a control that no longer exists."""
    from playwright.sync_api import Error as PlaywrightError  # (conftest skips without it)

    element = player.page.query_selector("[data-e2e=pick]")
    if element is None:
        return False
    try:
        element.click(timeout=seconds * 1000)
    except PlaywrightError:  # detached by a redraw, or still covered after `seconds`
        return False
    return True


DETAIL = "[data-testid=card-detail]"


def pinned_detail(player: Player, selector: str, artifacts: Path, name: str) -> str:
    """Tap the first `selector` (a card, not its button) and return the full text the shared
    detail panel pins beside it; the picture is taken with the panel open, without scrolling
    (the panel is placed in the viewport where the card was). The table may redraw meanwhile:
    a pinned panel stays."""
    page = player.page
    target = page.locator(selector).first
    if page.evaluate("navigator.maxTouchPoints > 0"):
        target.tap()
    else:
        target.click()
    page.wait_for_selector(f"{DETAIL}.pinned:not([hidden])")
    text: str = page.inner_text(DETAIL)
    page.evaluate(FINITE_ANIMATIONS_DONE)
    page.screenshot(path=str(artifacts / f"{name}.png"))
    return text


def close_detail(player: Player) -> None:
    """Close a pinned panel with its own button and move the pointer off every card, so the
    panel neither covers a move control nor shows again."""
    page = player.page
    page.click(f"{DETAIL} .detail-close")
    page.mouse.move(1, 1)
    page.wait_for_selector(DETAIL, state="hidden")
