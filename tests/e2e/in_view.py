"""What a player sees at her decisions, checked in the whole-match tests before any click
(Playwright's click and ``click_pick`` scroll the page, so they would hide what is checked).

- ``assert_mine_in_view(page)``, a laptop player (issue 21, item 2): her own board, her hand and
  her moves panel, and every move control in that panel or in an open chooser or question,
  intersect the part of the window under the sticky top bar, as the page is scrolled now.
- ``assert_controls_hit(page)``, a phone player (item 2 too): every visible control whose centre
  lies in the window is what the browser finds at that centre (``elementFromPoint``), so a tap
  there reaches it. What may be found instead: the page's sticky bars (a control scrolled under
  them is out of sight, not covered) and an open dialog (a question, the drawer, the rules) that
  the player answers first. Anything else on top (a floating button) is a failure; a control
  scrolled out of sight inside a box that scrolls (a long chooser, a sideways row) is not visible.

Both do nothing when the player has no decision (not her turn, a move on its way, the end), and
return whether they checked, so a test can count the decisions it saw.
"""

from __future__ import annotations

from typing import Any

# The table's root is `#table > div` (table.js tableRoot), with data-my-turn and data-pending.
DECISION_JS = """
() => {
  const root = document.querySelector('#table > [data-version]');
  return Boolean(root && root.dataset.myTurn === '1' && root.dataset.pending !== '1'
    && !document.querySelector('#table [data-testid=game-over]'));
}
"""

MINE_JS = """
() => {
  for (const a of document.getAnimations()) {
    const timing = a.effect && a.effect.getComputedTiming();
    if (timing && timing.endTime !== Infinity) a.finish();
  }
  const bar = document.querySelector('.topbar');
  const top = bar ? Math.round(Math.max(0, bar.getBoundingClientRect().bottom)) : 0;
  const bottom = window.innerHeight, right = document.documentElement.clientWidth;
  const where = (e) => {
    const r = e.getBoundingClientRect();
    return {top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left),
            right: Math.round(r.right)};
  };
  const inView = (r) => r.bottom > top && r.top < bottom && r.right > 0 && r.left < right;
  const name = (e) => e.dataset.testid || e.dataset.key || e.dataset.action || e.tagName;
  const out = [];
  const board = document.querySelector('#table [data-testid=my-board]');
  if (!board) out.push('no board of her own');
  const areas = [board, document.querySelector('#table [data-testid=hand]'),
                 document.querySelector('#table [data-testid=moves]')].filter(Boolean);
  const rendered = (e) => !e.disabled && e.getClientRects().length > 0
    && getComputedStyle(e).visibility !== 'hidden';
  const controls = [...document.querySelectorAll(
    '#table [data-testid=moves] [data-action], #table :is(.chooser, .confirm-pop) [data-action]',
  )].filter(rendered);
  // A control scrolled out of sight inside a box of its own that scrolls (a long chooser) is
  // reached by scrolling that box, not the page: the box itself is checked instead.
  const scroller = (e) => {
    for (let up = e.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (['auto', 'scroll'].includes(style.overflowY) && up.scrollHeight > up.clientHeight) {
        return up;
      }
    }
    return null;
  };
  for (const e of [...areas, ...controls.map((c) => scroller(c) || c)]) {
    const r = where(e);
    if (!inView(r)) out.push(`${name(e)} at ${r.top}..${r.bottom} (seen ${top}..${bottom})`);
  }
  // When something is out, what stands above it: the table's blocks in the order seen.
  const blocks = out.length ? [...document.querySelector('#table > [data-version]').children]
    .map((e) => [where(e).top, `${(e.className || e.tagName).toString().slice(0, 30)}:`
      + `${where(e).bottom - where(e).top}`])
    .sort((a, b) => a[0] - b[0]).map((x) => x[1]) : [];
  return {out: [...new Set(out)].slice(0, 8), scroll: Math.round(window.scrollY), blocks,
          phase: document.querySelector('#table > [data-version]').dataset.phase};
}
"""

HIT_JS = """
() => {
  for (const a of document.getAnimations()) {
    const timing = a.effect && a.effect.getComputedTiming();
    if (timing && timing.endTime !== Infinity) a.finish();
  }
  const width = document.documentElement.clientWidth, height = window.innerHeight;
  const selector = 'button, a[href], input:not([type=hidden]), select, textarea, summary,'
    + ' [tabindex]:not([tabindex="-1"])';
  // (checkVisibility: also not inside a folded <details>, whose content keeps its boxes)
  const shown = (e) => !e.disabled
    && e.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})
    && getComputedStyle(e).pointerEvents !== 'none';
  // The page's own sticky bars: what scrolls under them is out of sight.
  const sticky = (e) => {
    for (let up = e; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).position === 'sticky') return up;
    }
    return null;
  };
  // Outside the visible part of a box that scrolls or clips (a long chooser, a sideways row).
  const clipped = (e, x, y) => {
    for (let up = e.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const r = up.getBoundingClientRect();
      if (x < r.left || x > r.right || y < r.top || y > r.bottom) return true;
    }
    return false;
  };
  const dialog = (e) => e.closest(
    '[role=dialog], [role=alertdialog], .talk.open, .detail-panel.pinned');
  const label = (e) => {
    const text = (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30);
    return `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${e.className}`.slice(0, 60)
      + (text ? ` "${text}"` : '');
  };
  const out = [];
  let checked = 0;
  for (const e of document.querySelectorAll(selector)) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= width || y >= height) continue;  // off screen: not visible now
    if (clipped(e, x, y)) continue;  // scrolled out of its scrolling box: not visible now
    checked += 1;
    const hit = document.elementFromPoint(x, y);
    if (!hit || e.contains(hit)) continue;
    const bar = sticky(hit);
    if (bar && !bar.contains(e)) continue;
    const over = dialog(hit);
    if (over && !over.contains(e)) continue;
    out.push(`${label(e)} is under ${label(hit)}`);
  }
  return {out: out.slice(0, 8), checked, scroll: Math.round(window.scrollY)};
}
"""


def at_decision(page: Any) -> bool:
    """The player owes a move now and none of hers is on its way."""
    return bool(page.evaluate(DECISION_JS))


def assert_mine_in_view(page: Any) -> bool:
    """At a decision of a laptop player: her board, hand and moves are in the window without
    scrolling (see the module's docstring). True when it checked."""
    if not at_decision(page):
        return False
    seen = page.evaluate(MINE_JS)
    assert seen["out"] == [], f"not in view at scroll {seen['scroll']} ({seen['phase']}): {seen}"
    return True


def assert_controls_hit(page: Any) -> bool:
    """At a decision of a phone player: no visible control is covered by something else (see
    the module's docstring). True when it checked."""
    if not at_decision(page):
        return False
    seen = page.evaluate(HIT_JS)
    assert seen["out"] == [], f"covered controls at scroll {seen['scroll']}: {seen['out']}"
    return True


def check_decision(page: Any) -> bool:
    """The check that fits the window: a phone-sized one (under 561 px wide, the width the
    tables lay out for a phone) has its controls hit-tested, a wider one its own area in view."""
    if page.viewport_size and page.viewport_size["width"] <= 560:
        return assert_controls_hit(page)
    return assert_mine_in_view(page)
