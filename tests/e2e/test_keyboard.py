"""A whole match of each game played with the keyboard alone, with reduced motion asked for
(issue 21, item 4).

One person at a laptop (1366×900) and bots. At each of her decisions the test chooses a control
as the whole-match tests do (their ``PICK_JS``, ``MARK_JS`` and ``choose``: only controls the
table drew from ``legal``), then moves the focus to it with Tab or Shift+Tab alone — failing if
it is not reached within ``MAX_PRESSES`` — and presses Enter. No mouse, no click, no ``focus()``.
Her browser asks for reduced motion: before each decision no CSS animation or transition runs
and no script-driven one either (``document.getAnimations()``). The table's live region tells
her each new event and that her turn came.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import test_brew as brew
from tests.e2e import test_seasons as seasons
from tests.e2e import test_table as ww
from tests.e2e.a11y import LiveRegion
from tests.e2e.api_rooms import HostedRoom
from tests.e2e.players import Player, new_player, shot

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1366, "height": 900}
MAX_PRESSES = 250  # Tab presses to reach one control (a full hand and board, both ways)
MATCH_SECONDS = 600


def _ww(info: dict[str, Any], rng: random.Random) -> int:
    return ww.choose(info["kinds"], info["chooser"], rng)


def _brew(info: dict[str, Any], rng: random.Random) -> int:
    return brew.choose(info["kinds"], info["roles"], info["chooser"], rng)


def _seasons(info: dict[str, Any], rng: random.Random) -> int:
    return seasons.choose(info["kinds"], info["chooser"], rng)


Chooser = Callable[[dict[str, Any], random.Random], int]
# game: (seats, options, the whole-match test's page scripts, its choice)
GAMES: dict[str, tuple[int, dict[str, Any], str, str, Chooser]] = {
    "whirling-witchcraft": (2, {}, ww.PICK_JS, ww.MARK_JS, _ww),
    "witchs-brew": (3, {}, brew.PICK_JS, brew.MARK_JS, _brew),
    "seasons": (2, {"level": "apprentice"}, seasons.PICK_JS, seasons.MARK_JS, _seasons),
}

# Which way the focus must go to reach the marked control, or why not.
TOWARDS_JS = """
() => {
  const target = document.querySelector('[data-e2e=pick]');
  if (!target || target.disabled || target.offsetParent === null) return 'gone';
  const active = document.activeElement;
  if (active === target) return 'here';
  if (!active || active === document.body) return 'Tab';
  return active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING
    ? 'Tab' : 'Shift+Tab';
}
"""

MOVING_JS = """
() => document.getAnimations()
  .filter((a) => a.playState === 'running')
  .map((a) => `${a.constructor.name} ${a.animationName || a.transitionProperty || ''} on `
    + `${a.effect && a.effect.target ? a.effect.target.className : '?'}`)
"""


def press_towards_pick(player: Player) -> tuple[bool, int]:
    """Tab (or Shift+Tab) until the marked control has the focus, then Enter: (pressed, how
    many Tab presses). Not pressed when a redraw took the control away (another seat moved)."""
    page = player.page
    for presses in range(MAX_PRESSES):
        way: str = page.evaluate(TOWARDS_JS)
        if way == "gone":
            return False, presses
        if way == "here":
            page.keyboard.press("Enter")
            return True, presses
        page.keyboard.press(way)
    label = page.evaluate(
        "(() => { const t = document.querySelector('[data-e2e=pick]'); const a ="
        " document.activeElement; return [t && t.outerHTML.slice(0, 160),"
        " a && a.outerHTML.slice(0, 160)]; })()"
    )
    raise AssertionError(f"not reached by Tab in {MAX_PRESSES} presses: {label}")


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_match_with_the_keyboard_alone(
    browser: Any, coven_server: str, artifacts: Path, game: str
) -> None:
    seats, options, pick_js, mark_js, choose = GAMES[game]
    rng = random.Random(21)
    room = HostedRoom(coven_server, game, seats=seats, options=options, name="Ana")
    room.start_with_bots(seats - 1)
    ana = new_player(browser, "Ana", locale="en-US", viewport=LAPTOP, reduced_motion="reduce")
    page = ana.page
    page.goto(room.page_url("en"))
    page.wait_for_selector("#table > div[data-version]")
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")

    deadline = time.monotonic() + MATCH_SECONDS
    moves, presses, kinds = 0, 0, set()
    live, turns_told = LiveRegion(), 0
    while True:
        assert time.monotonic() < deadline, f"the match did not end ({moves} moves)"
        info: dict[str, Any] = page.evaluate(pick_js)
        if info["state"] == "over":
            break
        if info["state"] != "move":
            page.wait_for_timeout(20)
            continue
        # What a screen reader hears: each new event, and that her turn came.
        live.check(page)
        turns_told += "Your turn" in (page.text_content("[data-testid=table-live]") or "")
        # Reduced motion: nothing on the page moves by itself.
        assert page.evaluate(MOVING_JS) == [], "motion despite prefers-reduced-motion"
        index = choose(info, rng)
        if not page.evaluate(mark_js, [index, info["chooser"]]):
            continue
        pressed, count = press_towards_pick(ana)
        presses += count
        if pressed:
            moves += 1
            kinds.add(info["kinds"][index])
            if moves == 12:
                shot(ana, artifacts, f"keyboard-{game}", full_page=False)
    page.wait_for_selector("[data-testid=win-reason]")
    assert page.evaluate(MOVING_JS) == [], "motion despite prefers-reduced-motion"
    print(f"{game}: {moves} moves by keyboard, {presses} Tab presses, kinds {sorted(kinds)}")
    assert moves >= 5, moves
    assert live.changes and turns_told, (live.changes, turns_told)
    assert ana.errors == [], ana.errors
    page.context.close()
    room.close()
