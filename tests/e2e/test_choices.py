"""Choices that feel like a game, not a form (Whirling Witchcraft in Chromium).

The host plays in the browser; her one opponent is a seat the test drives through the HTTP API,
so the test decides when the opponent answers (and so when the host is left waiting). Round
after round the host plays her most raven-heavy recipe, until she has seen every situation:

- picking a card in the hand moves nothing else on the page; a chooser opens over the page;
- the chosen recipe stays in sight, as "your choice", while the other witch still chooses;
- the Raven's cubes are picked by clicking them on the workbench, and the server accepts it;
- a recipe with one way to use it is used in one click, with no chooser;
- "done" while something is still usable asks once, in the page; "no" sends nothing;
- a slot that takes any of several cubes says so in visible text.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.players import FINITE_ANIMATIONS_DONE, Player, new_player, shot, wait_until

pytestmark = pytest.mark.e2e

GAME = "whirling-witchcraft"
SECONDS = 150

# The box of every element of the table in page coordinates (a scroll that brings an opened
# chooser into view is not a jump) that is not inside `inside` (the thing being selected or
# opened) and drawn at all, rounded to the pixel, keyed by its place among them (an element inserted
# above the others shifts every key after it, so it shows as a change too).
BOXES_JS = """
(inside) => {
  for (const animation of document.getAnimations()) animation.finish();
  const skip = inside ? [...document.querySelectorAll(inside)] : [];
  const out = {};
  const kept = [...document.querySelectorAll('#table .ww *')]
    .filter((e) => e.getClientRects().length && !skip.some((s) => s.contains(e)));
  kept.forEach((e, i) => {
    const r = e.getBoundingClientRect();
    const box = [r.x + scrollX, r.y + scrollY, r.width, r.height];
    out[`${i}:${e.tagName}`] = box.map(Math.round).join(',');
  });
  return out;
}
"""

TABLE = "#table .ww"
READY = '#table .ww[data-pending="0"][data-my-turn="1"]'
# The host may move now, or owes nothing (the other witch does).
SETTLED_JS = f"document.querySelector('{READY}') || !(window.coven.page.state || {{}}).legal.length"
MY_BOARD = "#table [data-testid=my-board]"
RAVEN_PICKING = f"{MY_BOARD} [data-action=pick-cube], [data-testid=raven-picked]"


def stage_of(state: dict[str, Any]) -> tuple[int, str]:
    return (int(state["view"]["round"]), str(state["view"]["phase"]))


class ApiSeat:
    """A seat played through the HTTP API, one move when the test says so."""

    def __init__(self, url: str, code: str, token: str) -> None:
        self.url, self.code = url, code
        self.headers = {"Authorization": f"Bearer {token}"}
        self.sent = 0

    def state(self) -> dict[str, Any]:
        answer = httpx.get(f"{self.url}/api/rooms/{self.code}/state", headers=self.headers)
        answer.raise_for_status()
        state: dict[str, Any] = answer.json()
        return state

    def move(self, rng: random.Random, stage: tuple[int, str] | None = None) -> bool:
        """One legal move (a quick one: let triggers pass, finish brewing); False if none, or
        if the match is no longer at `stage` (round, phase)."""
        state = self.state()
        legal: list[dict[str, Any]] = state["legal"]
        if not legal or state.get("result") or (stage and stage != stage_of(state)):
            return False
        for kind in ("decline", "done", "play", "skip", "keep_personality", "gain"):
            options = [a for a in legal if a["type"] == kind]
            if options:
                break
        else:
            options = legal
        self.sent += 1
        body = {
            "action": rng.choice(options),
            "client_id": f"api-{self.sent}",
            "version": state["version"],
        }
        answer = httpx.post(
            f"{self.url}/api/rooms/{self.code}/actions", json=body, headers=self.headers
        )
        answer.raise_for_status()
        return True

    def finish_step(self, rng: random.Random) -> None:
        """Move until this seat owes nothing more in the current phase."""
        stage = stage_of(self.state())
        for _ in range(30):
            if not self.move(rng, stage):
                return
        raise AssertionError("the API seat never finished its step")


def open_match(browser: Any, url: str) -> tuple[Player, ApiSeat, list[str]]:
    created = httpx.post(
        f"{url}/api/rooms",
        json={"game": GAME, "visibility": "private", "name": "Morgana", "seats": 2},
    ).json()
    code, host_token = created["room"]["code"], created["token"]
    joined = httpx.post(f"{url}/api/rooms/{code}/join", json={"name": "Circe"}).json()
    friend = ApiSeat(url, code, joined["token"])
    host = new_player(browser, "Morgana", locale="en-US", viewport={"width": 1280, "height": 900})
    acts: list[str] = []

    def on_socket(socket: Any) -> None:
        socket.on(
            "framesent",
            lambda payload: acts.append(str(payload)) if '"act"' in str(payload) else None,
        )

    host.page.on("websocket", on_socket)
    host.page.goto(f"{url}/r/{code}#seat=0&token={host_token}")
    host.page.wait_for_selector("[data-testid=start]")
    host.page.click("[data-testid=start]")
    host.page.wait_for_selector(TABLE)
    return host, friend, acts


def shot_at(player: Player, selector: str, artifacts: Path, name: str) -> None:
    """A picture of the viewport with `selector` in the middle of it."""
    player.page.locator(selector).first.evaluate("(e) => e.scrollIntoView({block: 'center'})")
    player.page.evaluate(FINITE_ANIMATIONS_DONE)
    player.page.screenshot(path=str(artifacts / f"{name}.png"))


def boxes(player: Player, inside: str | None = None) -> dict[str, str]:
    result: dict[str, str] = player.page.evaluate(BOXES_JS, inside)
    return result


def assert_same_boxes(before: dict[str, str], after: dict[str, str], what: str) -> None:
    moved = {k: (before[k], after.get(k)) for k in before if after.get(k) != before[k]}
    assert not moved, f"{what} moved other elements: {list(moved.items())[:5]}"


def my_state(player: Player) -> dict[str, Any]:
    state: dict[str, Any] = player.page.evaluate("window.coven.page.state")
    return state


def ravens_on(card: str, catalog: dict[str, Any]) -> int:
    recipe = catalog["recipes"].get(card)
    return int(recipe["arcana"].get("raven", 0)) if recipe else 0


def choices_on(card: str, catalog: dict[str, Any]) -> int:
    recipe = catalog["recipes"].get(card)
    return len(recipe["front"]["in_choice"]) + len(recipe["front"]["out_choice"]) if recipe else 0


def test_choices_feel_like_a_game(browser: Any, coven_server: str, artifacts: Path) -> None:
    rng = random.Random(13)
    catalog = httpx.get(f"{coven_server}/api/games/{GAME}/catalog").json()
    host, friend, acts = open_match(browser, coven_server)
    page = host.page
    seen: set[str] = set()
    deadline = time.monotonic() + SECONDS

    def study() -> None:
        cards = page.eval_on_selector_all(
            "#table [data-action=select-card]", "(cards) => cards.map((c) => c.dataset.card)"
        )
        # A raven-heavy recipe brings the Raven soon; then one with a choice slot brings choosers.
        best = max(cards, key=lambda c: (ravens_on(c, catalog), choices_on(c, catalog)))
        if "raven" in seen:
            best = max(cards, key=lambda c: choices_on(c, catalog))
        card = f"#table [data-action=select-card][data-card='{best}']"
        if "select" not in seen:
            before = boxes(host, card)
            page.click(card)
            page.wait_for_selector("#table [data-action=play]")
            assert page.get_attribute(card, "aria-pressed") == "true"
            assert_same_boxes(before, boxes(host, card), "picking a card")
            page.mouse.move(1, 1)  # no hover panel over the picture
            shot(host, artifacts, "choice-selected", full_page=False)
            seen.add("select")
        else:
            page.click(card)
        page.click("#table [data-action=play]")
        # The friend has not chosen: the host waits, her recipe in sight as her choice.
        page.wait_for_selector(f"[data-testid=your-choice] [data-card='{best}']")
        assert "Your choice" in page.inner_text("[data-testid=your-choice]")
        if "waiting" not in seen:
            shot(host, artifacts, "choice-waiting")
            seen.add("waiting")
        friend.finish_step(rng)

    def raven() -> None:
        cubes = page.locator(f"{MY_BOARD} [data-action=pick-cube]")
        before = my_state(host)["view"]["players"][0]["production"]["workbench"]
        count = min(2, cubes.count())
        picks = [cubes.nth(i) for i in range(count)]
        kinds = [p.get_attribute("data-ingredient") for p in picks]
        for i, cube in enumerate(picks):
            # Picking a cube moves nothing else (the cubes and the list of picked ones aside).
            before_pick = boxes(host, RAVEN_PICKING)
            # The keyboard works as well as the mouse: the first cube is picked with Enter.
            if i == 0:
                cube.focus()
                page.keyboard.press("Enter")
            else:
                cube.click()
            assert_same_boxes(before_pick, boxes(host, RAVEN_PICKING), "picking a cube")
        chosen = page.locator(f"{MY_BOARD} [data-action=pick-cube][aria-pressed=true]")
        assert chosen.count() == count
        assert page.locator("[data-testid=raven-picked] .cube").count() == count
        shot_at(host, "[data-testid=my-board] .workbench", artifacts, "choice-raven")
        page.click("#table [data-testid=arcana-raven] [data-action=raven]")
        wait_until(page, "!document.querySelector('#table [data-testid=arcana-raven]')")
        after = my_state(host)["view"]["players"][0]["production"]["workbench"]
        for kind in set(kinds):
            assert after[kind] == before[kind] - kinds.count(kind), (before, after, kinds)
        seen.add("raven")

    def use_recipe() -> bool:
        one = page.locator(f"{MY_BOARD} [data-action=use-recipe][data-ways='1']")
        many = page.locator(f"{MY_BOARD} [data-action=use-recipe]:not([data-ways='1'])")
        if "one-way" not in seen and one.count():
            recipe = one.first.get_attribute("data-recipe")
            version, sent = my_state(host)["version"], len(acts)
            one.first.click()
            assert page.locator("#table .chooser").count() == 0, "a one-way recipe needs no chooser"
            wait_until(page, f"(window.coven.page.state || {{}}).version > {version}")
            assert len(acts) == sent + 1 and '"brew"' in acts[-1], acts[sent:]
            used = my_state(host)["view"]["players"][0]["production"]["used"]
            assert recipe in used, (recipe, used)
            seen.add("one-way")
            return True
        if "chooser" not in seen and many.count():
            button = f"{MY_BOARD} [data-action=use-recipe]:not([data-ways='1'])"
            before = boxes(host)
            page.locator(button).first.click()
            page.wait_for_selector("#table .chooser")
            assert_same_boxes(before, boxes(host, "#table .chooser-anchor"), "opening a chooser")
            shot(host, artifacts, "choice-chooser", full_page=False)
            page.locator("#table .chooser [data-action]").first.click()
            seen.add("chooser")
            return True
        if "chooser" not in seen and one.count():
            # Its outputs may be the inputs of another recipe: a second way to use that one.
            one.first.click()
            return True
        return False

    def done() -> None:
        button = "#table [data-action=done]:not([data-role])"
        legal = my_state(host)["legal"]
        if "confirm" not in seen and any(a["type"] != "done" for a in legal):
            sent = len(acts)
            before = boxes(host)
            page.click(button)
            page.wait_for_selector("[data-testid=confirm]")
            assert page.locator("[data-testid=confirm]").count() == 1
            assert_same_boxes(before, boxes(host, "[data-testid=confirm]"), "the question")
            shot(host, artifacts, "choice-confirm", full_page=False)
            page.click("[data-testid=confirm] [data-role=cancel]")
            page.wait_for_selector("[data-testid=confirm]", state="detached")
            page.wait_for_timeout(300)
            assert len(acts) == sent, "cancelling the question sent a move"
            assert any(a["type"] == "done" for a in my_state(host)["legal"])
            page.click(button)
            page.click("[data-testid=confirm] [data-role=confirm-yes]")
            seen.add("confirm")
        elif page.locator(button).count():
            page.click(button)
            if page.locator("[data-testid=confirm]").count():
                page.click("[data-testid=confirm] [data-role=confirm-yes]")
        # Her production stays in sight while the other witch brews.
        page.wait_for_selector("[data-testid=your-choice]")
        if "production" not in seen:
            shot_at(host, "[data-testid=your-choice]", artifacts, "choice-production")
            seen.add("production")
        friend.finish_step(rng)

    def any_slots() -> None:
        slots = page.locator("#table .one-of")
        for i in range(slots.count()):
            text = slots.nth(i).inner_text().strip()
            assert text, "a slot of several kinds must say so in text"
            assert "/" in text or "any" in text, text
            seen.add("any-slot")

    matches = 1
    while not {"select", "waiting", "raven", "one-way", "chooser", "confirm", "any-slot"} <= seen:
        assert time.monotonic() < deadline, f"situations not reached in {matches} matches: {seen}"
        if page.locator("[data-testid=game-over]").count():
            # The deal decides which situations come up: a match that ended before all of them
            # did is followed by another one, and the study goes on there.
            assert host.errors == [], host.errors
            page.context.close()
            host, friend, acts = open_match(browser, coven_server)
            page = host.page
            matches += 1
            continue
        wait_until(page, SETTLED_JS)
        if not my_state(host)["legal"]:
            friend.finish_step(rng)
            continue
        any_slots()
        phase = page.get_attribute(TABLE, "data-phase")
        if phase == "study":
            if page.locator("#table [data-action=select-card]").count():
                study()
            else:  # a "before choosing" power or an empty hand: any of its buttons
                page.locator("#table .moves [data-action]").first.click()
        elif page.locator(f"{MY_BOARD} [data-action=pick-cube]").count():
            raven()
        elif page.locator("#table .arcana-choice").count():
            page.locator("#table .arcana-choice [data-action]:not([disabled])").first.click()
        elif not use_recipe():
            done()

    assert host.errors == [], host.errors
    page.context.close()
