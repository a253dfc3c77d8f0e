"""Accessibility checks the browser tests share (issue 21, item 4).

- ``assert_accessible(page, where)``: axe-core (WCAG 2.0/2.1 A and AA, contrast included) on the
  page as it is; no serious or critical violation, the violations found are in the message.
- ``TableStates``: axe on every distinct table state a whole-match test reaches, once per
  state (a signature: the game, its phase, what floats open, the kinds of moves offered, the
  end screen, the screen width), and the symbols beside colours there.
- ``LiveRegion``: the table's live region (static/js/table.js ``liveRegion``) says something new
  whenever new events reached the table log.
- ``assert_symbols_beside_colours(page)``: every coloured token, seat colour and chip carries a
  letter, a glyph or words.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("serious", "critical")
AXE = Axe()
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": WCAG}, "resultTypes": ["violations"]}
# Finishes every finite animation of the page.
FINISH_ANIMATIONS = (
    "() => { for (const a of document.getAnimations()) {"
    " const t = a.effect && a.effect.getComputedTiming();"
    " if (t && t.endTime !== Infinity) a.finish(); } }"
)


def axe_violations(page: Any, context: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """axe-core's WCAG A/AA violations of the page as it is now (every impact); ``context``:
    axe's (``{"include": [["#table"]]}``: that part only), else the whole page."""
    # Finite animations first: a card fading in is measured at its final colours.
    page.evaluate(FINISH_ANIMATIONS)
    results = AXE.run(page, context=context, options=AXE_OPTIONS)
    violations: list[dict[str, Any]] = results.response["violations"]
    if any(v["id"] == "color-contrast" for v in violations):
        # Something may have begun fading in while axe looked (a state message drew the end
        # screen just then), its colours measured half-way (a mid-session run: 4.03 where the
        # final colours give 4.5+). Look again, at the final colours: a real one stays.
        page.evaluate(FINISH_ANIMATIONS)
        results = AXE.run(page, context=context, options=AXE_OPTIONS)
        violations = results.response["violations"]
    return violations



def describe(violations: list[dict[str, Any]]) -> str:
    """What is wrong and where: rule, impact, help, and up to four elements each."""
    lines = []
    for v in violations:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']} [{len(v['nodes'])} elements]")
        for node in v["nodes"][:4]:
            target = " ".join(str(t) for t in node.get("target", []))
            summary = (node.get("failureSummary") or "").replace("\n", " ")[:220]
            lines.append(f"    {target}: {summary}")
    return "\n".join(lines)


