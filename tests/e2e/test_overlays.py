"""One overlay at a time on a phone (375×812, issue 21 item 3): a move's confirmation question,
the chat-and-log drawer and the rules sheet never stack. Opening one closes the others; a
question that comes while the drawer or the sheet is open closes them and is on top, answerable;
the keyboard focus goes into what is on top and comes back to the control that opened it; Escape
closes the top one. Played on a Whirling Witchcraft table whose "Done brewing" asks first.
The check the whole-match tests run at a phone player's decisions (tests/e2e/in_view.py) is
shown here to find a control covered by a floating button."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import in_view
from tests.e2e.api_rooms import HostedRoom
from tests.e2e.players import Player, new_player, shot, wait_until

pytestmark = pytest.mark.e2e

PHONE = {"width": 375, "height": 812}

DONE = "#table [data-key=done]"
QUESTION = "#table [data-testid=confirm]"
DRAWER_OPEN = "document.querySelector('[data-testid=talk]').classList.contains('open')"
RULES_OPEN = "(() => { const p = document.querySelector('[data-testid=rules-panel]');"
RULES_OPEN += " return Boolean(p && !p.hidden); })()"
QUESTION_OPEN = "Boolean(document.querySelector('#table [data-testid=confirm]'))"

# Where the keyboard focus is: the data-key / data-testid / id of the focused element and
# whether it lies inside the question, the drawer or the rules sheet.
FOCUS_JS = """() => {
  const a = document.activeElement;
  return {key: a.dataset.key || a.dataset.testid || a.id || a.tagName,
          inQuestion: Boolean(a.closest('[data-testid=confirm]')),
          inDrawer: Boolean(a.closest('[data-testid=talk]')),
          inRules: Boolean(a.closest('[data-testid=rules-panel]'))};
}"""

# The question's answers are what a tap at their centres reaches (it is on top of everything).
ON_TOP_JS = """() => [...document.querySelectorAll('#table [data-testid=confirm] button')]
  .every((b) => { const r = b.getBoundingClientRect();
                  return b.contains(document.elementFromPoint(r.left + r.width / 2,
                                                              r.top + r.height / 2)); })"""


def open_overlays(page: Any) -> list[str]:
    shown = [
        name
        for name, js in (
            ("question", QUESTION_OPEN),
            ("drawer", DRAWER_OPEN),
            ("rules", RULES_OPEN),
        )
        if page.evaluate(js)
    ]
    return shown


def focus(page: Any) -> dict[str, Any]:
    where: dict[str, Any] = page.evaluate(FOCUS_JS)
    return where


def brewing_table(url: str) -> HostedRoom:
    """A Whirling Witchcraft table (the host and three bots) played over the API until the host
    may use a recipe or be done brewing: her Done button then asks first."""
    room = HostedRoom(url, "whirling-witchcraft", options={"personalities": "initiates"})
    room.start_with_bots(3)
    rng = random.Random(21)
    for _ in range(60):
        state = room.host_to_move(30)
        kinds = {action["type"] for action in state["legal"]}
        if "done" in kinds and kinds - {"done"}:
            return room
        # study: play a recipe; brew: be done at once (the next round comes to the question)
        wanted = [a for a in state["legal"] if a["type"] != "brew"] or state["legal"]
        assert room._act({**state, "legal": wanted}, rng)
    raise AssertionError("the host never had a recipe to use while brewing")


def open_question(page: Any) -> None:
    """Open the Done question with the keyboard (a drawer or the sheet may cover the button).
    A sheet that has just opened moves the focus into itself a moment later: Enter is pressed
    once the focus is on Done and stays there."""
    on_done = f"document.activeElement === document.querySelector('{DONE}')"
    for _ in range(30):
        page.focus(DONE)
        page.wait_for_timeout(100)
        if page.evaluate(on_done):
            break
    page.keyboard.press("Enter")
    page.wait_for_selector(QUESTION)


def test_one_overlay_at_a_time_on_a_phone(browser: Any, coven_server: str, artifacts: Path) -> None:
    room = brewing_table(coven_server)
    player: Player = new_player(
        browser, "Ana", locale="en-US", viewport=PHONE, is_mobile=True, has_touch=True
    )
    page = player.page
    page.goto(room.page_url("en"))
    page.wait_for_selector(f"{DONE}:not([disabled])")
    page.wait_for_selector("[data-testid=rules-open]:not([hidden])")
    assert in_view.assert_controls_hit(page)  # the chat button covers nothing now

    # The rules sheet: focus into it; the drawer opened over it closes it.
    page.tap("[data-testid=rules-open]")
    page.wait_for_selector("[data-testid=rules-body][data-ready='1']")
    wait_until(page, RULES_OPEN)
    assert focus(page)["inRules"]
    page.tap("[data-testid=talk-open]")
    wait_until(page, DRAWER_OPEN)
    assert open_overlays(page) == ["drawer"]
    assert focus(page)["key"] == "talk-close"

    # A question that comes while the drawer is open closes it and is on top, focus on "no".
    open_question(page)
    assert open_overlays(page) == ["question"]
    where = focus(page)
    assert where["inQuestion"] and where["key"] == "done-no", where
    assert page.evaluate(ON_TOP_JS)
    assert in_view.assert_controls_hit(page)
    shot(player, artifacts, "overlay-question-phone", full_page=False)
    # Escape closes it; the focus is back on the Done button.
    page.keyboard.press("Escape")
    page.wait_for_selector(QUESTION, state="detached")
    assert open_overlays(page) == []
    assert focus(page)["key"] == "done"

    # The drawer opened while the question is open closes the question (nothing is sent);
    # Escape closes the drawer and the focus is back on its button.
    open_question(page)
    page.tap("[data-testid=talk-open]")
    wait_until(page, DRAWER_OPEN)
    assert open_overlays(page) == ["drawer"]
    assert focus(page)["inDrawer"]
    assert page.locator(f"{DONE}:not([disabled])").count() == 1, "nothing was sent"
    shot(player, artifacts, "overlay-drawer-phone", full_page=False)
    page.keyboard.press("Escape")
    wait_until(page, f"!{DRAWER_OPEN}")
    assert open_overlays(page) == []
    assert focus(page)["key"] == "talk-open"

    # The rules sheet opened over the question closes it; Escape closes the sheet, the focus
    # is back on the Rules button.
    open_question(page)
    page.tap("[data-testid=rules-open]")
    wait_until(page, RULES_OPEN)
    assert open_overlays(page) == ["rules"]
    shot(player, artifacts, "overlay-rules-phone", full_page=False)
    page.keyboard.press("Escape")
    wait_until(page, f"!{RULES_OPEN}")
    assert focus(page)["key"] == "rules-open"

    # A question that comes while the sheet is open closes it; its "no" gives the focus back
    # to Done; then the answer yes goes through: the match does not stall.
    page.tap("[data-testid=rules-open]")
    wait_until(page, RULES_OPEN)
    open_question(page)
    assert open_overlays(page) == ["question"]
    assert focus(page)["key"] == "done-no"
    page.tap("#table [data-key=done-no]")
    page.wait_for_selector(QUESTION, state="detached")
    assert focus(page)["key"] == "done"
    open_question(page)
    version = int(page.get_attribute("#table > [data-version]", "data-version") or 0)
    page.tap("#table [data-key=done-yes]")
    wait_until(
        page, f"+document.querySelector('#table > [data-version]').dataset.version > {version}"
    )
    assert open_overlays(page) == []
    assert player.errors == [], player.errors
    page.context.close()
    room.close()


def test_the_covering_check_finds_a_floating_button(browser: Any, coven_server: str) -> None:
    """in_view.assert_controls_hit fails when something that is not a sticky bar or an open
    dialog lies over a control (as the floating chat button lay over the Seats fold arrow)."""
    room = HostedRoom(coven_server, "witchs-brew")
    room.start_with_bots(2)
    player = new_player(
        browser, "Ana", locale="en-US", viewport=PHONE, is_mobile=True, has_touch=True
    )
    page = player.page
    page.goto(room.page_url("en"))
    page.wait_for_selector("#table [data-action=keep]:not([disabled])")
    assert in_view.assert_controls_hit(page)
    page.evaluate(
        """() => {
      const target = document.querySelector('#table [data-action=keep]');
      target.scrollIntoView({block: 'center'});
      const r = target.getBoundingClientRect();
      const cover = document.createElement('button');
      cover.textContent = 'float';
      Object.assign(cover.style, {position: 'fixed', zIndex: 24, left: `${r.left}px`,
        top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px`});
      document.body.append(cover);
    }"""
    )
    with pytest.raises(AssertionError, match="is under button"):
        in_view.assert_controls_hit(page)
    page.context.close()
    room.close()
