"""Every name at the table is readable whole in Tiếng Việt and Español, on a desktop and a phone.

For each game a room is made over the HTTP API (the host and two bots) and started; the host
plays random legal moves over the API, so the table holds cards, cubes and roles. Her page is
opened in Vietnamese and in Spanish and looked at twice (she plays on between the looks), each
time at 1280×800 and at 390×844. No text element of the table may be cut: none wider inside
than its box (``scrollWidth > clientWidth``: clipped, or spilling out of it), none ending in an
ellipsis that is not the translation's own ("Đang chờ…").
Pictures: tests/e2e/artifacts/fit-{game}-{lang}-{a|b}-{desktop|phone}.png.
"""

from __future__ import annotations

import random
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.players import FINITE_ANIMATIONS_DONE, Player, new_player, shot, wait_until
from tests.support.i18n_catalog import catalog

pytestmark = pytest.mark.e2e

# The host's own moves before each look at the table: the four looks at a game (two per
# language) see it from its first steps to well into the match, short of the end.
GAMES = {"whirling-witchcraft": 4, "witchs-brew": 5, "seasons": 8}
LANGUAGES = ("vi", "es")
# The layout follows the width alone (no pointer or hover media query), so one page is
# looked at in both sizes.
SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

# The text elements of the table that do not show their whole text, with why.
CUT_JS = """
(endings) => {
  for (const animation of document.getAnimations()) {
    const timing = animation.effect && animation.effect.getComputedTiming();
    if (timing && timing.endTime !== Infinity) animation.finish();
  }
  const cut = [];
  for (const e of document.querySelectorAll('#table *')) {
    const box = e.getBoundingClientRect();
    if (!box.width || !box.height || e.closest('[hidden]')) continue;
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden') continue;
    const text = e.textContent.replace(/\\s+/g, ' ').trim();
    if (!text) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const where = `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} "${text.slice(0, 60)}"`;
    // A chooser's button says "Transmute…": more choices follow, nothing is cut.
    const opens = e.closest('[data-action^="open-"]');
    if (own && /(…|\\.\\.\\.)$/.test(text) && text !== '…' && !opens
        && !endings.some((end) => text.endsWith(end))) cut.push(`ellipsis: ${where}`);
    const inline = style.display === 'inline' || style.display === 'contents';
    const scrolls = ['auto', 'scroll'].includes(style.overflowX);
    // An ellipsis is drawn for a fraction of a pixel: no rounding slack then.
    const slack = style.textOverflow === 'ellipsis' ? 0 : 1;
    if (!inline && !scrolls && e.scrollWidth > e.clientWidth + slack) {
      cut.push(`${e.scrollWidth} > ${e.clientWidth}: ${where}`);
    }
  }
  return cut;
}
"""


class Table:
    """A started room seen by its host over the HTTP API."""

    def __init__(self, url: str, game: str) -> None:
        created = httpx.post(
            f"{url}/api/rooms",
            json={"game": game, "name": "Ana", "visibility": "private", "seats": 3},
            timeout=10,
        ).json()
        self.code: str = created["room"]["code"]
        self.token: str = created["token"]
        self.http = httpx.Client(
            base_url=f"{url}/api/rooms/{self.code}",
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
        )
        for _ in range(2):
            self.http.post("/bots", json={"level": "random"}).raise_for_status()
        self.http.post("/start").raise_for_status()

    def host_to_move(self, seconds: float = 20) -> dict[str, Any]:
        """The host's state once she owes a decision (the bots answer in between)."""
        deadline = time.monotonic() + seconds
        while True:
            state: dict[str, Any] = self.http.get("/state").json()
            if state.get("result") is None and 0 in state["to_move"] and state["legal"]:
                return state
            assert state.get("result") is None, "the match ended before the table was seen"
            assert time.monotonic() < deadline, "the host never came to move"
            time.sleep(0.05)

    def play(self, moves: int, rng: random.Random) -> int:
        """The host plays ``moves`` random legal actions; the version she then sees."""
        for _ in range(moves):
            state = self.host_to_move()
            body = {
                "action": rng.choice(state["legal"]),
                "client_id": uuid.uuid4().hex,
                "version": state["version"],
            }
            self.http.post("/actions", json=body).raise_for_status()
        version: int = self.host_to_move()["version"]
        return version


@pytest.fixture(scope="module")
def tables(coven_server: str) -> dict[str, Table]:
    return {game: Table(coven_server, game) for game in GAMES}


def _own_endings(lang: str) -> list[str]:
    """How the language's own texts with an ellipsis end ("Đang chờ các pháp sư khác…")."""
    endings = [text.split("}")[-1] for text in catalog(lang).values() if text.endswith("…")]
    return sorted({end for end in endings if len(end.strip()) >= 4})


def _look(host: Player, lang: str, artifacts: Path, name: str) -> list[str]:
    """What is cut on a desktop and on a phone, the table as it is now."""
    page = host.page
    cut = []
    for screen, size in SCREENS.items():
        page.set_viewport_size(size)
        page.evaluate(FINITE_ANIMATIONS_DONE)
        cut += [f"{screen}: {c}" for c in page.evaluate(CUT_JS, _own_endings(lang))]
        shot(host, artifacts, f"{name}-{screen}")
    return cut


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_name_fits(
    browser: Any,
    coven_server: str,
    artifacts: Path,
    tables: dict[str, Table],
    game: str,
    lang: str,
) -> None:
    """Two moments of the match (the host plays on over the API between them), two widths."""
    table = tables[game]
    host = new_player(browser, "Ana", locale=lang, viewport=SCREENS["desktop"])
    page = host.page
    rng = random.Random(f"{game}-{lang}")
    table.play(GAMES[game], rng)
    page.goto(f"{coven_server}/r/{table.code}?lang={lang}#seat=0&token={table.token}")
    page.wait_for_selector("#table [data-action]")
    cut = _look(host, lang, artifacts, f"fit-{game}-{lang}-a")
    version = table.play(GAMES[game], rng)
    wait_until(page, f"window.coven.page.state && window.coven.page.state.version >= {version}")
    page.wait_for_selector("#table [data-action]")
    cut += _look(host, lang, artifacts, f"fit-{game}-{lang}-b")
    assert cut == []
    assert page.evaluate("window.coven.missingKeys()") == []
    assert host.errors == []
    page.context.close()