def blocking(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [v for v in violations if v.get("impact") in BLOCKING]


def assert_accessible(
    page: Any, where: str, context: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """No serious or critical WCAG 2.1 A/AA violation on the page (or in axe's ``context``);
    the lesser ones found are returned (a caller may print or collect them)."""
    found = axe_violations(page, context)
    bad = blocking(found)
    assert not bad, f"axe-core on {where} ({page.url}):\n{describe(bad)}"
    return [v for v in found if v not in bad]


# The table state a whole-match test is in, as far as what axe checks can differ: the game and
# its phase, which overlay or chooser floats open, the kinds of controls offered, the end screen,
# the screen's width class.
SIGNATURE_JS = """
() => {
  const table = document.querySelector('#table > div');
  const open = (s) => [...document.querySelectorAll(s)].some((e) => e.offsetParent !== null);
  const kinds = [...document.querySelectorAll('#table [data-action]')]
    .filter((e) => e.offsetParent !== null).map((e) => e.dataset.action);
  return JSON.stringify([
    table ? table.className.split(' ')[0] : 'none',
    table ? table.dataset.phase : '',
    open('#table .chooser') ? 'chooser' : '',
    open('#table .confirm-pop') ? 'confirm' : '',
    open('[data-testid=card-detail].pinned') ? 'detail' : '',
    document.body.classList.contains('talk-open') || open('.talk.open') ? 'talk' : '',
    open('#rules-panel') ? 'rules' : '',
    [...new Set(kinds)].sort().join(','),
    !!document.querySelector('[data-testid=game-over]'),
    document.documentElement.clientWidth < 700 ? 'phone' : 'wide',
    table && table.classList.contains('spectator') ? 'spectator' : 'seat',
  ]);
}
"""


@dataclass
class TableStates:
    """axe on each distinct table state once (``check`` at every step of a whole match)."""

    seen: set[str] = field(default_factory=set)
    moderate: dict[str, str] = field(default_factory=dict)
    pages: set[str] = field(default_factory=set)
    seconds: float = 0.0

    def check(self, player: Any) -> bool:
        """Run axe if this state of ``player``'s page is new; whether it ran. The whole page
        the first time and whenever the chat drawer or the rules sheet is open; else the table
        only (the rest of the page is the same, and its log grows long)."""
        page = player.page
        signature: str = page.evaluate(SIGNATURE_JS)
        if signature in self.seen:
            return False
        self.seen.add(signature)
        started = time.monotonic()
        whole = player.name not in self.pages or '"talk"' in signature or '"rules"' in signature
        self.pages.add(player.name)
        context = None if whole else {"include": [["#table"]]}
        for v in assert_accessible(page, f"{player.name}'s table {signature}", context):
            self.moderate.setdefault(v["id"], v["help"])
        self.seconds += time.monotonic() - started
        assert_symbols_beside_colours(page)
        return True


LIVE_JS = """
() => {
  const live = document.querySelector('[data-testid=table-live]');
  const log = document.querySelectorAll('#log li');
  return {
    live: live ? live.textContent : null,
    polite: live ? live.getAttribute('aria-live') : null,
    tail: [...log].slice(-3).map((li) => li.textContent).join(' | '),
    // the newest version the log tells (history read back on demand goes above it, unsaid)
    newest: Math.max(0, ...[...log].map((li) => +(li.dataset.version || 0))),
    version: document.querySelector('#table > div')?.dataset.version || null,
  };
}
"""


@dataclass
class LiveRegion:
    """Watches one page: whenever new lines reached the table log (new events, a new version),
    the live region's text has changed too, and it is polite."""

    last: dict[str, Any] | None = None
    changes: int = 0

    def check(self, page: Any) -> None:
        now: dict[str, Any] = page.evaluate(LIVE_JS)
        if now["live"] is None:  # (no table yet)
            return
        assert now["polite"] == "polite", now
        before, self.last = self.last, now
        if before is None or now["version"] == before["version"]:
            return
        # Lines of the version now shown, newer than any the log told before: the message's
        # own events, which the live region says. (Earlier history the log reads back when it
        # comes into view, and a gap's versions the log reads afterwards, are not said.)
        if now["newest"] > before["newest"] and now["newest"] == int(now["version"] or 0):
            assert now["live"] != before["live"], (
                f"the table log told new events (version {before['version']} → "
                f"{now['version']}: {now['tail']!r}) but the live region still says "
                f"{now['live'][-200:]!r}"
            )
            assert now["live"].strip()
            self.changes += 1


# Every piece whose kind a colour tells (an ingredient cube or recipe slot, a drop of Witch's
# Brew, a Seasons energy) says it without colour too: a symbol inside it (a cube, a slot, a drop),
# or a shape of its own kind (an energy, a seat's presence dot), and a name for a screen reader
# (its own, or its group's).
SYMBOLS_JS = """
() => {
  const bad = [];
  const shapes = new Map();
  const kindOf = (e) => [...e.classList].find((c) => c.startsWith('c-'));
  for (const e of document.querySelectorAll('#table :is(.cube, .slot.filled, .drop, .nrg)')) {
    if (e.offsetParent === null || !kindOf(e)) continue;
    const named = e.closest('[aria-label]');
    if (!named || !named.getAttribute('aria-label').trim()) bad.push(`${e.className}: no name`);
    if (e.classList.contains('nrg')) {
      const style = getComputedStyle(e);
      const shape = [style.clipPath, style.borderRadius, style.transform].join(' ');
      const kinds = shapes.get(shape) || new Set();
      kinds.add(kindOf(e));
      shapes.set(shape, kinds);
      continue;
    }
    const glyph = getComputedStyle(e, '::after').content;
    if (!glyph || ['none', 'normal', '""'].includes(glyph)) bad.push(`${e.className}: no symbol`);
  }
  // A seat's presence dot (connected, away, a bot): a shape of its own too.
  for (const e of document.querySelectorAll(':is(#table, #seats) .dot:is(.on, .off, .bot)')) {
    if (e.offsetParent === null) continue;
    const style = getComputedStyle(e);
    const shape = [style.borderRadius, style.backgroundColor === 'rgba(0, 0, 0, 0)'].join(' ');
    const kinds = shapes.get(shape) || new Set();
    kinds.add([...e.classList].find((c) => ['on', 'off', 'bot'].includes(c)));
    shapes.set(shape, kinds);
  }
  for (const [shape, kinds] of shapes) {
    if (kinds.size > 1) bad.push(`${[...kinds]} share one shape (${shape})`);
  }
  return [...new Set(bad)].slice(0, 8);
}
"""


def assert_symbols_beside_colours(page: Any) -> int:
    """Every coloured piece on the table says its kind without colour; how many were seen."""
    missing: list[str] = page.evaluate(SYMBOLS_JS)
    assert missing == [], f"pieces told by colour alone: {missing}"
    count: int = page.evaluate(
        "document.querySelectorAll('#table :is(.cube, .slot.filled, .drop, .nrg)').length"
    )
    return count


@dataclass
class TableWatch:
    """What a whole-match test calls at each step of each player (``step``) and once at the
    end (``done``): axe on every new table state, the live region telling every new event."""

    states: TableStates = field(default_factory=TableStates)
    live: dict[str, LiveRegion] = field(default_factory=dict)

    def step(self, player: Any, *, axe: bool = True) -> None:
        self.live.setdefault(player.name, LiveRegion()).check(player.page)
        if axe:
            self.states.check(player)

    def done(self) -> str:
        """Asserts something was checked; a summary for the test's output."""
        assert self.states.seen, "no table state was checked by axe"
        told = {name: live.changes for name, live in self.live.items()}
        assert all(told.values()), f"a live region never spoke: {told}"
        return (
            f"axe: {len(self.states.seen)} table states in {self.states.seconds:.0f} s;"
            f" live region changes {told}; lesser violations {sorted(self.states.moderate)}"
        )
