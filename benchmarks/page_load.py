"""Where a room page's load time goes, in Chromium against ``coven serve`` (issue 19, the rematch).

    python benchmarks/page_load.py                 # 5 rounds of four pages at once
    python benchmarks/page_load.py --rounds 10 --pages 4
    git archive OLD | tar -x -C /tmp/old && python benchmarks/page_load.py --against /tmp/old

Starts ``coven serve`` (SQLite in a temporary directory) and opens two Whirling Witchcraft
tables, each with three people and a bot, started (``--against DIR``: a second server run from
another checkout, measured in turns with this one, so both see the same load). Then:

1. the server side of ``GET /r/{code}``: p50/p99 of one request at a time (the HTML only);
2. one page opened in a fresh browser (nothing cached): every request it makes, when it
   started and ended after the navigation began, and whether it came over the network;
3. ``--pages`` pages (one browser context each, as the rematch's players) that already showed
   one table, all sent to the other table at the same instant, ``--rounds`` times (back and
   forth): what the rematch's landing costs. Per page: the HTML, the last module, the i18n
   JSON, ``GET /api/rooms/{code}``, the socket opened, the first ``state`` (the page holds the
   match: "landed", what the rematch's test times), the table drawn;
4. ``--rematch N``: N times, a table of three people and a bot played to its end (random moves
   over the API), each person's page and a spectator's at its end screen, one click on "Play
   again": when each page left, and its milestones in the new room (as tests/e2e/test_rematch.py,
   whose 2 s it checks), timed from the click.

The page is watched from outside only (an init script notes the socket's open and first
``state``, and when the table is drawn); nothing of the product is changed for it. Prints the
tables, the load average, and one JSON line at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Before this script's own folder, whose engine.py (the engine benchmark) would shadow engine/.
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from benchmarks import servers as fleet  # noqa: E402
from tests.e2e.api_rooms import HostedRoom  # noqa: E402
from tests.support.server import free_port  # noqa: E402

CHROMIUM = os.environ.get("COVEN_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--no-first-run",
    "--no-sandbox",
    "--disable-gpu",
]
SERVE = [sys.executable, "-m", "app.cli", "serve", "--log-level", "warning"]
GAME = "whirling-witchcraft"

# Noted in every page before its own scripts run (times on the page's clock, ms after the
# navigation began): the socket opened, its first `state`, the table drawn, the page ready.
WATCH_JS = """(() => {
  const marks = (window.__marks = {});
  const note = (name) => { if (marks[name] === undefined) marks[name] = performance.now(); };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      note('socket');
      this.addEventListener('open', () => note('socket_open'));
      this.addEventListener('message', (event) => {
        try { if (JSON.parse(event.data).type === 'state') note('state'); } catch {}
      });
    }
  };
  const look = () => {
    if (document.querySelector('#table > *')) note('drawn');
    if (document.body && document.body.dataset.ready === '1') note('ready');
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, attributes: true});
})();"""

# What a page measured: its marks, the navigation's own timing and every resource's.
READ_JS = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return {
    origin: performance.timeOrigin,
    marks: window.__marks || {},
    html: {end: nav.responseEnd, request: nav.requestStart, first_byte: nav.responseStart},
    unloaded: nav.unloadEventEnd || null,
    interactive: nav.domInteractive,
    dcl: nav.domContentLoadedEventStart,
    load: nav.loadEventEnd,
    resources: performance.getEntriesByType('resource').map((r) => ({
      name: new URL(r.name).pathname, kind: r.initiatorType, start: r.startTime,
      end: r.responseEnd, bytes: r.transferSize, first_byte: r.responseStart,
    })),
  };
}"""

LANDED_JS = "() => Boolean(window.__marks && window.__marks.drawn && window.__marks.ready)"


def short(path: str) -> str:
    """A resource's path, shortened: the asset version dropped, the room code kept as {code}."""
    parts = path.split("/")
    if len(parts) > 3 and parts[1] == "static" and parts[2] == "v":
        parts = ["", "static", *parts[4:]]  # /static/v/{version}/js/x.js -> /static/js/x.js
    if len(parts) > 3 and parts[1] == "api" and parts[2] == "rooms":
        parts[3] = "{code}"
    if len(parts) > 2 and parts[1] == "r":
        parts[2] = "{code}"
    return "/".join(parts)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def table_of_four(url: str) -> tuple[HostedRoom, list[str]]:
    """A started table: Ana (host), Bea, Cy and a bot; the three people's tokens."""
    room = HostedRoom(url, GAME, seats=4, name="Ana")
    tokens = [room.token, room.join("Bea"), room.join("Cy")]
    room.add_bots(1, "random")
    room.start()
    return room, tokens


