"""app/gc_tuning.py: survivors frozen out of the collector's full passes, frozen cycles freed
by the occasional whole pass, pauses measured; and a real ``coven serve`` whose memory stays
flat while sockets open and close over and over (issue 24 item 4)."""

from __future__ import annotations

import asyncio
import gc
import os
import subprocess
import sys
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from app import gc_tuning
from app.gc_tuning import GcTuning
from app.observability import metrics
from app.settings import Settings
from tests.support.server import ROOT, free_port, wait_healthy


class Node:
    def __init__(self) -> None:
        self.me: Node = self  # a cycle: only the cyclic collector frees it


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    """Each test starts and ends with nothing of its own frozen (the test process's other
    tests run their collector as usual)."""
    gc.collect()
    yield
    gc.unfreeze()
    gc.collect()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_setting_defaults_on_and_zero_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().gc_freeze_seconds == 3.0
    monkeypatch.setenv("COVEN_GC_FREEZE_SECONDS", "0")
    settings = Settings.from_env()
    assert settings.gc_freeze_seconds == 0
    assert not GcTuning(settings.gc_freeze_seconds).enabled


def test_tick_freezes_survivors_and_collects_young_cycles() -> None:
    tuning = GcTuning(10, clock=Clock())
    survivor = [Node() for _ in range(1000)]
    young = Node()
    dead = weakref.ref(young)
    del young  # garbage before the tick: the tick's collection frees it
    frozen_before = gc.get_freeze_count()
    assert tuning.tick() is False  # no whole pass yet
    assert dead() is None
    assert gc.get_freeze_count() >= frozen_before + len(survivor)
    assert len(gc.get_objects()) < 100  # nothing left for the next full pass to walk
    assert tuning.frozen_since >= len(survivor)


def test_a_frozen_cycle_lives_until_the_whole_pass() -> None:
    clock = Clock()
    tuning = GcTuning(10, clock=clock)
    node = Node()
    gone = weakref.ref(node)
    tuning.tick()  # frozen with the survivors
    del node
    gc.collect()
    tuning.tick()
    assert gone() is not None  # a frozen cycle: no collection sees it
    tuning.full()
    assert gone() is None
    assert tuning.fulls == 1 and tuning.frozen_since == 0 and tuning.last_full == clock.now
    assert gc.get_freeze_count() > 0  # the rest is frozen again
    assert len(gc.get_objects()) < 100


def test_a_whole_pass_comes_when_frozen_objects_grew_and_not_sooner() -> None:
    clock = Clock()
    tuning = GcTuning(10, clock=clock)
    tuning.full()
    kept = tuning.kept
    assert kept > 1000
    grown: list[list[Node]] = []
    # Grown by half the live set, but within FULL_MIN_SECONDS of the last pass: not yet.
    grown.append([Node() for _ in range(int(kept * gc_tuning.FULL_GROWTH) + 1000)])
    clock.now += gc_tuning.FULL_MIN_SECONDS - 1
    assert tuning.tick() is False
    assert tuning.fulls == 1
    clock.now += 2
    assert tuning.tick() is True
    assert tuning.fulls == 2 and tuning.frozen_since == 0
    # Little growth: no pass until FULL_MAX_SECONDS.
    clock.now += gc_tuning.FULL_MIN_SECONDS * 2
    assert tuning.tick() is False
    clock.now += gc_tuning.FULL_MAX_SECONDS
    assert tuning.tick() is True
    assert tuning.fulls == 3
    del grown


def test_pauses_are_measured_and_go_to_the_histogram() -> None:
    registry = metrics.enable().registry
    before = registry.get_sample_value("coven_gc_pause_seconds_count", {"generation": "2"}) or 0
    tuning = GcTuning(0)
    tuning.install()
    try:
        keep = [Node() for _ in range(50_000)]
        gc.collect()
        assert tuning.longest > 0
        tuning.flush()
    finally:
        tuning.uninstall()
    after = registry.get_sample_value("coven_gc_pause_seconds_count", {"generation": "2"})
    assert after is not None and after >= before + 1
    assert tuning._callback not in gc.callbacks
    del keep


async def test_the_loop_freezes_only_when_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gc_tuning, "FLUSH_SECONDS", 0.01)
    on, off = GcTuning(0.02), GcTuning(0)
    thresholds = gc.get_threshold()
    await off.start()
    assert gc.get_threshold() == thresholds  # off: CPython's own
    await on.start()
    assert gc.get_threshold() == (gc_tuning.YOUNG_THRESHOLD, *thresholds[1:])
    try:
        deadline = time.monotonic() + 10
        while on.ticks < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        gc.collect()
        await asyncio.sleep(0.05)
    finally:
        await on.close()
        await off.close()
    assert on.ticks >= 2
    assert gc.get_threshold() == thresholds  # given back at shutdown
    assert off.ticks == 0 and off.longest > 0  # off: no freezing, pauses still measured
    assert on._task is None and on._callback not in gc.callbacks


