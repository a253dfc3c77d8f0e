"""A whole Whirling Witchcraft match played by clicking, in Chromium, against `coven serve`.

Three friends (one on a phone-sized screen, in Vietnamese) and a bot; a spectator watches in
Spanish; one player reloads mid-match and gets her seat back; the end screen shows the winner.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e import in_view
from tests.e2e.a11y import TableWatch
from tests.e2e.players import (
    Player,
    assert_fits_the_screen,
    click_pick,
    close_detail,
    new_player,
    pinned_detail,
    shot,
    wait_until,
)

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]

MATCH_SECONDS = 420  # (axe on each new table state: 33 states took 131 s on a loaded machine)
PHONE_SCREEN = {"width": 375, "height": 812}


# Picks one clickable move on the page (the test never builds an action itself: it only
# clicks controls the table drew from `legal`) and marks it for a real mouse click; an open
# chooser's or question's answers come first (they float over the table: a player answers them).
PICK_JS = """
(choice) => {
  for (const old of document.querySelectorAll('[data-e2e]')) delete old.dataset.e2e;
  const table = document.querySelector('#table .ww');
  if (!table) return {state: 'none'};
  if (document.querySelector('[data-testid=game-over]')) return {state: 'over'};
  const round = +table.dataset.round;
  if (table.dataset.pending === '1' || table.dataset.myTurn !== '1') return {state: 'wait', round};
  const visible = (e) => !e.disabled && e.offsetParent !== null;
  const find = (selector) => [...document.querySelectorAll(selector)].filter(visible);
  const chooser = find('#table :is(.chooser, .confirm-pop) [data-action]');
  const all = chooser.length ? chooser : find('#table [data-action]');
  if (!all.length) return {state: 'wait', round};
  const kinds = all.map((e) => e.dataset.action);
  return {state: 'move', kinds, round: +table.dataset.round, chooser: chooser.length > 0};
}
"""

MARK_JS = """
([index, chooser]) => {
  const visible = (e) => !e.disabled && e.offsetParent !== null;
  const pool = chooser
    ? '#table :is(.chooser, .confirm-pop) [data-action]' : '#table [data-action]';
  const all = [...document.querySelectorAll(pool)].filter(visible);
  if (!all[index]) return false;
  all[index].dataset.e2e = 'pick';
  return true;
}
"""


def choose(kinds: list[str], chooser: bool, rng: random.Random) -> int:
    """A random player with a bias towards making progress."""
    indexed = list(enumerate(kinds))
    if chooser:
        return rng.randrange(len(kinds))

    def of(*names: str) -> list[int]:
        return [i for i, k in indexed if k in names]

    if of("swap_hand"):
        return of("swap_hand")[0]
    if of("ask-swap") and rng.random() < 0.03:
        return of("ask-swap")[0]
    if of("play"):
        turn = of("toggle-rotate")
        if turn and rng.random() < 0.3:
            return turn[0]
        return of("play")[0]
    for group in (
        ("keep_personality", "gain", "confirm_random", "skip"),
        # The Raven's cubes are picked on the workbench ("pick-cube"), then removed ("raven").
        ("potion", "raven", "book", "pour", "decline", "pick-cube"),
    ):
        if of(*group):
            # A kind first, so the many cubes of a workbench do not crowd out the other answers.
            kind = rng.choice(sorted({kinds[i] for i in of(*group)}))
            return rng.choice(of(kind))
    if of("use-recipe") and rng.random() < 0.8:
        return rng.choice(of("use-recipe"))
    if of("done"):
        return of("done")[0]
    if of("select-card"):
        return rng.choice(of("select-card"))
    return rng.randrange(len(kinds))


def step(player: Player, rng: random.Random) -> dict[str, Any]:
    info: dict[str, Any] = player.page.evaluate(PICK_JS)
    if info["state"] != "move":
        return info
    index = choose(info["kinds"], info["chooser"], rng)
    if not player.page.evaluate(MARK_JS, [index, info["chooser"]]):
        return {"state": "wait"}
    if not click_pick(player):  # the table was redrawn (another seat moved): look again
        return {"state": "wait"}
    return info


def play_until_over(
    players: list[Player],
    rng: random.Random,
    seconds: float,
    before: Callable[[Player], None] | None = None,
    after: Callable[[Player, dict[str, Any]], None] | None = None,
) -> None:
    """Every player clicks one legal move in turn until each sees the end screen; ``before`` and
    ``after`` watch each player's turn (screenshots, a reload, checks along the way)."""
    deadline = time.monotonic() + seconds
    over: set[str] = set()
    while len(over) < len(players):
        assert time.monotonic() < deadline, "the match did not end in time"
        moved = False
        for player in players:
            if player.name in over:
                continue
            if before is not None:
                before(player)
            info = step(player, rng)
            if info["state"] == "over":
                over.add(player.name)
            moved = moved or info["state"] == "move"
            if after is not None:
                after(player, info)
        if not moved:
            players[0].page.wait_for_timeout(25)


