"""A whole Witch's Brew match played by clicking, in Chromium, against `coven serve`.

Two people in two browsers (one on a phone-sized screen, in Vietnamese) and a bot the host adds;
a spectator watches in Spanish and sees no hand, neither on the page nor in her state message.
Every move is a click on a control the table drew from `legal`.
"""

from __future__ import annotations

import json
import random
import re
import time
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
)

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]

MATCH_SECONDS = 360  # about 1 minute on an idle machine; the slack is for a loaded one (and axe)

# The clickable moves on the page right now (those of an open chooser or question first: a
# question floats over the table, as a player answers it first), or why there are none.
PICK_JS = """
() => {
  for (const old of document.querySelectorAll('[data-e2e]')) delete old.dataset.e2e;
  const table = document.querySelector('#table .wb');
  if (!table) return {state: 'none'};
  if (document.querySelector('[data-testid=game-over]')) return {state: 'over'};
  if (table.dataset.pending === '1' || table.dataset.myTurn !== '1') return {state: 'wait'};
  const visible = (e) => !e.disabled && e.offsetParent !== null;
  const find = (selector) => [...document.querySelectorAll(selector)].filter(visible);
  const chooser = find('#table :is(.chooser, .confirm-pop) [data-action]');
  const all = chooser.length ? chooser : find('#table [data-action]');
  if (!all.length) return {state: 'wait'};
  return {state: 'move', kinds: all.map((e) => e.dataset.action),
          roles: all.map((e) => e.dataset.role || ''), chooser: chooser.length > 0,
          phase: table.dataset.phase, set: +table.dataset.set};
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


# Drops and the cauldrons they brew: a table that brews often reaches the fourth raven sooner
# (random matches of the engine: about 20% fewer clicks than keeping any roles).
BREWING = {
    "wizard", "witch", "druid", "warlock", "assistant",
    "wolf_keeper", "snake_hunter", "herb_collector",
}  # fmt: skip


def choose(kinds: list[str], roles: list[str], chooser: bool, rng: random.Random) -> int:
    """A random witch who likes to brew: she claims or takes favors more often than not."""
    if chooser:
        return rng.randrange(len(kinds))

    def of(*names: str) -> list[int]:
        return [i for i, k in enumerate(kinds) if k in names]

    def brewing(indices: list[int]) -> list[int]:
        return [i for i in indices if roles[i] in BREWING] or indices

    if of("confirm"):
        return of("confirm")[0]
    if of("keep"):
        return rng.choice(brewing(of("keep")))
    if of("lead"):
        return rng.choice(of("lead"))
    if of("claim", "favor", "open-favor", "decline_favor"):
        roll = rng.random()
        if roll < 0.4 and of("claim"):
            return of("claim")[0]
        if of("favor", "open-favor"):
            return of("favor", "open-favor")[0]
        return rng.choice(of("claim", "favor", "open-favor", "decline_favor"))
    for brew in ("act", "buy"):
        if of(brew):
            return rng.choice(of(brew))
    for group in (("pass",), ("give",), ("buy", "no_buy"), ("decline",)):
        if of(*group):
            return rng.choice(of(*group))
    return rng.randrange(len(kinds))


def step(player: Player, rng: random.Random) -> dict[str, Any]:
    info: dict[str, Any] = player.page.evaluate(PICK_JS)
    if info["state"] != "move":
        return info
    index = choose(info["kinds"], info["roles"], info["chooser"], rng)
    if not player.page.evaluate(MARK_JS, [index, info["chooser"]]):
        return {"state": "wait"}
    if not click_pick(player):  # the table was redrawn (another seat moved): look again
        return {"state": "wait"}
    return info


SPECTATOR_STATE_JS = """
() => {
  const state = window.coven.page.state;
  return {seat: state.seat, legal: state.legal.length,
          hands: state.view.players.map((p) => p.hand),
          setAside: state.view.players.map((p) => p.set_aside)};
}
"""


def until(read: Any, wanted: str, seconds: float = 10) -> str:
    """Poll ``read()`` until it contains ``wanted`` (the page's CSP forbids wait_for_function's
    string evaluation)."""
    deadline = time.monotonic() + seconds
    while True:
        text = str(read())
        if wanted in text:
            return text
        assert time.monotonic() < deadline, f"{wanted!r} never appeared (last: {text!r})"
        time.sleep(0.05)


def assert_sees_no_hand(spectator: Player, *, over: bool = False) -> None:
    page = spectator.page
    assert page.locator("[data-testid=hand]").count() == 0
    assert page.locator("[data-testid=hand-card]").count() == 0
    assert page.locator("#table [data-action]").count() == 0
    assert page.locator("[data-testid=spectating]").count() == (0 if over else 1)
    seen = page.evaluate(SPECTATOR_STATE_JS)
    assert seen["seat"] is None and seen["legal"] == 0
    assert seen["hands"] == ["hidden"] * 3, seen
    assert seen["setAside"] == ["hidden"] * 3, seen


def test_whole_brew_match_by_clicking(browser: Any, coven_server: str, artifacts: Path) -> None:
    rng = random.Random(2008)
    host = new_player(browser, "Morgana", locale="en-US", viewport={"width": 1366, "height": 900})
    phone = new_player(
        browser,
        "Baba",
        locale="vi-VN",
        viewport={"width": 375, "height": 812},
        is_mobile=True,
        has_touch=True,
    )
    spectator = new_player(
        browser, "spectator", locale="es-ES", viewport={"width": 1280, "height": 900}
    )
    players = [host, phone]
    everyone = [*players, spectator]

    page = host.page
    page.goto(f"{coven_server}/")
    page.check("[data-testid=game-list] input[value=witchs-brew]")
    page.fill("[data-testid=host-name]", host.name)
    page.check("[data-testid=visibility-private]")
    # The rulebook's 3-4 player variant: 2 roles nobody may keep, turned up each set.
    page.check("input[name=opt-variant_blocked_roles]")
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/*")
    invite = until(lambda: page.input_value("[data-testid=invite-link]"), "/r/")
    phone.page.goto(invite)
    phone.page.fill("[data-testid=join-name]", phone.name)
    phone.page.click("[data-testid=join-button]")
    phone.page.wait_for_selector(f"[data-testid=seat-1] >> text={phone.name}")
    spectator.page.goto(invite)
    spectator.page.wait_for_selector("[data-testid=seat-1]")
    # The host picks the bot's level: the three levels are offered, and the seat keeps it.
    levels = page.eval_on_selector_all(
        "[data-testid=bot-level] option", "(options) => options.map((o) => o.value)"
    )
    assert levels == ["random", "greedy", "strong"]
    page.select_option("[data-testid=bot-level]", "greedy")
    page.click("[data-testid=add-bot]")
    page.wait_for_selector("[data-testid=seat-2]")
    code = page.url.split("/r/")[1].split("#")[0].split("?")[0]
    seats = httpx.get(f"{coven_server}/api/rooms/{code}").json()["seats"]
    assert seats[2]["bot"] == "greedy"
    page.click("[data-testid=start]")
    for player in everyone:
        player.page.wait_for_selector("#table .wb [data-testid=phase]")

    # Choosing 5 of 12: twelve role cards to tap, a counter, and the confirm button at 5.
    page.wait_for_selector("#table [data-testid=choose] [data-action=keep]")
    assert in_view.check_decision(page)
    assert page.locator("#table [data-testid=choose] [data-action=keep]").count() == 10
    assert page.locator("#table [data-testid=choose] .card.role.blocked").count() == 2
    assert page.locator("#table [data-testid=blocked] .role-chip").count() == 2
    # A blocked role and a potion stack's top card in full, on a tap.
    english = json.loads((ROOT / "static" / "i18n" / "en.json").read_text(encoding="utf-8"))
    blocked = page.get_attribute("#table [data-testid=blocked] .role-chip", "data-role")
    text = pinned_detail(
        host, "#table [data-testid=blocked] .role-chip", artifacts, "brew-role-detail"
    )
    assert english[f"wb.role_full.{blocked}"] in text and english["wb.favor"] in text, text
    close_detail(host)
    stack = page.inner_text("#table .stacks .potion.top .card-name")
    text = pinned_detail(host, "#table .stacks .potion.top", artifacts, "brew-potion-detail")
    assert (
        stack in text and "victory points" in text and re.search(r"\d+ (\w+ )?(drop|gold)", text)
    ), text
    close_detail(host)
    page.locator("#table [data-action=keep]").first.click()
    # (not data-pending='0': the bot's own choice redraws the table before the server answers)
    until(lambda: page.inner_text("[data-testid=kept-count]"), "1/5")
    # The second one with the keyboard alone: real buttons, and focus survives the redraw.
    page.locator("#table [data-action=keep]").first.focus()
    page.keyboard.press("Enter")
    until(lambda: page.inner_text("[data-testid=kept-count]"), "2/5")
    assert page.evaluate("document.activeElement.dataset.key || ''").startswith("pick-")
    until(lambda: page.inner_text("[data-testid=kept-count]"), "2/5")
    shot(host, artifacts, "brew-choose")
    phone.page.wait_for_selector("#table [data-testid=choose] [data-action=keep]")
    shot(phone, artifacts, "brew-choose-phone-vi", full_page=False)
    assert_fits_the_screen(phone)
    vietnamese = json.loads((ROOT / "static" / "i18n" / "vi.json").read_text(encoding="utf-8"))
    blocked = phone.page.get_attribute("#table [data-testid=blocked] .role-chip", "data-role")
    text = pinned_detail(
        phone, "#table [data-testid=blocked] .role-chip", artifacts, "brew-role-detail-phone-vi"
    )
    assert vietnamese[f"wb.role_full.{blocked}"] in text, text
    close_detail(phone)
    assert_sees_no_hand(spectator)

    moments: set[str] = set()
    bidding = "#table .claim .answer.a-lead"
    answered = "#table .claim .answer:not(.a-lead):not(.a-waiting)"
    responding = "#table .wb[data-phase=respond]"

    def seen(page: Any, *selectors: str) -> bool:
        return all(page.locator(selector).count() for selector in selectors)

    def look() -> None:
        """Pictures of the moments a player would notice, taken once each."""
        # Mid-claim from the host's seat: she holds the role and must answer (the table waits
        # for her, so the picture is of exactly that moment).
        # The first such moment is kept, then replaced once by one where others already spoke.
        holder = "#table .wb[data-pending='0'] [data-action=claim]"
        if "bidding-answered" not in moments and seen(host.page, holder, answered):
            shot(host, artifacts, "brew-bidding")
            moments.update({"bidding", "bidding-answered"})
        elif "bidding" not in moments and seen(host.page, holder, bidding):
            shot(host, artifacts, "brew-bidding")
            moments.add("bidding")
        if "takeover" not in moments and seen(host.page, "#table [data-testid=takeover]"):
            shot(host, artifacts, "brew-takeover")
            moments.add("takeover")
        if "phone-chooser" not in moments and seen(phone.page, "#table .moves .chooser"):
            shot(phone, artifacts, "brew-chooser-phone-vi", full_page=False)
            assert_fits_the_screen(phone)
            moments.add("phone-chooser")
        if "lead" not in moments and seen(phone.page, "#table .moves [data-action=lead]"):
            shot(phone, artifacts, "brew-lead-phone-vi", full_page=False)
            assert_fits_the_screen(phone)
            moments.add("lead")
        if "phone" not in moments and seen(phone.page, responding, "[data-testid=hand-card]"):
            shot(phone, artifacts, "brew-phone-vi", full_page=False)
            assert_fits_the_screen(phone)
            moments.add("phone")
        if "spectator" not in moments and spectator.page.locator("#table .claim").count():
            shot(spectator, artifacts, "brew-spectator-es")
            assert_sees_no_hand(spectator)
            # A player sees her own hand and no one else's.
            hands = host.page.evaluate(SPECTATOR_STATE_JS)["hands"]
            assert isinstance(hands[0], list) and hands[1:] == ["hidden", "hidden"], hands
            # The language switch redraws the live table at once, role names included.
            spec = spectator.page
            spec.select_option("[data-testid=lang-select]", "vi")
            until(lambda: spec.inner_text("#table .phase-line"), "Lượt chia")
            assert "Ta là" in spec.inner_text("#table [data-testid=claim]")
            spec.select_option("[data-testid=lang-select]", "es")
            until(lambda: spec.inner_text("#table .phase-line"), "Mano")
            moments.add("spectator")

    deadline = time.monotonic() + MATCH_SECONDS
    over: set[str] = set()
    phone_heights: list[int] = []  # the phone's page whenever she is to move
    decisions = {player.name: 0 for player in players}
    watch = TableWatch()  # issue 21: axe on every table state, the live region at every move
    while len(over) < len(players):
        assert time.monotonic() < deadline, "the match did not end in time"
        moved = False
        look()
        for player in players:
            if player.name in over:
                continue
            # Issue 21, before any click: the laptop's own area in view, the phone's controls
            # uncovered, at every decision.
            decisions[player.name] += in_view.check_decision(player.page)
            watch.step(player)
            info = step(player, rng)
            if info["state"] == "over":
                over.add(player.name)
            if player is phone and info["state"] == "move":
                # The page's height at her decision; not if the match ended meanwhile (the
                # last move of another witch): the end screen is no decision (a CI run: 2,044).
                height, ended = phone.page.evaluate(
                    "[document.documentElement.scrollHeight,"
                    " Boolean((window.coven.page.state || {}).result)]"
                )
                if not ended:
                    phone_heights.append(height)
            moved = moved or info["state"] == "move"
        watch.step(spectator)
        if not moved:
            host.page.wait_for_timeout(20)
    # The phone's page stays under 2.5 screens through the whole match.
    assert phone_heights and max(phone_heights) < 2.5 * 812, phone_heights
    assert all(decisions.values()), decisions

    for player in everyone:
        player.page.wait_for_selector("[data-testid=game-over]")
    shot(host, artifacts, "brew-end")
    shot(phone, artifacts, "brew-end-phone-vi", full_page=False)
    assert_fits_the_screen(phone)
    shot(spectator, artifacts, "brew-end-spectator-es")
    for player in everyone:
        watch.step(player)
    print(watch.done())
    assert {"bidding", "spectator"} <= moments, moments

    # The end screen ranks by the result's placings.
    result = page.evaluate("window.coven.page.state.result")
    rows = page.locator("[data-testid=ranking] li")
    seats = [int(s) for s in rows.evaluate_all("(li) => li.map((e) => e.dataset.seat)")]
    assert sorted(seats) == [0, 1, 2]
    assert [result["placings"][s] for s in seats] == sorted(result["placings"])
    assert page.inner_text("[data-testid=winner]").strip()
    assert_sees_no_hand(spectator, over=True)

    # The log told the bidding in words.
    log = page.inner_text("[data-testid=log]")
    assert re.search(r"Set \d+ begins", log), log
    assert "“I am the" in log and "ravens taken" in log
    spec_log = spectator.page.inner_text("[data-testid=log]")
    assert "«¡Soy" in spec_log and re.search(r"Empieza la mano \d+", spec_log)

    for player in everyone:
        missing = player.page.evaluate("window.coven.missingKeys()")
        assert missing == [], f"{player.name}: missing translations {missing}"
    for player in everyone:
        assert player.errors == [], f"{player.name}: {player.errors}"
    for player in everyone:
        player.page.context.close()


def test_shared_components_rank_and_guard_moves(browser: Any, coven_server: str) -> None:
    """static/js/table.js in the browser: the end screen orders seats by `placings` (ties share
    a place, the tie-break orders the rest), and a move is sent once until the table resets."""
    player = new_player(browser, "probe")
    player.page.goto(f"{coven_server}/")
    seen = player.page.evaluate(
        """async () => {
          const table = await import('/static/js/table.js');
          const root = document.createElement('div');
          document.body.append(root);
          const sent = [];
          let online = true;
          const ctx = {root, seatName: (s) => `W${s}`, seatInfo: () => null, rematch() {},
                       act: (a) => { sent.push(a.type); return online; }};
          const result = {winners: [1, 3], scores: [5, 9, 2, 9], placings: [3, 1, 4, 1]};
          const screen = table.endScreen(ctx, result, [0, 1, 2, 3], {
            words: {headline: 'h', reason: 'r', place: (n) => `#${n}`, rematch: 'again',
                    lobby: 'lobby'},
            line: (seat) => [`${result.scores[seat]}`],
          });
          const rows = [...screen.querySelectorAll('[data-testid=ranking] li')];
          root.innerHTML = '<div class="t"></div>';
          let redrawn = 0;
          const moves = table.createMoves(ctx, '.t', () => { redrawn += 1; });
          root.firstChild.append(moves.button('go', {type: 'go'}));
          moves.send({type: 'go'});
          moves.send({type: 'again'});
          const pendingAfter = [root.firstChild.dataset.pending,
                                root.querySelector('[data-action]').disabled];
          moves.reset();
          online = false;
          moves.send({type: 'offline'});
          return {seats: rows.map((li) => +li.dataset.seat),
                  places: rows.map((li) => li.querySelector('.place').textContent),
                  winners: rows.filter((li) => li.classList.contains('winner')).length,
                  sent, pendingAfter, pendingOffline: moves.pending, redrawn,
                  around: [table.seatsAround(4, 2), table.seatsAround(3, null)]};
        }"""
    )
    assert seen["seats"] == [1, 3, 0, 2]
    assert seen["places"] == ["#1", "#1", "#3", "#4"]
    assert seen["winners"] == 2
    assert seen["sent"] == ["go", "offline"]  # the second click while pending is dropped
    assert seen["pendingAfter"] == ["1", True]
    assert seen["pendingOffline"] is False and seen["redrawn"] == 1  # a lost socket redraws
    assert seen["around"] == [[3, 0, 1], [0, 1, 2]]
    assert player.errors == []
    player.page.context.close()


def _events_of_random_matches() -> dict[str, dict[str, Any]]:
    """One event of each type Witch's Brew emits, from random matches of the engine (both
    options of the thieves' favor, the variant on)."""
    from engine.brew.game import WitchsBrew

    game = WitchsBrew()
    found: dict[str, dict[str, Any]] = {}
    for seed, options in ((1, {"variant_blocked_roles": True}), (2, {"thief_favor": "buy"})):
        rng = random.Random(seed)
        state = game.setup(3, seed, options)
        while game.result(state) is None:
            seat = min(game.to_move(state))
            step = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            for event in step.events:
                found.setdefault(event["type"], {k: v for k, v in event.items() if k[0] != "@"})
            state = step.state
    return found


