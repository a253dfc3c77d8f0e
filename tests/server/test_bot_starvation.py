"""A bot whose search is starved of CPU still answers on time (issue 22 item 5; docs/DESIGN.md
"No side channels").

In production the search pool runs at ``SCHED_IDLE``: people's moves first. On a saturated
machine it gets no core for seconds, and a search that comes back after its answer's moment
would tell the table that its bot had something to think about (a forced answer costs the pool
nothing). Here the machine is saturated for real — one busy process per core at the test's own
priority — while rooms of ``strong`` bots play on a real server with the production pool: the
seats whose search is not back answer on time with a random choice, and the runner counts them;
no answer is late by more than the event loop's own jitter.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.rooms import thinking
from app.rooms.bots import BotRunner
from app.rooms.pacing import Overruns
from tests.server.conftest import sqlite_settings
from tests.support.client import Client, open_room
from tests.support.fair_pool import fair_children
from tests.support.server import ThreadServer

ROOMS = 4
WARM_SECONDS = 4.0  # the pool starts (spawned processes import the engine) before the burn
BURN_SECONDS = 6.0
BURN = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass\n"


async def test_a_starved_search_gives_way_to_an_on_time_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pool starts at the test's priority (at SCHED_IDLE on a busy machine it may not start
    # at all: a cold pool is waited for), then goes back to production's SCHED_IDLE.
    production = thinking.Thinkers._lower_new_children
    monkeypatch.setattr(thinking.Thinkers, "_lower_new_children", fair_children)
    settings = dataclasses.replace(
        sqlite_settings(tmp_path, bot_delay=0.05, sweep_seconds=0.2),
        bot_processes=1,
        bot_budget_ms=400,
    )
    with ThreadServer(settings) as server:
        runner: BotRunner = server.server.config.app.state.coven.bots  # type: ignore[attr-defined]
        watchers = []
        for _ in range(ROOMS):
            code, (host,) = await open_room(server.url, "witchs-brew", ["Host"])
            for _ in range(2):
                response = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "strong"})
                assert response.status_code == 200, response.text
            await host.http.post(f"/api/rooms/{code}/start")
            response = await host.http.post(
                f"/api/rooms/{code}/bots", json={"level": "random", "seat": 0}
            )
            assert response.status_code == 200, response.text
            watcher = Client(server.url, host.token, 0)
            await watcher.connect(code)
            watchers.append(watcher)
            await host.http.aclose()
        await asyncio.sleep(WARM_SECONDS)
        assert runner.thinkers.warm("strong"), "the search pool never answered"
        monkeypatch.setattr(thinking.Thinkers, "_lower_new_children", production)
        for pid in list(runner.thinkers._search._processes or {}):  # type: ignore[union-attr]
            thinking.lowest_priority(pid)
        runner.overruns = Overruns()
        burners = [
            subprocess.Popen([sys.executable, "-c", BURN.format(seconds=BURN_SECONDS)])
            for _ in range(os.cpu_count() or 2)
        ]
        try:
            await asyncio.sleep(BURN_SECONDS)
        finally:
            for burner in burners:
                burner.kill()
                burner.wait()
        overruns = runner.overruns
        versions = [w.state["version"] if w.state else 0 for w in watchers]
        for watcher in watchers:
            await watcher.close()
    report = (overruns.answers, overruns.fallbacks, overruns.late, overruns.worst_seconds)
    print("starved pool: answers, fallbacks, late, worst", report, versions)
    assert overruns.answers > 20, report  # the tables went on playing
    assert overruns.fallbacks > 0, report  # the burn did starve searches
    # Late only by the event loop's wake-up under the burn, never by a starved search: waiting
    # for the searches, the worst answer came 4.1 s late. The wake-up measured 59 ms alone and
    # 0.36 s in a CI run (two burners and the other test worker on two cores), so the line is
    # drawn at a second: well under a starved search, well over the loop's jitter.
    assert overruns.worst_seconds < 1.0, report
