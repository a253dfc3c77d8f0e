"""What pacing costs (issue 22 item 5): tables of bots play on a real server with the room
settings given (default: the production ones, ``bot_delay`` 0.3 s, a 500 ms budget); the
script measures each bot answer's time from the moment it was owed to its state message at a
watching socket (after a warm-up: the pools start on the first decisions), the runner's
overruns (answers that came after their due moment, and by how
much), and ``/healthz`` round trips meanwhile (the event loop is never blocked by a padded
wait: it sleeps on the loop, and the search runs in the pool).

    python benchmarks/bot_pacing.py --game witchs-brew --tables 4 --seconds 30
    python benchmarks/bot_pacing.py --no-pace   # as bots answered before, for the contrast
    python benchmarks/bot_pacing.py --fair-pool # the pool not SCHED_IDLE (a busy machine)

The added latency of an answer is its level's answer time (``app/rooms/pacing.py``) less what
it took before: for a forced answer the whole budget share, for a search about the slack.
Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rooms.pacing import Overruns
from app.settings import Settings
from tests.support.client import Client, open_room
from tests.support.fair_pool import fair_pool
from tests.support.server import ThreadServer


def quantiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    xs = sorted(values)
    return {
        "n": len(xs),
        "p50": round(xs[len(xs) // 2], 4),
        "p99": round(xs[min(len(xs) - 1, int(len(xs) * 0.99))], 4),
        "max": round(xs[-1], 4),
    }


async def probe(url: str, seconds: float) -> list[float]:
    times = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t0 = time.monotonic()
            await http.get("/healthz")
            times.append(time.monotonic() - t0)
            await asyncio.sleep(0.02)
    return times


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp())
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp / 'coven.db'}",
        bot_delay=args.delay,
        bot_budget_ms=args.budget_ms,
        bot_pace=not args.no_pace,
        sweep_seconds=0.5,
    )
    settings = dataclasses.replace(settings, rooms_burst=1000, rooms_per_minute=1000.0)
    gaps: list[float] = []
    with ThreadServer(settings) as server:
        runner = server.server.config.app.state.coven.bots  # type: ignore[attr-defined]
        watchers = []
        for _ in range(args.tables):
            code, (host,) = await open_room(server.url, args.game, ["Host"])
            for level in ("greedy", "strong"):
                await host.http.post(f"/api/rooms/{code}/bots", json={"level": level})
            await host.http.post(f"/api/rooms/{code}/start")
            await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random", "seat": 0})
            watcher = Client(server.url, host.token, 0)
            await watcher.connect(code)
            watchers.append(watcher)
            await host.http.aclose()
        # Warm-up: the pools start on the first decisions (spawned processes importing the
        # engine: seconds on a busy machine), which every first answer waits for.
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not all(
            w.state is not None and w.state["version"] >= 6 for w in watchers
        ):
            await asyncio.sleep(0.1)
        runner.overruns = Overruns()
        seen: dict[int, tuple[int, float]] = {}

        async def watch() -> None:
            while True:
                for i, w in enumerate(watchers):
                    if w.state is not None:
                        v = w.state["version"]
                        last = seen.get(i)
                        if last is None or last[0] != v:
                            if last is not None and v == last[0] + 1:
                                gaps.append(time.monotonic() - last[1])
                            seen[i] = (v, time.monotonic())
                await asyncio.sleep(0.002)

        watching = asyncio.create_task(watch())
        health = await probe(server.url, args.seconds)
        watching.cancel()
        overruns = runner.overruns
        for w in watchers:
            await w.close()
    return {
        "game": args.game,
        "tables": args.tables,
        "paced": not args.no_pace,
        "fair_pool": args.fair_pool,
        "delay": args.delay,
        "budget_ms": args.budget_ms,
        "answer_gaps_s": quantiles(gaps),
        "answers": overruns.answers,
        "late": overruns.late,
        "fallbacks": overruns.fallbacks,
        "late_share": round(overruns.late / max(1, overruns.answers), 4),
        "late_total_s": round(overruns.late_seconds, 3),
        "late_worst_s": round(overruns.worst_seconds, 3),
        "late_recent_p50_s": quantiles(overruns.recent).get("p50"),
        "healthz_s": quantiles(health),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="witchs-brew")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--delay", type=float, default=0.3)
    parser.add_argument("--budget-ms", type=int, default=500)
    parser.add_argument("--no-pace", action="store_true")
    parser.add_argument(
        "--fair-pool",
        action="store_true",
        help="the pool at normal priority, not SCHED_IDLE (a machine other work keeps busy)",
    )
    args = parser.parse_args()
    if args.fair_pool:
        fair_pool()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