DESCRIBE_JS = """
async ([lang, events]) => {
  localStorage.setItem('coven:lang', lang);
  const i18n = await import('/static/js/i18n.js');
  await i18n.initI18n();
  const brew = await import('/static/js/games/witchs-brew.js');
  const root = document.createElement('div');
  const renderer = await brew.createRenderer({root, t: i18n.t, seatName: (s) => `W${s}`,
    seatInfo: () => null, act: () => true, rematch() {}});
  const lines = {};
  for (const [type, event] of Object.entries(events)) lines[type] = renderer.describe(event);
  return {lines, missing: window.coven.missingKeys()};
}
"""


def test_every_brew_event_is_told_in_words(browser: Any, coven_server: str) -> None:
    """The table log says every event the engine emits, in all three languages, with every
    placeholder filled; only the ones the table itself shows are left out."""
    from engine.brew.game import WitchsBrew

    events = _events_of_random_matches()
    shown_on_the_table = {"role_kept", "role_unkept", "lead_owed"}
    # (random play never undoes: "undone" and "undone_privately" are told by the shared table
    # layer, tests/e2e/test_undo.py)
    unplayed = {"variant_shuffled", "shelf_declined", "undone", "undone_privately"}
    assert set(WitchsBrew.event_types) - set(events) <= unplayed
    player = new_player(browser, "reader")
    player.page.goto(f"{coven_server}/")
    for lang, takes_over in (("en", "takes the claim"), ("vi", "giành quyền"), ("es", "le quita")):
        seen = player.page.evaluate(DESCRIBE_JS, [lang, events])
        assert takes_over in seen["lines"]["claimed"], seen["lines"]["claimed"]
        assert seen["missing"] == [], seen["missing"]
        for kind, line in seen["lines"].items():
            if kind in shown_on_the_table:
                assert line is None, kind
                continue
            assert line and "{" not in line and "undefined" not in line, (lang, kind, line)
    assert player.errors == []
    player.page.context.close()
