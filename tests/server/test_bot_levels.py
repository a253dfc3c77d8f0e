"""Bot levels chosen by the host per seat; a bot decides from its seat's view (never the
state); search levels think in a process pool, so a thinking bot never stalls the server."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import time
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest

from app.rooms.thinking import Thinkers
from app.settings import Settings
from engine import registry
from engine.bots import LEVELS, Seen
from engine.protocol import Action, Game
from tests.server.conftest import sqlite_settings
from tests.support.client import Client, open_room
from tests.support.fair_pool import fair_children
from tests.support.server import ThreadServer
from tests.support.turns import TurnsGame


class Spy:
    """Records what it was handed, then plays the first legal action."""

    level = "spy"
    handed: ClassVar[list[tuple[Any, ...]]] = []

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, game: Game, seen: Seen) -> Action:
        Spy.handed.append((game, seen))
        return seen.legal[0]


async def add_bot(host: Client, code: str, **body: object) -> httpx.Response:
    return await host.http.post(f"/api/rooms/{code}/bots", json=body)


async def test_the_host_picks_each_seats_level(sqlite_server: ThreadServer) -> None:
    code, (host,) = await open_room(sqlite_server.url, "whirling-witchcraft", ["Host"])
    for level in ("strong", "greedy", "random"):
        response = await add_bot(host, code, level=level)
        assert response.status_code == 200, response.text
    seats = response.json()["room"]["seats"]
    assert [s["bot"] for s in seats] == [None, "strong", "greedy", "random"]
    unknown = await add_bot(host, code, level="grandmaster")
    assert (unknown.status_code, unknown.json()["error"]["code"]) == (422, "unknown_bot")
    await host.close()


async def test_a_bot_is_handed_its_seats_view_not_the_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Spy.handed = []
    monkeypatch.setitem(LEVELS, "spy", Spy)
    settings = dataclasses.replace(sqlite_settings(tmp_path), bot_processes=0)
    with ThreadServer(settings) as server:
        code, (host, gone) = await open_room(
            server.url, "test-guess", ["Host", "Gone"], options={"rounds": 1}
        )
        await host.http.post(f"/api/rooms/{code}/start")
        # Gone never connected: the host hands her seat to a "spy" bot (the level is kept for
        # the away seat).
        handed = await add_bot(host, code, level="spy", seat=1)
        assert handed.status_code == 200, handed.text
        await host.connect(code)
        await host.at_version(1)
        assert len(Spy.handed) == 1
        game, seen = Spy.handed[0]
        assert isinstance(seen, Seen) and seen.seat == 1
        # Exactly what seat 1's player would have been shown at version 0: her own secret
        # mark, the others hidden; her legal actions; who owes a decision.
        assert seen.view["marks"][0] == "hidden" and seen.view["marks"][1] != "hidden"
        assert seen.legal == [{"type": "pick", "value": v} for v in range(4)]
        assert seen.to_move == frozenset({0, 1})
        assert game.id == "test-guess"
        log = (await host.http.get(f"/api/rooms/{code}/log")).json()
        assert [e["seat"] for e in log["events"] if e["type"] == "picked"] == [1]
        # Gone comes back: her view at version 1 shows the spy's pick as her own.
        back = (await gone.http.get(f"/api/rooms/{code}/state")).json()
        assert back["view"]["picks"][1] == seen.legal[0]["value"]
        assert back["view"]["marks"] == seen.view["marks"]
        await host.close()
        await gone.close()


def test_the_pool_decides_in_another_process_with_a_game_added_at_run_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    registry.games()
    monkeypatch.setitem(registry._GAMES, TurnsGame.id, TurnsGame())
    game = TurnsGame()
    state = game.setup(2, 1)
    seen = Seen(0, game.view(state, 0), game.legal_actions(state, 0), game.to_move(state))
    thinkers = Thinkers(processes=1)
    try:
        # "greedy" thinks in the pool; the child, started fresh, finds the test game by its
        # module (tests.support.turns) since only the built-in games are registered there.
        action = asyncio.run(thinkers.decide(game, "greedy", 7, seen))
        assert action in seen.legal
        assert thinkers._pool is not None
        pids = [p.pid for p in thinkers._pool._processes.values()]  # type: ignore[attr-defined]
        assert pids and all(pid != os.getpid() for pid in pids)
        if hasattr(os, "SCHED_IDLE"):
            # The pool's processes give way to everything else on the machine.
            assert all(os.sched_getscheduler(pid) == os.SCHED_IDLE for pid in pids)
    finally:
        thinkers.close()


async def probe_times(url: str, seconds: float) -> list[float]:
    """Round trips of /healthz, one after the other, for ``seconds``, in order."""
    times = []
    # Generous: with thinking on the loop (the contrast test) one request waits for several
    # whole decisions.
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t0 = time.monotonic()
            assert (await http.get("/healthz")).status_code == 200
            times.append(time.monotonic() - t0)
            await asyncio.sleep(0.02)
    return sorted(times)


async def strong_table(
    settings: Settings, strong_seats: int, until_wait: float | None = None
) -> list[float]:
    """/healthz round trips while bots play; with ``until_wait``, probing goes on (up to three
    windows) until one request waited that long: a strong seat has stretches of forced moves
    it decides at once, and on a loaded machine a first window can fall in one."""
    with ThreadServer(settings) as server:
        code, (host,) = await open_room(server.url, "whirling-witchcraft", ["Host"])
        for _ in range(strong_seats):
            await add_bot(host, code, level="strong")
        await host.http.post(f"/api/rooms/{code}/start")
        # Host gone: a random bot plays for her.
        await add_bot(host, code, level="random", seat=0)
        await host.connect(code)
        times = await probe_times(server.url, 4.0)
        for _ in range(2):
            if until_wait is None or times[-1] >= until_wait:
                break
            times = sorted(times + await probe_times(server.url, 4.0))
        assert host.state is not None and host.state["version"] >= 1  # the bots did play
        await host.close()
        return times


# A long budget, so that a decision on the event loop stands out from a busy machine's noise.
BUDGET_MS = 1200


async def test_a_thinking_bot_does_not_stall_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pool at the test's own priority: at SCHED_IDLE, on a machine a test suite keeps
    # busy, it may not start within the test, and nothing would be shown. Competing for the
    # cores on equal terms is the harder case for the event loop anyway.
    monkeypatch.setattr(Thinkers, "_lower_new_children", fair_children)
    base = sqlite_settings(tmp_path, bot_delay=0.0)
    pooled = dataclasses.replace(base, bot_processes=1, bot_budget_ms=BUDGET_MS)
    times = await strong_table(pooled, strong_seats=3)
    median = times[len(times) // 2]
    assert median < 0.1, f"requests took {median:.3f}s (median) while strong bots thought"
    assert len(times) > 20  # a request every few tens of ms, not one per decision
    stalled = sum(t for t in times if t > 0.25)
    assert stalled < 1.0, f"requests waited {stalled:.3f}s in all while bots thought in the pool"


async def test_inline_thinking_would_stall_it(tmp_path: Path) -> None:
    """The contrast that makes the test above mean something: the same bots deciding on the
    event loop (COVEN_BOT_PROCESSES=0) hold requests up for their whole budget."""
    base = sqlite_settings(tmp_path, bot_delay=0.0)
    inline = dataclasses.replace(base, bot_processes=0, bot_budget_ms=BUDGET_MS)
    times = await strong_table(inline, strong_seats=1, until_wait=BUDGET_MS / 1000 * 0.8)
    assert times[-1] >= BUDGET_MS / 1000 * 0.8, f"the longest wait was only {times[-1]:.3f}s"
    stalled = sum(t for t in times if t > 0.25)
    assert stalled >= 1.0, f"requests waited only {stalled:.3f}s in all behind inline thinking"


async def test_an_abandoned_bot_table_costs_no_reload_per_sweep(tmp_path: Path) -> None:
    """The sweep looks at every room with bots every ``sweep_seconds``; a room whose match and
    away seats have not changed is not reloaded (only the sweep's one query row)."""
    with ThreadServer(sqlite_settings(tmp_path, sweep_seconds=0.05)) as server:
        code, (host,) = await open_room(server.url, "test-guess", ["Host"], options={"rounds": 1})
        await add_bot(host, code, level="random")
        await host.http.post(f"/api/rooms/{code}/start")
        # The bot picks; then the match waits for the host, who never comes back.
        await host.connect(code)
        await host.at_version(1)
        await host.close()
        service = server.server.config.app.state.coven.service  # type: ignore[attr-defined]
        loads: list[int] = []
        original = service.repo.match_head

        async def counted(room_id: int) -> Any:
            loads.append(room_id)
            return await original(room_id)

        await asyncio.sleep(0.3)  # the sweeps that saw the bot's move are done
        service.repo.match_head = counted
        try:
            await asyncio.sleep(1.0)  # twenty sweeps
        finally:
            service.repo.match_head = original
        assert loads == []