async def test_two_apps_in_one_process_give_the_threshold_back_once_both_stop() -> None:
    thresholds = gc.get_threshold()
    first, second = GcTuning(10), GcTuning(10)
    await first.start()
    await second.start()
    await first.close()
    assert gc.get_threshold()[0] == gc_tuning.YOUNG_THRESHOLD  # the second still runs
    await second.close()
    assert gc.get_threshold() == thresholds


# ---------------------------------------------------------------- a real server

# ``coven serve`` with the whole pass due as soon as the frozen objects grew (not after
# five minutes), or never (the control): the two differ only in that pass.
SERVE = """
import sys
from app import gc_tuning
gc_tuning.FULL_MIN_SECONDS = {min_seconds}
gc_tuning.FULL_GROWTH = {growth}
from app.cli import main
sys.exit(main(["serve", "--port", "{port}"]))
"""
ROUNDS = 7
SOCKETS = 300


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


async def _spectator(url: str) -> websockets.ClientConnection:
    ws = await websockets.connect(url, compression=None, open_timeout=60)
    assert '"presence"' in str(await asyncio.wait_for(ws.recv(), 60))  # its first message
    return ws


async def _rounds(url: str, pid: int) -> list[int]:
    """RSS after each round of SOCKETS spectator sockets opened (each holding its first
    message: the room's presence) then closed, and a pause for the server's freeze (and its
    whole pass, when due)."""
    ws_url = url.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        created = await http.post(
            "/api/rooms",
            json={"game": "whirling-witchcraft", "name": "Host", "visibility": "private"},
        )
        code = created.json()["room"]["code"]
    rss: list[int] = []
    for _ in range(ROUNDS):
        sockets: list[websockets.ClientConnection] = []
        for _ in range(SOCKETS // 50):
            opened = (_spectator(f"{ws_url}/ws/rooms/{code}") for _ in range(50))
            sockets += await asyncio.gather(*opened)
        await asyncio.sleep(3.5)  # open through a tick: frozen with the survivors
        await asyncio.gather(*(ws.close() for ws in sockets))
        await asyncio.sleep(3.5)  # > COVEN_GC_FREEZE_SECONDS + FLUSH_SECONDS: a tick ran
        rss.append(rss_kib(pid))
    return rss


def _serve(tmp: Path, min_seconds: float, growth: float) -> tuple[list[int], str]:
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("COVEN_")},
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/coven-{port}.db",
        "COVEN_GC_FREEZE_SECONDS": "2",
        "COVEN_SOCKETS_PER_CLIENT": "0",
        "COVEN_DRAIN_SECONDS": "0",
        "COVEN_BOT_PROCESSES": "1",
    }
    code = SERVE.format(min_seconds=min_seconds, growth=growth, port=port)
    err = tmp / f"serve-{port}.err"
    with err.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-c", code], cwd=ROOT, env=env, stdout=stderr, stderr=stderr
        )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_healthy(url, process)
        return asyncio.run(_rounds(url, process.pid)), err.read_text(errors="replace")
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_closed_sockets_cycles_are_freed_in_a_real_server(tmp_path: Path) -> None:
    """The control (no whole pass) keeps every closed socket's cycles: its memory grows
    round after round. With the pass (due here as soon as the frozen objects grew by 5 %),
    the growth after the first rounds is well under that."""
    never = 10.0**9
    kept, _ = _serve(tmp_path, min_seconds=never, growth=never)
    freed, log = _serve(tmp_path, min_seconds=0, growth=0.05)
    # From the third round: the allocator keeps what it was given once (RSS never shrinks),
    # so what counts is whether each round adds more.
    kept_growth = kept[-1] - kept[2]
    freed_growth = freed[-1] - freed[2]
    # Each round of the control leaves its sockets' cycles behind (frozen: 8 KiB a socket
    # when this test was written), memory that only a whole pass gives back.
    assert kept_growth > 3_000, (kept, freed)
    # Both also grow by what is not the collector's (the allocator's own, a few hundred KiB a
    # round): a clean-clone run measured 3,260 against 8,812 KiB, a ratio of 0.37.
    assert freed_growth < kept_growth * 0.6, (kept, freed, log[-2000:])