def server_side(url: str, code: str, count: int) -> dict[str, float]:
    times = []
    with httpx.Client(base_url=url, timeout=10) as client:
        for _ in range(count):
            started = time.perf_counter()
            response = client.get(f"/r/{code}")
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.status_code
    return {"p50_ms": statistics.median(times), "p99_ms": percentile(times, 0.99)}


def wait_landed(pages: list[Any], seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    waiting = list(pages)
    while waiting:
        assert time.monotonic() < deadline, "a page never drew its table"
        still = []
        for page in waiting:
            try:
                done = page.evaluate(LANDED_JS)
            except Exception:  # the page is navigating
                done = False
            if not done:
                still.append(page)
        waiting = still
        time.sleep(0.02)


def milestones(reading: dict[str, Any], kicked_ms: float) -> dict[str, float]:
    """A page's milestones in ms after its navigation was asked for (``kicked_ms``, epoch)."""
    shift = reading["origin"] - kicked_ms  # the new page's clock starts a little after the kick

    def at(value: float | None) -> float:
        return round(shift + value, 1) if value is not None else float("nan")

    resources = reading["resources"]
    modules = [r for r in resources if r["name"].endswith(".js")]
    i18n = [r for r in resources if "/i18n/" in r["name"]]
    room = [
        r for r in resources if r["name"].startswith("/api/rooms/") and r["name"].count("/") == 3
    ]
    marks = reading["marks"]
    return {
        "html": at(reading["html"]["end"]),
        "old_page_unloaded": at(reading["unloaded"]),
        "html_parsed": at(reading["interactive"]),
        "modules": at(max((r["end"] for r in modules), default=None)),
        "modules_run": at(reading["dcl"]),
        "i18n": at(max((r["end"] for r in i18n), default=None)),
        "room_api": at(min((r["end"] for r in room), default=None)),
        "socket_open": at(marks.get("socket_open")),
        "state": at(marks.get("state")),
        "ready": at(marks.get("ready")),
        "drawn": at(marks.get("drawn")),
    }


def print_resources(title: str, readings: list[dict[str, Any]], shift: list[float]) -> None:
    """Every request of the pages: median start and end (ms after the navigation was asked for),
    how many of the pages went to the network for it (a 304 included)."""
    rows: dict[str, list[tuple[float, float, int]]] = {}
    for reading, offset in zip(readings, shift, strict=True):
        html = reading["html"]
        rows.setdefault("(document) /r/{code}", []).append(
            (offset + html["request"], offset + html["end"], 1)
        )
        for r in reading["resources"]:
            rows.setdefault(f"({r['kind']}) {short(r['name'])}", []).append(
                (offset + r["start"], offset + r["end"], 1 if r["bytes"] > 0 else 0)
            )
    print(f"\n{title}")
    print(f"{'request':<58} {'start':>7} {'end':>7} {'took':>6}  net")
    ordered = sorted(rows.items(), key=lambda item: statistics.median(s for s, _, _ in item[1]))
    for name, seen in ordered:
        start = statistics.median(s for s, _, _ in seen)
        end = statistics.median(e for _, e, _ in seen)
        took = statistics.median(e - s for s, e, _ in seen)
        net = sum(n for _, _, n in seen)
        print(f"{name[:58]:<58} {start:7.0f} {end:7.0f} {took:6.0f}  {net}/{len(seen)}")


class Site:
    """One server (this checkout, or ``--against`` another) with two started tables, and the
    pages (one browser context each) that go back and forth between them."""

    def __init__(self, label: str, checkout: Path, workdir: Path) -> None:
        self.label = label
        env = {
            **os.environ,
            "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{workdir / f'{label}.db'}",
            "COVEN_BOT_DELAY": "0.05",
            "COVEN_ROOMS_BURST": "1000000",
            "COVEN_ROOMS_PER_MINUTE": "1000000",
            "COVEN_SOCKETS_PER_CLIENT": "1000000",
        }
        port = free_port()
        # (`python -m` runs the checkout's own app package: its folder comes first on the path)
        self.process = subprocess.Popen(
            [*SERVE, "--port", str(port)], cwd=checkout, env=env, stdout=subprocess.DEVNULL
        )
        self.url = f"http://127.0.0.1:{port}"
        fleet.wait_ready(self.process, self.url)
        self.tables = [table_of_four(self.url), table_of_four(self.url)]
        self.pages: list[Any] = []
        self.readings: list[dict[str, Any]] = []
        self.shifts: list[float] = []
        self.milestones: list[dict[str, float]] = []
        self.cold: tuple[dict[str, Any], float] | None = None
        self.rematch_readings: list[tuple[dict[str, Any], float]] = []

    def target(self, round_: int, seat: int) -> str:
        room, tokens = self.tables[round_ % 2]
        return room.seat_url(tokens[seat % len(tokens)], seat % len(tokens))

    def open_cold(self, browser: Any) -> None:
        """One page in a fresh context: nothing cached."""
        context = browser.new_context()
        context.add_init_script(WATCH_JS)
        page = context.new_page()
        kicked = time.time() * 1000
        page.goto(self.target(0, 0))
        wait_landed([page])
        self.cold = (page.evaluate(READ_JS), kicked)
        context.close()

    def open_pages(self, browser: Any, count: int) -> None:
        for seat in range(count):
            context = browser.new_context()
            context.add_init_script(WATCH_JS)
            page = context.new_page()
            page.set_default_timeout(20000)
            page.goto(self.target(0, seat))
            self.pages.append(page)
        wait_landed(self.pages)

    def all_go(self, round_: int) -> None:
        """Every page leaves for the other table at the same instant; until all have drawn it."""
        at = time.time() * 1000 + 400
        for seat, page in enumerate(self.pages):
            page.evaluate(GO_JS, [self.target(round_ + 1, seat), at])
        time.sleep(0.45)
        wait_landed(self.pages)
        for page in self.pages:
            reading = page.evaluate(READ_JS)
            self.readings.append(reading)
            self.shifts.append(reading["origin"] - at)
            self.milestones.append(milestones(reading, at))

    def rematch(self, browser: Any) -> list[dict[str, float]]:
        """A finished table, its four pages, one click on Play again: each page's milestones in
        the new room, in ms after the click, with when it left the old one."""
        room, tokens = table_of_four(self.url)
        rng = random.Random(len(self.milestones))
        deadline = time.monotonic() + 240
        while room.state().get("result") is None:
            assert time.monotonic() < deadline, "the match did not end"
            room.play_moves(tokens, 10, rng)
        pages = []
        for seat in range(4):  # three people, then a spectator
            context = browser.new_context()
            context.add_init_script(WATCH_JS)
            page = context.new_page()
            page.set_default_timeout(20000)
            url = room.seat_url(tokens[seat], seat) if seat < 3 else f"{self.url}/r/{room.code}"
            page.goto(url)
            pages.append(page)
        pages[0].wait_for_selector("[data-testid=rematch]")
        for page in pages:
            page.wait_for_selector("[data-testid=game-over]")
            while page.evaluate("document.body.dataset.connection") != "open":
                time.sleep(0.05)
        clicked = time.time() * 1000
        pages[0].click("[data-testid=rematch]")
        deadline = time.monotonic() + 20
        landed = []
        for page in pages:
            while True:
                assert time.monotonic() < deadline, "a page never came to the rematch"
                try:
                    moved = page.evaluate(f"location.pathname !== '/r/{room.code}'")
                    done = moved and page.evaluate(LANDED_JS)
                except Exception:  # the page is navigating
                    done = False
                if done:
                    break
                time.sleep(0.02)
            reading = page.evaluate(READ_JS)
            self.rematch_readings.append((reading, reading["origin"] - clicked))
            found = milestones(reading, clicked)
            landed.append({"left": round(reading["origin"] - clicked, 1), **found})
        for page in pages:
            page.context.close()
        return landed

    def stop(self) -> None:
        fleet.stop(self.process)


# Leave for `url` at the instant `at` (ms since the epoch, the browser's clock).
GO_JS = "([url, at]) => setTimeout(() => { location.href = url; }, at - Date.now())"


def summary(per_page: list[dict[str, float]]) -> dict[str, dict[str, float]]:
    found = {}
    for name in per_page[0]:
        values = [p[name] for p in per_page if p[name] == p[name]]  # (NaN: never happened)
        if values:
            found[name] = {"p50": round(statistics.median(values)), "max": round(max(values))}
    return found


def print_milestones(title: str, sites: dict[str, dict[str, dict[str, float]]]) -> None:
    print(f"\n{title}")
    head = "".join(f" {label + ' p50':>14} {label + ' max':>14}" for label in sites)
    print(f"{'milestone (ms after the page was sent)':<40}{head}")
    names = list(next(iter(sites.values())))
    for name in names:
        cells = "".join(
            f" {found[name]['p50']:14.0f} {found[name]['max']:14.0f}"
            if name in found
            else f" {'-':>14} {'-':>14}"
            for found in sites.values()
        )
        print(f"{name:<40}{cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--rounds", type=int, default=5, help="times the pages go to the other table"
    )
    parser.add_argument(
        "--pages", type=int, default=4, help="pages sent at once (the rematch's table)"
    )
    parser.add_argument("--server-requests", type=int, default=100)
    parser.add_argument(
        "--rematch", type=int, default=0, help="rematches timed from the click (each plays a match)"
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="another checkout (e.g. `git archive` of an older commit) measured in turns with "
        "this one, under the same load",
    )
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    workdir = Path(tempfile.mkdtemp(prefix="coven-page-load-"))
    sites = [Site("this", ROOT, workdir)]
    if args.against:
        sites.append(Site("against", args.against.resolve(), workdir))
    report: dict[str, Any] = {"load_before": load_average()}
    try:
        for site in sites:
            room = site.tables[0][0]
            server = server_side(site.url, room.code, args.server_requests)
            print(
                f"{site.label}: GET /r/{{code}} on the server, one at a time: p50 "
                f"{server['p50_ms']:.1f} ms, p99 {server['p99_ms']:.1f} ms "
                f"({args.server_requests} requests)"
            )
            report[f"{site.label}_server_room_page"] = server
        loads = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for site in sites:
                site.open_cold(browser)
                site.open_pages(browser, args.pages)
            for round_ in range(args.rounds):
                # (in turns, each first every other round: both see the same load)
                for site in sites if round_ % 2 == 0 else sites[::-1]:
                    site.all_go(round_)
                loads.append(os.getloadavg()[0])
            rematches: dict[str, list[dict[str, float]]] = {site.label: [] for site in sites}
            for round_ in range(args.rematch):
                for site in sites if round_ % 2 == 0 else sites[::-1]:
                    rematches[site.label] += site.rematch(browser)
                loads.append(os.getloadavg()[0])
            browser.close()
        for site in sites:
            assert site.cold is not None
            reading, kicked = site.cold
            print_resources(
                f"{site.label}: one page, nothing cached (ms after it was asked for):",
                [reading],
                [reading["origin"] - kicked],
            )
            print_resources(
                f"{site.label}: {args.pages} pages that showed a table, sent to another at once, "
                f"{args.rounds} rounds (ms after they were sent; net: how many of them went to "
                "the network, 304s too):",
                site.readings,
                site.shifts,
            )
        colds = {s.label: summary([milestones(*s.cold)]) for s in sites if s.cold}
        print_milestones("One page, nothing cached:", colds)
        together = {s.label: summary(s.milestones) for s in sites}
        print_milestones(
            f"{args.pages} pages at once, {args.rounds} rounds "
            f"({args.rounds * args.pages} page loads each):",
            together,
        )
        report["cold"] = colds
        report["together"] = together
        if args.rematch:
            for site in sites:
                print_resources(
                    f"{site.label}: the rematch's pages in the new room (ms after the click):",
                    [reading for reading, _ in site.rematch_readings],
                    [shift for _, shift in site.rematch_readings],
                )
            found = {label: summary(pages) for label, pages in rematches.items()}
            print_milestones(
                f"Play again, {args.rematch} times (three people and a spectator each; ms after "
                "the click; 'left': the old page left for the new room):",
                found,
            )
            report["rematch"] = found
        report["load_during"] = f"{statistics.mean(loads):.2f}"
        report["load_after"] = load_average()
        print(
            f"\nload average: before {report['load_before']}, during the rounds "
            f"{report['load_during']} (1 min), after {report['load_after']}"
        )
    finally:
        for site in sites:
            site.stop()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
