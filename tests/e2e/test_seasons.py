"""A whole 2-player Seasons match (apprentice level) played by clicking, in Chromium, against
`coven serve`: one sorcerer and a bot the host adds, a spectator in Spanish who sees no hand and
no library, the table on a phone-sized screen in Vietnamese for a while, and a master-level draft
looked at before. Every move is a click on a control the table drew from `legal`.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import in_view
from tests.e2e.a11y import TableWatch
from tests.e2e.players import Player, assert_fits_the_screen, click_pick, new_player, shot

pytestmark = pytest.mark.e2e

MATCH_SECONDS = 360  # (axe on every new table state: tests/e2e/a11y.py)

# The clickable moves on the page right now (those of an open chooser or question first: a
# question floats over the table, as a player answers it first), or why there are none.
PICK_JS = """
() => {
  for (const old of document.querySelectorAll('[data-e2e]')) delete old.dataset.e2e;
  const table = document.querySelector('#table .se');
  if (!table) return {state: 'none'};
  if (document.querySelector('[data-testid=game-over]')) return {state: 'over'};
  if (table.dataset.pending === '1' || table.dataset.myTurn !== '1') return {state: 'wait'};
  const visible = (e) => !e.disabled && e.offsetParent !== null;
  const find = (selector) => [...document.querySelectorAll(selector)].filter(visible);
  const chooser = find('#table :is(.chooser, .confirm-pop) [data-action]');
  const all = chooser.length ? chooser : find('#table [data-action]');
  if (!all.length) return {state: 'wait'};
  return {state: 'move', kinds: all.map((e) => e.dataset.action), chooser: chooser.length > 0,
          phase: table.dataset.phase, year: +table.dataset.year};
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
    """A sorcerer in a hurry: she builds, takes dice, summons what she can afford, sometimes
    transmutes or activates, and otherwise ends her turn (always legal, so the match moves on)."""
    if chooser:
        return rng.randrange(len(kinds))

    def of(*names: str) -> list[int]:
        return [i for i, k in enumerate(kinds) if k in names]

    if of("confirm_libraries"):
        return of("confirm_libraries")[0]
    if of("to_library"):
        return rng.choice(of("to_library"))
    if of("draft_pick"):
        return rng.choice(of("draft_pick"))
    if of("take_die"):
        return rng.choice(of("take_die"))
    if of("resolve_die"):
        return of("resolve_die")[0]
    if of("end_turn"):
        roll = rng.random()
        if roll < 0.6 and of("summon", "open-summon"):
            return rng.choice(of("summon", "open-summon"))
        if roll < 0.75 and of("activate", "open-activate"):
            return rng.choice(of("activate", "open-activate"))
        if roll < 0.9 and of("open-transmute"):
            return of("open-transmute")[0]
        if roll < 0.92 and of("open-bonus"):
            return of("open-bonus")[0]
        return of("end_turn")[0]
    return rng.randrange(len(kinds))  # a question: any answer


def step(player: Player, rng: random.Random) -> dict[str, Any]:
    info: dict[str, Any] = player.page.evaluate(PICK_JS)
    if info["state"] != "move":
        return info
    index = choose(info["kinds"], info["chooser"], rng)
    if not player.page.evaluate(MARK_JS, [index, info["chooser"]]):
        return {"state": "wait"}
    if not click_pick(player):  # the table was redrawn (the bot moved): look again
        return {"state": "wait"}
    info["kind"] = info["kinds"][index]
    return info


SPECTATOR_STATE_JS = """
() => {
  const state = window.coven.page.state;
  return {seat: state.seat, legal: state.legal.length,
          hands: state.view.seats.map((p) => p.hand),
          libraries: state.view.seats.map((p) => p.libraries),
          drafts: state.view.seats.map((p) => p.draft),
          secrets: state.view.pending.filter((t) => 'secret' in t).map((t) => t.secret)};
}
"""


# What the table drew, beside what the state message says it should draw.
DICE_JS = """
() => {
  const view = window.coven.page.state.view;
  const slots = [...document.querySelectorAll('#table [data-testid=dice] .die-slot')];
  return view.dice.map((d, i) => {
    const face = slots[i].querySelector('.die-face');
    const want = d.face;
    return {
      energy: face.querySelectorAll('.nrg').length,
      wantEnergy: Object.values(want.energy).reduce((a, b) => a + b, 0),
      time: face.querySelectorAll('.time-dot').length, wantTime: want.time,
      stars: face.querySelectorAll('.face-star').length, wantStars: want.gauge,
      card: face.querySelectorAll('.face-card').length, wantCard: want.card ? 1 : 0,
      transmute: face.classList.contains('transmute'), wantTransmute: want.transmute,
      label: face.getAttribute('aria-label'),
    };
  });
}
"""

TURN_JS = """
() => {
  const state = window.coven.page.state;
  const of = (type, key) => [...new Set(state.legal.filter((a) => a.type === type).map(key))];
  const hand = [...document.querySelectorAll('#table [data-testid=hand-card]')];
  const mine = document.querySelector('#table [data-testid=my-board]');
  const affordable = hand.filter((c) => c.classList.contains('affordable'));
  const summon = '[data-action=summon], [data-action=open-summon]';
  const activate = '[data-action=activate], [data-action=open-activate]';
  return {
    summonable: of('summon', (a) => a.card).sort((a, b) => a - b),
    affordable: [...new Set(affordable.map((c) => +c.dataset.card))].sort((a, b) => a - b),
    summonButtons: hand.filter((c) => c.querySelector(summon)).length,
    affordableCards: affordable.length,
    activatable: of('activate', (a) => a.slot).length,
    activateButtons: mine.querySelectorAll(activate).length,
  };
}
"""

# Energy tokens differ by shape as well as by colour.
SHAPES_JS = """
() => ['air', 'water', 'fire', 'earth'].map((e) => {
  const style = getComputedStyle(document.querySelector(`#table .rates .nrg.c-${e}`));
  return {shape: `${style.clipPath}|${style.borderRadius}|${style.transform}`,
          colour: style.backgroundImage};
})
"""


def until(read: Any, wanted: str, seconds: float = 10) -> str:
    deadline = time.monotonic() + seconds
    while True:
        text = str(read())
        if wanted in text:
            return text
        assert time.monotonic() < deadline, f"{wanted!r} never appeared (last: {text!r})"
        time.sleep(0.05)


def assert_sees_no_hand(spectator: Player) -> None:
    page = spectator.page
    for testid in ("hand", "hand-card", "my-libraries", "build", "draft", "my-board"):
        assert page.locator(f"[data-testid={testid}]").count() == 0, testid
    assert page.locator("#table [data-action]").count() == 0
    seen = page.evaluate(SPECTATOR_STATE_JS)
    assert seen["seat"] is None and seen["legal"] == 0
    assert seen["hands"] == ["hidden"] * 2, seen
    assert seen["libraries"] == ["hidden"] * 2, seen
    assert seen["drafts"] == ["hidden"] * 2, seen
    assert all(s == "hidden" for s in seen["secrets"]), seen


def open_room(player: Player, server: str, level: str) -> None:
    page = player.page
    page.goto(f"{server}/")
    page.check("[data-testid=game-list] input[value=seasons]")
    # The lobby says what Seasons is and names its levels in the visitor's words (en here).
    assert "sorcerers' tournament" in page.inner_text("[data-testid=game-list]")
    assert "all 50 cards" in page.inner_text("#game-options")
    page.check(f"[data-testid=option-level-{level}]")
    page.fill("[data-testid=host-name]", player.name)
    page.check("[data-testid=visibility-private]")
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/*")


def test_master_draft_screen(browser: Any, coven_server: str, artifacts: Path) -> None:
    """The master level's draft: nine cards offered, each with its text, one picked by a click."""
    host = new_player(browser, "Morgana", locale="en-US", viewport={"width": 1366, "height": 900})
    open_room(host, coven_server, "master")
    page = host.page
    page.click("[data-testid=add-bot]")
    page.wait_for_selector("[data-testid=seat-1]")
    page.click("[data-testid=start]")
    page.wait_for_selector("#table .se [data-testid=draft] [data-action=draft_pick]")
    offered = page.locator("#table [data-testid=draft] .se-card")
    assert offered.count() == 9
    assert page.locator("#table [data-testid=draft] .card-text").first.inner_text().strip()
    # The full text of a card beside it on hover.
    offered.first.hover()
    page.wait_for_selector("[data-testid=card-detail]:not([hidden])")
    shot(host, artifacts, "seasons-draft")
    page.locator("#table [data-action=draft_pick]").first.click()
    page.wait_for_selector(
        "#table .se[data-phase=draft] [data-testid=draft] .kept, #table .se[data-phase=build]"
    )
    assert host.page.evaluate("window.coven.missingKeys()") == []
    assert host.errors == []
    page.context.close()


def test_whole_seasons_match_by_clicking(browser: Any, coven_server: str, artifacts: Path) -> None:
    rng = random.Random(2012)
    host = new_player(browser, "Morgana", locale="en-US", viewport={"width": 1366, "height": 900})
    spectator = new_player(
        browser, "spectator", locale="es-ES", viewport={"width": 1280, "height": 900}
    )
    everyone = [host, spectator]
    open_room(host, coven_server, "apprentice")
    page = host.page
    invite = until(lambda: page.input_value("[data-testid=invite-link]"), "/r/")
    spectator.page.goto(invite)
    spectator.page.wait_for_selector("[data-testid=seat-0]")
    page.click("[data-testid=add-bot]")
    page.wait_for_selector("[data-testid=seat-1]")
    page.click("[data-testid=start]")
    for player in everyone:
        player.page.wait_for_selector("#table .se [data-testid=wheel]")

    # The libraries: nine cards, each with a Year II and a Year III button.
    page.wait_for_selector("#table [data-testid=build] [data-action=to_library]")
    assert page.locator("#table [data-testid=build] .se-card").count() == 9
    assert_sees_no_hand(spectator)

    moments: set[str] = set()
    seen_kinds: set[str] = set()

    def still(player: Player, name: str, **kwargs: Any) -> None:
        """A picture once the move is answered, with the pointer off the cards."""
        player.page.mouse.move(1, 1)
        player.page.wait_for_selector("#table .se[data-pending='0']")
        shot(player, artifacts, name, **kwargs)

    def look() -> None:
        """Pictures of the moments a player would notice, taken once each."""
        if page.locator("#table .se[data-pending='1']").count():
            return  # the table still shows what the last click answered
        third_library = page.locator("#table [data-testid=library-3] .se-card")
        if "libraries" not in moments and third_library.count() >= 2:
            still(host, "seasons-libraries")
            moments.add("libraries")
        if "dice" not in moments and page.locator("#table .die-button").count() >= 2:
            still(host, "seasons-dice")
            for die in page.evaluate(DICE_JS):
                assert die["energy"] == die["wantEnergy"] and die["time"] == die["wantTime"], die
                assert die["stars"] == die["wantStars"] and die["card"] == die["wantCard"], die
                assert die["transmute"] == die["wantTransmute"] and die["label"], die
            tokens = page.evaluate(SHAPES_JS)
            assert len({t["shape"] for t in tokens}) == 4, tokens
            assert len({t["colour"] for t in tokens}) == 4, tokens
            moments.add("dice")
        if (
            "turn" not in moments
            and page.locator("#table .se[data-phase=turn] [data-action=end_turn]").count()
            and page.locator("#table [data-testid=hand-card]").count()
            and page.locator("#table [data-testid=my-board] .in-play .se-card").count()
        ):
            still(host, "seasons-turn")
            moments.add("turn")
        if page.locator("#table .se[data-phase=turn] [data-action=end_turn]").count():
            # Every turn's main step: what is affordable and usable is exactly what is legal.
            drawn = page.evaluate(TURN_JS)
            assert drawn["affordable"] == drawn["summonable"], drawn
            assert drawn["summonButtons"] == drawn["affordableCards"], drawn
            assert drawn["activateButtons"] == drawn["activatable"], drawn
        if (
            "phone" not in moments
            and "turn" in moments
            and page.locator("#table [data-action=end_turn]").count()
            and page.locator("#table [data-testid=hand-card]").count()
        ):
            page.set_viewport_size({"width": 390, "height": 844})
            page.select_option("#lang-select", "vi")
            until(lambda: (page.inner_text("#table [data-testid=phase]"), host.errors), "lượt")
            still(host, "seasons-phone-vi", full_page=False)
            assert in_view.assert_controls_hit(page)
            still(host, "seasons-phone-vi-full")
            assert_fits_the_screen(host)
            # A tap on a card (not on its button) pins its full text, closed by its own button.
            page.locator("#table [data-testid=hand-card] .card-name").first.click()
            page.wait_for_selector("[data-testid=card-detail].pinned:not([hidden])")
            shot(host, artifacts, "seasons-phone-vi-card", full_page=False)
            page.click("[data-testid=card-detail] .detail-close")
            page.mouse.move(1, 1)  # else the card now under the pointer shows its text again
            page.wait_for_selector("[data-testid=card-detail]", state="hidden")
            page.select_option("#lang-select", "en")
            page.set_viewport_size({"width": 1366, "height": 900})
            moments.add("phone")
        if "question" not in moments and page.locator("#table .question-cards .se-card").count():
            still(host, "seasons-question")
            moments.add("question")
        watching = spectator.page.locator("#table .se[data-phase=turn]")
        if "spectator" not in moments and watching.count():
            shot(spectator, artifacts, "seasons-spectator-es")
            assert_sees_no_hand(spectator)
            moments.add("spectator")

    deadline = time.monotonic() + MATCH_SECONDS
    decisions = 0
    watch = TableWatch()  # issue 21: axe on every table state, the live region at every move
    while True:
        assert time.monotonic() < deadline, f"the match did not end (seen {sorted(seen_kinds)})"
        look()
        decisions += in_view.check_decision(page)  # issue 21: her own area in view, unclicked
        watch.step(host)
        watch.step(spectator)
        info = step(host, rng)
        if info["state"] == "over":
            break
        if info["state"] == "move":
            seen_kinds.add(info["kind"])
        else:
            page.wait_for_timeout(20)

    for player in everyone:
        player.page.wait_for_selector("[data-testid=game-over]")
        player.page.mouse.move(1, 1)
    shot(host, artifacts, "seasons-end")
    shot(spectator, artifacts, "seasons-end-spectator-es")
    for player in everyone:
        watch.step(player)
    print(watch.done())
    assert {"libraries", "dice", "turn", "phone", "spectator"} <= moments, moments
    assert decisions, "no decision was checked"
    # The clicks went through every part of a turn.
    assert {"to_library", "confirm_libraries", "take_die", "end_turn"} <= seen_kinds, seen_kinds
    assert seen_kinds & {"summon", "open-summon"}, seen_kinds

    # The end screen ranks by the result's placings, with each part of the score.
    result = page.evaluate("window.coven.page.state.result")
    rows = page.locator("[data-testid=ranking] li")
    seats = [int(s) for s in rows.evaluate_all("(li) => li.map((e) => e.dataset.seat)")]
    assert sorted(seats) == [0, 1]
    assert [result["placings"][s] for s in seats] == sorted(result["placings"])
    assert page.inner_text("[data-testid=winner]").strip()
    assert "prestige" in page.inner_text("[data-testid=ranking]")
    assert_sees_no_hand(spectator)

    # The log told the match in words, in each one's language.
    log = page.inner_text("[data-testid=log]")
    # (the log keeps the last 400 lines: look for what year III says)
    assert "(year III, " in log and "takes a die" in log and "The tournament is over" in log
    assert "uses the die: " in log and "dots of time" in log  # the face, from the event
    assert "Year IV" not in log and "year IV" not in log  # past year III's last month: the end
    spec_log = spectator.page.inner_text("[data-testid=log]")
    assert "(año III, " in spec_log and "toma un dado" in spec_log
    assert "El torneo ha terminado" in spec_log

    for player in everyone:
        missing = player.page.evaluate("window.coven.missingKeys()")
        assert missing == [], f"{player.name}: missing translations {missing}"
    for player in everyone:
        assert player.errors == [], f"{player.name}: {player.errors}"
    for player in everyone:
        player.page.context.close()
