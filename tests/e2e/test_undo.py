"""Undo within a turn, in Chromium, for every game: the host's page shows an Undo button
(``data-testid="undo"``) exactly when the engine allows one, a click (or the keyboard) takes her
last step back, and after another seat acted on it (the choice resolved, the cards revealed) the
button is gone.

The host plays in the browser; the other seats are driven through the HTTP API, so the test
decides when they answer. The host's own steps are sent over the API too (the subject here is the
Undo control, not each game's move buttons); the undo is the page's.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.api_rooms import HostedRoom
from tests.e2e.players import Player, new_player, shot, wait_until

pytestmark = pytest.mark.e2e

UNDO = '#table [data-testid="undo"]'
STATE = "(window.coven.page.state || {})"


def act(
    room: HostedRoom, token: str, pick: Callable[[list[dict[str, Any]]], dict[str, Any]]
) -> int:
    """One move of the seat holding ``token``: ``pick(legal)``; the version it made."""
    state = room.state(token)
    body = {
        "action": pick(state["legal"]),
        "client_id": uuid.uuid4().hex,
        "version": state["version"],
    }
    sent = room.http.post("/actions", json=body, headers={"Authorization": f"Bearer {token}"})
    assert sent.status_code == 200, sent.text
    return int(state["version"]) + 1


def of_type(kind: str) -> Callable[[list[dict[str, Any]]], dict[str, Any]]:
    return lambda legal: next(a for a in legal if a["type"] == kind)


def first(legal: list[dict[str, Any]]) -> dict[str, Any]:
    return legal[0]


def at_version(player: Player, version: int) -> None:
    wait_until(player.page, f"{STATE}.version >= {version}")


def open_host(browser: Any, room: HostedRoom, version: int) -> Player:
    host = new_player(browser, "host", viewport={"width": 1366, "height": 900})
    host.page.goto(room.page_url("en"))
    at_version(host, version)
    return host


def undo_in_page(
    host: Player,
    version: int,
    keyboard: bool = False,
    more: bool = False,
    picture: tuple[Path, str] | None = None,
) -> None:
    """The host takes her last step back with the page's Undo button (``more``: she has
    another step to take back after it)."""
    at_version(host, version)
    button = host.page.locator(UNDO)
    button.wait_for(state="visible")
    assert button.inner_text().strip() == "Undo"
    if picture:
        shot(host, *picture)
    if keyboard:
        button.focus()
        host.page.keyboard.press("Enter")
    else:
        button.click()
    at_version(host, version + 1)
    assert host.page.evaluate(f"{STATE}.undo") is more
    host.page.locator(UNDO).wait_for(state="visible" if more else "detached")


def no_undo(host: Player, version: int) -> None:
    at_version(host, version)
    assert host.page.evaluate(f"{STATE}.undo") is False
    assert host.page.locator(UNDO).count() == 0


def test_whirling_a_recipe_goes_back_until_the_other_witch_chose(
    browser: Any, coven_server: str, artifacts: Path
) -> None:
    room = HostedRoom(coven_server, "whirling-witchcraft", seats=2)
    friend = room.join("Baba")
    room.start()
    host = open_host(browser, room, 0)
    try:
        no_undo(host, 0)
        legal_before = host.page.evaluate(f"{STATE}.legal")
        version = act(room, room.token, first)  # her recipe, face down
        undo_in_page(host, version, picture=(artifacts, "undo-whirling"))
        assert host.page.evaluate(f"{STATE}.legal") == legal_before  # she may choose again
        wait_until(host.page, "document.getElementById('log').textContent.includes('took back')")
        assert "Ana took back a step" in host.page.locator("#log").text_content()

        version = act(room, room.token, first)
        at_version(host, version)
        host.page.locator(UNDO).wait_for(state="visible")
        version = act(room, friend, first)  # the other witch chose: the recipes are revealed
        no_undo(host, version)
        assert host.errors == []
    finally:
        host.page.context.close()
        room.close()


def test_seasons_library_building_goes_back_until_everyone_built(
    browser: Any, coven_server: str, artifacts: Path
) -> None:
    room = HostedRoom(coven_server, "seasons", seats=2, options={"level": "apprentice"})
    friend = room.join("Baba")
    room.start()
    host = open_host(browser, room, 0)
    try:
        assert host.page.evaluate(f"{STATE}.view.phase") == "build"
        no_undo(host, 0)
        version = act(room, room.token, first)  # a card into her library, unseen by the others
        version = act(room, room.token, first)
        undo_in_page(host, version, keyboard=True, more=True, picture=(artifacts, "undo-seasons"))
        undo_in_page(host, version + 1)  # again: back to the start of her building
        assert host.page.evaluate(f"{STATE}.view.phase") == "build"

        while room.state(room.token)["view"]["phase"] == "build":
            for token in (room.token, friend):
                if room.state(token)["legal"]:
                    version = act(room, token, first)
        no_undo(host, version)  # the libraries are built: nothing goes back
        assert host.errors == []
    finally:
        host.page.context.close()
        room.close()


def test_brew_a_confirmed_hand_goes_back_until_the_roles_are_revealed(
    browser: Any, coven_server: str, artifacts: Path
) -> None:
    room = HostedRoom(coven_server, "witchs-brew", seats=3)
    others = [room.join("Baba"), room.join("Circe")]
    room.start()
    host = open_host(browser, room, 0)
    try:
        no_undo(host, 0)
        for token in (room.token, *others):
            for _ in range(5):
                version = act(room, token, of_type("keep"))
        at_version(host, version)
        # Her keeps are hers to take back too (a keep undone is an unkeep), while nobody sees them.
        assert host.page.evaluate(f"{STATE}.undo") is True
        version = act(room, room.token, of_type("confirm"))
        undo_in_page(
            host, version, more=True, picture=(artifacts, "undo-brew")
        )  # her keeps before it may go back too
        assert host.page.evaluate(f"{STATE}.legal.some((a) => a.type === 'confirm')")

        version = act(room, room.token, of_type("confirm"))
        for token in others:
            version = act(room, token, of_type("confirm"))  # the roles are revealed
        no_undo(host, version)
        assert host.errors == []
    finally:
        host.page.context.close()
        room.close()


def end_places(page: Any) -> list[list[str]]:
    page.wait_for_selector("[data-testid=game-over]")
    lines: list[list[str]] = page.eval_on_selector_all(
        "[data-testid=ranking] li",
        "(lines) => lines.map((li) => [li.dataset.seat, li.dataset.place])",
    )
    return lines


def test_a_match_with_undos_replays_to_the_same_end(
    browser: Any, coven_server: str, artifacts: Path
) -> None:
    """Both witches play a whole match over the API, taking steps back now and then; the replay
    page, rebuilt by the engine from (seed, actions), ends as the match did."""
    room = HostedRoom(coven_server, "whirling-witchcraft", seats=2)
    tokens = [room.token, room.join("Baba")]
    room.start()
    rng = random.Random(5)
    undos = 0
    while room.state().get("result") is None:
        for token in tokens:
            state = room.state(token)
            if state.get("undo") and rng.random() < 0.4:
                act(room, token, lambda _legal: {"type": "undo"})
                undos += 1
            elif state.get("legal") and not state.get("result"):
                act(room, token, rng.choice)
    assert undos >= 3
    timeline = httpx.get(f"{coven_server}/api/rooms/{room.code}/replay", timeout=10).json()
    actions = [step.get("action") or {} for step in timeline["steps"]]
    assert sum(a.get("type") == "undo" for a in actions) == undos

    host = new_player(browser, "host", viewport={"width": 1366, "height": 900})
    try:
        host.page.goto(room.page_url("en"))
        ended = end_places(host.page)
        host.page.goto(f"{coven_server}/r/{room.code}/replay?lang=en")
        wait_until(host.page, "document.body.dataset.ready === '1'")
        host.page.locator("body").press("End")
        last = timeline["last"]
        wait_until(host.page, f"document.getElementById('replay').dataset.shown === '{last}'")
        assert end_places(host.page) == ended
        assert host.page.locator(UNDO).count() == 0  # a replay offers no undo
        shot(host, artifacts, "undo-replay-end")
        assert host.errors == []
    finally:
        host.page.context.close()
        room.close()


DRAWS = {"card_drawn", "you_drew", "cards_seen", "die_rerolled", "round_started"}


def test_seasons_turn_steps_go_back_but_not_after_a_draw_or_a_roll(
    browser: Any, coven_server: str, artifacts: Path
) -> None:
    """Through the year, after each of the host's steps the page shows Undo exactly when the
    engine allows it: never after a card was drawn, seen or a die rolled, never once the turn
    passed; and a step that reveals nothing goes back."""
    room = HostedRoom(coven_server, "seasons", seats=2, options={"level": "apprentice"})
    tokens = [room.token, room.join("Baba")]
    room.start()
    host = open_host(browser, room, 0)
    rng = random.Random(3)
    drawn = allowed = passed = 0
    try:
        for _ in range(400):
            if drawn and allowed > 1 and passed:
                break
            state = room.state(room.token)
            assert state.get("result") is None, (drawn, allowed, passed)
            seat = state["to_move"][0]
            action = rng.choice(room.state(tokens[seat])["legal"])
            version = act(room, tokens[seat], lambda _legal, chosen=action: chosen)
            if seat != 0 or state["view"]["phase"] != "turn":
                continue
            at_version(host, version)
            after = room.state(room.token)
            kinds = {e["type"] for e in after["events"]}
            shown = host.page.locator(UNDO).count() == 1
            assert shown == after["undo"] == host.page.evaluate(f"{STATE}.undo"), kinds
            if kinds & DRAWS:
                drawn += 1
                assert not shown, kinds
            if after["to_move"] != [0]:
                passed += 1
                assert not shown
            if shown:
                allowed += 1
                if allowed == 1:
                    shot(host, artifacts, "undo-seasons-turn")
                host.page.locator(UNDO).click()
                at_version(host, version + 1)
                back = room.state(room.token)
                assert back["view"] == state["view"] and back["legal"] == state["legal"]
                act(room, room.token, lambda _legal, chosen=action: chosen)  # and on again
        assert drawn and allowed > 1 and passed, (drawn, allowed, passed)
        assert host.errors == []
    finally:
        host.page.context.close()
        room.close()