def test_lobby_lists_public_rooms_live(browser: Any, coven_server: str, artifacts: Path) -> None:
    visitor = new_player(
        browser, "visitor", locale="en-US", viewport={"width": 1280, "height": 800}
    )
    page = visitor.page
    page.goto(f"{coven_server}/")
    page.wait_for_selector("[data-testid=game-list] input[value=whirling-witchcraft]")
    created = httpx.post(
        f"{coven_server}/api/rooms",
        json={"game": "whirling-witchcraft", "visibility": "public", "name": "Hecate"},
    ).json()
    code = created["room"]["code"]
    page.wait_for_selector(f"[data-testid=room-list] a[href='/r/{code}']", timeout=10000)
    assert "Hecate" in page.inner_text("[data-testid=room-list]")
    shot(visitor, artifacts, "lobby")
    assert visitor.errors == []
    page.context.close()


# Every state the connection indicator (#conn) takes from now on, in order, in window.connStates.
CONN_STATES_JS = """
() => {
  const conn = document.getElementById('conn');
  window.connStates = [];
  new MutationObserver(() => window.connStates.push(conn.dataset.state))
    .observe(conn, {attributes: true, attributeFilter: ['data-state']});
}
"""


def test_whole_match_by_clicking(browser: Any, coven_server: str, artifacts: Path) -> None:
    rng = random.Random(20260)
    desktop = {"width": 1366, "height": 900}
    host = new_player(browser, "Morgana", locale="en-US", viewport=desktop)
    friend = new_player(
        browser,
        "Baba",
        locale="vi-VN",
        viewport=PHONE_SCREEN,
        is_mobile=True,
        has_touch=True,
    )
    circe = new_player(browser, "Circe", locale="en-GB", viewport=desktop)
    spectator = new_player(browser, "spectator", locale="es-ES", viewport=desktop)
    players = [host, friend, circe]
    everyone = [*players, spectator]

    # The host opens a private table in the lobby.
    page = host.page
    page.goto(f"{coven_server}/")
    page.wait_for_selector("[data-testid=game-list] input[value=whirling-witchcraft]")
    page.fill("[data-testid=host-name]", host.name)
    page.check("[data-testid=visibility-private]")
    page.check("[data-testid=option-personalities-initiates]")
    # Open production in initiative order is a room option, off by default (blind and at once).
    assert page.is_checked("[data-testid=option-production-simultaneous]")
    assert "In initiative order" in page.inner_text("#game-options")
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/*")
    wait_until(page, "document.querySelector('[data-testid=invite-link]').value.includes('/r/')")
    invite = page.input_value("[data-testid=invite-link]")
    code = invite.rsplit("/", 1)[1]
    rooms = httpx.get(f"{coven_server}/api/rooms").json()
    assert code not in [r["code"] for r in rooms], "a private room must not be listed"

    # Two friends open the link in their own browsers and take seats.
    for seat, player in ((1, friend), (2, circe)):
        player.page.goto(invite)
        player.page.fill("[data-testid=join-name]", player.name)
        player.page.click("[data-testid=join-button]")
        player.page.wait_for_selector(f"[data-testid=seat-{seat}] >> text={player.name}")
    spectator.page.goto(invite)
    spectator.page.wait_for_selector("[data-testid=seat-2]")

    # The host adds a bot; everyone sees four seats, the humans connected.
    page.click("[data-testid=add-bot]")
    page.wait_for_selector("[data-testid=seat-3]")
    page.wait_for_selector("[data-testid=seat-2][data-connected=true]")
    shot(host, artifacts, "room")
    shot(friend, artifacts, "room-phone-vi")
    assert_fits_the_screen(friend, ".flying-cauldron")

    page.click("[data-testid=start]")
    for player in everyone:
        player.page.wait_for_selector("#table .ww")

    # Chat goes around the table.
    page.fill("[data-testid=chat-input]", "Blessed be!")
    page.click("[data-testid=chat-send]")
    # On the phone the chat is in a drawer: its button counts the line, a tap shows it.
    friend.page.wait_for_selector("[data-testid=unread]:not([hidden])")
    friend.page.tap("[data-testid=talk-open]")
    friend.page.wait_for_selector("[data-testid=chat] >> text=Blessed be!")
    friend.page.tap("[data-testid=talk-close]")

    # The host's first recipe is played with the keyboard alone: real buttons, focus kept.
    page.wait_for_selector("#table .ww[data-my-turn='1']")
    assert in_view.check_decision(page)
    page.locator("#table [data-action=select-card]").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#table [data-action=play]")
    focused = page.evaluate("document.activeElement.dataset.action")
    assert focused == "select-card", "focus must survive the redraw"
    page.locator("#table [data-action=play]").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#table .ww[data-my-turn='0']")
    assert "✓" in page.inner_text("[data-testid=my-board] [data-testid=status-0]")

    reloaded = False
    mid_shot = False
    moments: set[str] = set()

    decisions = {player.name: 0 for player in players}

    watch = TableWatch()  # issue 21: axe on every table state, the live region at every move

    def before(player: Player) -> None:
        watch.step(player)
        if player is host:
            watch.step(spectator)
        # Issue 21, before any click: the laptop players' own areas in view, the phone's
        # controls uncovered, at every decision.
        decisions[player.name] += in_view.check_decision(player.page)
        if player is host:
            for moment, selector in (
                ("brew-chooser", "#table .chooser"),
                ("arcana", "#table .arcana-choice"),
            ):
                if moment not in moments and host.page.locator(selector).count():
                    shot(host, artifacts, moment, full_page=False)
                    moments.add(moment)

    phone_heights: list[int] = []

    def after(player: Player, info: dict[str, Any]) -> None:
        nonlocal reloaded, mid_shot
        # At her moves while the match runs (a move that ends it shows the end screen instead).
        if player is friend and info["state"] == "move":
            height = friend.page.evaluate(
                "document.querySelector('[data-testid=game-over]') ? null"
                " : document.documentElement.scrollHeight"
            )
            if height is not None:
                phone_heights.append(height)
        round_ = info.get("round") or 0
        if not reloaded and round_ >= 2 and player is circe:
            circe.page.reload()
            circe.page.wait_for_selector("#table .ww")
            seat_name = "[data-testid=my-board] [data-testid=my-seat-name]"
            assert circe.page.inner_text(seat_name) == "Circe"
            assert circe.page.locator("[data-testid=hand]").count() == 1
            reloaded = True
        if not mid_shot and round_ >= 3 and info["state"] == "move":
            shot(host, artifacts, "table-mid-game")
            shot(friend, artifacts, "table-phone-vi", full_page=False)
            assert_fits_the_screen(friend, ".flying-cauldron")
            shot(spectator, artifacts, "table-spectator-es")
            # The spectator sees the public table and nothing secret.
            spec = spectator.page
            assert spec.locator("[data-testid=hand]").count() == 0
            assert spec.locator("[data-testid=hand-card]").count() == 0
            assert spec.locator("#table [data-action]").count() == 0
            assert spec.locator("[data-testid=board-0]").count() == 1
            # The language switch redraws the live table at once.
            spec.select_option("[data-testid=lang-select]", "vi")
            wait_until(spec, "document.documentElement.lang === 'vi'")
            assert "Vòng" in spec.inner_text(".phase-line")
            spec.select_option("[data-testid=lang-select]", "es")
            wait_until(spec, "document.documentElement.lang === 'es'")
            assert "Ronda" in spec.inner_text(".phase-line")
            mid_shot = True

    play_until_over(players, rng, MATCH_SECONDS, before, after)

    assert reloaded, "the match ended before anyone could reload"
    assert all(decisions.values()), decisions
    # The phone's page stays under two and a half screens at every move of the whole match.
    assert phone_heights and max(phone_heights) < 2.5 * PHONE_SCREEN["height"], phone_heights
    spectator.page.wait_for_selector("[data-testid=game-over]")
    for player in everyone:
        player.page.wait_for_selector("[data-testid=win-reason]")
    shot(host, artifacts, "end-screen")
    shot(friend, artifacts, "end-screen-phone-vi", full_page=False)
    assert_fits_the_screen(friend, ".flying-cauldron")
    shot(spectator, artifacts, "end-screen-spectator-es")
    for player in everyone:
        watch.step(player)
    print(watch.done())
    winner_text = host.page.inner_text("[data-testid=winner]")
    assert winner_text.strip()
    assert spectator.page.locator("[data-testid=hand-card]").count() == 0

    # The table log told the story in words.
    log = host.page.inner_text("[data-testid=log]")
    assert "The match begins" in log and "Round 2 begins" in log and "cauldron" in log.lower()
    # Every cauldron pass is public: the spectator's log tells each one in words (4 a round).
    spec_passes = spectator.page.locator("[data-testid=log] .log-cauldron_passed")
    assert spec_passes.count() >= 4
    assert all("caldero" in text for text in spec_passes.all_inner_texts())
    # The table's own summary of the last passes (absent only if the last message had no events).
    assert spectator.page.locator("[data-testid=pass-summary] li").count() in (0, 4)
    rounds = [line for line in log.splitlines() if line.startswith("— Round")]
    assert len(rounds) == len(set(rounds)), "a missed version was logged twice"

    # Every string the Vietnamese and Spanish players saw exists in their language.
    for player in everyone:
        missing = player.page.evaluate("window.coven.missingKeys()")
        assert missing == [], f"{player.name}: missing translations {missing}"
    assert friend.page.evaluate("document.documentElement.lang") == "vi"
    assert spectator.page.evaluate("document.documentElement.lang") == "es"

    # Circe's personal rejoin link gives her seat back on another device.
    rejoin = circe.page.input_value("[data-testid=rejoin-link]")
    assert "#seat=2&token=" in rejoin
    other_device = new_player(browser, "Circe (phone)", locale="en-US")
    other_device.page.goto(rejoin)
    other_device.page.wait_for_selector("[data-testid=my-board]")
    assert other_device.page.inner_text("[data-testid=my-seat-name]") == "Circe"
    assert "token" not in other_device.page.url, "the token must not stay in the address bar"
    everyone.append(other_device)

    # A dropped connection shows "reconnecting…" and comes back by itself.
    # (the client comes back within a second: every state the indicator takes is recorded,
    # so a loaded machine that looks late still sees the short "reconnecting…")
    host.page.evaluate(CONN_STATES_JS)
    host.page.evaluate("window.coven.page.client.socket.close()")
    wait_until(host.page, "window.connStates.includes('reconnecting')", 15)
    host.page.wait_for_selector("#conn[data-state=open]", timeout=30000)
    states = host.page.evaluate("window.connStates")
    assert states.index("reconnecting") < len(states) - 1 - states[::-1].index("open"), states

    # Rematch: one click brings the seated friends into a new room with the same game, no link.
    host.page.click("[data-testid=rematch]")
    host.page.wait_for_url(lambda url: "/r/" in url and code not in url)
    friend.page.wait_for_url(lambda url: "/r/" in url and code not in url)
    assert friend.page.url.split("/r/")[1].split("?")[0].split("#")[0] == (
        host.page.url.split("/r/")[1].split("?")[0].split("#")[0]
    )

    for player in everyone:
        assert player.errors == [], f"{player.name}: {player.errors}"
    for player in everyone:
        player.page.context.close()


def test_advanced_personalities_and_a_vanished_friend(
    browser: Any, coven_server: str, artifacts: Path
) -> None:
    """'Dealt 2, keep 1' personalities; a friend closes her tab mid-match and the host hands
    her seat to a bot, which then plays it to the end."""
    rng = random.Random(7)
    host = new_player(browser, "Hecate", locale="es-ES", viewport={"width": 1280, "height": 900})
    friend = new_player(browser, "Medea", locale="en-US", viewport={"width": 1280, "height": 900})
    page = host.page
    page.goto(f"{coven_server}/")
    page.wait_for_selector("[data-testid=game-list] input[value=whirling-witchcraft]")
    page.fill("[data-testid=host-name]", host.name)
    page.check("[data-testid=option-personalities-choose]")
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/*")
    wait_until(page, "document.querySelector('[data-testid=invite-link]').value.includes('/r/')")
    invite = page.input_value("[data-testid=invite-link]")
    friend.page.goto(invite)
    friend.page.fill("[data-testid=join-name]", friend.name)
    friend.page.click("[data-testid=join-button]")
    page.wait_for_selector("[data-testid=seat-1][data-connected=true]")
    page.click("[data-testid=start]")

    # Both keep a personality (hidden from each other until both have kept one).
    for player in (host, friend):
        player.page.wait_for_selector("#table [data-action=keep_personality]")
    assert page.locator("[data-testid=board-1] .persona").inner_text() == "?"
    friend.page.click("#table [data-action=keep_personality] >> nth=0")
    shot(host, artifacts, "personality-choice-es")
    page.click("#table [data-action=keep_personality] >> nth=1")
    page.wait_for_selector("#table .ww[data-phase=study]")

    # The other witch's personality power in full on a tap (a hover title is no use on a phone),
    # and a recipe's icons in words on hover, from the Spanish texts.
    spanish = json.loads((ROOT / "static" / "i18n" / "es.json").read_text(encoding="utf-8"))
    held = page.inner_text("[data-testid=board-1] .persona")
    assert held in {v for k, v in spanish.items() if k.startswith("ww.personality.")}
    text = pinned_detail(host, "[data-testid=board-1] .persona", artifacts, "ww-personality-es")
    powers = [v for k, v in spanish.items() if k.startswith("ww.power.")]
    assert held in text and any(power in text for power in powers), text
    close_detail(host)
    page.locator("[data-testid=hand-card]").first.hover()
    page.wait_for_selector("[data-testid=card-detail]:not([hidden])")
    assert "➜" in page.inner_text("[data-testid=card-detail]")
    page.mouse.move(1, 1)
    page.wait_for_selector("[data-testid=card-detail]", state="hidden")

    # The friend vanishes; the host hands her seat to a bot.
    friend.page.context.close()
    page.click("[data-testid=hand-to-bot-1]", timeout=15000)
    page.wait_for_selector("[data-testid=seat-1] .badge.away")

    # She plays a round beside the bot; then she leaves too, a bot takes her seat and the bots
    # play the match to its end (a whole match by clicking is test_whole_match_by_clicking's).
    handed_round = int(page.get_attribute("#table .ww", "data-round") or 0)
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the round beside the bot never ended"
        info = step(host, rng)
        if info["state"] == "over" or info.get("round", handed_round) > handed_round:
            break
        if info["state"] != "move":
            page.wait_for_timeout(25)
    code = page.url.split("/r/")[1].split("#")[0]
    token = page.evaluate(f"JSON.parse(localStorage.getItem('coven:seat:{code}')).token")
    assert host.errors == [], host.errors
    page.context.close()
    deadline = time.monotonic() + 60
    with httpx.Client(base_url=f"{coven_server}/api/rooms", timeout=10) as http:
        if info["state"] != "over":  # (a connected seat is not handed: wait for her socket to go)
            auth = {"Authorization": f"Bearer {token}"}
            bot = {"level": "random", "seat": 0}
            while not http.post(f"/{code}/bots", json=bot, headers=auth).is_success:
                assert time.monotonic() < deadline, "her seat was never free to hand to a bot"
                time.sleep(0.1)
        while http.get(f"/{code}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots never finished the match"
            time.sleep(0.1)
    # Whoever opens the room now sees how it ended, in her language.
    visitor = new_player(browser, "visitor", locale="es-ES")
    visitor.page.goto(f"{coven_server}/r/{code}")
    visitor.page.wait_for_selector("[data-testid=win-reason]")
    assert visitor.page.evaluate("window.coven.missingKeys()") == []
    assert visitor.errors == [], visitor.errors
    assert friend.errors == [], friend.errors
    visitor.page.context.close()


def test_client_drops_stale_versions_and_reports_gaps(browser: Any, coven_server: str) -> None:
    """The socket client's version logic, run in the browser against crafted messages."""
    player = new_player(browser, "probe")
    player.page.goto(f"{coven_server}/")
    seen = player.page.evaluate(
        """async () => {
          const { RoomClient } = await import('/static/js/client.js');
          const client = new RoomClient('nowhere', null);
          const out = {states: [], gaps: []};
          client.on('state', (m) => out.states.push(m.version));
          client.on('gap', (g) => out.gaps.push([g.from, g.to]));
          for (const v of [3, 4, 4, 2, 7, 8]) {
            client.receive(JSON.stringify({type: 'state', version: v, view: {}, legal: []}));
          }
          return out;
        }"""
    )
    assert seen == {"states": [3, 4, 7, 8], "gaps": [[4, 7]]}
    assert player.errors == []
    player.page.context.close()
