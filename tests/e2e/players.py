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


STICKING_OUT_JS = """
(ignored) => {
  for (const animation of document.getAnimations()) {
    const timing = animation.effect && animation.effect.getComputedTiming();
    if (timing && timing.endTime !== Infinity) animation.finish();
  }
  const width = document.documentElement.clientWidth;
  // (what a row that scrolls sideways holds past the edge is reached by scrolling that row)
  const inScroller = (e) => {
    for (let up = e.parentElement; up && up !== document.body; up = up.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(up).overflowX)) return true;
    }
    return false;
  };
  return [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > width + 1)
    .filter((e) => !(ignored && e.closest(ignored)) && !inScroller(e))
    .slice(0, 5)
    .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
}
"""


def assert_fits_the_screen(player: Player, ignored: str | None = None) -> None:
    """Nothing sticks out sideways (a phone-sized screen): finite animations finished first,
    running ones (a thinking pulse) left; ``ignored``: a selector of what may fly past the edge
    (a passing cauldron)."""
    assert player.page.evaluate(STICKING_OUT_JS, ignored) == []


def shot(player: Player, artifacts: Path, name: str, *, full_page: bool = True) -> None:
    player.page.evaluate("window.scrollTo(0, 0)")
    # Let running transitions (the reveal, the cauldron flight, the end fade-in) finish, so the
    # picture shows what a player sees once the table is still.
    player.page.evaluate(FINITE_ANIMATIONS_DONE)
    player.page.screenshot(path=str(artifacts / f"{name}.png"), full_page=full_page)


AIM_JS = """
(center) => {
  const target = document.querySelector('[data-e2e=pick]');
  if (!target || target.disabled) return null;
  target.scrollIntoView({block: center ? 'center' : 'nearest', inline: 'nearest',
                         behavior: 'instant'});
  const box = target.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  if (!box.width || !box.height || !hit || !target.contains(hit)) return null;
  if (!window.e2eAim) {
    // One capture listener per page, like the browser's own hit-target check: a press that
    // does not land on the aimed control (a redraw moved it) is swallowed, never delivered.
    const guard = (event) => {
      const aim = window.e2eAim;
      if (!aim.target) return;
      if (event.type === 'pointerdown') {
        aim.hit = aim.target.isConnected && aim.target.contains(event.target);
      }
      if (!aim.hit) { event.stopImmediatePropagation(); event.preventDefault(); }
      if (event.type === 'click') aim.target = null;
    };
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
      window.addEventListener(type, guard, true);
    }
  }
  window.e2eAim = {target, hit: false};
  return [x, y];
}
"""


def click_pick(player: Player) -> bool:
    """Click the control a test marked ``data-e2e="pick"`` with the mouse, as a player would:
    scrolled into view, not covered, and the press delivered only if it lands on that control.
    False at once when the table was redrawn meanwhile (another seat moved: the marked control
    is gone or moved), so the caller looks again. (Playwright's own click waits for a control
    to stay still over several animation frames: 90-130 ms a click on these tables, most of a
    whole match's time.)"""
    page = player.page
    point = page.evaluate(AIM_JS, False) or page.evaluate(AIM_JS, True)
    if point is None:
        return False
    page.mouse.click(point[0], point[1])
    return bool(page.evaluate("window.e2eAim.hit"))


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
