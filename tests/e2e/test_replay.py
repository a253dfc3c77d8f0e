"""The replay page in a real browser against `coven serve`: a short Whirling Witchcraft match
played to its end by bots, then watched again by a player (from her end screen's link) and by a
spectator (in Spanish): stepped with the buttons, the slider and the keyboard, every hand shown
through the seat switcher, the last step ending as the match did. A match still running has no
replay to show."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from tests.e2e.players import Player, new_player, shot, wait_until

GAME = "whirling-witchcraft"


def all_bot_match(server: str, *, finish: bool = True) -> tuple[str, str]:
    """A two-seat room (Agnes, the host, and a bot), started over the API; with `finish`, the
    host's seat is handed to a bot too and the match played to its end. Returns code, token."""
    with httpx.Client(base_url=server, timeout=10) as http:
        created = http.post(
            "/api/rooms",
            json={"game": GAME, "name": "Agnes", "seats": 2, "visibility": "private"},
        )
        assert created.status_code == 201, created.text
        code, token = created.json()["room"]["code"], created.json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        assert http.post(
            f"/api/rooms/{code}/bots", json={"level": "random"}, headers=auth
        ).is_success
        assert http.post(f"/api/rooms/{code}/start", headers=auth).is_success
        if not finish:
            return code, token
        handed = http.post(
            f"/api/rooms/{code}/bots", json={"level": "random", "seat": 0}, headers=auth
        )
        assert handed.is_success, handed.text
        deadline = time.monotonic() + 60
        while http.get(f"/api/rooms/{code}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots never finished the match"
            time.sleep(0.1)
    return code, token


def end_screen(player: Player) -> dict[str, Any]:
    """What the end screen says: the headline, and each seat's place and line, in order."""
    page = player.page
    page.wait_for_selector("[data-testid=game-over]")
    lines: list[list[str]] = page.eval_on_selector_all(
        "[data-testid=ranking] li",
        "(lines) => lines.map((li) => [li.dataset.seat, li.dataset.place, li.textContent])",
    )
    return {"winner": page.inner_text("[data-testid=winner]"), "ranking": lines}


def places(screen: dict[str, Any]) -> list[tuple[str, str]]:
    """Seat and place of each line of an end screen, whatever its language."""
    return [(seat, place) for seat, place, _ in screen["ranking"]]


def shown_step(player: Player, expected: int, seat: str | None = None) -> None:
    """Wait until the table shows step `expected` (through `seat`'s eyes: a number or
    "spectator"); steps are fetched from the server."""
    wait_until(player.page, f"document.getElementById('replay').dataset.shown === '{expected}'")
    if seat is not None:
        wait_until(player.page, f"document.getElementById('replay').dataset.shownSeat === '{seat}'")


def hand(player: Player) -> list[str]:
    cards: list[str] = player.page.eval_on_selector_all(
        "[data-testid=hand] [data-testid=hand-card]", "(cards) => cards.map((c) => c.dataset.card)"
    )
    return cards


def test_players_and_spectators_watch_the_replay(
    browser: Any, coven_server: str, artifacts: Path
) -> None:
    code, token = all_bot_match(coven_server)
    timeline = httpx.get(f"{coven_server}/api/rooms/{code}/replay", timeout=10).json()
    last = timeline["last"]
    first_views = httpx.get(
        f"{coven_server}/api/rooms/{code}/replay/steps",
        params={"start": 0, "count": 20},
        timeout=10,
    ).json()["steps"]

    # The player's end screen offers the replay.
    agnes = new_player(browser, "Agnes", viewport={"width": 1280, "height": 900})
    page = agnes.page
    page.goto(f"{coven_server}/r/{code}#seat=0&token={token}")
    ended = end_screen(agnes)
    game_over_line = page.locator("[data-testid=log] li").last.text_content()
    shot(agnes, artifacts, "replay-end-screen")
    page.click("[data-testid=watch-replay]")
    page.wait_for_url(f"**/r/{code}/replay")
    wait_until(page, "document.body.dataset.ready === '1'")
    shown_step(agnes, 0)
    assert page.get_attribute("[data-testid=replay]", "data-seat") == "0"  # her own eyes first
    assert page.inner_text("[data-testid=replay-step]") == f"Step 0 of {last}"
    assert page.is_disabled("[data-testid=replay-prev]")
    assert page.locator("[data-action]:not([disabled])").count() == 0

    # One step on with the button, then the keyboard; back with the arrow; the slider jumps.
    page.click("[data-testid=replay-next]")
    shown_step(agnes, 1)
    actor = timeline["steps"][1]["seat"]
    name = timeline["seats"][actor]["name"]
    assert page.inner_text("[data-testid=replay-actor]") == f"{name} (bot) played:"
    page.locator("body").press("ArrowRight")
    shown_step(agnes, 2)
    page.keyboard.press("ArrowLeft")
    shown_step(agnes, 1)
    page.fill("[data-testid=replay-slider]", "3")
    shown_step(agnes, 3)

    # Every hand is there through the switcher, as the server dealt it; the spectator's has none.
    def held(views: dict[str, Any], seat: int) -> Any:
        return views["views"][seat]["players"][seat].get("hand")

    dealt = next(s["step"] for s in first_views if held(s, 0) and held(s, 1))
    page.fill("[data-testid=replay-slider]", str(dealt))
    shown_step(agnes, dealt)
    hands = {}
    for seat in (0, 1):
        page.click(f"[data-testid=replay-seat-{seat}]")
        shown_step(agnes, dealt, str(seat))
        hands[seat] = hand(agnes)
        assert hands[seat] == held(first_views[dealt], seat)
    assert hands[0] != hands[1]
    shot(agnes, artifacts, "replay-bot-hand")
    page.click("[data-testid=replay-seat-spectator]")
    shown_step(agnes, dealt, "spectator")
    assert page.locator("[data-testid=hand]").count() == 0
    page.click("[data-testid=replay-seat-0]")
    shown_step(agnes, dealt, "0")

    # A jump lands on the table a player stepping there sees: the panel of the round's cauldron
    # passes, built from an earlier step's events, is as full after a jump as after steps.
    passed = next(
        n
        for n, info in enumerate(timeline["steps"])
        if any(e["type"] == "cauldron_passed" and any(e["cubes"].values()) for e in info["events"])
    )
    target = min(passed + 2, last)
    page.fill("[data-testid=replay-slider]", str(passed - 1))
    shown_step(agnes, passed - 1)
    for n in range(passed, target + 1):
        page.keyboard.press("ArrowRight")
        shown_step(agnes, n)
    stepped = page.inner_text("[data-testid=pass-summary]")
    page.locator("body").press("Home")
    shown_step(agnes, 0)
    page.fill("[data-testid=replay-slider]", str(target))
    shown_step(agnes, target)
    assert page.inner_text("[data-testid=pass-summary]") == stepped

    # The end with End, and the last button is then off; the last step ends as the match did.
    page.locator("body").press("End")
    shown_step(agnes, last)
    assert page.is_disabled("[data-testid=replay-last]")
    assert page.is_disabled("[data-testid=replay-next]")
    assert end_screen(agnes) == ended
    assert page.locator("[data-testid=rematch]").is_hidden()
    # The step's log lines are the room's: the last one tells the end as the table log did.
    assert page.locator("[data-testid=replay-log] li").last.text_content() == game_over_line
    shot(agnes, artifacts, "replay-player-last-step")
    page.click("[data-testid=replay-first]")
    shown_step(agnes, 0)
    assert page.evaluate("window.coven.missingKeys()") == []

    # A spectator, in Spanish: the same end on his screen, the replay link, the last step.
    watcher = new_player(browser, "Watcher", viewport={"width": 1100, "height": 850})
    view = watcher.page
    view.goto(f"{coven_server}/r/{code}?lang=es")
    watched = end_screen(watcher)
    assert places(watched) == places(ended)
    view.click("[data-testid=watch-replay]")
    wait_until(view, "document.body.dataset.ready === '1'")
    shown_step(watcher, 0)
    assert view.inner_text("[data-testid=replay-step]") == f"Paso 0 de {last}"
    view.click("[data-testid=replay-last]")
    shown_step(watcher, last)
    # Seat 0's eyes (his default, holding no seat): the end as the spectator saw it, ranked alike.
    replayed = end_screen(watcher)
    assert replayed["ranking"] == watched["ranking"]
    view.click("[data-testid=replay-seat-spectator]")
    shown_step(watcher, last, "spectator")
    assert end_screen(watcher) == watched
    view.keyboard.press("Home")
    shown_step(watcher, 0)
    view.keyboard.press("End")
    shown_step(watcher, last)
    shot(watcher, artifacts, "replay-spectator-es")
    # The address holds the step and the seat: a shared link opens that moment.
    assert view.url.endswith(f"/replay?lang=es#step={last}&seat=spectator")
    shared = new_player(browser, "Friend")
    shared.page.goto(view.url.replace(f"step={last}&seat=spectator", "step=3&seat=1"))
    shown_step(shared, 3, "1")
    assert shared.errors == []
    shared.page.context.close()
    # On a phone the controls stay at hand, fixed at the bottom of the screen.
    view.set_viewport_size({"width": 390, "height": 844})
    view.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    box = view.locator("[data-testid=replay-prev]").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    view.click("[data-testid=replay-prev]")
    shown_step(watcher, last - 1)
    view.screenshot(path=str(artifacts / "replay-phone.png"))
    assert view.evaluate("window.coven.missingKeys()") == []
    assert agnes.errors == [] and watcher.errors == []
    agnes.page.context.close()
    watcher.page.context.close()


def test_a_running_match_has_no_replay_yet(
    browser: Any, coven_server: str, artifacts: Path
) -> None:
    code, _ = all_bot_match(coven_server, finish=False)
    visitor = new_player(browser, "Visitor", viewport={"width": 1000, "height": 700})
    page = visitor.page
    page.goto(f"{coven_server}/r/{code}/replay?lang=vi")
    wait_until(page, "document.body.dataset.ready === '1'")
    notice = page.inner_text("[data-testid=replay-notice]")
    assert "Chỉ mở được khi ván đấu đã kết thúc." in notice
    assert page.locator("[data-testid=replay-controls]").is_hidden()
    assert page.locator("[data-testid=table]").is_hidden()
    shot(visitor, artifacts, "replay-not-finished-vi")
    assert page.evaluate("window.coven.missingKeys()") == []
    assert visitor.errors == [], visitor.errors
    page.context.close()
